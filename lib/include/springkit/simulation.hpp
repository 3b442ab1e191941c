// springkit — Simulation: the per-instance state of one running Model.
//
// The Model is shared and must outlive the Simulation and stay unchanged while it
// runs (to edit, change a copy of the Model, make a Simulation of it and
// carry_state_from() the running one, or call reset()). Each step runs named stages
// over flat arrays (Box2D/Jolt style):
//   accumulate forces -> bead loads -> integrate -> rope constraints -> tethers
//   -> beads slide -> anchors -> guard -> normals
// (the batched kernel runs the first three window by window in one pass through
// the nodes when there are no beads: Simulation::window_pass in simulation.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "springkit/model.hpp"

namespace springkit {

/// How the Hooke springs' forces are summed each substep. Both compute each
/// spring's force with the same formula, the batched kernel with a 1/length
/// accurate to 2.5 ulp instead of a square root and a division; they add the
/// forces into the nodes in a different order, so results differ only by float
/// rounding (tests/core/test_kernels.cpp states the tolerance).
enum class SpringKernel : std::uint8_t {
    /// One pass over the model's springs in file order, +F on one end and -F on the
    /// other (Oliveira listing 1 and his optimisation note). Single-threaded.
    reference,
    /// Springs regrouped at start into runs of consecutive nodes with a constant
    /// index offset, short gaps allowed (grids, and meshes ordered for
    /// locality, are mostly such runs),
    /// summed with loops the compiler vectorises, split over the threads by node
    /// ranges. Bit-identical for any thread count.
    batched,
};

struct SimulationOptions {
    /// Threads that step this simulation (the caller plus threads - 1 workers it
    /// owns). 1 = the calling thread only. Results do not depend on it.
    int threads = 1;
    SpringKernel kernel = SpringKernel::batched;
};

namespace detail {
class WorkerPool;
/// The worker threads of one Simulation; a copied Simulation gets its own.
class Team {
public:
    Team();
    ~Team();
    Team(const Team& other);
    Team& operator=(const Team& other);
    Team(Team&&) noexcept;
    Team& operator=(Team&&) noexcept;
    int size() const;
    void resize(int count);
    WorkerPool* pool() const { return pool_.get(); }

private:
    std::unique_ptr<WorkerPool> pool_;
};
}  // namespace detail

/// step() refuses a frame that would need more substeps than this (a game passing
/// a wild frame time must not freeze).
inline constexpr std::uint64_t kMaxSubstepsPerStep = 10'000'000;

class Simulation {
public:
    /// Springs the batched kernel computes together (a vector register's worth).
    static constexpr std::size_t kBlock = 16;

    /// Validates the model (throws springkit::Error) and starts at rest positions.
    explicit Simulation(const Model& model, const SimulationOptions& options = {});

    /// Advances by frame_dt seconds in ceil(frame_dt / max_substep) equal substeps.
    /// Throws SimulationError, naming the node or spring and suggesting a smaller
    /// substep or lower k, when the state turns non-finite or the energy runs away.
    /// A failed simulation keeps throwing the same error until reset(). Throws
    /// springkit::Error for a frame_dt that is negative, not finite, or would need
    /// more than kMaxSubstepsPerStep substeps.
    void step(float frame_dt);

    /// Back to rest positions, zero velocity, time 0.
    void reset();

    /// Takes over the running state of `previous`, a simulation of another version
    /// of this model with the same nodes (the editor rebuilds the Simulation after
    /// every edit and calls this, so the model swings on instead of starting over).
    /// What carries over:
    ///  - time() and substeps_taken(): gusts (Parameters::gust) keep their timing;
    ///  - every node's position and velocity (and Verlet's previous position), and
    ///    forces given with apply_force() for the next step;
    ///  - each anchor's drive state, matched by node: an anchor on the same node
    ///    with the same drive keeps where it holds its node; a circle drive with
    ///    the same center and axis keeps its place on the circle and its radius
    ///    (also one set with set_anchor_circle()); the angular speed of a circle
    ///    drive and the velocity of a velocity drive stay as they are now (also
    ///    when set at run time) unless the edit changed that value in the model,
    ///    which then wins. Any other anchor (new, on another drive, or a circle
    ///    with a new center or axis) starts afresh but from where its node is now,
    ///    not its rest position: it holds the node there, a circle turning from
    ///    there at the model's speed;
    ///  - each bead's place and speed along its rope, when both models have as
    ///    many beads and this one sits on the same chain (first, last) with the
    ///    same start; otherwise it starts at its start, at rest.
    /// Threads and kernel stay as this simulation was made with. With an unchanged
    /// model, stepping on gives bit for bit what stepping `previous` on would
    /// (with the same kernel, any thread counts). Throws springkit::Error, changing
    /// nothing, when the node counts differ or `previous` has failed (see step()).
    void carry_state_from(const Simulation& previous);

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
    /// Changes a circle-driven anchor at run time, as Garrido's jump-rope keys do:
    /// its radius (m, distance from Anchor::center across the axis, > 0) and its
    /// angular speed (rad/s), keeping where on the circle it is now. Throws
    /// springkit::Error for an index out of range, another drive or radius <= 0.
    void set_anchor_circle(std::size_t anchor, float radius, float angular_speed);
    /// The radius (m) and angular speed (rad/s) a circle-driven anchor turns with now.
    float anchor_circle_radius(std::size_t anchor) const;
    float anchor_angular_speed(std::size_t anchor) const;

    /// Extra force applied to a node during the next step() only, N.
    void apply_force(std::uint32_t node, Vec3 f);

    /// Where each of the model's beads is (Model::beads, same order), m.
    std::span<const Vec3> bead_positions() const { return bead_positions_; }
    /// Each bead's place along its chain, in segments from its first node.
    std::span<const float> bead_places() const { return bead_place_; }
    /// The air velocity now: wind plus the gust blowing (Parameters::gust), m/s.
    Vec3 current_wind() const { return wind_; }

    /// Threads that step this simulation from now on (>= 1); results stay
    /// bit-identical. Starts or stops the owned worker threads.
    void set_threads(int threads);
    int threads() const { return team_.size(); }
    SpringKernel kernel() const { return kernel_; }

private:
    /// One float array per coordinate: the layout the vectorised loops stream.
    struct Vec3Array {
        std::vector<float> x, y, z;
        void assign(std::size_t n, Vec3 v);
        void assign(const std::vector<Vec3>& v);
        Vec3 get(std::size_t i) const { return {x[i], y[i], z[i]}; }
        void set(std::size_t i, Vec3 v) { x[i] = v.x; y[i] = v.y; z[i] = v.z; }
    };
    /// Springs a -> a + offset for count consecutive a. Unless uniform, k, k * rest
    /// and damping of the run are run_k_[first .. first + count), run_k_rest_[...],
    /// run_damping_[...] (gaps in the run: springs with all three 0).
    struct SpringRun {
        std::uint32_t a = 0;
        std::uint32_t offset = 0;
        std::uint32_t count = 0;
        std::uint32_t first = 0;
        bool uniform = false;  ///< no gaps, every spring has the same rest and k (regular grids)
        float k = 0.0f, k_rest = 0.0f, damping = 0.0f;  ///< of every spring, when uniform
    };
    /// A spring that is part of no run, with its resolved k.
    struct LooseSpring {
        std::uint32_t a = 0, b = 0;
        float rest = 0.0f, k = 0.0f;
    };
    /// What one thread does with one run or loose spring: compute the springs
    /// [begin, end) of it, add +F to the a ends in [a_begin, a_end) and -F to the
    /// b ends in [b_begin, b_end) (all relative to the run's first spring).
    struct Piece {
        std::uint32_t item = 0;   ///< index into runs_
        std::uint32_t begin = 0, end = 0;
        std::uint32_t a_begin = 0, a_end = 0;
        std::uint32_t b_begin = 0, b_end = 0;
    };
    /// Loose springs of one thread as arrays, in order of a, and a block of
    /// padding past the end.
    struct LooseSprings {
        std::vector<std::uint32_t> a, b;
        std::vector<float> k, k_rest;  ///< k and k * rest
    };
    /// Faces (first + i + o[0], first + i + o[1], first + i + o[2]) for i in
    /// [0, count) (simulation_normals.cpp). With gaps, face_run_open_[open + i]
    /// says which are in the model. A paired run holds two shapes that alternate
    /// (a grid whose cells alternate their diagonal): where face_run_pick_[pick + i]
    /// is 1, the face's third corner is first + i + o[3] instead.
    struct FaceRun {
        std::uint32_t first = 0, count = 0;
        std::uint32_t o[4] = {0, 0, 0, 0};
        std::uint32_t open = 0, pick = 0;
        bool gaps = false, paired = false;
    };
    /// What one thread does with one face run: compute the normals of faces
    /// [begin, end) and add those of [corner_begin[c], corner_end[c]) to corner c
    /// (corner 3: the third corner of a paired run's picked faces).
    struct FacePiece {
        std::uint32_t item = 0;  ///< index into face_runs_
        std::uint32_t begin = 0, end = 0;
        std::uint32_t corner_begin[4] = {0, 0, 0, 0}, corner_end[4] = {0, 0, 0, 0};
    };
    /// The springs whose first node lies in one window of the node order
    /// (window_pass()), as one thread sees them: pieces and loose springs up to
    /// these ends, from where the previous window's ended.
    struct Window {
        std::uint32_t node_begin = 0, node_end = 0;  ///< the window's nodes this thread owns
        std::uint32_t pieces_end = 0;
        std::uint32_t loose_end = 0;
    };
    struct Partition {
        std::uint32_t node_begin = 0, node_end = 0;  ///< the nodes this thread owns
        /// Nodes [node_begin, shared_low_end) and [shared_high_begin, node_end) are
        /// read by the neighbouring threads' springs: integrated after theirs.
        std::uint32_t shared_low_end = 0, shared_high_begin = 0;
        std::vector<Window> windows;                 ///< whose springs reach its nodes, in order
        std::vector<Piece> pieces;                   ///< runs touching them, in run order
        LooseSprings loose;                          ///< loose springs touching them, in order
        std::vector<FacePiece> face_pieces;          ///< face runs touching its nodes, in order
        std::vector<std::uint32_t> loose_faces;      ///< loose faces touching them (into loose_faces_)
        /// Scratch for the values of one run (forces, normals): see kScratchStride
        /// in batched_loops.hpp. Set once, so that nothing read is indeterminate.
        std::vector<float> scratch;
    };

    void substep(float dt, float velocity_keep);
    void accumulate_node_forces(std::uint32_t begin, std::uint32_t end);
    void accumulate_springs_reference();
    void window_pass(Partition& part, bool then_integrate, float dt, float velocity_keep);
    void sum_springs(Partition& part, std::uint32_t pieces_begin, std::uint32_t pieces_end,
                     std::uint32_t loose_begin, std::uint32_t loose_end);
    void integrate(float dt, float velocity_keep);
    void integrate_range(std::uint32_t begin, std::uint32_t end, float dt, float velocity_keep);
    void solve_rope_constraints();
    void apply_anchors(float dt);
    // Stages of the attachments (simulation_attachments.cpp).
    void apply_bead_loads();
    void apply_tethers(float dt);
    void slide_beads(float dt, float velocity_keep);
    void update_bead_positions();
    // Parts of carry_state_from() (simulation_carry.cpp).
    void carry_anchors(const Simulation& previous);
    void carry_beads(const Simulation& previous);
    void recompute_normals();
    void check_state();
    void build_face_runs();
    void build_face_pieces(Partition& p) const;
    void normals_of(Partition& part);
    void build_spring_runs();
    void build_partitions();

    const Model* model_;
    SpringKernel kernel_ = SpringKernel::batched;
    detail::Team team_;
    std::vector<Partition> partitions_;  ///< one per thread
    // Node state used by the step (structure of arrays).
    std::vector<float> inverse_mass_;    ///< 1/kg; 0 for anchored nodes
    std::vector<float> mass_;            ///< kg
    Vec3Array x_;                        ///< positions
    Vec3Array v_;                        ///< velocities
    Vec3Array f_;                        ///< forces of the current substep
    Vec3Array previous_;                 ///< Verlet's previous positions
    Vec3Array external_;                 ///< apply_force() and constant forces, reset per step
    bool external_applied_ = false;      ///< apply_force() was called since the last reset of external_
    bool has_constant_forces_ = false;   ///< external_ is not all zero between steps
    bool uniform_mass_ = false;          ///< every node has common_mass_
    float common_mass_ = 1.0f;           ///< kg, node 0's mass
    bool moves_anchors_freely_ = false;  ///< no ropes, tethers or beads read anchored nodes mid-substep
    std::vector<Vec3> unconstrained_;    ///< positions before rope constraints (scratch)
    // What the accessors show, refreshed at the end of every step().
    std::vector<Vec3> positions_;
    std::vector<Vec3> velocities_;
    std::vector<Vec3> normals_;
    Vec3Array normal_sums_;              ///< per node, before normalising
    std::vector<FaceRun> face_runs_;
    std::vector<float> face_run_open_;    ///< 1 for a face of the model, 0 for a gap
    std::vector<float> face_run_pick_;    ///< paired runs: 1 where the face takes corner o[3]
    std::vector<std::array<std::uint32_t, 3>> loose_faces_;  ///< faces in no run
    std::vector<std::uint32_t> hooke_;   ///< indices of Hooke springs in the model
    std::vector<std::uint32_t> ropes_;   ///< indices of rope constraints
    std::vector<float> spring_k_;        ///< resolved k per model spring
    std::vector<SpringRun> runs_;        ///< batched kernel: Hooke springs by (offset, a)
    std::vector<float> run_k_;
    std::vector<float> run_k_rest_;
    std::vector<float> run_damping_;
    std::vector<LooseSpring> loose_;     ///< batched kernel: springs in no run
    std::uint32_t max_offset_ = 0;       ///< batched kernel: largest b - a of a spring
    std::vector<std::size_t> first_bad_; ///< check_state(): first bad node per thread
    struct AnchorState {
        Vec3 origin;   ///< where the drive started
        double angle = 0.0;          ///< rad in [0, 2 pi), circle drives: turned since origin
        float angular_speed = 0.0f;  ///< rad/s, circle drives (set_anchor_circle changes it)
    };
    std::vector<AnchorState> anchor_state_;
    std::vector<Vec3> constant_external_; ///< Model::constant_forces summed per node
    std::vector<float> bead_place_;      ///< segments from the bead's first node
    std::vector<float> bead_speed_;      ///< m/s along the rope, towards its last node
    std::vector<Vec3> bead_positions_;
    Vec3 wind_{};                        ///< air velocity during this frame
    std::vector<Vec3> anchor_velocity_;
    double substep_seconds_ = 0.0;       ///< s, frame_dt / substeps of the current step, in double
    float verlet_keep_ = 1.0f;           ///< Verlet velocity kept per substep: verlet_damping^(dt * 60)
    double time_ = 0.0;
    std::uint64_t substeps_ = 0;
    double speed_bound_ = 0.0;           ///< m/s, a node faster than this is a runaway
    std::string failure_;                ///< set once the simulation blew up
};

}  // namespace springkit
