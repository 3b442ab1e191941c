// springkit — what step() does when its guard finds a runaway
// (RunawayPolicy): throw, freeze, go back to rest, or go back to the state the
// frame started from. The guard itself (check_state()) is the "guard" stage in
// simulation.cpp; it records what it found in failure_ and runaway_.
#include "simulation/simulation_impl.hpp"

namespace springkit {

// The snapshot is the part of the state a frame changes: copying into vectors
// that already have their size allocates nothing after the first frame.
// Settings, forces given with apply_force() (spent by the failed frame) and
// the threads are not part of it.
void Simulation::Impl::keep_last_good() {
    LastGood& g = last_good_;
    g.x = x_;
    g.v = v_;
    g.previous = previous_;
    g.anchors = anchor_state_;
    g.anchor_velocity = anchor_velocity_;
    g.tether_point = tether_point_;
    g.bead_place = bead_place_;
    g.bead_speed = bead_speed_;
    g.anchor_frame = anchor_frame_;
    g.placement = placement_;
    g.time = time_;
    g.substeps = substeps_;
}

void Simulation::Impl::restore_last_good() {
    const LastGood& g = last_good_;
    x_ = g.x;
    v_ = g.v;
    previous_ = g.previous;
    anchor_state_ = g.anchors;
    anchor_velocity_ = g.anchor_velocity;
    tether_point_ = g.tether_point;
    bead_place_ = g.bead_place;
    bead_speed_ = g.bead_speed;
    anchor_frame_ = g.anchor_frame;
    placement_ = g.placement;
    time_ = g.time;
    substeps_ = g.substeps;
    wind_ = wind_at(params_, time_);
    for (std::size_t i = 0; i < positions_.size(); ++i) {
        positions_[i] = x_.get(i);
        velocities_[i] = v_.get(i);
    }
    update_bead_positions();
    recompute_normals();
}

void Simulation::Impl::report_runaway(StepResult& result) {
    result.runaway = runaway_.cause;
    result.node = runaway_.node;
    result.spring = runaway_.spring;
    switch (runaway_policy_) {
        case RunawayPolicy::throw_error:  // check_state() has thrown already
        case RunawayPolicy::stop:         // failure_ stays: later steps report stopped
            break;
        case RunawayPolicy::reset_to_rest:
            reset();
            break;
        case RunawayPolicy::restore_last_good:
            restore_last_good();
            failure_.clear();
            break;
    }
    runaway_ = {};
}

}  // namespace springkit
