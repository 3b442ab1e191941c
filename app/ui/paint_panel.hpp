// springkit-editor — painting: the "Paint" section of the tools panel (the
// brush's target, radius, strength, falloff and value) and the viewport overlay
// that colours the painted values while paint mode is on. The strokes
// themselves are EditorApp's (editor_paint.cpp), over editing/paint.hpp.
#pragma once

#include <span>

#include "editing/paint.hpp"
#include "springkit/model.hpp"
#include "view/camera.hpp"

namespace springkit::editor {

/// Paint mode: on while painting (B), its brush, and the stroke going on.
struct PaintMode {
    bool active = false;
    BrushSettings brush;
    bool stroking = false;  ///< the left button is held since a press in the viewport
};

/// The "Paint" section: turns paint mode on and off and sets the brush.
void paint_section(PaintMode& paint, const Model& model);

/// Colours what the brush paints over the viewport: anchors (pinned orange,
/// free grey), node masses or the springs' stiffness scales from blue (lower
/// than the model's value) through white to red (higher; a factor of 10 either
/// way is full colour), and the brush's circle at the cursor (x, y).
void paint_overlay(const Model& model, std::span<const Vec3> positions, const Mat4& view_projection,
                   const Viewport& viewport, const BrushSettings& brush, float x, float y);

}  // namespace springkit::editor
