// springkit — what step() does when its guard finds a runaway
// (RunawayPolicy): throw, freeze, go back to rest, or go back to the state the
// frame started from. The guard itself (check_state()) is the "guard" stage in
// simulation.cpp; it records what it found in failure_ and runaway_.
#include "simulation/simulation_impl.hpp"

namespace springkit {

namespace {

// The snapshot is the part of the state a frame changes: copying into vectors
// that already have their size allocates nothing after the first frame.
// Settings, forces given with apply_force() (spent by the failed frame) and
// the threads are not part of it.
template <class To, class From>
void copy_frame_state(To& to, const From& from) {
    to.x_ = from.x_;
    to.v_ = from.v_;
    to.previous_ = from.previous_;
    to.anchor_state_ = from.anchor_state_;
    to.anchor_velocity_ = from.anchor_velocity_;
    to.tether_point_ = from.tether_point_;
    to.bead_place_ = from.bead_place_;
    to.bead_speed_ = from.bead_speed_;
    to.anchor_frame_ = from.anchor_frame_;
    to.placement_ = from.placement_;
    to.time_ = from.time_;
    to.substeps_ = from.substeps_;
}

}  // namespace

void Simulation::Impl::keep_last_good() { copy_frame_state(last_good_, *this); }

void Simulation::Impl::restore_last_good() {
    copy_frame_state(*this, last_good_);
    wind_ = wind_at(params_, time_);
    publish();
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
