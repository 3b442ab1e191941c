// springkit — Simulation: the per-instance state of one running Model.
//
// The Model is shared and must outlive the Simulation and stay unchanged while it
// runs (to edit, change the Model and call reset()). Each step runs named stages
// over flat arrays (Box2D/Jolt style):
//   accumulate forces -> bead loads -> integrate -> rope constraints -> tethers
//   -> beads slide -> anchors -> guard -> normals
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "springkit/model.hpp"

namespace springkit {

class Simulation {
public:
    /// Validates the model (throws springkit::Error) and starts at rest positions.
    explicit Simulation(const Model& model);

    /// Advances by frame_dt seconds in ceil(frame_dt / max_substep) equal substeps.
    /// Throws SimulationError, naming the node or spring and suggesting a smaller
    /// substep or lower k, when the state turns non-finite or the energy runs away.
    /// A failed simulation keeps throwing the same error until reset().
    void step(float frame_dt);

    /// Back to rest positions, zero velocity, time 0.
    void reset();

    const Model& model() const { return *model_; }
    double time() const { return time_; }
    std::uint64_t substeps_taken() const { return substeps_; }

    std::span<const Vec3> positions() const { return positions_; }
    std::span<const Vec3> velocities() const { return velocities_; }
    /// Unit vertex normals, recomputed every step from the faces (area weighted).
    /// Empty when the model has no faces.
    std::span<const Vec3> normals() const { return normals_; }

    /// Kinetic energy, J.
    double kinetic_energy() const;
    /// Gravity potential (relative to y = 0) plus spring potential, J.
    double potential_energy() const;

    /// Moves a node (and zeroes its velocity); for games and the editor's dragging.
    void set_position(std::uint32_t node, Vec3 p);
    void set_velocity(std::uint32_t node, Vec3 v);
    /// Changes the velocity of a velocity-driven anchor at run time (Tunca's keys).
    void set_anchor_velocity(std::size_t anchor, Vec3 v);
    /// Places an anchor (any drive) at p from now on: dragging an anchor.
    void set_anchor_position(std::size_t anchor, Vec3 p);

    /// Extra force applied to a node during the next step() only, N.
    void apply_force(std::uint32_t node, Vec3 f);

    /// Where each of the model's beads is (Model::beads, same order), m.
    std::span<const Vec3> bead_positions() const { return bead_positions_; }
    /// Each bead's place along its chain, in segments from its first node.
    std::span<const float> bead_places() const { return bead_place_; }
    /// The air velocity now: wind plus the gust blowing (Parameters::gust), m/s.
    Vec3 current_wind() const { return wind_; }

private:
    void substep(float dt, float velocity_keep);
    void accumulate_forces();
    void integrate(float dt, float velocity_keep);
    void solve_rope_constraints();
    void apply_anchors(float dt);
    // Stages of the attachments (simulation_attachments.cpp).
    void apply_bead_loads();
    void apply_tethers(float dt);
    void slide_beads(float dt, float velocity_keep);
    void update_bead_positions();
    void recompute_normals();
    void check_state();
    void build_face_adjacency();

    const Model* model_;
    std::vector<float> inverse_mass_;    ///< 1/kg; 0 for anchored nodes
    std::vector<Vec3> positions_;
    std::vector<Vec3> previous_;         ///< Verlet's previous positions
    std::vector<Vec3> velocities_;
    std::vector<Vec3> forces_;
    std::vector<Vec3> external_;         ///< apply_force() accumulator, cleared per step
    std::vector<Vec3> unconstrained_;    ///< positions before rope constraints (scratch)
    std::vector<Vec3> normals_;
    std::vector<Vec3> face_normals_;
    std::vector<std::uint32_t> node_face_start_;  ///< CSR: faces of node i are
    std::vector<std::uint32_t> node_faces_;       ///< node_faces_[start[i] .. start[i+1])
    std::vector<std::uint32_t> hooke_;   ///< indices of Hooke springs in the model
    std::vector<std::uint32_t> ropes_;   ///< indices of rope constraints
    std::vector<float> spring_k_;        ///< resolved k per model spring
    struct AnchorState {
        Vec3 origin;   ///< where the drive started
        float angle = 0.0f;
    };
    std::vector<AnchorState> anchor_state_;
    std::vector<Vec3> constant_external_; ///< Model::constant_forces summed per node
    std::vector<float> bead_place_;      ///< segments from the bead's first node
    std::vector<float> bead_speed_;      ///< m/s along the rope, towards its last node
    std::vector<Vec3> bead_positions_;
    Vec3 wind_{};                        ///< air velocity during this frame
    std::vector<Vec3> anchor_velocity_;
    double time_ = 0.0;
    std::uint64_t substeps_ = 0;
    double speed_bound_ = 0.0;           ///< m/s, a node faster than this is a runaway
    std::string failure_;                ///< set once the simulation blew up
};

}  // namespace springkit
