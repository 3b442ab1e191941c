// springkit-editor — picking nodes and springs with the mouse, in window pixels.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
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

/// What a click lands on.
struct PickHit {
    enum class Kind : std::uint8_t { node, spring };
    Kind kind = Kind::node;
    std::uint32_t index = 0;
    bool operator==(const PickHit&) const = default;
};
/// "node 12", "spring 3" (test messages).
std::string to_string(const PickHit& hit);

/// Pixels: a node counts within kNodePickRadius of its centre, a spring within
/// kSpringPickRadius of its line; a node's drawn dot (kNodeDotRadius) always wins.
inline constexpr float kNodePickRadius = 8.0f;
inline constexpr float kSpringPickRadius = 5.0f;
inline constexpr float kNodeDotRadius = 4.0f;

/// What is under the cursor at (x, y), at any zoom: the node whose dot covers it;
/// otherwise the nearer of the nearest node and the nearest spring line, so that
/// on a dense mesh, where some node is always within a few pixels, a click on a
/// line still picks the spring. nullopt over empty space.
std::optional<PickHit> pick(std::span<const Vec3> positions, std::span<const Spring> springs,
                            const Mat4& view_projection, const Viewport& viewport, float x, float y);

/// Nodes drawn inside the rectangle with corners (x0, y0) and (x1, y1), any order.
std::vector<std::uint32_t> nodes_in_rect(std::span<const Vec3> positions, const Mat4& view_projection,
                                         const Viewport& viewport, float x0, float y0, float x1, float y1);

}  // namespace springkit::editor
