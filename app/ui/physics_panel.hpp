// springkit-editor — the Physics section of the tools panel: one widget per row of
// the parameter table (parameter_widgets.hpp), editing the document's parameters.
#pragma once

#include "editing/document.hpp"
#include "ui/parameter_widgets.hpp"

namespace springkit::editor {

/// Draws the widget of one row for a value of it (the field of the row's type)
/// and returns true when it changed the value: the one drawing of a row, which
/// the Physics section and the import dialog's overrides share.
bool parameter_input(const ParameterWidget& widget, ParameterValue& value);

/// The same for the row's field of `params`. Nothing is drawn for a ground row
/// while `params` has no ground.
bool parameter_input(const ParameterWidget& widget, Parameters& params);

/// The "Physics" collapsing section: the main rows, the "ground" checkbox with
/// the ground rows under it, and the wind and gust rows in a closed group. Each
/// change is an edit of `doc` (one undo entry per drag) that the running
/// simulation takes at once.
void physics_section(Document& doc);

}  // namespace springkit::editor
