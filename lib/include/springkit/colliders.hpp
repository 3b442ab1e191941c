// springkit — colliders: the world's shapes a soft body touches.
//
// A ColliderSet holds shapes (infinite plane, sphere, capsule, oriented box,
// convex hull, static triangle mesh), each with a pose, a friction and a
// restitution. A Simulation collides with the set given to set_colliders();
// one set may belong to one instance or be a shared world many instances use
// (hold it by std::shared_ptr; stepping only reads it, so instances on several
// threads may step against one set at once while nothing changes it).
//
// Kinematic colliders: the game moves a collider each frame with move_to(),
// giving the pose it reaches at the end of the coming step and how long that
// step is; each substep sees the collider where the motion puts it then
// (position linear, rotation at constant angular velocity) and contacts use the
// collider's velocity there, so a moving paddle throws a jelly.
//
// docs/GAME_API.md ("Colliders") explains contacts, the reaction on a game's
// rigid body and the speed bound.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "springkit/transform.hpp"
#include "springkit/vec3.hpp"

namespace springkit {

enum class ColliderShape : std::uint8_t {
    plane,          ///< the half-space below the plane y = 0 of the collider's frame (normal +y)
    sphere,         ///< radius around the frame's origin
    capsule,        ///< radius around the segment from -half_height to +half_height along y
    box,            ///< half_extents along x, y and z
    convex_hull,    ///< the convex hull of points (at most kMaxHullPoints)
    triangle_mesh,  ///< a static two-sided surface of triangles with a bounding volume hierarchy
};

/// The name files and messages use ("plane", "sphere", ...).
const char* collider_shape_name(ColliderShape shape);

/// Points a convex hull is built from, at most: the hull's planes are found by
/// testing every triple of points (O(n^4) when the collider is made).
inline constexpr std::size_t kMaxHullPoints = 64;

/// A triangle mesh with its bounding volume hierarchy (an AABB tree over the
/// triangles, split at the median of the longest axis). Immutable once built;
/// several colliders and sets may share one.
class TriangleMesh;

/// Builds the hierarchy. Throws springkit::Error for an empty mesh, a
/// non-finite vertex or an index out of range, naming the triangle.
std::shared_ptr<const TriangleMesh> make_triangle_mesh(std::vector<Vec3> vertices,
                                                       std::vector<std::array<std::uint32_t, 3>> triangles);
std::size_t triangle_count(const TriangleMesh& mesh);
/// The mesh's vertices and triangles as it was built from them (for drawing
/// it, or writing it out).
std::span<const Vec3> mesh_vertices(const TriangleMesh& mesh);
std::span<const std::array<std::uint32_t, 3>> mesh_triangles(const TriangleMesh& mesh);

/// What one collider is: its shape's dimensions in its own frame, its pose and
/// its surface. Make it with the functions below, which check the dimensions.
struct Collider {
    ColliderShape shape = ColliderShape::plane;
    std::string name;           ///< what errors and contacts name; may be empty
    float radius = 0.0f;        ///< m, sphere and capsule
    float half_height = 0.0f;   ///< m, capsule: half the length of its segment
    Vec3 half_extents{};        ///< m, box
    std::vector<Vec3> points;   ///< convex hull: the points it was built from
    /// convex hull: its face planes (unit normal n, offset d: points x with
    /// n . x <= d are inside), derived from `points`
    std::vector<std::array<float, 4>> planes;
    std::shared_ptr<const TriangleMesh> mesh;  ///< triangle mesh
    /// triangle mesh: the mesh file a scene file named for it ("file"), as read
    /// (resolved against the scene file's folder); empty when its triangles are
    /// inline. A scene written again names the file instead of the triangles.
    std::filesystem::path mesh_file;
    Transform pose{};           ///< where the collider stands now
    /// Coulomb friction (Bridson et al. 2002): a sliding contact keeps the
    /// tangential velocity it has unless the normal impulse could stop it
    /// (static_friction), else loses dynamic_friction times the normal velocity
    /// change. Restitution: the share of the normal approach speed the node
    /// leaves with.
    float static_friction = 0.5f;
    float dynamic_friction = 0.4f;
    float restitution = 0.0f;
};

/// Shapes with their local geometry; pose, name and surface keep their
/// defaults (set them on the result). Each throws springkit::Error for a
/// dimension that is not finite or not > 0, an empty or flat hull, a null mesh.
Collider plane_collider(Vec3 normal, float offset);  ///< the half-space normal . x <= offset (normal any length > 0)
Collider sphere_collider(float radius);
Collider capsule_collider(float half_height, float radius);
Collider box_collider(Vec3 half_extents);
Collider convex_hull_collider(std::span<const Vec3> points);
Collider mesh_collider(std::shared_ptr<const TriangleMesh> mesh);

/// What distance() finds: the signed distance from a point to the surface (m,
/// negative inside; a triangle mesh gives the unsigned distance) and the unit
/// direction in which it grows fastest, in world coordinates.
struct SurfacePoint {
    float distance = 0.0f;
    Vec3 normal{0.0f, 1.0f, 0.0f};
};
/// The collider at its current pose, seen from the world point p. For a convex
/// hull outside it the distance is that of the nearest face plane (a lower
/// bound, exact over the faces).
SurfacePoint distance(const Collider& collider, Vec3 p);

/// Index of a collider in its set.
using ColliderId = std::uint32_t;

class ColliderSet {
public:
    /// Adds a collider (after checking it: see check_collider()); returns its index.
    ColliderId add(Collider collider);
    std::size_t size() const { return colliders_.size(); }
    const Collider& operator[](ColliderId id) const;
    /// Places a collider at once (no motion: contacts see it at rest there).
    void set_transform(ColliderId id, const Transform& pose);
    /// Moves a kinematic collider: from where it is now to `to` over the next
    /// `seconds` (the frame time the game steps with next). Throughout that
    /// step it moves at a constant linear and angular velocity (its origin on a
    /// straight line, turning about one axis) and contacts use that velocity.
    /// Call it every frame while the collider moves; set_transform() or a
    /// move_to() to where it is stops it. Throws springkit::Error for a
    /// non-finite pose, a rotation that is not a unit quaternion or seconds <= 0.
    void move_to(ColliderId id, const Transform& to, float seconds);
    /// The pose and velocity (m/s; rad/s) of a collider at `time` s into its
    /// current motion (clamped to the motion's length).
    Transform pose_at(ColliderId id, float time) const;
    Vec3 linear_velocity(ColliderId id) const;
    Vec3 angular_velocity(ColliderId id) const;

    /// The start of a collider's current motion and its length (0: at rest).
    struct Motion {
        Transform from{};
        Vec3 linear_velocity{};
        Vec3 angular_velocity{};
        float seconds = 0.0f;
    };
    const Motion& motion(ColliderId id) const;

private:
    std::vector<Collider> colliders_;
    std::vector<Motion> motions_;
};

/// How many of `points` lie inside each collider of `set` at its current pose
/// (signed distance below 0), one count per collider; a triangle mesh is a
/// two-sided surface with no inside and counts 0. A body that starts inside a
/// collider is pushed out through the nearest surface within its first
/// steps, and a box or a table crushes it flat: tools warn of it before a run
/// (springkit simulate --scene). One distance per point near a collider's
/// bounding sphere, so about nodes x colliders cheap tests.
std::vector<std::size_t> points_inside(const ColliderSet& set, std::span<const Vec3> points);

/// One node touching one collider during a step: the sum over the step's
/// substeps of the impulses the collider gave the node (N s; the collider gets
/// -impulse), where and along which normal it last touched. Simulation::
/// contacts() lists them by node, then collider.
struct Contact {
    std::uint32_t node = 0;
    ColliderId collider = 0;
    Vec3 impulse{};   ///< N s, on the node
    Vec3 point{};     ///< m, the node's position after the last contact
    Vec3 normal{};    ///< unit, out of the collider
};

/// Throws springkit::Error naming the collider ("collider 2 (\"paddle\"):
/// radius must be > 0 (got 0)") when a dimension, the pose or a surface value
/// is not finite or out of range (friction >= 0, restitution in [0, 1],
/// dynamic friction <= static friction).
void check_collider(const Collider& collider, std::size_t index);

}  // namespace springkit
