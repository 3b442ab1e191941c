// springkit — carrying a running simulation's state over to a simulation of an
// edited model (Simulation::carry_state_from), so that the editor's model keeps
// swinging through every edit. Runs once per edit: kept apart from the step.
#include <cstdint>
#include <string>

#include "springkit/error.hpp"
#include "simulation/simulation_impl.hpp"

namespace springkit {

void Simulation::Impl::carry_state_from(const Impl& previous) {
    if (&previous == this) return;
    const Model& m = *model_;
    const Model& old = *previous.model_;
    if (m.node_count() != old.node_count())
        throw Error("Simulation::carry_state_from: the models have " +
                    std::to_string(m.node_count()) + " and " + std::to_string(old.node_count()) +
                    " nodes; state carries over only between the same nodes");
    if (!previous.failure_.empty())
        throw Error("Simulation::carry_state_from: the previous simulation has failed (" +
                    previous.failure_ + ")");
    // Whatever does not carry over starts as in a new simulation, where the
    // previous one stands (placed drives and tether points).
    placement_ = previous.placement_;
    reset();

    time_ = previous.time_;
    substeps_ = previous.substeps_;
    x_ = previous.x_;
    v_ = previous.v_;
    publish();
    if (previous.params_.integrator == Integrator::verlet &&
        previous.params_.max_substep == params_.max_substep) {
        if (params_.integrator == Integrator::verlet) previous_ = previous.previous_;  // else not read
    } else {
        // Only Verlet keeps its previous positions up to date, and they hold the
        // velocity times its substep: set_velocity() derives them.
        for (std::uint32_t i = 0; i < m.node_count(); ++i) set_velocity(i, v_.get(i));
    }
    external_applied_ = previous.external_applied_;
    if (external_applied_) {
        // The force given for the next step is what external_ holds beyond the
        // constant forces; a node whose constant force is unchanged takes it as is.
        if (external_.x.empty()) external_.assign(m.node_count(), Vec3{});
        for (std::size_t i = 0; i < m.node_count(); ++i) {
            const Vec3 held = previous.external_at(i), old_constant = previous.b_->constant_at(i),
                       constant = b_->constant_at(i);
            external_.set(i, constant == old_constant ? held : constant + (held - old_constant));
        }
    }
    // The air of the frame just taken, unless the edit changed the air.
    const bool same_air = params_.wind == previous.params_.wind && params_.gust == previous.params_.gust;
    wind_ = same_air ? previous.wind_ : wind_at(params_, time_);
    carry_anchors(previous);
    carry_beads(previous);
    update_bead_positions();
    recompute_normals();
}

void Simulation::Impl::carry_anchors(const Impl& previous) {
    const Model& m = *model_;
    const Model& old = *previous.model_;
    constexpr std::size_t kNoAnchor = SIZE_MAX;
    std::vector<std::size_t> old_anchor_on(old.node_count(), kNoAnchor);
    for (std::size_t j = 0; j < old.anchors.size(); ++j) old_anchor_on[old.anchors[j].node] = j;
    for (std::size_t i = 0; i < m.anchors.size(); ++i) {
        const Anchor& a = m.anchors[i];
        const std::size_t j = old_anchor_on[a.node];
        const Anchor* was = j == kNoAnchor ? nullptr : &old.anchors[j];
        const bool same_drive =
            was && was->drive == a.drive &&
            (a.drive != AnchorDrive::circle || (was->center == a.center && was->axis == a.axis));
        if (!same_drive) {
            anchor_state_[i].origin = x_.get(a.node);  // afresh, but from where its node is now
            continue;
        }
        anchor_state_[i] = previous.anchor_state_[j];
        anchor_velocity_[i] = previous.anchor_velocity_[j];
        // An edit of the drive's value in the model wins over the value it runs with.
        if (a.angular_speed != was->angular_speed) anchor_state_[i].angular_speed = a.angular_speed;
        if (!(a.velocity == was->velocity) && a.drive == AnchorDrive::velocity)
            anchor_velocity_[i] = a.velocity;
    }
}

void Simulation::Impl::carry_beads(const Impl& previous) {
    const Model& m = *model_;
    const Model& old = *previous.model_;
    if (m.beads.size() != old.beads.size()) return;
    for (std::size_t i = 0; i < m.beads.size(); ++i) {
        const Bead& bead = m.beads[i];
        const Bead& was = old.beads[i];
        if (bead.first != was.first || bead.last != was.last || bead.start != was.start) continue;
        bead_place_[i] = previous.bead_place_[i];
        bead_speed_[i] = previous.bead_speed_[i];
    }
}

}  // namespace springkit
