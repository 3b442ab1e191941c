// springkit-editor — the sections of the tools panel (the fixed left panel) but
// Physics (physics_panel.hpp): Oliveira's buttons to loop through the nodes, add
// and delete springs and anchor nodes, the run-time drives, the ropes' tubes and
// what the viewport shows. EditorApp puts them in order inside the panel.
#pragma once

#include <string>

#include "editing/document.hpp"
#include "editing/live_simulation.hpp"
#include "editing/selection.hpp"
#include "render/view_options.hpp"
#include "ui/actions.hpp"

namespace springkit::editor {

/// The document's name, Play/Pause, Step, Reset and the simulation's clock.
Action simulation_controls(const Document& doc, const LiveSimulation& live, bool playing);

/// The "Selection" section: the node loop, the selection's buttons, and the k of
/// the selected springs (an edit of `doc`).
Action selection_section(Document& doc, const Selection& selection, const LiveSimulation& live);

/// The "Drives" section, when the model has driven anchors: the circle drives'
/// radius and speed, changed in the running simulation only (Reset goes back to
/// the model's values).
void drives_section(LiveSimulation& live);

/// The "Ropes" section, when the model has tubes: how each rope is drawn (edits
/// of `doc`).
void ropes_section(Document& doc);

/// The "View" section: what the viewport shows; `texture_error` is the renderer's.
void view_section(ViewOptions& view, const std::string& texture_error);

}  // namespace springkit::editor
