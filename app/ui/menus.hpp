// springkit-editor — the main menu bar: File, Edit, View, Simulation.
#pragma once

#include "editing/document.hpp"
#include "editing/recent_files.hpp"
#include "render/view_options.hpp"
#include "ui/actions.hpp"

namespace springkit::editor {

/// What the menus need to show their entries' state.
struct MenuState {
    const Document& doc;
    const RecentFiles& recent;
    bool playing;
    bool has_texture;  ///< the View menu's Texture entry is enabled
};

/// Draws the menu bar. The View menu's toggles edit `view`; everything else is
/// returned.
Action menu_bar(const MenuState& state, ViewOptions& view);

}  // namespace springkit::editor
