// springkit-editor — the spring legend over the viewport's top left corner
// (Houdini Vellum's constraint view): a checkbox, colour and count per class of
// spring (edge, shear, bend, volume, rope, added, other), colour by class or by
// strain, isolate the selection, x-ray.
#pragma once

#include <array>
#include <cstddef>

#include "render/view_options.hpp"
#include "view/camera.hpp"

namespace springkit::editor {

/// The legend's rows, top to bottom; each is a checkbox.
enum class LegendRow : std::uint8_t {
    colour_by_class,
    first_class,  ///< then one row per SpringClass, in its order
    isolate_selection = first_class + kSpringClasses,
    xray,
    count,
};

/// The centre of a row's checkbox, window pixels: the legend sits 10 px inside the
/// top left corner of `viewport`, the part of the scene no panel covers
/// (uncovered_scene: the scene itself unless the panels float over it), and Dear ImGui's default style makes each row a
/// 19 px frame (13 px font, 3 px padding above and below) plus 4 px of spacing,
/// inside 8 px of window padding. Tests click here.
inline ScreenPoint legend_checkbox(const Viewport& viewport, std::size_t row) {
    constexpr float kMargin = 10.0f, kPadding = 8.0f, kFrame = 19.0f, kSpacing = 4.0f;
    return {viewport.x + kMargin + kPadding + 0.5f * kFrame,
            viewport.y + kMargin + kPadding + static_cast<float>(row) * (kFrame + kSpacing) +
                0.5f * kFrame,
            0.0f};
}
inline ScreenPoint legend_checkbox(const Viewport& viewport, LegendRow row) {
    return legend_checkbox(viewport, static_cast<std::size_t>(row));
}
inline ScreenPoint legend_checkbox(const Viewport& viewport, SpringClass c) {
    return legend_checkbox(
        viewport, static_cast<std::size_t>(LegendRow::first_class) + static_cast<std::size_t>(c));
}

/// Draws the legend in the top left corner of `viewport` (the uncovered part of
/// the scene) and changes `view` as its checkboxes are clicked. `counts`:
/// the model's springs per class (count_spring_classes).
void spring_legend(const Viewport& viewport, ViewOptions& view,
                   const std::array<std::size_t, kSpringClasses>& counts);

}  // namespace springkit::editor
