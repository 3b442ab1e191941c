// springkit-editor — what is drawn over the viewport itself: the strain legend
// and the help overlay (F1).
#pragma once

#include <cstdint>
#include <span>

#include "view/camera.hpp"

namespace springkit::editor {

/// The springs' colour scale in the bottom left corner of `area`, the part of
/// the scene no panel covers (uncovered_scene): blue (compressed by
/// `strain_full` or more) through the neutral rest colour to red (stretched by
/// as much), labelled in percent; narrower where the area is (strain_legend_bar),
/// left out where it has no room.
void strain_legend(const Viewport& area, float strain_full);

/// The selected springs again, 3 px wide over the scene (OpenGL's core profile
/// draws its lines 1 px wide): the spring just added with F, or clicked, reads at
/// a glance.
void selected_springs_overlay(std::span<const Spring> springs, std::span<const std::uint32_t> selected,
                              std::span<const Vec3> positions, const Mat4& view_projection,
                              const Viewport& viewport);

/// One line of the help: keys or mouse, and what they do.
struct Shortcut {
    const char* keys;
    const char* does;
};
/// Every shortcut of the editor, keys and mouse, in the order the help lists them.
std::span<const Shortcut> shortcuts();

/// The help window (F1, Help > Shortcuts): every shortcut. Closes with its close
/// button, F1 again or Escape (the editor's keys), setting `open` to false.
void help_window(bool& open);

}  // namespace springkit::editor
