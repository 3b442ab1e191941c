// springkit-editor — the simulation running under the editor. It keeps a copy of
// the document's model as last given, and when the document changes it changes
// the running instance's settings in place (parameters but k and mass) or
// rebuilds the Simulation and carries the motion over, so a new k or a new
// anchor shows at once in the swinging model instead of starting it over. Plain C++: tests drive it without a window.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include <vector>

#include "editing/run_recording.hpp"
#include "springkit/colliders.hpp"
#include "springkit/model.hpp"
#include "springkit/simulation.hpp"

namespace springkit::editor {

/// How alarming a reading is: what the panels colour green, yellow or red.
enum class Alarm : std::uint8_t { good, warn, bad };

/// The linear-stability estimate's alarm: dt omega_max against the integrator's
/// limit (frequency_stability()); bad at or above it, warn above 90% of it.
/// Garrido's k dt^2 / m is not used for a verdict: it looks at one spring and its
/// lighter node, and flags chains that run calm (a chain's highest mode has
/// omega^2 = 4 k / m, stable up to k dt^2 / m = 1 with symplectic Euler, and the
/// rope samples run at 0.4 to 0.8).
Alarm frequency_alarm(const FrequencyStability& f);

/// What watching the running simulation says.
struct RunHealth {
    Alarm alarm = Alarm::good;
    std::string text;               ///< one line for people: "calm", "UNSTABLE: ...", "EXPLODED: ..."
    double internal_kinetic = 0.0;  ///< J: kinetic energy less that of the centre of mass's motion
    double energy_scale = 0.0;      ///< J: see LiveSimulation::energy_scale()
    double max_strain = 0.0;        ///< largest stretch (length - rest) / rest of a Hooke spring
    std::uint32_t worst_spring = 0; ///< the spring with that stretch
};

class LiveSimulation {
public:
    /// Kinetic-energy samples kept for the plot (10 s at 60 frames a second).
    static constexpr std::size_t kHistory = 600;

    /// Starts `model` from rest. Throws springkit::Error for an invalid model.
    void restart(const Model& model);
    /// Takes a changed model with the same nodes and keeps the motion
    /// (Simulation::carry_state_from): every node keeps its position and velocity,
    /// anchors are held where their nodes are now, and the time (gusts), the beads
    /// on their ropes and the drives set while it runs (drive_anchor,
    /// set_circle_drives) go on. A different node count, or a simulation that had
    /// exploded, restarts.
    void update_model(const Model& model);

    /// Advances one frame; an explosion is caught and kept in error() (the state
    /// stays at the last good frame until reset()). The frame is recorded
    /// (recording()). Stepped from a recorded frame before the last (after
    /// show_frame), the run goes on from there: the later frames are dropped.
    void step(float frame_dt);
    /// Back to the rest positions; clears the error and the energy history.
    void reset();

    /// The run so far, frame by frame (the timeline). Starting, resetting or
    /// changing the model starts it anew at the current state: the frames
    /// recorded belong to the model as it was.
    const RunRecording& recording() const { return recording_; }
    /// The recorded frame the simulation is at: the last one while it runs.
    std::optional<std::uint64_t> frame() const { return frame_; }
    /// Puts the simulation at a recorded frame (the timeline's scrubbing), exactly
    /// as it was then: positions, velocities, drives, time. False when the frame
    /// is not kept or the simulation failed.
    bool show_frame(std::uint64_t frame);

    /// The energy a calm run of the model can have, J: M (|g| L + v^2 / 2), M its
    /// mass, L its rest size (bounds' diagonal) and v the fastest thing driving it
    /// (a velocity or circle anchor, or the wind plus a gust), at least 1 m/s. A
    /// body falling its own size, swung by its drives or blown by the wind stays
    /// within a few of these; so does a mouse pull (at most twice its weight).
    double energy_scale() const;
    /// Watches the run (the step's energy and strain, and the runtime's runaway
    /// guard): EXPLODED (bad) when step() failed; UNSTABLE (bad) when the kinetic
    /// energy apart from the centre of mass's motion (Koenig: a falling body is
    /// not unstable) exceeds 20 energy scales, which no calm run reaches and an
    /// exponential blow-up passes within frames; a spring stretched beyond 3 times
    /// its rest length is bad too (torn), beyond twice a warning. Rope
    /// constraints hold their length and are not counted.
    RunHealth health() const;

    /// The colliders the model meets (Simulation::set_colliders), kept across
    /// restarts and model changes. When only poses changed and `seconds` > 0, the
    /// moved colliders sweep to their new pose during the next step as kinematic
    /// colliders do (ColliderSet::move_to over `seconds`, the frame), so a sphere
    /// dragged into a cloth pushes it with its speed; they stop after that step.
    /// Otherwise (a collider added, removed, resized, or seconds = 0) they stand
    /// at once where they are given.
    void set_colliders(const std::vector<Collider>& colliders, float seconds);
    /// The set the simulation collides with (empty when there are none).
    const ColliderSet* colliders() const { return colliders_.get(); }

    bool running() const { return sim_ != nullptr; }
    const Simulation& simulation() const { return *sim_; }
    const Model& model() const { return *model_; }
    const std::string& error() const { return error_; }
    const std::deque<float>& energy_history() const { return energy_; }
    /// The box the nodes have swept since the start or the last reset(), m: what
    /// Home frames, so a rope that swings or a mesh that falls stays in view.
    const Bounds& motion_bounds() const { return motion_; }

    /// Standard gravity, m/s^2: the unit of the pull's force limit (the model's own
    /// gravity may be zero).
    static constexpr double kStandardGravity = 9.80665;

    /// Dragging with the mouse. A free node is pulled towards `target` (moving at
    /// `target_velocity`) during the next step by a soft, damped, force-limited
    /// spring, the "mouse spring" of interactive physics programs, never moved by
    /// hand: F = k (target - x) + c (target_velocity - v), |F| <= max_pull_force().
    /// With m the node's mass and dt the frame, k = m / (2 dt^2) and c = 1.2 m / dt.
    /// The force is held for the whole frame, so it is stable at any k only if
    /// small against m / dt^2: a lone node at rest moves about a quarter of the
    /// way in one frame (x = F dt^2 / 2m). For a lone node the frame's map of
    /// (x - target, v dt) has the real eigenvalues 0.48 and 0.05 (with 9 substeps):
    /// it closes in on a still target each frame and never overshoots. The work the pull does on the body is at most
    /// max_pull_force() times the distance the target travels, so no drag can put
    /// more energy into the model than that. An anchored node's anchor is placed at
    /// `target` instead (the drag moves what holds the model).
    void pull_node(std::uint32_t node, Vec3 target, Vec3 target_velocity, float frame_dt);
    /// The greatest force of a pull, N: twice the model's weight under standard
    /// gravity (enough to lift it against gravity, never enough to tear it apart).
    double max_pull_force() const;
    /// Moves the anchor of `node` by `delta` (keys, like the seed demos); false when
    /// the node is not anchored.
    bool move_anchor(std::uint32_t node, Vec3 delta);
    /// The index in model().anchors of the anchor on `node`, if any.
    std::optional<std::size_t> anchor_of(std::uint32_t node) const;
    /// The model's one velocity-driven anchor (Tunca's rope connection point), if
    /// it has exactly one.
    std::optional<std::size_t> sole_velocity_anchor() const;
    /// Sets the velocity of a velocity-driven anchor (Tunca's keys); false for
    /// another drive or a stopped simulation.
    bool drive_anchor(std::size_t anchor, Vec3 velocity);
    /// Sets radius (m) and angular speed (rad/s) of every circle-driven anchor
    /// (Garrido's jump-rope keys) while it runs; the model keeps its values, and
    /// reset() goes back to them. False when there is no circle drive.
    bool set_circle_drives(float radius, float angular_speed);
    /// The first circle-driven anchor, if any.
    std::optional<std::size_t> first_circle_anchor() const;

private:
    void record_energy();
    /// Starts the recording at the current state.
    void start_recording();

    void attach_colliders();

    std::unique_ptr<Model> model_;
    std::unique_ptr<Simulation> sim_;
    std::shared_ptr<ColliderSet> colliders_;
    bool colliders_moving_ = false;  ///< some collider sweeps during the next step
    std::string error_;
    std::deque<float> energy_;
    Bounds motion_{};
    RunRecording recording_;
    std::optional<std::uint64_t> frame_;
    std::vector<RecordedForce> pending_forces_;  ///< pulls applied since the last step
    bool unreplayable_ = false;  ///< an anchor was moved or driven since the last step
};

}  // namespace springkit::editor
