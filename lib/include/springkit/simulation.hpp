// springkit — Simulation: one running instance of a prepared model.
//
// prepare() turns a Model into a PreparedBody: its validated copy and the
// layout the kernel streams (spring runs, face runs, thread-independent
// tables), immutable and shared by reference count. A Simulation is one
// instance of it: node state, per-instance settings (set_parameters(),
// set_stiffness_scale()) and its threads. Constructing a Simulation from a
// Model prepares a private body (the Simulation owns its copy of the model, so
// the Model may be a temporary and may change afterwards). docs/GAME_API.md
// explains ownership, threads and the stages of a step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "springkit/colliders.hpp"
#include "springkit/model.hpp"
#include "springkit/transform.hpp"

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

/// What step() does when its guard finds a runaway (a node with a non-finite
/// position or velocity, or faster than the model's speed bound).
enum class RunawayPolicy : std::uint8_t {
    /// Throw SimulationError, and keep throwing it until reset() or
    /// restore_state() (the default).
    throw_error,
    /// Freeze: the nodes stay as the guard found them (positions() may hold
    /// non-finite values) and every later step() does nothing and reports
    /// StepResult::stopped, until reset() or restore_state().
    stop,
    /// reset(): back to the rest pose at placement(), at rest, time 0.
    reset_to_rest,
    /// Back to the state the failed frame started from (taken at the start of
    /// every step(): the nodes' positions, velocities and Verlet's previous
    /// positions, 36 bytes a node, and the anchors', tethers' and beads' state;
    /// one copy a frame). Stepping on with the same settings runs away again:
    /// change them first (a smaller max_substep, a lower stiffness scale).
    restore_last_good,
};

/// Sleeping: an instance whose kinetic energy stays low for a while stops
/// stepping until something wakes it (Simulation::wake() lists what does).
struct SleepSettings {
    bool enabled = false;
    /// J/kg: kinetic energy per kilogram of the whole body below which it is
    /// quiet (1e-4 J/kg = a mean speed of about 1.4 cm/s).
    float energy_per_kg = 1e-4f;
    /// s of simulated time the body must stay quiet to fall asleep.
    float quiet_time = 0.5f;
};

struct SimulationOptions {
    /// Threads that step this simulation (the caller plus threads - 1 workers it
    /// owns). 1 = the calling thread only; 0 = as many as pay off: one per
    /// hardware thread, but at most one per kAutoThreadNodes nodes (a small
    /// model runs on the caller alone, where splitting it costs more in
    /// synchronisation than it saves). While the workers lose more time than
    /// they save (their cores busy with other programs), the steps run on the
    /// caller alone, measured as they run and tried again now and then.
    /// Results do not depend on it.
    int threads = 1;
    SpringKernel kernel = SpringKernel::batched;
    RunawayPolicy runaway = RunawayPolicy::throw_error;
    /// Most substeps one step() runs; 0 = no budget (kMaxSubstepsPerStep only).
    /// See StepResult::dropped_substeps.
    std::uint64_t substep_budget = 0;
    SleepSettings sleep{};
};

/// Why the guard stopped a frame.
enum class RunawayCause : std::uint8_t {
    none,
    non_finite,  ///< a node's position or velocity is infinite or NaN
    too_fast,    ///< a node is faster than the model's speed bound
};

/// What one step() did. Cheap to return (no allocation); Simulation::failure()
/// holds the runaway's message.
struct StepResult {
    /// A node or spring index that names nothing.
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    /// Substeps run this frame.
    std::uint64_t substeps = 0;
    /// Substeps the frame needed beyond SimulationOptions::substep_budget and did
    /// not run: their time (dropped_substeps * the substep) was not simulated, so
    /// time() advanced by substeps * the substep instead of frame_dt and the
    /// instance fell behind the caller's clock by that much. Each substep run is
    /// the one an unbudgeted frame would have run (the same length).
    std::uint64_t dropped_substeps = 0;
    /// The guard found a runaway this frame (the policy has been applied).
    RunawayCause runaway = RunawayCause::none;
    /// The first node (lowest index) found running away, and its stiffest
    /// spring (the usual culprit), or kNone.
    std::uint32_t node = kNone;
    std::uint32_t spring = kNone;
    /// The instance is frozen by RunawayPolicy::stop and did not step.
    bool stopped = false;
    /// The instance sleeps (SleepSettings): it did not step, time() advanced.
    bool asleep = false;

    /// Every substep the frame needed ran and nothing ran away.
    bool ok() const { return dropped_substeps == 0 && runaway == RunawayCause::none && !stopped; }
};

/// The immutable part of a model shared by its instances (defined in the
/// library's private headers; a game holds it by std::shared_ptr only).
class PreparedBody;

/// Validates `model` (throws springkit::Error) and derives the layout every
/// instance of it reads. Instances made from the result share it: making one
/// costs a copy of its node state, not a new layout. Thread-safe to share.
std::shared_ptr<const PreparedBody> prepare(Model model);

/// The validated copy of the model a prepared body holds.
const Model& prepared_model(const PreparedBody& body);

/// step() refuses a frame that would need more substeps than this (a game passing
/// a wild frame time must not freeze).
inline constexpr std::uint64_t kMaxSubstepsPerStep = 10'000'000;

class Simulation {
public:
    /// Springs the batched kernel computes together (a vector register's worth).
    static constexpr std::size_t kBlock = 16;

    /// Prepares a copy of the model (throws springkit::Error for an invalid one)
    /// and starts at rest positions. The Simulation owns that copy: `model` may
    /// be a temporary, and changing it later does not affect this simulation.
    explicit Simulation(const Model& model, const SimulationOptions& options = {});
    explicit Simulation(Model&& model, const SimulationOptions& options = {});
    /// A new instance of a prepared body, at rest positions, with the model's
    /// parameters as its settings. Throws springkit::Error for a null body.
    explicit Simulation(std::shared_ptr<const PreparedBody> body, const SimulationOptions& options = {});
    /// A new instance of a prepared body placed by `placement`: as
    /// Simulation(body) followed by teleport(placement, false). Stepping it gives
    /// what an instance of the model moved by hand with apply() would (nodes,
    /// anchors, drives and tether points).
    Simulation(std::shared_ptr<const PreparedBody> body, const Transform& placement,
               const SimulationOptions& options = {});
    /// A new instance of the body at uniform `scale` about the model's origin,
    /// then placed: a rest point p stands at apply(placement, scale p). Every
    /// length of the model is scaled (rest positions and lengths, circle
    /// centres and so radii, tether points and lengths, tube radii); masses, k,
    /// velocity drives' velocities and the world (gravity, ground, wind) stay
    /// as they are. The instance runs its own scaled copy of the body (same
    /// layout, not derived again; O(nodes + springs)), which body() returns
    /// and model() shows. Throws springkit::Error for a null body or a scale
    /// that is not finite and > 0.
    Simulation(std::shared_ptr<const PreparedBody> body, const Transform& placement, float scale,
               const SimulationOptions& options = {});
    ~Simulation();
    /// A copy has the same state and settings, shares the body and owns its threads.
    Simulation(const Simulation& other);
    Simulation& operator=(const Simulation& other);
    Simulation(Simulation&&) noexcept;
    Simulation& operator=(Simulation&&) noexcept;

    /// Advances by frame_dt seconds in ceil(frame_dt / max_substep) equal substeps
    /// (at most substep_budget(), see StepResult::dropped_substeps) and reports
    /// what happened. When the state turns non-finite or runs away, the
    /// runaway_policy() decides: by default it throws SimulationError, naming the
    /// node or spring and suggesting a smaller substep or lower k, and a failed
    /// simulation keeps throwing the same error until reset(). Throws
    /// springkit::Error for a frame_dt that is negative, not finite, or would need
    /// more than kMaxSubstepsPerStep substeps.
    StepResult step(float frame_dt);

    /// Back to rest positions (at placement()), zero velocity, time 0. The
    /// settings stay (parameters(), stiffness_scale()).
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

    /// The body's model (its parameters as prepared; parameters() holds this
    /// instance's settings).
    const Model& model() const;
    /// The prepared body this instance runs; make more instances of it with
    /// Simulation(sim.body()).
    const std::shared_ptr<const PreparedBody>& body() const;
    double time() const;
    std::uint64_t substeps_taken() const;

    /// The nodes' positions and velocities. Each is a copy of the state the
    /// step works on, which the instance makes on the first call (O(nodes))
    /// and keeps current from then on: the span stays valid and shows the
    /// state after every later step or change, as long as the Simulation
    /// lives. An instance whose velocities nobody asks for never holds them.
    std::span<const Vec3> positions() const;
    std::span<const Vec3> velocities() const;
    /// Unit vertex normals, recomputed every step from the faces (area weighted).
    /// Empty when the model has no faces.
    std::span<const Vec3> normals() const;

    /// Kinetic energy, J.
    double kinetic_energy() const;
    /// Gravity potential (relative to y = 0) plus spring potential, J. Every
    /// node and Hooke spring counts, anchored ones too: a spring between two
    /// fixed anchors adds a constant (0 where they sit at its rest length, as in
    /// the samples and converted models), one between anchors that move apart
    /// (drives, bone tracks on different bones) the energy the motion stores in
    /// it. A potential is defined up to a constant, so only its changes carry
    /// meaning; goldens record this sum and check compares totals with it, so
    /// leaving terms out would fail goldens recorded before.
    double potential_energy() const;

    /// Moves a node (and zeroes its velocity); for games and the editor's dragging.
    void set_position(std::uint32_t node, Vec3 p);
    void set_velocity(std::uint32_t node, Vec3 v);
    /// Changes the velocity of a velocity-driven anchor at run time (Tunca's keys).
    void set_anchor_velocity(std::size_t anchor, Vec3 v);
    /// Places an anchor (any drive) at p from now on: dragging an anchor.
    void set_anchor_position(std::size_t anchor, Vec3 p);
    /// Moves an anchor to `target` (m) over the next step(): evenly across its
    /// substeps, from where it is when the step begins to `target` exactly at
    /// the end of its last substep, its node moving with the velocity
    /// (target - start) / the simulated time. Call it once a frame with where
    /// the game object holding the anchor is at the frame's end: the anchor
    /// neither lags a frame nor jumps. The drive goes on from the target (as
    /// after set_anchor_position()). The last target given before a step wins;
    /// none given: the drive as usual. Throws springkit::Error for an index out
    /// of range or a non-finite target.
    void set_anchor_target(std::size_t anchor, Vec3 target);
    /// Moves a group of anchors as one rigid frame over the next step(): each
    /// to apply(frame, the rest position of its node), i.e. `frame` places the
    /// model's rest coordinates (a cape's shoulders on a character: the
    /// character's transform). Across the substeps the frame is interpolated as
    /// a rigid motion (position linearly, rotation by slerp) from the frame the
    /// anchors last followed (placement() at first), so the anchors keep their
    /// mutual distances; an anchor that was moved otherwise meanwhile starts
    /// from where it is, its offset fading out over the step. Throws
    /// springkit::Error, changing nothing, for an index out of range or a frame
    /// that teleport() would refuse.
    void set_anchor_group_target(std::span<const std::size_t> anchors, const Transform& frame);
    /// Changes a circle-driven anchor at run time, as Garrido's jump-rope keys do:
    /// its radius (m, distance from Anchor::center across the axis, > 0) and its
    /// angular speed (rad/s), keeping where on the circle it is now. Throws
    /// springkit::Error for an index out of range, another drive or radius <= 0.
    void set_anchor_circle(std::size_t anchor, float radius, float angular_speed);
    /// The radius (m) and angular speed (rad/s) a circle-driven anchor turns with now.
    float anchor_circle_radius(std::size_t anchor) const;
    float anchor_angular_speed(std::size_t anchor) const;

    /// Moves the whole instance rigidly so that it stands at `to`: the motion that
    /// takes placement() to `to` is applied to every node, Verlet's previous
    /// positions, every anchor's drive (fixed and velocity drives' places and
    /// velocities, circle drives' centres, axes and places on the circle) and
    /// every tether's point; beads keep their place on their ropes. With
    /// keep_velocity the nodes' velocities turn with the rotation (the kinetic
    /// energy stays); without, they are zeroed. Drives keep their speeds either
    /// way. The prepared body is not touched. Gravity, wind, the ground and
    /// Model::constant_forces are world quantities and do not turn. Rigid only:
    /// the size is chosen when the instance is made (its scale).
    /// Throws springkit::Error, changing nothing, for a non-finite transform or
    /// a rotation that is not a unit quaternion (|q|^2 off 1 by more than 1e-4).
    void teleport(const Transform& to, bool keep_velocity);
    /// The uniform scale this instance was made at (1 unless given).
    float scale() const;
    /// Where this instance stands: identity, the transform it was made with, or
    /// the last teleport()'s. reset() returns to the rest pose at it.
    const Transform& placement() const;
    /// The axis-aligned box around the nodes now, m.
    Bounds bounds() const;
    /// Sum of the nodes' masses, kg (anchored nodes included, as Model::node_mass
    /// gives them).
    double total_mass() const;
    /// Mass-weighted mean of the node positions, m (sums in double).
    Vec3 center_of_mass() const;
    /// Sum of m v over the nodes, kg m/s.
    Vec3 linear_momentum() const;
    /// Sum of (x - c) x m v over the nodes about the centre of mass c, kg m^2/s.
    Vec3 angular_momentum() const;
    /// Gives every free (not anchored) node the velocity impulse / M, M the free
    /// nodes' total mass: the free part of the body gains linear momentum
    /// `impulse` (N s). For an explosion, a hit, a launch.
    void add_impulse(Vec3 impulse);
    /// Adds dv (m/s) to the velocity of every free node.
    void add_velocity(Vec3 dv);

    /// This instance's running state as bytes (docs/FILE_FORMAT.md, "Saved
    /// state"): everything the next steps read (nodes, Verlet's previous
    /// positions, pending forces, drives and their phases, tethers, beads, time,
    /// substeps, placement) and its settings (parameters(), stiffness_scale()),
    /// not the model. For savegames, networking and rewinding. Throws
    /// springkit::Error for a failed simulation (see step()).
    std::vector<std::byte> save_state() const;
    /// Takes the state save_state() wrote from an instance of the same body (any
    /// instance, any thread count): stepping on gives bit for bit what stepping
    /// the saved one on would. Throws springkit::Error, changing nothing, for a
    /// buffer that is not a state of this body: wrong magic, version, body or
    /// counts, truncated, trailing bytes, a non-finite value or invalid settings.
    void restore_state(std::span<const std::byte> bytes);

    /// Extra force applied to a node during the next step() only, N.
    void apply_force(std::uint32_t node, Vec3 f);

    /// Where each of the model's beads is (Model::beads, same order), m.
    std::span<const Vec3> bead_positions() const;
    /// Each bead's place along its chain, in segments from its first node.
    std::span<const float> bead_places() const;
    /// The air velocity now: wind plus the gust blowing (Parameters::gust), m/s.
    Vec3 current_wind() const;

    /// Sleeping from now on (SimulationOptions::sleep); disabling it wakes the
    /// instance. Throws springkit::Error, changing nothing, for a negative or
    /// non-finite threshold or time.
    void set_sleep(const SleepSettings& sleep);
    const SleepSettings& sleep_settings() const;
    /// The instance sleeps: its nodes are frozen (zero velocities) and step()
    /// costs O(1), only advancing time(). Every call that changes its state or
    /// settings wakes it: set_position, set_velocity, apply_force, add_impulse,
    /// add_velocity, the set_anchor_* calls, teleport, set_parameters,
    /// set_stiffness_scale, reset, restore_state, carry_state_from and wake().
    /// Asleep, it does not feel gusts (Parameters::gust) until woken.
    bool asleep() const;
    void wake();
    /// What a runaway does from now on (SimulationOptions::runaway).
    void set_runaway_policy(RunawayPolicy policy);
    RunawayPolicy runaway_policy() const;
    /// Most substeps a step() runs from now on; 0 = no budget.
    void set_substep_budget(std::uint64_t substeps);
    std::uint64_t substep_budget() const;
    /// The message of the last runaway (what SimulationError says), empty when
    /// the instance has not failed since it was made, reset() or restored.
    const std::string& failure() const;

    /// Threads that step this simulation from now on (>= 1, or 0 to choose as
    /// SimulationOptions::threads says); results stay bit-identical. Starts or
    /// stops the owned worker threads.
    void set_threads(int threads);
    /// The threads it steps on (the count chosen, for 0).
    int threads() const;
    /// Nodes per thread below which threads = 0 uses fewer threads.
    static constexpr std::size_t kAutoThreadNodes = 2048;
    SpringKernel kernel() const;

    /// This instance's settings: the model's Parameters when made, then what
    /// set_parameters() gave.
    const Parameters& parameters() const;
    /// Changes this instance's settings from the next step on, without a new
    /// layout: gravity, energy_loss, spring_damping, air_friction, ground, wind,
    /// gust, max_substep, integrator, rope_iterations and verlet_damping (O(1);
    /// spring_damping O(springs)). k and mass belong to the prepared body (use
    /// set_stiffness_scale() for k); throws springkit::Error, changing nothing,
    /// when they differ from the model's or a value is out of the range
    /// parameter_table() states. Stepping on equals a new Simulation of the model
    /// with these parameters that carry_state_from() this one, bit for bit.
    void set_parameters(const Parameters& params);
    /// Multiplies every spring's k (the model's own or Parameters::k) by scale
    /// (> 0, finite) from the next step on: refills this instance's spring
    /// values, O(springs). 1 = the model's k.
    void set_stiffness_scale(float scale);
    float stiffness_scale() const;

    /// The colliders this instance collides with from the next step on (null:
    /// none). Several instances may share one set; the game moves its
    /// colliders between steps (ColliderSet::move_to()), never during one.
    /// Nodes stay Parameters::node_radius from the surfaces.
    void set_colliders(std::shared_ptr<const ColliderSet> colliders);
    const std::shared_ptr<const ColliderSet>& colliders() const;
    /// Which nodes touched which collider during the last step, with the
    /// impulse each collider gave each node (by node, then collider).
    std::span<const Contact> contacts() const;

private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace springkit
