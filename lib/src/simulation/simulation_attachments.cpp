// springkit — simulation stages for things attached to nodes: Builderboy's
// single-segment ropes (tethers) and Garrido's beads sliding along a rope; and
// the run-time control of circle drives (Garrido's jump-rope keys). Kept apart
// from simulation.cpp's hot loops; each stage is a short pass over the (usually
// few) attachments.
#include <algorithm>
#include <cmath>

#include "springkit/error.hpp"
#include "simulation/simulation_impl.hpp"

namespace springkit {

namespace {

// A bead's place on its chain: the segment it is on (0-based from the chain's
// first node) and how far along that segment it is, in [0, 1]. At a node between
// two segments the bead counts as on the segment it is moving into.
struct ChainPlace {
    std::uint32_t segment = 0;
    float t = 0.0f;
};

ChainPlace chain_place(float place, std::uint32_t segments, bool moving_back) {
    const float clamped = std::clamp(place, 0.0f, static_cast<float>(segments));
    auto k = static_cast<std::uint32_t>(std::floor(clamped));
    if (moving_back && static_cast<float>(k) == clamped && k > 0) --k;
    k = std::min(k, segments - 1);
    return {k, clamped - static_cast<float>(k)};
}

}  // namespace

void Simulation::Impl::apply_bead_loads() {
    // The bead rides on the segment between nodes a and b: those two nodes carry its
    // weight across the rope and, split by where it sits, its inertia, so the rope
    // sags under a heavy bead as under a hanging weight (Garrido wanted the rope to
    // "behave as if there was an object of larger mass" at the bead).
    const Model& m = *model_;
    const Vec3 g = params_.gravity;
    for (std::size_t i = 0; i < m.beads.size(); ++i) {
        const Bead& bead = m.beads[i];
        const ChainPlace at = chain_place(bead_place_[i], bead.last - bead.first, bead_speed_[i] < 0.0f);
        const std::uint32_t a = bead.first + at.segment, b = a + 1;
        const Vec3 dir = normalized(x_.get(b) - x_.get(a));
        // Across the rope the bead pushes with its weight; along it, only with the
        // friction that slows it.
        const Vec3 load = (g - dir * dot(g, dir)) * bead.mass + dir * (bead.friction * bead_speed_[i]);
        const float share[2] = {1.0f - at.t, at.t};
        const std::uint32_t node[2] = {a, b};
        for (int c = 0; c < 2; ++c) {
            if (bead_inverse_mass_[node[c]] == 0.0f) continue;
            f_.set(node[c], f_.get(node[c]) + load * share[c]);
            bead_inverse_mass_[node[c]] = 1.0f / (m.node_mass(node[c]) + bead.mass * share[c]);
        }
    }
}

void Simulation::Impl::slide_beads(float dt, float velocity_keep) {
    // The bead's own motion along the rope: M du/dt = M g.dir - friction u.
    const Model& m = *model_;
    const Vec3 g = params_.gravity;
    for (std::size_t i = 0; i < m.beads.size(); ++i) {
        const Bead& bead = m.beads[i];
        const std::uint32_t segments = bead.last - bead.first;
        float& place = bead_place_[i];
        float& speed = bead_speed_[i];
        ChainPlace at = chain_place(place, segments, speed < 0.0f);
        // Give the loaded nodes their own inverse mass back (apply_bead_loads).
        for (std::uint32_t node : {bead.first + at.segment, bead.first + at.segment + 1})
            if (bead_inverse_mass_[node] != 0.0f) bead_inverse_mass_[node] = 1.0f / m.node_mass(node);

        Vec3 dir = normalized(x_.get(bead.first + at.segment + 1) - x_.get(bead.first + at.segment));
        speed = (speed + (dot(g, dir) - bead.friction * speed / bead.mass) * dt) * velocity_keep;
        // Walk the distance along the chain, segment by segment; the bead stops at
        // the chain's ends as at a knot.
        float remaining = speed * dt;
        for (std::uint32_t guard = 0; guard <= segments && remaining != 0.0f; ++guard) {
            at = chain_place(place, segments, remaining < 0.0f);
            const std::uint32_t a = bead.first + at.segment;
            const float len = length(x_.get(a + 1) - x_.get(a));
            if (len <= 1e-9f) break;
            const float room = remaining > 0.0f ? (1.0f - at.t) * len : at.t * len;
            if (std::abs(remaining) <= room) {
                place = static_cast<float>(at.segment) + at.t + remaining / len;
                break;
            }
            remaining -= std::copysign(room, remaining);
            place = static_cast<float>(at.segment) + (remaining > 0.0f ? 1.0f : 0.0f);
            if (place <= 0.0f || place >= static_cast<float>(segments)) {
                speed = 0.0f;
                break;
            }
        }
        place = std::clamp(place, 0.0f, static_cast<float>(segments));
    }
}

void Simulation::Impl::update_bead_positions() {
    const Model& m = *model_;
    bead_positions_.resize(m.beads.size());
    for (std::size_t i = 0; i < m.beads.size(); ++i) {
        const Bead& bead = m.beads[i];
        const ChainPlace at = chain_place(bead_place_[i], bead.last - bead.first, false);
        const Vec3 a = x_.get(bead.first + at.segment);
        const Vec3 b = x_.get(bead.first + at.segment + 1);
        bead_positions_[i] = a + (b - a) * at.t;
    }
}

void Simulation::Impl::apply_tethers(float dt) {
    // Builderboy's single-segment rope. Slack (inside the sphere of radius L) it
    // does nothing. Taut, it removes the outward radial velocity only, keeping the
    // tangential part, and sends `bounce` of it back (his K*N*3/2 is bounce 0.5).
    // His velocity-only form lets the body creep outward by g dt^2 and by the
    // chord of each step; we also put it back on the sphere, a position fix that
    // adds no velocity, so the distance never exceeds L.
    for (std::size_t k = 0; k < model_->tethers.size(); ++k) {
        const Tether& t = model_->tethers[k];
        const Vec3 point = tether_point_[k];
        const std::uint32_t i = t.node;
        if (inverse_mass()[i] == 0.0f) continue;
        const Vec3 r = x_.get(i) - point;
        const float distance = length(r);
        if (distance <= t.length) continue;
        const Vec3 n = r * (1.0f / distance);
        Vec3 v = v_.get(i);
        const float outward = dot(v, n);
        if (outward > 0.0f) v -= n * (outward * (1.0f + t.bounce));
        const Vec3 p = point + n * t.length;
        v_.set(i, v);
        x_.set(i, p);
        set_previous(i, p - v * dt);  // Verlet reads velocity from here
    }
}

namespace {

// The arm of a circle drive's starting point split into its part along the axis
// and its part across it (the radius).
struct CircleArm {
    Vec3 along;
    Vec3 across;
};

template <class State>
CircleArm circle_arm(const State& state) {
    const Vec3 axis = normalized(state.axis);
    const Vec3 arm = state.origin - state.center;
    const Vec3 along = axis * dot(arm, axis);
    return {along, arm - along};
}

}  // namespace

void Simulation::Impl::set_anchor_circle(std::size_t anchor, float radius, float angular_speed) {
    if (anchor >= anchor_state_.size()) throw Error("set_anchor_circle: anchor index out of range");
    const Anchor& a = model_->anchors[anchor];
    if (a.drive != AnchorDrive::circle) throw Error("set_anchor_circle: anchor is not circle-driven");
    if (!(radius > 0.0f) || !std::isfinite(radius) || !std::isfinite(angular_speed))
        throw Error("set_anchor_circle: radius must be > 0 m and the speed finite");
    wake();
    AnchorState& state = anchor_state_[anchor];
    const CircleArm arm = circle_arm(state);
    // Garrido's setRadius: the same angle on a larger or smaller circle.
    const Vec3 direction = length(arm.across) > 0.0f ? normalized(arm.across) : Vec3{};
    if (length(direction) == 0.0f) throw Error("set_anchor_circle: the anchor sits on its axis");
    state.origin = state.center + arm.along + direction * radius;
    state.angular_speed = angular_speed;
}

float Simulation::Impl::anchor_circle_radius(std::size_t anchor) const {
    if (anchor >= anchor_state_.size()) throw Error("anchor_circle_radius: anchor index out of range");
    return length(circle_arm(anchor_state_[anchor]).across);
}

float Simulation::Impl::anchor_angular_speed(std::size_t anchor) const {
    if (anchor >= anchor_state_.size()) throw Error("anchor_angular_speed: anchor index out of range");
    return anchor_state_[anchor].angular_speed;
}

}  // namespace springkit
