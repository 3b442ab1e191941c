// springkit-editor — what is drawn over the viewport itself: the strain legend
// and the help overlay (F1).
#pragma once

#include <span>

#include "view/camera.hpp"

namespace springkit::editor {

/// The springs' colour scale in the viewport's bottom left corner: blue
/// (compressed by `strain_full` or more) through the neutral rest colour to red
/// (stretched by as much), labelled in percent.
void strain_legend(const Viewport& viewport, float strain_full);

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
