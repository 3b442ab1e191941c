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
    /// `target_velocity`) during the next step() by a soft, damped, force-limited
    /// spring, the "mouse spring" of interactive physics programs, never moved by
    /// hand: F = k (target - x) + c (target_velocity - v), |F| <= max_pull_force(),
    /// with m the node's mass and dt the frame, k = m / (2 dt^2).
    ///
    /// The force is worked out again before every substep: step() takes a pulled
    /// frame in n = ceil(dt / max_substep) steps of one substep each. A force held
    /// for the whole frame is a sampled feedback on the node, which oscillates
    /// against its springs within the frame; for a node of frequency w the
    /// frame's map of a held spring and damper has the determinant
    /// 1 - (c / m w) sin(w dt) + (k / m w^2) (1 - cos(w dt)), above 1 (the pull
    /// pumps energy in) wherever pi < w dt < 2 pi (Colgate and Schenkel 1997, the
    /// sampled "virtual wall"). A cloth's nodes have such modes: a corner held
    /// still 1 m from its place took the 400-node cloth sample to 1400 J and
    /// springs 4x their length. Evaluated every substep the pull is part of the
    /// integration, which the substep keeps stable. There c = 1.5 m / dt (damping
    /// ratio 1.06): for a lone node each substep's map of (x - target, h v) is
    /// [[1 - a, 1 - b], [-a, 1 - b]], a = 1 / (2 n^2), b = 1.5 / n, whose
    /// eigenvalues are real ((a + b)^2 > 4 a) and positive for n >= 2 (b < 1):
    /// it closes in on a still target and never overshoots. A frame of one
    /// substep (the implicit samples) holds the force with c = 1.2 m / dt, where
    /// the integrator's own damping keeps the high modes down. An anchored node's
    /// anchor is placed at `target` instead (the drag moves what holds the model).
    void pull_node(std::uint32_t node, Vec3 target, Vec3 target_velocity, float frame_dt);
    /// The greatest force of a pull, N: twice the model's weight under standard
    /// gravity (enough to lift it against gravity).
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
    /// Applies the pending pull before piece `piece` of `pieces` and records it.
    void apply_pull(std::uint32_t piece, std::uint32_t pieces);

    /// A pull asked for by pull_node(), applied by the next step().
    struct Pull {
        std::uint32_t node = 0;
        Vec3 target{}, target_velocity{};
        float frame_dt = 0.0f;
    };

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
    std::optional<Pull> pull_;                  ///< the pull the next step applies
    bool unreplayable_ = false;  ///< an anchor was moved or driven since the last step
};

}  // namespace springkit::editor
