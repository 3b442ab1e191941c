// springkit — the triangle mesh collider's bounding volume hierarchy (private).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "springkit/colliders.hpp"

namespace springkit {

/// An AABB tree over the triangles: each node's box holds its triangles; a
/// leaf lists up to kLeafSize of them (tri_order[first .. first + count)), an
/// inner node's children are nodes[i + 1] and nodes[second].
class TriangleMesh {
public:
    struct Node {
        Vec3 lo, hi;
        std::uint32_t first = 0, count = 0;  ///< leaf: its triangles; count 0 = inner node
        std::uint32_t second = 0;            ///< inner node: the right child
    };
    static constexpr std::uint32_t kLeafSize = 4;

    TriangleMesh(std::vector<Vec3> vertices, std::vector<std::array<std::uint32_t, 3>> triangles);

    /// The nearest point of the surface to p if it lies within `limit` (m):
    /// true and its distance, the point and the triangle's unit normal.
    /// `hint`, when given, is a slot (index into tri_order) to try first, for
    /// instance the one this node found last substep, and receives the slot
    /// found. A hint only prunes the search: the answer is the same with any
    /// hint or none (see closest() in triangle_mesh.cpp).
    bool closest(Vec3 p, float limit, float& distance, Vec3& point, Vec3& face_normal,
                 std::uint32_t* hint = nullptr) const;
    /// The first crossing of the segment a -> b with a triangle: its parameter
    /// t in [0, 1] and the triangle's unit normal.
    bool first_crossing(Vec3 a, Vec3 b, float& t, Vec3& face_normal) const;

    std::vector<Vec3> vertices;
    std::vector<std::array<std::uint32_t, 3>> triangles;
    std::vector<Node> nodes;
    std::vector<std::uint32_t> tri_order;
    /// Per slot of tri_order: the triangle's corners and unit normal (zero
    /// for a degenerate triangle), stored in the leaves' order so that a leaf
    /// reads one contiguous run.
    struct Slot {
        Vec3 a, b, c, normal;
    };
    std::vector<Slot> slots;
    float largest_coordinate = 0.0f;  ///< max |x|, |y|, |z| over the vertices (m)

private:
    std::uint32_t build(std::uint32_t first, std::uint32_t count, std::vector<Vec3>& centres);
};

}  // namespace springkit
