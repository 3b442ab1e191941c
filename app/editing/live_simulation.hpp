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

#include "springkit/model.hpp"
#include "springkit/simulation.hpp"

namespace springkit::editor {

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
    /// stays at the last good frame until reset()).
    void step(float frame_dt);
    /// Back to the rest positions; clears the error and the energy history.
    void reset();

    bool running() const { return sim_ != nullptr; }
    const Simulation& simulation() const { return *sim_; }
    const Model& model() const { return *model_; }
    const std::string& error() const { return error_; }
    const std::deque<float>& energy_history() const { return energy_; }

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

    std::unique_ptr<Model> model_;
    std::unique_ptr<Simulation> sim_;
    std::string error_;
    std::deque<float> energy_;
};

}  // namespace springkit::editor
