// springkit-editor — picking nodes and springs with the mouse, in window pixels.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "springkit/model.hpp"
#include "view/camera.hpp"

namespace springkit::editor {

/// The node drawn nearest to (x, y) within `radius` pixels; the nearer one to the
/// camera when several are equally close.
std::optional<std::uint32_t> pick_node(std::span<const Vec3> positions, const Mat4& view_projection,
                                       const Viewport& viewport, float x, float y, float radius);

/// The spring whose drawn line passes nearest to (x, y) within `radius` pixels.
std::optional<std::uint32_t> pick_spring(std::span<const Spring> springs, std::span<const Vec3> positions,
                                         const Mat4& view_projection, const Viewport& viewport, float x,
                                         float y, float radius);

/// Nodes drawn inside the rectangle with corners (x0, y0) and (x1, y1), any order.
std::vector<std::uint32_t> nodes_in_rect(std::span<const Vec3> positions, const Mat4& view_projection,
                                         const Viewport& viewport, float x0, float y0, float x1, float y1);

}  // namespace springkit::editor
