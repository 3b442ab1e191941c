// springkit-editor — the insight panel (the fixed right panel): the kinetic
// energy plot, the stability estimates, counts, and the simulation's error.
#pragma once

#include <cstdint>
#include <optional>

#include "editing/document.hpp"
#include "editing/live_simulation.hpp"
#include "ui/actions.hpp"

namespace springkit::editor {

/// frequency_stability() of the document's model at `revision`: a power iteration
/// over the springs (tens of milliseconds on a big model), so the insight panel
/// works it out again only once a change is done (no widget held), never every
/// frame of a slider drag. reset() when another document is adopted: its
/// revisions count anew.
struct FrequencyCache {
    std::optional<FrequencyStability> value;
    std::optional<Stability> rule_of_thumb;  ///< stability_estimate() at the same revision
    std::uint64_t revision = 0;
    void reset() {
        value.reset();
        rule_of_thumb.reset();
    }
};

/// Draws the panel; asks for Command::reset_simulation when the simulation
/// exploded and the person wants it back.
Action insight_panel(const Document& doc, const LiveSimulation& live, FrequencyCache& frequency);

}  // namespace springkit::editor
