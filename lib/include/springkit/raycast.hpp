// springkit — casting a ray at a model in its current pose: what a game needs to
// shoot, aim or pick a soft body.
//
//     if (auto hit = springkit::raycast(sim.model(), sim.positions(), eye, forward, 100.0f))
//         spawn_sparks(hit->point, hit->normal);
//
// Models with faces are hit on their triangles (either side; Möller and Trumbore,
// "Fast, Minimum Storage Ray/Triangle Intersection", Journal of Graphics Tools
// 2(1), 1997). Models without faces (ropes, strings, point clouds) are hit on
// their nodes, each taken as a sphere.
//
// Cost: a linear scan, O(faces), or O(nodes + springs) for a faceless model
// (the default radius reads every spring). A bounding volume hierarchy refitted
// each frame would make it O(log faces); that is future work.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "springkit/model.hpp"
#include "springkit/vec3.hpp"

namespace springkit {

/// Where a ray met a model. Exactly one of `face` and `node` is set.
struct RayHit {
    float distance = 0.0f;  ///< m from the origin along the (normalized) direction
    Vec3 point{};           ///< origin + distance * unit direction
    std::optional<std::uint32_t> face;  ///< the triangle hit (models with faces)
    std::optional<std::uint32_t> node;  ///< the node's sphere hit (models without faces)
    /// Barycentric coordinates on the face: point = (1 - u - v) p0 + u p1 + v p2,
    /// p0..p2 its corners in Face::node order; 0 for a node.
    float u = 0.0f, v = 0.0f;
    /// Unit normal at the point, turned towards the ray (against the direction):
    /// the face's plane normal, or the sphere's outward normal.
    Vec3 normal{};
};

/// The faceless models' node radius: this share of the mean rest length of the
/// model's springs, so neighbouring spheres along a rope do not overlap and a
/// ray between two nodes of a sparse cloud misses.
inline constexpr float kRaycastNodeRadiusShare = 0.25f;

/// The nearest hit of the ray origin + t * direction, 0 <= t <= max_distance,
/// with the model whose node positions are `positions` (Simulation::positions(),
/// or the model's own rest positions); nullopt when it hits nothing.
///
/// `direction` need not be unit. `max_distance` may be infinite. `node_radius`
/// (m) is used only for models without faces; 0 picks kRaycastNodeRadiusShare x
/// the mean spring rest length (1 cm when there are no springs). A ray starting
/// inside a node's sphere hits where it leaves it.
///
/// Throws springkit::Error for a call that cannot mean anything: positions of a
/// different count than the model's nodes, a zero or non-finite direction, a
/// non-finite origin (a NaN would otherwise miss silently, hiding the bug that
/// made it), a negative or NaN max_distance or node_radius. Faces or nodes at
/// non-finite positions are never hit.
std::optional<RayHit> raycast(const Model& model, std::span<const Vec3> positions, Vec3 origin, Vec3 direction,
                              float max_distance, float node_radius = 0.0f);

}  // namespace springkit
