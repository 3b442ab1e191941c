// springkit-editor — which widget edits each physics parameter, worked out from
// the parameter table (springkit/parameters.hpp): one widget per row, its bounds
// the row's, its format the row's unit. Plain C++ (no ImGui) so tests check the
// plan without a window; physics_panel.cpp draws it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "springkit/parameters.hpp"

namespace springkit::editor {

enum class ParameterControl : std::uint8_t {
    drag_float,   ///< a number
    drag_float3,  ///< a vector
    drag_int,     ///< a count
    combo,        ///< the integrator
};

/// Where the Physics panel shows a row is its topic (row->topic, the table's
/// column): main, the main list; ground, under the "ground" checkbox; wind, the
/// collapsed "Wind and gusts" group (they only matter with air friction);
/// implicit and self_collision, their own tree nodes (so that the panels stay
/// within a laptop's screen); material, the rows node masses and spring k are
/// derived from (derive_material): set when converting, shown read-only.
struct ParameterWidget {
    const ParameterInfo* row = nullptr;
    /// The row's label, less "ground " for the rows under the "ground" checkbox.
    std::string label;
    ParameterControl control = ParameterControl::drag_float;
    /// The clamp: the row's finite bounds (an open bound moved just inside it),
    /// an infinite side as +-FLT_MAX; min == max == 0 when the row has no bound.
    float min = 0.0f, max = 0.0f;
    /// Change per pixel of drag. `relative`: a share of the value, so that a
    /// stiffness of 10 and one of 10^5 both take a few hundred pixels to double.
    float speed = 0.01f;
    bool relative = false;
    float relative_floor = 0.0f;  ///< |value| below this drags as if it were this
    bool logarithmic = false;
    std::string format;           ///< printf format with the unit: "%.4g N/m"
    std::string help;             ///< the row's doc, unit and range, for the help marker

    /// Drag speed at `value`.
    float speed_at(float value) const;
    /// True when `min`/`max` clamp (ImGui's rule: min < max).
    bool clamped() const { return min < max; }
};

/// The widget of one row of the parameter table.
ParameterWidget parameter_widget(const ParameterInfo& row);

/// The widgets of one group, in the table's order. Every row of the table is in
/// exactly one group.
std::vector<ParameterWidget> physics_widgets(ParameterTopic group);

/// The value of `row` in `params`, in the field of the row's type; false (and
/// `out` untouched) for a ground row while `params` has no ground.
bool read_parameter(const ParameterInfo& row, const Parameters& params, ParameterValue& out);
/// Writes `value` into the row's field of `params`; false for a ground row while
/// `params` has no ground.
bool write_parameter(const ParameterInfo& row, const ParameterValue& value, Parameters& params);

/// The integrators as the Combo lists them, in enum order.
std::span<const char* const> integrator_labels();

/// Keeps a gust valid after one of its fields changed: with gusts on (period > 0)
/// the duration must lie in (0, period], so a period dragged up from 0 starts with
/// gusts half of it long and a period dragged below the duration takes it along.
void fit_gust(Parameters& params);

}  // namespace springkit::editor
