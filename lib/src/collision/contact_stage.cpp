// springkit — the contact stages: nodes against the colliders of the instance's
// set, after the integration of every substep, and the per-step contact report.
//
// Method: position projection with a velocity correction, as in position-based
// dynamics (Muller, Heidelberger, Hennix and Ratcliff, "Position based
// dynamics", 2007: collision constraints generated after the prediction), with
// velocity-level Coulomb friction and restitution (Bridson, Fedkiw and
// Anderson, "Robust treatment of collisions, contact and friction for cloth
// animation", 2002, section 7.2):
//  1. each node is seen in the collider's frame where the collider is at the
//     substep's end (kinematic colliders interpolated across the step);
//  2. a node that came within its radius r of the surface (at the end of the
//     substep, or on the way from x - v dt to x: continuous test, so nothing
//     tunnels) is put back on the surface offset by r: onto the tangent plane
//     at the first touching point on its way, keeping its sliding motion;
//  3. its velocity relative to the collider's (v_c + w x (x - c)) loses its
//     approach: v_n' = -e v_n (restitution e, none below a resting speed of
//     2 |g| dt so that resting contact does not jitter); the tangential part
//     vt stops when |vt| <= mu_s dv_n (static friction), else shrinks by
//     mu_d dv_n (dynamic); the tangential velocity change also moves the node,
//     as the integration would have with the corrected velocity, so that a
//     node held by static friction does not creep;
//  4. the node's momentum change m (v' - v) is the collider's impulse on it,
//     summed per node and collider over the step (Simulation::contacts()).
#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/collider_geometry.hpp"
#include "collision/triangle_mesh.hpp"
#include "simulation/batched_loops.hpp"
#include "simulation/simulation_impl.hpp"
#include "springkit/error.hpp"

namespace springkit {

namespace {

// Offset of a node put back on a triangle mesh with a radius of 0: a node left
// exactly on a two-sided surface could be rounded to its far side.
constexpr float kMeshSkin = 1e-4f;

// flag[i] = 1 for a free node that can come within `reach` of `centre` in a
// substep: |x - centre| - reach <= |v| dt. Compiled for each CPU version.
SPRINGKIT_STAGE_CLONES
void flag_near_nodes(const float* __restrict x, const float* __restrict y, const float* __restrict z,
                     const float* __restrict vx, const float* __restrict vy, const float* __restrict vz,
                     const float* __restrict im, unsigned char* __restrict flag, Vec3 centre, float reach,
                     float dt2, std::uint32_t n) {
    for (std::uint32_t i = 0; i < n; ++i) {
        const float dx = x[i] - centre.x, dy = y[i] - centre.y, dz = z[i] - centre.z;
        const float out = std::sqrt(dx * dx + dy * dy + dz * dz) - reach;
        const float gap = out > 0.0f ? out : 0.0f;
        const float travel2 = (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]) * dt2;
        flag[i] = static_cast<unsigned char>((gap * gap <= travel2) & (im[i] != 0.0f));
    }
}

}  // namespace

void Simulation::Impl::stage_contacts(const StageArgs& args) {
    detail::CollisionState& cs = collision_;
    const float t0 = cs.time_in_frame, t1 = t0 + args.dt;
    cs.time_in_frame = t1;
    if (!cs.colliders || cs.colliders->size() == 0) return;
    const ColliderSet& set = *cs.colliders;
    const auto n = static_cast<std::uint32_t>(node_count());
    if (cs.latest.size() != n) cs.latest.assign(n, detail::CollisionState::kNone);
    const float r = params_.node_radius;
    const float resting_speed = 2.0f * length(params_.gravity) * args.dt;
    const bool verlet = params_.integrator == Integrator::verlet;
    for (ColliderId ci = 0; ci < set.size(); ++ci) {
        const Collider& c = set[ci];
        const ColliderSet::Motion& motion = set.motion(ci);
        const Transform pose0 = set.pose_at(ci, t0), pose1 = set.pose_at(ci, t1);
        const bool moving = t0 < motion.seconds;
        const Vec3 v_lin = moving ? motion.linear_velocity : Vec3{};
        const Vec3 omega = moving ? motion.angular_velocity : Vec3{};
        const bool mesh = c.shape == ColliderShape::triangle_mesh;
        const float reach = mesh ? std::max(r, kMeshSkin) : r;  // how far from the surface a node stays
        // How far the collider's surface moves in the substep, at most.
        const float sweep = c.shape == ColliderShape::plane
                                ? length(v_lin) * args.dt  // turning planes are not bounded: keep them still
                                : (length(v_lin) + length(omega) * detail::bounding_radius(c)) * args.dt;
        gather_candidates(c, pose1, reach + sweep, args.dt);
        std::uint32_t* hints = nullptr;
        if (mesh) {
            if (cs.mesh_hints.size() <= ci) cs.mesh_hints.resize(ci + 1);
            if (cs.mesh_hints[ci].size() != n) cs.mesh_hints[ci].assign(n, detail::CollisionState::kNone);
            hints = cs.mesh_hints[ci].data();
        }
        // Most colliders are not turned: then the frames differ by a shift
        // (rotate() by the identity gives the same bits, only slower).
        const bool turned = !(pose0.rotation == Quat{}) || !(pose1.rotation == Quat{});
        auto local1 = [&](Vec3 w) { return turned ? detail::to_local(pose1, w) : w - pose1.position; };
        auto local0 = [&](Vec3 w) { return turned ? detail::to_local(pose0, w) : w - pose0.position; };
        auto world_direction = [&](Vec3 d) { return turned ? detail::to_world_direction(pose1, d) : d; };
        for (const std::uint32_t i : cs.candidates) {
            const Vec3 x = x_.get(i), v = v_.get(i);
            const Vec3 p1 = local1(x);
            const float travel = length(v) * args.dt + sweep;  // relative to the collider
            // Nothing on the way: the end is farther from the surface than the
            // way is long (distances are 1-Lipschitz).
            const SurfacePoint end = detail::local_distance(c, p1, reach + travel, hints ? hints + i : nullptr);
            if (end.distance - travel > reach) continue;
            const Vec3 p0 = local0(x - v * args.dt);
            Vec3 p;       // where the node goes, local
            Vec3 normal;  // local, out of the surface
            if (mesh) {
                // Two-sided: a node that crossed a triangle on its way (only
                // possible when the way is longer than its end's distance) goes
                // back to the side it came from; else it is kept at reach.
                float entry = 0.0f;
                Vec3 face;
                if (length(p1 - p0) >= end.distance && c.mesh->first_crossing(p0, p1, entry, face)) {
                    const Vec3 touch = p0 + (p1 - p0) * entry;
                    normal = dot(face, p0 - p1) >= 0.0f ? face : -face;
                    p = p1 + normal * (dot(touch - p1, normal) + reach);
                } else if (end.distance < reach) {
                    normal = end.normal;
                    p = p1 + normal * (reach - end.distance);
                } else {
                    continue;
                }
            } else if (end.distance < reach && dot(p1 - p0, end.normal) <= 0.0f) {
                // Ending within reach while moving against the normal (resting,
                // sliding, arriving): put back along the normal.
                normal = end.normal;
                p = p1 + normal * (reach - end.distance);
            } else {
                // It may have passed through: its way is searched when it came
                // from outside and closer (a node leaving a surface it rests on
                // is not pulled back), and it goes onto the tangent plane at the
                // first point within reach, keeping its sliding motion.
                const float start = detail::local_distance(c, p0, reach).distance;
                float entry = 0.0f;
                if (start >= reach && end.distance < start && detail::local_sweep(c, p0, p1, r, entry)) {
                    const Vec3 touch = p0 + (p1 - p0) * entry;
                    normal = detail::local_distance(c, touch, reach).normal;
                    p = p1 + normal * dot(touch - p1, normal);
                } else if (end.distance < reach) {
                    normal = end.normal;
                    p = p1 + normal * (reach - end.distance);
                } else {
                    continue;
                }
            }
            // Back to the world: the node and the collider's velocity there.
            const Vec3 n_world = world_direction(normal);
            Vec3 x_new = world_direction(p) + pose1.position;
            const Vec3 v_collider = v_lin + cross(omega, x_new - pose1.position);
            const Vec3 v_rel = v - v_collider;
            const float vn = dot(v_rel, n_world);
            Vec3 v_new = v;
            if (vn < 0.0f) {
                const float bounce = -vn > resting_speed ? -vn * c.restitution : 0.0f;
                const float dvn = bounce - vn;
                const Vec3 vt = v_rel - n_world * vn;
                const float vt_len = length(vt);
                Vec3 vt_new{};
                if (vt_len > c.static_friction * dvn)
                    vt_new = vt * std::max(0.0f, 1.0f - c.dynamic_friction * dvn / vt_len);
                v_new = v_collider + n_world * bounce + vt_new;
                x_new += (vt_new - vt) * args.dt;
            }
            x_.set(i, x_new);
            v_.set(i, v_new);
            if (verlet) set_previous(i, x_new - v_new * args.dt);
            record_contact(i, ci, (v_new - v) * b_->mass_of(i), x_new, n_world);
        }
    }
}

void Simulation::Impl::record_contact(std::uint32_t node, ColliderId collider, Vec3 impulse, Vec3 point,
                                      Vec3 normal) {
    // The report: summed per node and collider over the step.
    detail::CollisionState& cs = collision_;
    std::uint32_t slot = cs.latest[node];
    while (slot != detail::CollisionState::kNone && cs.pending[slot].collider != collider) slot = cs.previous_of[slot];
    if (slot == detail::CollisionState::kNone) {
        if (cs.latest[node] == detail::CollisionState::kNone) cs.touched.push_back(node);
        cs.pending.push_back({node, collider, impulse, point, normal});
        cs.previous_of.push_back(cs.latest[node]);
        cs.latest[node] = static_cast<std::uint32_t>(cs.pending.size() - 1);
    } else {
        Contact& contact = cs.pending[slot];
        contact.impulse += impulse;
        contact.point = point;
        contact.normal = normal;
    }
}

void Simulation::Impl::gather_candidates(const Collider& c, const Transform& pose, float margin, float dt) {
    // Broad phase: the free nodes that may come within `margin` of the
    // collider's bounding sphere this substep (|x - centre| - R <= |v| dt),
    // in one pass over the arrays that the compiler vectorises.
    std::vector<std::uint32_t>& out = collision_.candidates;
    out.clear();
    const auto n = static_cast<std::uint32_t>(node_count());
    if (c.shape == ColliderShape::plane) {
        for (std::uint32_t i = 0; i < n; ++i)
            if (inverse_mass()[i] != 0.0f) out.push_back(i);  // anchored: its drive decides where it is
        return;
    }
    const Vec3 centre = apply(pose, detail::bounding_centre(c));
    const float reach = detail::bounding_radius(c) + margin;
    std::vector<unsigned char>& near = collision_.near;
    near.resize(n);
    const float* __restrict x = x_.x.data();
    const float* __restrict y = x_.y.data();
    const float* __restrict z = x_.z.data();
    const float* __restrict vx = v_.x.data();
    const float* __restrict vy = v_.y.data();
    const float* __restrict vz = v_.z.data();
    const float* __restrict im = inverse_mass();
    unsigned char* __restrict flag = near.data();
    flag_near_nodes(x, y, z, vx, vy, vz, im, flag, centre, reach, dt * dt, n);
    for (std::uint32_t i = 0; i < n; ++i)
        if (flag[i]) out.push_back(i);
}

void Simulation::Impl::stage_contact_report(const StageArgs&) {
    // By node, then collider: the nodes touched this step in order (already so
    // with one collider and one substep), each with its chain of contacts
    // (nearly always one) sorted by collider.
    detail::CollisionState& cs = collision_;
    constexpr std::uint32_t kNone = detail::CollisionState::kNone;
    cs.time_in_frame = 0.0f;
    cs.contacts.clear();
    if (!std::is_sorted(cs.touched.begin(), cs.touched.end())) std::sort(cs.touched.begin(), cs.touched.end());
    for (const std::uint32_t node : cs.touched) {
        const std::size_t first = cs.contacts.size();
        for (std::uint32_t at = cs.latest[node]; at != kNone; at = cs.previous_of[at]) cs.contacts.push_back(cs.pending[at]);
        if (cs.contacts.size() - first > 1)
            std::sort(cs.contacts.begin() + static_cast<std::ptrdiff_t>(first), cs.contacts.end(),
                      [](const Contact& a, const Contact& b) { return a.collider < b.collider; });
        cs.latest[node] = kNone;
    }
    cs.touched.clear();
    cs.pending.clear();
    cs.previous_of.clear();
}

void Simulation::Impl::clear_contacts() {
    // Also what a step that threw before its report (a runaway) left behind.
    detail::CollisionState& cs = collision_;
    cs.time_in_frame = 0.0f;
    cs.contacts.clear();
    cs.pending.clear();
    cs.previous_of.clear();
    cs.touched.clear();
    std::fill(cs.latest.begin(), cs.latest.end(), detail::CollisionState::kNone);
}

void Simulation::set_colliders(std::shared_ptr<const ColliderSet> colliders) {
    impl_->collision_.colliders = std::move(colliders);
}

const std::shared_ptr<const ColliderSet>& Simulation::colliders() const { return impl_->collision_.colliders; }

std::span<const Contact> Simulation::contacts() const { return impl_->collision_.contacts; }

}  // namespace springkit
