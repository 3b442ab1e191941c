// springkit — the scene registry: every scene springkit can build, under one name
// each. `make_sample`, `springkit new`, the editor's menus and samples/ all look
// scenes up here, so a scene's name, source text, description, builder and
// settling time are written once.
//
//   for (const springkit::Scene& s : springkit::scenes()) save_model(springkit::build_scene(s), ...);
//   springkit::Model rope = springkit::build_scene(springkit::find_scene("tunca-rope"));
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "springkit/builders.hpp"
#include "springkit/model.hpp"
#include "springkit/parameters.hpp"

namespace springkit {

/// The options of a scene's template (`springkit new NAME --resolution ...`). Each
/// one left at its default keeps the template's own value.
struct TemplateOptions {
    int resolution = 0;   ///< 0: the template's own count (what it counts: SceneTemplate::resolution)
    float size = 0.0f;    ///< m; 0: the template's own size (what it sets: SceneTemplate::size)
    /// Physics parameters set on top of the template's own (parameters.hpp); they
    /// apply to every scene, before it settles.
    ParameterOverrides parameters{};
    ClothAnchors anchors = ClothAnchors::top_corners;
    float slack = 0.5f;   ///< m of rope beyond the distance between its ends
};

/// Bits of SceneTemplate::reads: which TemplateOptions a template uses.
namespace template_option {
inline constexpr unsigned resolution = 1u << 0;
inline constexpr unsigned size = 1u << 1;
inline constexpr unsigned anchors = 1u << 2;
inline constexpr unsigned slack = 1u << 3;
}  // namespace template_option

/// A parametric form of a scene: the model built from TemplateOptions. Its
/// defaults are the template's, which may differ from the catalogued scene (the
/// cloth template hangs from two corners; the cloth sample is held at its centre).
struct SceneTemplate {
    Model (*build)(const TemplateOptions&);  ///< before settling (Scene::settle_seconds)
    unsigned reads;          ///< template_option bits; options outside them are ignored
    const char* resolution;  ///< what --resolution counts, e.g. "nodes per side"
    const char* size;        ///< what --size sets, e.g. "width and depth"
};

/// One scene of the registry.
struct Scene {
    const char* name;    ///< the one name: make_sample, `springkit new`, samples/models/<name>.json
    const char* source;  ///< the source text it comes from
    const char* shows;   ///< what it shows, and the constants we chose where the text gives none
    Model (*build)();    ///< the scene as catalogued, before settling
    /// Seconds of presimulate() before the scene is shown, because its source text
    /// settles it first (the Source engine's ropes); 0 for none.
    float settle_seconds = 0.0f;
    /// The options `springkit new` takes for it; nullptr: none, built as catalogued.
    const SceneTemplate* parametric = nullptr;
    /// A second name that finds it too (`springkit new rope`); nullptr for none.
    const char* alias = nullptr;
};

/// Every scene, in the order the samples README, the editor and `springkit new`
/// list them.
std::span<const Scene> scenes();

/// The scenes with a template, in registry order (the editor's File > New).
std::span<const Scene* const> template_scenes();

/// The scene named `name`, or whose alias `name` is; nullptr if there is none.
const Scene* find_scene_or_null(std::string_view name);

/// The scene named `name` (or its alias). Throws springkit::Error listing the
/// known names (scene_names()) for an unknown one.
const Scene& find_scene(std::string_view name);

/// "string, cloth, ..., tunca-rope (alias rope), ...": the names in registry order,
/// for error messages and help.
std::string scene_names();

/// Builds the scene as catalogued and settles it: the sample.
Model build_scene(const Scene& scene);

/// Builds the scene from its template with `options` and settles it; a scene
/// without a template is built as catalogued, with options.parameters applied
/// (its template options do not apply). Throws Error when a parameter cannot
/// apply (a ground constant for a scene without a ground).
Model build_scene(const Scene& scene, const TemplateOptions& options);

}  // namespace springkit
