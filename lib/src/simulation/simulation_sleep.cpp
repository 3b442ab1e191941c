// springkit — sleeping (SleepSettings): an instance at rest stops costing
// time until something wakes it, as rigid-body engines put resting islands to
// sleep (Box2D's b2_timeToSleep and linear sleep tolerance, Bullet's
// deactivation time). The test is on the kinetic energy per kilogram of the
// whole body, E / M = sum(m v^2 / 2) / sum(m): the square of an RMS speed over
// two, independent of the model's size and mass.
//
// A sleeping instance's nodes are frozen: when it falls asleep its velocities
// are zeroed (Verlet's previous positions set to the positions), and until it
// wakes step() only advances time(). Waking changes nothing else, so the
// instance steps on as an awake one with those zeroed velocities would, bit
// for bit.
#include <cmath>
#include <string>

#include "simulation/simulation_impl.hpp"
#include "springkit/error.hpp"

namespace springkit {

void detail::validate_sleep(const SleepSettings& sleep) {
    if (!std::isfinite(sleep.energy_per_kg) || sleep.energy_per_kg < 0.0f)
        throw Error("SleepSettings: energy_per_kg must be finite and >= 0 J/kg (got " +
                    std::to_string(sleep.energy_per_kg) + ")");
    if (!std::isfinite(sleep.quiet_time) || sleep.quiet_time < 0.0f)
        throw Error("SleepSettings: quiet_time must be finite and >= 0 s (got " + std::to_string(sleep.quiet_time) +
                    ")");
}

// After a sound frame that simulated `seconds`. A moving drive (a velocity
// drive's or a circle's nonzero speed, a track still playing) keeps the
// instance awake: freezing it would stop the drive.
void Simulation::Impl::watch_sleep(double seconds) {
    for (std::size_t i = 0; i < anchor_state_.size(); ++i)
        if (anchor_state_[i].angular_speed != 0.0f && model_->anchors[i].drive == AnchorDrive::circle) return;
    for (const Vec3& v : anchor_velocity_)
        if (!(v == Vec3{})) return;
    // A track moves its anchors while it loops, or until its last key.
    for (const Anchor& a : model_->anchors) {
        if (a.drive != AnchorDrive::track) continue;
        const AnchorTrack& track = model_->anchor_tracks[a.track];
        if (track.keys.size() > 1 && (track.loop || time_ < double(track.keys.back().time))) return;
    }
    double energy = 0.0, mass = 0.0;
    for (std::size_t i = 0; i < node_count(); ++i) {
        const double m = b_->mass_of(i);
        const Vec3 v = v_.get(i);
        energy += 0.5 * m * dot(v, v);
        mass += m;
    }
    if (energy > static_cast<double>(sleep_.energy_per_kg) * mass) {
        quiet_seconds_ = 0.0;
        return;
    }
    quiet_seconds_ += seconds;
    if (quiet_seconds_ >= static_cast<double>(sleep_.quiet_time)) fall_asleep();
}

void Simulation::Impl::fall_asleep() {
    asleep_ = true;
    for (std::size_t i = 0; i < node_count(); ++i) {
        v_.set(i, {});
        set_previous(i, x_.get(i));
    }
    publish();
}

void Simulation::Impl::wake() {
    asleep_ = false;
    quiet_seconds_ = 0.0;
}

}  // namespace springkit
