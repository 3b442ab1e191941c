// springkit — colliders in their own frame: distances and sweeps (private).
#pragma once

#include <cstdint>

#include "springkit/colliders.hpp"

namespace springkit::detail {

/// The signed distance (m) from the local point p to the collider's surface
/// and the local unit normal there. A triangle mesh is searched only within
/// `limit` of p: beyond it the result is a distance > limit. `mesh_hint`: the
/// triangle mesh's search hint for this point (TriangleMesh::closest), or null.
SurfacePoint local_distance(const Collider& c, Vec3 p, float limit, std::uint32_t* mesh_hint = nullptr);

/// Whether the local segment a -> b comes within `radius` of the collider's
/// surface on the way (a being farther than radius): true and the parameter
/// t in [0, 1] of the first such point. Convex shapes by sphere tracing their
/// signed distance (Hart 1996; exact or a lower bound, so no step passes the
/// surface), the triangle mesh by the segment crossing a triangle.
bool local_sweep(const Collider& c, Vec3 a, Vec3 b, float radius, float& t);

/// A sphere around the collider in its own frame (planes have none: infinite).
Vec3 bounding_centre(const Collider& c);
float bounding_radius(const Collider& c);

/// Where p (world) lies in the frame `pose`, and a local direction in the world.
inline Vec3 to_local(const Transform& pose, Vec3 p) { return rotate(conjugate(pose.rotation), p - pose.position); }
inline Vec3 to_world_direction(const Transform& pose, Vec3 d) { return rotate(pose.rotation, d); }

}  // namespace springkit::detail
