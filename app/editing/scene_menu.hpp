// springkit-editor — File > New and File > Samples: the scenes of the registry
// (springkit/scenes.hpp) as menu items, and the model each one builds. Plain C++,
// so tests check the menus against the registry without a window.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "springkit/model.hpp"

namespace springkit::editor {

/// A builder starting with this builds the scene as catalogued ("sample/flag");
/// a bare scene name builds its template with the template's defaults.
inline constexpr std::string_view kSampleBuilderPrefix = "sample/";

struct SceneMenuItem {
    std::string label;    ///< the scene's name
    std::string builder;  ///< what build_menu_scene() (EditorApp::new_model) builds
    std::string tooltip;  ///< the source text and what the scene shows
};

/// File > New: the scenes with a template, in registry order.
const std::vector<SceneMenuItem>& new_scene_menu();

/// File > Samples: every scene of the registry, in its order.
const std::vector<SceneMenuItem>& sample_menu();

/// The model of a menu item's builder, named after its scene. A sample keeps no
/// texture: the cloth's lives beside samples/models/cloth.json, not beside the
/// new document. Throws springkit::Error for an unknown scene.
Model build_menu_scene(std::string_view builder);

}  // namespace springkit::editor
