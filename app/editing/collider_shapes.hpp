// springkit-editor — colliders as the editor sees them: the ones a person adds
// (sized to the model), the triangles that draw them, and the ray that picks
// them. Plain C++ (no OpenGL): tests check the shapes without a window.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "springkit/colliders.hpp"
#include "springkit/model.hpp"

namespace springkit::editor {

/// Triangles in world coordinates with a normal per vertex.
struct ColliderMesh {
    std::vector<Vec3> positions, normals;
    std::vector<std::uint32_t> indices;  ///< three per triangle
};

/// A collider of `shape` sized and placed for a model whose rest box is `box`:
/// a plane at the bottom of the box; a sphere, capsule (lying along x), box or
/// hull (an octahedron) a quarter of the box's longest side across, its top
/// touching the middle of the box's bottom, so a cloth sags onto it. Named
/// after its shape and `index` ("sphere 2"). Not for triangle meshes (those
/// come from a mesh file: mesh_file_collider).
Collider default_collider(ColliderShape shape, const Bounds& box, std::size_t index);

/// A convex hull around the given nodes (at their positions now), its pose at
/// their centroid; of more than kMaxHullPoints nodes, the ones furthest out
/// along 64 spread directions. Throws springkit::Error when they are fewer
/// than 4 or lie in a plane.
Collider hull_around_nodes(std::span<const Vec3> positions, std::span<const std::uint32_t> nodes);

/// A static triangle mesh collider from the faces of `model` (a converted mesh
/// file: every vertex a node), its vertices relative to their centroid and its
/// pose there. Throws springkit::Error when the model has no faces.
Collider mesh_collider_from_model(const Model& model);

/// The triangles that draw `collider` where it stands. A plane, being endless,
/// is drawn as a square `extent` m on a side around the point of the plane
/// nearest `center`.
ColliderMesh collider_mesh(const Collider& collider, Vec3 center, float extent);

/// The distance along the ray (origin, unit direction) to the collider's surface,
/// at most `max_distance`; nullopt when it misses. Found by sphere tracing the
/// collider's distance() (Hart, "Sphere tracing", The Visual Computer 1996):
/// each step moves by the distance to the surface, which never oversteps it.
std::optional<float> ray_collider(const Collider& collider, Vec3 origin, Vec3 direction, float max_distance);

/// A hull's points as text, one "x y z" a line (each float's shortest exact
/// text), and back: what the Colliders panel edits. parse_points also takes
/// commas between the numbers and skips blank lines; it throws springkit::Error
/// naming the line ("line 3: expected x y z, got \"1 2\"").
std::string points_text(std::span<const Vec3> points);
std::vector<Vec3> parse_points(const std::string& text);

/// Euler angles (degrees, applied about x, then y, then z) to a unit quaternion
/// and back: what the Colliders panel types.
Quat quat_from_euler_degrees(Vec3 degrees);
Vec3 euler_degrees(const Quat& rotation);

}  // namespace springkit::editor
