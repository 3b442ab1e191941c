// springkit — an instance's placement and its whole-body quantities:
// teleport(), bounds, mass, momenta, whole-body impulses. Outside the step: the
// step reads the placed drives and tether points the instance holds
// (AnchorState::center and axis, tether_point_); only track drives read the
// placement itself, putting it after their track's frame.
#include <algorithm>
#include <cmath>
#include <string>

#include "simulation/simulation_impl.hpp"
#include "springkit/error.hpp"

namespace springkit {

namespace {

bool finite_transform(const Transform& t) {
    const Quat& q = t.rotation;
    return is_finite(t.position) && std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) &&
           std::isfinite(q.z);
}

}  // namespace

void detail::check_transform(const Transform& t, const char* who) {
    if (!finite_transform(t)) throw Error(std::string(who) + ": the transform is not finite");
    if (!is_unit(t.rotation))
        throw Error(std::string(who) + ": the rotation is not a unit quaternion (|q|^2 = " +
                    std::to_string(squared_norm(t.rotation)) + "); normalise it");
}

void Simulation::Impl::teleport(const Transform& to, bool keep_velocity) {
    detail::check_transform(to, "Simulation::teleport");
    // The motion taking the current placement P to `to`: p -> to(P^-1(p)), a
    // rotation q = to.q P.q* and a shift to.p - q P.p. From the identity it is
    // `to` itself, bit for bit (products with 0 and 1 are exact).
    wake();
    const Quat q = to.rotation * conjugate(placement_.rotation);
    const Vec3 shift = to.position - rotate(q, placement_.position);
    move_rigidly(q, shift, keep_velocity);
    placement_ = to;
}

void Simulation::Impl::move_rigidly(const Quat& q, Vec3 shift, bool keep_velocity) {
    const auto place = [&](Vec3 p) { return rotate(q, p) + shift; };
    const std::size_t n = node_count();
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3 p = place(x_.get(i));
        x_.set(i, p);
        if (keep_velocity) {
            // Verlet's previous position moves with the body, so the velocity it
            // implies turns as v does.
            if (!previous_.x.empty()) previous_.set(i, place(previous_.get(i)));
            const Vec3 v = rotate(q, v_.get(i));
            v_.set(i, v);
        } else {
            set_previous(i, p);
            v_.set(i, {});
        }
    }
    publish();
    // The drives turn with the body: a place (and the circle's start) is a point,
    // a centre a point, an axis and a drive velocity directions. A circle's angle
    // from its start is unchanged: turning start, centre and axis together turns
    // the whole circle.
    for (std::size_t i = 0; i < anchor_state_.size(); ++i) {
        AnchorState& state = anchor_state_[i];
        state.origin = place(state.origin);
        state.center = place(state.center);
        state.axis = rotate(q, state.axis);
        anchor_velocity_[i] = rotate(q, anchor_velocity_[i]);
    }
    for (Vec3& point : tether_point_) point = place(point);
    for (Transform& frame : anchor_frame_) frame = {place(frame.position), q * frame.rotation};
    update_bead_positions();
    recompute_normals();
}

Bounds Simulation::Impl::bounds() const {
    Bounds box{x_.get(0), x_.get(0)};
    for (std::size_t i = 0; i < node_count(); ++i) box.include(x_.get(i));
    return box;
}

double Simulation::Impl::total_mass() const {
    double sum = 0.0;
    for (std::size_t i = 0; i < node_count(); ++i) sum += model_->node_mass(i);
    return sum;
}

Vec3 Simulation::Impl::center_of_mass() const {
    double mass = 0.0, x = 0.0, y = 0.0, z = 0.0;
    for (std::size_t i = 0; i < node_count(); ++i) {
        const double m = model_->node_mass(i);
        const Vec3 p = x_.get(i);
        mass += m;
        x += m * p.x;
        y += m * p.y;
        z += m * p.z;
    }
    return {static_cast<float>(x / mass), static_cast<float>(y / mass), static_cast<float>(z / mass)};
}

Vec3 Simulation::Impl::linear_momentum() const {
    double x = 0.0, y = 0.0, z = 0.0;
    for (std::size_t i = 0; i < node_count(); ++i) {
        const double m = model_->node_mass(i);
        const Vec3 v = v_.get(i);
        x += m * v.x;
        y += m * v.y;
        z += m * v.z;
    }
    return {static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)};
}

Vec3 Simulation::Impl::angular_momentum() const {
    // L = sum m (x - c) x v, in double: about the centre of mass, so that a
    // translating body has none.
    const Vec3 c = center_of_mass();
    double x = 0.0, y = 0.0, z = 0.0;
    for (std::size_t i = 0; i < node_count(); ++i) {
        const double m = model_->node_mass(i);
        const Vec3 p = x_.get(i);
        const double rx = static_cast<double>(p.x) - c.x, ry = static_cast<double>(p.y) - c.y,
                     rz = static_cast<double>(p.z) - c.z;
        const Vec3 v = v_.get(i);
        x += m * (ry * v.z - rz * v.y);
        y += m * (rz * v.x - rx * v.z);
        z += m * (rx * v.y - ry * v.x);
    }
    return {static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)};
}

void Simulation::Impl::add_impulse(Vec3 impulse) {
    if (!is_finite(impulse)) throw Error("Simulation::add_impulse: the impulse is not finite");
    double free_mass = 0.0;
    for (std::size_t i = 0; i < node_count(); ++i)
        if (b_->inverse_mass[i] != 0.0f) free_mass += model_->node_mass(i);
    if (free_mass == 0.0) return;  // every node is anchored: nothing can take it
    add_velocity(impulse * static_cast<float>(1.0 / free_mass));
}

void Simulation::Impl::add_velocity(Vec3 dv) {
    if (!is_finite(dv)) throw Error("Simulation::add_velocity: the velocity is not finite");
    wake();
    // Verlet reads the velocity from the previous position, which holds it times
    // the substep (the convention set_velocity() follows): shifted back by
    // dv times it, it keeps the velocity it held and gains dv.
    const Vec3 back = dv * params_.max_substep;
    for (std::size_t i = 0; i < node_count(); ++i) {
        if (b_->inverse_mass[i] == 0.0f) continue;  // anchors follow their drives
        v_.set(i, v_.get(i) + dv);
        if (!previous_.x.empty()) previous_.set(i, previous_.get(i) - back);
    }
    publish();
}

}  // namespace springkit
