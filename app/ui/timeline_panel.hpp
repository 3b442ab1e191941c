// springkit-editor — the timeline (in the insight panel): a slider over the
// recorded frames to scrub the run back and forth, and plots of the kinetic
// energy and of the selection's largest strain over the recorded frames.
#pragma once

#include <cstdint>
#include <optional>

#include "editing/live_simulation.hpp"
#include "editing/run_recording.hpp"
#include "editing/selection.hpp"

namespace springkit::editor {

/// What the plots keep between frames.
struct TimelineState {
    StrainHistory strain;
    std::vector<std::uint32_t> springs;  ///< springs_of_selection() of the last selection seen
    std::vector<std::uint32_t> seen_nodes, seen_springs;  ///< that selection
};

/// Draws the timeline inside the current window; returns the frame to show when
/// the slider moved (the editor pauses and calls LiveSimulation::show_frame).
std::optional<std::uint64_t> timeline_section(const LiveSimulation& live,
                                              const Selection& selection, TimelineState& state);

}  // namespace springkit::editor
