// springkit-editor — the "Colliders" section of the tools panel: the scene's
// colliders (springkit/colliders.hpp) in a list, buttons that add one of each
// kind, and the selected one's pose, size and surface as typed or dragged
// values. Every change is an edit of the document (undo, redo), which the
// running simulation takes at once.
#pragma once

#include <cstddef>
#include <optional>

#include "editing/document.hpp"
#include "editing/selection.hpp"
#include "ui/actions.hpp"

namespace springkit::editor {

/// Draws the section. `selected` is the selected collider (the list and the
/// viewport set it; it is cleared when it no longer exists).
Action colliders_section(Document& doc, std::optional<std::size_t>& selected, const Selection& nodes);

/// The selected collider's fields alone (name, position, rotation, size,
/// friction, restitution), each an edit of collider `index` of `doc`.
void collider_fields(Document& doc, std::size_t index);

}  // namespace springkit::editor
