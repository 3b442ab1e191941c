// springkit — the kernel's private layout: the prepared body shared by every
// instance of a model, and the per-instance state a Simulation points to. Not
// installed; games see lib/include/springkit/simulation.hpp only.
//
// The split follows Jolt's SoftBodySharedSettings / SoftBodyMotionProperties:
// what is derived once from a model (its validated copy, masses, spring runs,
// face runs, loose springs and faces) is immutable and reference counted, and
// an instance holds its node state, settings, thread partitions and scratch.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "simulation/implicit_solver.hpp"
#include "simulation/volume_elements.hpp"
#include "collision/collision_state.hpp"
#include "collision/self_collision.hpp"
#include "simulation/worker_pool.hpp"
#include "springkit/simulation.hpp"

namespace springkit {
namespace detail {

/// One float array per coordinate: the layout the vectorised loops stream.
struct Vec3Array {
    std::vector<float> x, y, z;
    void assign(std::size_t n, Vec3 v);
    void assign(const std::vector<Vec3>& v);
    /// The first n entries as Vec3s into `out` (resized to n).
    void copy_to(std::vector<Vec3>& out, std::size_t n) const;
    Vec3 get(std::size_t i) const { return {x[i], y[i], z[i]}; }
    void set(std::size_t i, Vec3 v) { x[i] = v.x; y[i] = v.y; z[i] = v.z; }
};
/// Springs a -> a + offset for count consecutive a. Unless uniform, k, k * rest
/// and damping of the run are run_k[first .. first + count), run_k_rest[...],
/// run_damping[...] (gaps in the run: springs with all three 0).
struct SpringRun {
    std::uint32_t a = 0;
    std::uint32_t offset = 0;
    std::uint32_t count = 0;
    std::uint32_t first = 0;
    bool uniform = false;  ///< no gaps, every spring has the same rest and k (regular grids)
    /// No gaps and every spring has the same k (so the same damping), while
    /// the rest lengths may differ (a cloth whose rest lengths come from float
    /// positions differs in their last bits): the loop reads k and damping
    /// from the run and only k * rest per spring. Implied by uniform.
    /// Same k also means the same source of damping (the same spring group's
    /// own, or the instance's spring_damping for all).
    bool same_k = false;
    float k = 0.0f, k_rest = 0.0f, damping = 0.0f;  ///< of every spring: k, damping when same_k, all when uniform
    float rest = 0.0f;     ///< of every spring, when uniform
    float own_damping = -1.0f;  ///< of every spring, when same_k: its group's, or -1 (the instance's)
};
/// What one thread does with one run or loose spring: compute the springs
/// [begin, end) of it, add +F to the a ends in [a_begin, a_end) and -F to the
/// b ends in [b_begin, b_end) (all relative to the run's first spring).
struct Piece {
    std::uint32_t item = 0;   ///< index into the runs
    std::uint32_t begin = 0, end = 0;
    std::uint32_t a_begin = 0, a_end = 0;
    std::uint32_t b_begin = 0, b_end = 0;
};
/// Loose springs (Hooke springs in no run) as arrays, in order of a, and a
/// block of padding past the end: springs from the thread's first node to
/// itself, of no force.
struct LooseSprings {
    std::vector<std::uint32_t> a, b;
    std::vector<float> k, k_rest;  ///< k and k * rest
    std::vector<float> damping;    ///< read only when SpringValues::per_spring_damping
    /// Every spring has k[0] (converted meshes: one k for all): the packed
    /// loop (simulation.cpp) reads k once.
    bool one_k = false;
};
/// Faces (first + i + o[0], first + i + o[1], first + i + o[2]) for i in
/// [0, count) (simulation_normals.cpp). With gaps, face_run_open[open + i]
/// says which are in the model. A paired run holds two shapes that alternate
/// (a grid whose cells alternate their diagonal): where face_run_pick[pick + i]
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
    std::uint32_t item = 0;  ///< index into the face runs
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
    /// The only thread: its loose springs are all of them, read from
    /// SpringValues::loose instead of `loose` (left empty).
    bool shares_loose = false;
    std::vector<FacePiece> face_pieces;          ///< face runs touching its nodes, in order
    std::vector<std::uint32_t> loose_faces;      ///< loose faces touching them (into loose_faces)
    /// Its nodes are all of them: every loose face touches them, in order,
    /// and `loose_faces` is left empty (it would list 0, 1, 2, ...).
    bool all_loose_faces = false;
    /// Scratch for the values of one run (forces, normals): see kScratchStride
    /// in batched_loops.hpp. Set once, so that nothing read is indeterminate.
    std::vector<float> scratch;
};

/// The spring values the step reads: per run and per model spring. The prepared
/// body holds those of its model; an instance with its own stiffness scale or
/// spring damping holds a copy refilled from them (same layout, O(springs)).
struct SpringValues {
    std::vector<SpringRun> runs;      ///< batched kernel: Hooke springs by (offset, a)
    std::vector<float> run_k;
    std::vector<float> run_k_rest;
    std::vector<float> run_damping;   ///< empty unless damped (the loops read it only then)
    /// Batched kernel: the springs in no run, with their k, k * rest and,
    /// with per_spring_damping only, damping; padded from node 0 (the
    /// layout of the one thread of an instance, which reads these).
    LooseSprings loose;
    std::uint32_t loose_count = 0;    ///< loose springs before the padding
    /// Resolved k per model spring; empty when every spring has common_k.
    std::vector<float> spring_k;
    /// Resolved inner friction per model spring; empty when every spring has
    /// common_damping (no spring group sets its own).
    std::vector<float> spring_damping;
    float common_k = 0.0f, common_damping = 0.0f;
    float k_of(std::size_t spring) const { return spring_k.empty() ? common_k : spring_k[spring]; }
    float damping_of(std::size_t spring) const {
        return spring_damping.empty() ? common_damping : spring_damping[spring];
    }
    /// Some spring has damping > 0: the kernels take their damped loops.
    bool damped = false;
    /// Some spring group sets its own damping: loose springs read theirs one by
    /// one (runs with values per spring always do; uniform runs hold one).
    bool per_spring_damping = false;
};

/// Empties `v` and gives its memory back (a vector's `v = {}` and clear()
/// keep the capacity; a new empty value, moved in, does not).
template <class Value>
void release(Value& v) {
    v = Value();
}

/// Throws springkit::Error, naming `who`, for a transform that is not finite or
/// whose rotation is not a unit quaternion (simulation_transform.cpp).
void check_transform(const Transform& t, const char* who);
/// Throws springkit::Error for sleep settings out of range (simulation_sleep.cpp).
void validate_sleep(const SleepSettings& sleep);

}  // namespace detail

/// Everything derived once from a model; immutable once prepare() returns it,
/// so any number of instances on any threads may read it at once.
class PreparedBody {
public:
    explicit PreparedBody(Model model);

    Model model;                           ///< the validated copy every instance runs
    std::vector<float> inverse_mass;       ///< 1/kg; 0 for anchored nodes
    std::vector<float> mass;               ///< kg per node; empty when uniform_mass
    bool uniform_mass = false;             ///< every node has common_mass
    float common_mass = 1.0f;              ///< kg, node 0's mass
    float mass_of(std::size_t node) const { return mass.empty() ? common_mass : mass[node]; }
    bool moves_anchors_freely = false;     ///< no ropes, tethers or beads read anchored nodes mid-substep
    /// Indices of Hooke springs in the model; empty when every spring is one
    /// (for_each_hooke() visits them either way).
    std::vector<std::uint32_t> hooke;
    std::vector<std::uint32_t> ropes;      ///< indices of rope constraints
    /// f(i) for the index i of every Hooke spring, in model order.
    template <class F>
    void for_each_hooke(F&& f) const {
        if (ropes.empty())
            for (std::size_t i = 0; i < model.springs.size(); ++i) f(static_cast<std::uint32_t>(i));
        else
            for (std::uint32_t i : hooke) f(i);
    }
    std::shared_ptr<const detail::SpringValues> springs;  ///< with the model's k and damping
    /// Rest length per run slot, 0 in gaps (a spring's rest is > 0): refills
    /// k * rest, and says which slots hold a spring when damping is refilled.
    std::vector<float> run_rest;
    /// Per run slot: its group's damping, or -1 (the instance's); empty
    /// without group_damping (all -1).
    std::vector<float> run_own_damping;
    std::vector<float> loose_rest;         ///< rest length per loose spring: refills k * rest
    /// Per loose spring: its group's damping, or -1; empty without group_damping.
    std::vector<float> loose_own_damping;
    /// Per model spring: its group's damping, or -1; empty without group_damping.
    std::vector<float> own_damping;
    bool group_damping = false;            ///< some spring group sets its own damping
    float own_damping_of(std::size_t spring) const { return own_damping.empty() ? -1.0f : own_damping[spring]; }
    float run_own_damping_of(std::size_t slot) const {
        return run_own_damping.empty() ? -1.0f : run_own_damping[slot];
    }
    std::uint32_t max_offset = 0;          ///< batched kernel: largest b - a of a spring
    std::vector<detail::FaceRun> face_runs;
    std::vector<float> face_run_open;      ///< 1 for a face of the model, 0 for a gap
    std::vector<float> face_run_pick;      ///< paired runs: 1 where the face takes corner o[3]
    std::vector<std::array<std::uint32_t, 3>> loose_faces;  ///< faces in no run
    /// Model::constant_forces summed per node; empty when they sum to zero
    /// everywhere (most models: no node array held for nothing).
    std::vector<Vec3> constant_external;
    bool has_constant_forces = false;      ///< constant_external is not empty
    /// Model::volume_elements as the stage reads them, with each element's
    /// 6 V0 and 1 / (36 G) at rest (volume_elements.hpp).
    detail::VolumeElementArrays volume_elements;
    Vec3 constant_at(std::size_t node) const { return constant_external.empty() ? Vec3{} : constant_external[node]; }
    // The runaway bound (see Simulation::Impl::speed_bound_) in its parts.
    double diagonal = 0.0;                 ///< m, of the model's bounding box
    double drive_speed = 0.0;              ///< m/s, the fastest anchor drive
    double spring_speed = 0.0;             ///< m/s, max over nodes of sqrt(sum k / m) * diagonal
    float scale = 1.0f;                    ///< of the prepared model (scaled())

    /// A copy of this body at uniform scale s (> 0): positions, rest lengths,
    /// circle centres, tether points and lengths and tube radii times s, masses
    /// and k as they are; the same layout, not derived again
    /// (simulation_scale.cpp).
    std::shared_ptr<const PreparedBody> scaled(float s) const;
    /// m/s, the fastest anchor drive of a model (a velocity, or a circle's
    /// angular speed times its radius).
    static double fastest_drive(const Model& model);

private:
    void build_spring_runs(detail::SpringValues& values);
    void build_face_runs();
};

class Simulation::Impl {
public:
    Impl(std::shared_ptr<const PreparedBody> body, const SimulationOptions& options);

    StepResult step(float frame_dt);
    void reset();
    void carry_state_from(const Impl& previous);
    void set_parameters(const Parameters& params);
    void set_stiffness_scale(float scale);
    double kinetic_energy() const;
    double potential_energy() const;
    void set_position(std::uint32_t node, Vec3 p);
    void set_velocity(std::uint32_t node, Vec3 v);
    void set_anchor_velocity(std::size_t anchor, Vec3 v);
    void set_anchor_position(std::size_t anchor, Vec3 p);
    void set_anchor_circle(std::size_t anchor, float radius, float angular_speed);
    float anchor_circle_radius(std::size_t anchor) const;
    float anchor_angular_speed(std::size_t anchor) const;
    void apply_force(std::uint32_t node, Vec3 f);
    // Placement and whole-body quantities (simulation_transform.cpp).
    void teleport(const Transform& to, bool keep_velocity);
    void move_rigidly(const Quat& q, Vec3 shift, bool keep_velocity);
    Bounds bounds() const;
    double total_mass() const;
    Vec3 center_of_mass() const;
    Vec3 linear_momentum() const;
    Vec3 angular_momentum() const;
    void add_impulse(Vec3 impulse);
    void add_velocity(Vec3 dv);
    // Saved states (simulation_state.cpp).
    std::vector<std::byte> save_state() const;
    void restore_state(std::span<const std::byte> bytes);
    std::uint64_t state_body_hash() const;
    void set_threads(int threads);
    // Runaway policies (simulation_runaway.cpp).
    void keep_last_good();
    void restore_last_good();
    void report_runaway(StepResult& result);
    // Anchor targets (simulation_targets.cpp).
    void set_anchor_target(std::size_t anchor, Vec3 target);
    void set_anchor_group_target(std::span<const std::size_t> anchors, const Transform& frame);
    void begin_anchor_targets(std::uint64_t substeps);
    void apply_anchor_targets(float dt);
    void end_anchor_targets();
    void clear_anchor_targets();
    // Sleeping (simulation_sleep.cpp).
    void watch_sleep(double seconds);
    void fall_asleep();
    void wake();

    /// What every stage of one substep gets: its length and the velocity kept.
    struct StageArgs {
        float dt = 0.0f;             ///< s
        float velocity_keep = 1.0f;  ///< energy_loss^(dt * 60)
    };
    /// One named stage of the step (kStages in simulation.cpp).
    struct Stage {
        const char* name;
        enum When : unsigned char { every_substep, every_frame } when;
        void (*run)(Impl&, const StageArgs&);
    };
    static const Stage kStages[14];
    /// The position of the stage called `name` in kStages (fused passes say by
    /// name where the list goes on, so that inserting a stage cannot skew them).
    static std::size_t stage_index(std::string_view name);

    void substep(const StageArgs& args);
    std::size_t fused_window_pass(const StageArgs& args);
    void stage_forces(const StageArgs& args);
    void stage_bead_loads(const StageArgs& args);
    void stage_integrate(const StageArgs& args);
    void stage_rope_constraints(const StageArgs& args);
    void stage_tethers(const StageArgs& args);
    void stage_beads(const StageArgs& args);
    void stage_anchors(const StageArgs& args);
    void stage_guard(const StageArgs& args);
    void stage_normals(const StageArgs& args);
    // Colliders and pressure (lib/src/collision/).
    void stage_pressure(const StageArgs& args);
    void stage_volume_elements(const StageArgs& args);
    /// With more than one thread, the batched "forces" stage also computes the
    /// volume elements' forces (positions do not move until "integrate"), each
    /// thread every size()-th block, into element_forces_; the stage then only
    /// adds them, in the elements' order. The same bits as one thread, in no
    /// extra fork-join. Whether this substep does so (then element_forces_ is
    /// sized for it):
    bool prepare_element_forces_ahead();
    void compute_element_blocks(int task, int tasks);
    /// True when a stage between "forces" and "integrate" adds forces this
    /// substep: bead loads, the gas's pressure, volume elements.
    bool has_loads() const {
        return !model_->beads.empty() || params_.pressure > 0.0f ||
               (params_.volume_stiffness > 0.0f && !model_->volume_elements.empty());
    }
    void stage_self_collision(const StageArgs& args);
    void stage_contacts(const StageArgs& args);
    void stage_contact_report(const StageArgs& args);
    void record_contact(std::uint32_t node, ColliderId collider, Vec3 impulse, Vec3 point, Vec3 normal);
    void gather_candidates(const Collider& c, const Transform& pose, float margin, float dt);
    void clear_contacts();
    // What the stages call.
    void accumulate_node_forces(std::uint32_t begin, std::uint32_t end);
    void accumulate_springs_reference();
    void window_pass(detail::Partition& part, bool then_integrate, float dt, float velocity_keep);
    void sum_springs(detail::Partition& part, std::uint32_t pieces_begin, std::uint32_t pieces_end,
                     std::uint32_t loose_begin, std::uint32_t loose_end);
    void integrate(float dt, float velocity_keep);
    void integrate_range(std::uint32_t begin, std::uint32_t end, float dt, float velocity_keep);
    void solve_rope_constraints();
    void apply_anchors(float dt);
    // Integrator::implicit in place of forces and integration (implicit_solver.cpp).
    std::size_t implicit_pass(const StageArgs& args);
    void limit_strain(float limit, bool attachments);
    void strain_limit_global_step(float stretch);
    void support_on_contacts(float dt);
    // Stages of the attachments (simulation_attachments.cpp).
    void apply_bead_loads();
    void apply_tethers(float dt);
    void slide_beads(float dt, float velocity_keep);
    void update_bead_positions();
    // Parts of carry_state_from() (simulation_carry.cpp).
    void carry_anchors(const Impl& previous);
    void carry_beads(const Impl& previous);
    /// The face normals from the positions, summed in f_ (which holds nothing
    /// between two steps' force passes): from 0 as they are, with
    /// `sums_zeroed` (the guard's pass zeroed them), else zeroed first.
    void recompute_normals(bool sums_zeroed = false);
    void check_state();
    void build_face_pieces(detail::Partition& p) const;
    void normals_of(detail::Partition& part, bool sums_zeroed);
    void build_partitions();
    void follow_thread_choice();
    void choose_gather_state();
    void pack_gather_state();
    void refill_springs();
    Vec3 external_at(std::size_t node) const { return external_.x.empty() ? Vec3{} : external_.get(node); }
    /// Sets external_ to the constant forces: empty when there are none.
    void reset_external();
    void update_speed_bound();

    std::shared_ptr<const PreparedBody> body_;
    const PreparedBody* b_;                ///< body_.get()
    const Model* model_;                   ///< &b_->model
    Parameters params_;                    ///< this instance's settings (set_parameters())
    float stiffness_scale_ = 1.0f;
    std::shared_ptr<const detail::SpringValues> springs_;  ///< the body's, or this instance's refill
    SpringKernel kernel_ = SpringKernel::batched;
    detail::Team team_;
    std::vector<detail::Partition> partitions_;  ///< one per task of a run (team_.tasks())
    /// The split for the pool's other way (solo or not), once it has been
    /// used: follow_thread_choice() swaps it in.
    std::vector<detail::Partition> spare_partitions_;
    // Node state used by the step (structure of arrays).
    /// The inverse masses the step reads: the body's, or bead_inverse_mass_
    /// with beads (they load their nodes' for a substep).
    const float* inverse_mass() const {
        return bead_inverse_mass_.empty() ? b_->inverse_mass.data() : bead_inverse_mass_.data();
    }
    std::vector<float> bead_inverse_mass_;  ///< models with beads: the body's, changed by their loads
    detail::Vec3Array x_;                ///< positions
    detail::Vec3Array v_;                ///< velocities
    detail::Vec3Array f_;                ///< forces of the current substep
    /// Verlet's previous positions; empty under any other integrator, which
    /// never reads them (set_previous() then does nothing).
    detail::Vec3Array previous_;
    void set_previous(std::size_t node, Vec3 p) {
        if (!previous_.x.empty()) previous_.set(node, p);
    }
    /// apply_force() and constant forces, reset per step; empty while they are
    /// 0 for every node (no constant forces, nothing applied since the reset).
    detail::Vec3Array external_;
    /// Positions and velocities packed per node (x, y, z, vx, vy, vz:
    /// simulation.cpp, kPackedStride), refreshed before each pass over
    /// the springs, for models with many loose springs (their ends are
    /// gathered); empty otherwise.
    std::vector<float> gather_state_;
    /// gather_state_ holds this substep's positions: packed by this substep's
    /// forces stage (the volume elements then gather their corners from it).
    bool gather_state_current_ = false;
    detail::NodePositions element_corner_positions() const {
        return {x_.x.data(), x_.y.data(), x_.z.data(),
                gather_state_current_ && !gather_state_.empty() ? gather_state_.data() : nullptr};
    }
    bool external_applied_ = false;      ///< apply_force() was called since the last reset of external_
    std::vector<Vec3> unconstrained_;    ///< positions before rope constraints (scratch)
    /// The volume elements' forces of this substep, block after block
    /// (detail::kVolumeForceArrays x kVolumeElementBlock floats each), when the
    /// forces stage computed them; element_forces_ready_ until added.
    std::vector<float> element_forces_;
    bool element_forces_ready_ = false;
    detail::ImplicitState implicit_;     ///< Integrator::implicit's layout and scratch
    // What positions() and velocities() show: x_ and v_ as Vec3 arrays, a
    // second copy of the node state (24 bytes a node). Each is empty until
    // its accessor is first called (shown_positions()), and from then on kept
    // equal to x_ or v_ by every step's guard and every call that moves nodes
    // (publish()), so that a span it returned stays valid and current. An
    // instance nobody reads (velocities, mostly; a body simulated off screen)
    // does not hold them. The step never reads them.
    mutable std::vector<Vec3> shown_positions_;
    mutable std::vector<Vec3> shown_velocities_;
    std::span<const Vec3> shown_positions() const;
    std::span<const Vec3> shown_velocities() const;
    /// Brings what the accessors show up to x_ and v_: every node, or one.
    void publish();
    void publish(std::size_t node);
    std::size_t node_count() const { return model_->node_count(); }
    std::vector<Vec3> normals_;
    std::vector<std::size_t> first_bad_; ///< check_state(): first bad node per thread
    struct AnchorState {
        Vec3 origin;   ///< where the drive started
        Vec3 center;   ///< circle drives: Anchor::center as this instance is placed
        Vec3 axis;     ///< circle drives: Anchor::axis turned as this instance is (not normalised)
        double angle = 0.0;          ///< rad in [0, 2 pi), circle drives: turned since origin
        float angular_speed = 0.0f;  ///< rad/s, circle drives (set_anchor_circle changes it)
    };
    std::vector<AnchorState> anchor_state_;
    std::vector<Vec3> tether_point_;     ///< Tether::point as this instance is placed
    Transform placement_{};              ///< where the instance stands (teleport())
    std::vector<float> bead_place_;      ///< segments from the bead's first node
    std::vector<float> bead_speed_;      ///< m/s along the rope, towards its last node
    std::vector<Vec3> bead_positions_;
    Vec3 wind_{};                        ///< air velocity during this frame
    std::vector<Vec3> anchor_velocity_;
    double substep_seconds_ = 0.0;       ///< s, frame_dt / substeps of the current step, in double
    double drive_time_ = 0.0;            ///< s, the start of the current substep (track drives)
    /// Per anchor track: its placed frame at the current substep's start and end
    /// (apply_anchors(), track drives).
    std::vector<Transform> track_before_, track_now_;
    float verlet_keep_ = 1.0f;           ///< Verlet velocity kept per substep: verlet_damping^(dt * 60)
    double time_ = 0.0;
    std::uint64_t substeps_ = 0;
    double speed_bound_ = 0.0;           ///< m/s, a node faster than this is a runaway
    std::string failure_;                ///< set once the simulation blew up
    // What a runaway does, and the frame's budget (SimulationOptions).
    RunawayPolicy runaway_policy_ = RunawayPolicy::throw_error;
    std::uint64_t substep_budget_ = 0;
    struct Runaway {
        RunawayCause cause = RunawayCause::none;
        std::uint32_t node = StepResult::kNone, spring = StepResult::kNone;
    };
    Runaway runaway_;                    ///< what check_state() found, with failure_
    std::string last_failure_;           ///< failure() (kept when a policy clears failure_)
    /// The state a frame started from (RunawayPolicy::restore_last_good), its
    /// members named as the instance's, so that one copy serves both ways.
    struct LastGood {
        detail::Vec3Array x_, v_, previous_;
        std::vector<AnchorState> anchor_state_;
        std::vector<Vec3> anchor_velocity_, tether_point_;
        std::vector<float> bead_place_, bead_speed_;
        std::vector<Transform> anchor_frame_;
        Transform placement_;
        double time_ = 0.0;
        std::uint64_t substeps_ = 0;
    };
    LastGood last_good_;
    // Anchor targets (set_anchor_target(), set_anchor_group_target()).
    struct AnchorTarget {
        bool pending = false;  ///< listed in targeted_
        bool group = false;  ///< moved by a frame (slerp) rather than to a point
        Vec3 from, to;       ///< where the anchor is at the frame's start and end
        Vec3 offset;         ///< group: from - frame_from(rest), faded out over the frame
        Transform frame_from, frame_to;
    };
    std::vector<AnchorTarget> targets_;  ///< per anchor; read for those in targeted_
    std::vector<std::uint32_t> targeted_;  ///< anchors with a target for the next step
    std::vector<Transform> anchor_frame_;  ///< per anchor: the group frame it last followed
    std::uint64_t target_substeps_ = 0;    ///< substeps of the frame the targets span
    std::uint64_t target_substep_ = 0;     ///< substeps of it done
    // Sleeping.
    SleepSettings sleep_;
    bool asleep_ = false;
    double quiet_seconds_ = 0.0;         ///< s the body has been quiet
    mutable std::optional<std::uint64_t> body_hash_;  ///< of the body's model, for saved states
    detail::CollisionState collision_;   ///< colliders, contacts (lib/src/collision/)
    detail::SelfCollisionState self_collision_;  ///< its springs per node and hash (self_collision.cpp)
};

}  // namespace springkit
