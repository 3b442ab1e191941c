// springkit — the Model: everything that is saved in a model file.
//
// A Model is shared, read-only data while simulating (Jolt's "shared settings"):
// rest positions, masses, springs with rest lengths, anchors, faces, texcoords and
// the physics parameters. The changing state lives in springkit::Simulation, and
// many simulations may share one Model. The editor edits a Model and restarts the
// simulation from it.
//
// Units are SI throughout: metres, kilograms, seconds, newtons.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "springkit/transform.hpp"
#include "springkit/vec3.hpp"

namespace springkit {

/// How positions and velocities advance each substep.
enum class Integrator : std::uint8_t {
    /// Forward Euler: x += v dt, then v += a dt. Textbook form; gains energy.
    explicit_euler,
    /// Semi-implicit Euler: v += a dt, then x += v dt. The order of the seeds' code
    /// (Oliveira listing 7, Tunca's Simulation::operate); keeps energy bounded.
    symplectic_euler,
    /// Position Verlet with damping, as the Source engine steps its ropes:
    /// x' = x + (x - x_prev) * keep + a dt^2, keep = verlet_damping^(dt * 60).
    verlet,
    /// Implicit Euler, solved as an energy minimisation by local/global
    /// iterations (Liu, Bargteil, O'Brien, Kavan 2013) with Chebyshev-weighted
    /// Jacobi (Wang 2015): stable for any k at one step per frame, and damping
    /// (docs/ARCHITECTURE.md). Spring damping is not applied; the ground is a
    /// projection.
    implicit,
};

/// The name of an integrator as files and tools spell it ("symplectic_euler", ...),
/// and back; nullopt for an unknown name.
const char* integrator_name(Integrator integrator);
std::optional<Integrator> integrator_from_name(std::string_view name);

/// A ground plane y = height with Tunca's three constants (rope physics tutorial).
struct Ground {
    float height = 0.0f;       ///< m, the plane's y
    float repulsion = 100.0f;  ///< N/m, pushes a node below the plane back up
    float friction = 0.2f;     ///< N s/m, slows sliding of a node touching the plane
    float absorption = 2.0f;   ///< N s/m, absorbs downward speed of a node touching it
    friend bool operator==(const Ground&, const Ground&) = default;
};

/// Periodic gusts of air on top of Parameters::wind (Oliveira's F1 finish line: "as
/// the cars cross the line apply the forces due to the air movement"). From `start`
/// on, every `period` seconds a gust blows for `duration` seconds; its air velocity
/// rises from zero to `velocity` and falls back as sin^2, so no force jumps.
/// Like the wind it acts through air_friction. period 0 = no gusts (the default).
struct Gust {
    Vec3 velocity{};        ///< m/s, peak air velocity a gust adds to the wind
    float period = 0.0f;    ///< s from one gust's start to the next; 0 = no gusts
    float duration = 0.0f;  ///< s, length of one gust, in (0, period]
    float start = 0.0f;     ///< s, simulation time of the first gust
    friend bool operator==(const Gust&, const Gust&) = default;
};

/// Physics parameters of a model, with the defaults every builder and loader uses.
struct Parameters {
    float k = 1000.0f;           ///< N/m, stiffness of springs without their own k
    float energy_loss = 0.99f;   ///< velocity factor per 1/60 s frame (Oliveira); 1 = none
    float mass = 0.05f;          ///< kg, mass of nodes without their own mass
    Vec3 gravity{0.0f, -9.81f, 0.0f};  ///< m/s^2
    float spring_damping = 0.0f;  ///< N s/m, inner spring friction (Tunca) along the spring: F_a += c ((v_b - v_a) . u) u
    float air_friction = 0.0f;    ///< N s/m, drag -air_friction * (v - wind) per node (Tunca)
    std::optional<Ground> ground; ///< none by default
    Vec3 wind{};                  ///< m/s, velocity of the air that air_friction drags towards
    float max_substep = 0.002f;   ///< s, longest substep; Tunca uses 0.002
    Integrator integrator = Integrator::symplectic_euler;
    int rope_iterations = 3;      ///< relaxation passes over rope constraints (Source engine: 3)
    float verlet_damping = 0.98f; ///< Verlet velocity kept per 1/60 s (Source engine: 0.98); pow(verlet_damping, dt * 60) per substep
    Gust gust;                    ///< none by default
    int implicit_iterations = 20; ///< local/global iterations per substep of Integrator::implicit
    float strain_limit = 0.0f;    ///< Integrator::implicit: largest stretch of a Hooke spring, share of rest; 0 = none
    float chebyshev_rho = 0.0f;   ///< Integrator::implicit: rho of Wang's Chebyshev weights, [0, 1); 0 = plain iterations
    /// Integrator::implicit: each free node's distance from its nearest this
    /// many anchors (along the springs) is capped at its rest distance from
    /// them (Kim et al. 2012's long range attachments); 0 = none
    int long_range_attachments = 0;
    /// Integrator::implicit: passes of the strain limit and the long range
    /// attachments after the solve
    int strain_limit_passes = 4;
    /// Integrator::implicit: 1 = the strain limit also projects the springs
    /// whose cap two shorter springs imply (a cloth's bend springs), which
    /// carry a correction two springs a pass along straight lines; 0 = not
    int strain_limit_every_spring = 0;
    /// Integrator::implicit: global steps of the strain limit after its
    /// passes, each one solve through the implicit solve's factor that pulls
    /// the springs longer than the cap towards it across the whole body; 0 = none
    int strain_limit_global_steps = 0;
    /// Integrator::implicit: theta of the one-leg theta-method, the forces
    /// taken theta of the way through each substep; 1 = implicit Euler, which
    /// damps a swing; 0.5 = the implicit midpoint rule, which keeps the energy
    /// of linear springs; in [0.5, 1]
    float implicit_theta = 1.0f;
    /// Integrator::implicit: m; the iterations stop once no node moves more
    /// than this in one (implicit_iterations stays the most); 0 = always
    /// implicit_iterations
    float implicit_tolerance = 0.0f;
    float node_radius = 0.0f;     ///< m, collision radius of every node against colliders (colliders.hpp)
    float pressure = 0.0f;        ///< J, n R T of the gas in a closed face mesh; 0 = none (Jolt's mPressure)
    float self_collision_distance = 0.0f;  ///< m, nodes of the body kept this far apart (self-collision); 0 = off
    float self_friction = 0.3f;   ///< Coulomb coefficient between nodes of the body in self-collision
    float volume_stiffness = 0.0f; ///< N/m, stiffness of the volume elements (VolumeElement); 0 = off
    // The material (material.hpp): what node masses and spring k were derived
    // from; 0 = not given. The simulation reads masses and k, never these.
    float total_mass = 0.0f;        ///< kg, spread over the nodes by the area around each
    float density = 0.0f;           ///< kg/m^3 of the volume a closed face mesh encloses
    float area_density = 0.0f;      ///< kg/m^2 of the faces' area
    float stretch_stiffness = 0.0f; ///< N/m, a sheet's Young's modulus x thickness (Van Gelder's spring k)
    friend bool operator==(const Parameters&, const Parameters&) = default;
};

/// The air velocity at simulation time `time`: wind plus the gust blowing then.
Vec3 wind_at(const Parameters& params, double time);

/// What a spring does between its two nodes.
enum class SpringKind : std::uint8_t {
    hooke,  ///< F = -k (|x| - rest) x/|x| both ways (Oliveira listing 1)
    /// Max-length stick, free when shorter (Source engine): Parameters::rope_iterations
    /// relaxation passes a substep, each shortening the overlong segments in turn.
    /// They do not converge within a substep, so a rope pulled fast stretches: a
    /// rope whipped by an end moving at 3.6 m/s (12 rad/s on a 0.3 m circle) stays
    /// within 3% of `rest` with 10 segments and 7% with 20 at 3 passes; more passes
    /// lower that (10: a third). A rope left to hang stays within 1%.
    rope,
};

/// What a spring stands for in the body it was built from, so that tools can show
/// and filter the springs by it (Houdini Vellum's constraint types). Drawing and
/// editing only: the physics ignores it, and saved states and the physics hash do
/// not cover it. `unspecified` for springs whose origin nobody recorded.
enum class SpringRole : std::uint8_t {
    unspecified,  ///< not recorded (files written before roles, builders)
    edge,         ///< along an edge of a face or a mesh line
    shear,        ///< the second diagonal of a quad
    bend,         ///< across two faces that share an edge, resisting folding
    volume,       ///< through the inside of a closed mesh (a volume spring)
    user,         ///< added by hand in the editor
};

/// The largest SpringRole value; files with a larger one are refused.
inline constexpr std::uint8_t kMaxSpringRole = static_cast<std::uint8_t>(SpringRole::user);

/// The name of a role as tools show it ("edge", "shear", ...).
const char* spring_role_name(SpringRole role);

struct Spring {
    std::uint32_t a = 0;   ///< first node index
    std::uint32_t b = 0;   ///< second node index
    float rest = 0.0f;     ///< m, rest length (hooke) or maximum length (rope)
    float k = 0.0f;        ///< N/m, own stiffness; 0 = use Parameters::k
    SpringKind kind = SpringKind::hooke;
    SpringRole role = SpringRole::unspecified;  ///< where it came from; drawing only
    friend bool operator==(const Spring&, const Spring&) = default;
};

/// How an anchored node moves. Forces never move an anchor; its drive does.
enum class AnchorDrive : std::uint8_t {
    fixed,     ///< stays at its node's rest position
    velocity,  ///< moves at a constant `velocity` (Tunca's rope connection point)
    circle,    ///< turns on a circle (Garrido's jump-rope ends)
    /// Follows a keyframed rigid motion, Model::anchor_tracks[track] (a bone of a
    /// skinned mesh and its animation clip): the node sits at
    /// track_frame(track, t) applied to its rest position.
    track,
};

struct Anchor {
    std::uint32_t node = 0;
    AnchorDrive drive = AnchorDrive::fixed;
    Vec3 velocity{};       ///< m/s, for AnchorDrive::velocity
    Vec3 center{};         ///< m, circle centre, for AnchorDrive::circle
    Vec3 axis{1, 0, 0};    ///< circle axis (normalised when used)
    float angular_speed = 0.0f;  ///< rad/s around `axis`; the radius is the rest distance to `center`
    std::uint32_t track = 0;     ///< index into Model::anchor_tracks, for AnchorDrive::track
    friend bool operator==(const Anchor&, const Anchor&) = default;
};

/// One key of an anchor track: the rigid frame at `time`, which takes a rest
/// position to where it is then (p -> rotate(rotation, p) + position).
struct TrackKey {
    float time = 0.0f;   ///< s from the start of the clip, >= 0
    Vec3 position{};     ///< m
    Quat rotation{};     ///< unit quaternion
    friend bool operator==(const TrackKey&, const TrackKey&) = default;
};

/// A keyframed rigid motion that anchors follow (AnchorDrive::track): a bone of
/// a skinned mesh with its animation clip, baked by the converter (--bone-anchors)
/// to the motion that takes the bind pose to the animated pose. Between keys the
/// position is interpolated linearly and the rotation by slerp; before the first
/// key the frame is the first key's, after the last the last key's, or, with
/// `loop`, the clip repeats with period keys.back().time.
struct AnchorTrack {
    std::string name;            ///< free text (the bone's name)
    bool loop = true;            ///< repeat the clip; false: hold its last key
    std::vector<TrackKey> keys;  ///< at least one, times strictly increasing
    friend bool operator==(const AnchorTrack&, const AnchorTrack&) = default;
};

/// The frame of `track` at simulation time `time` (s), as AnchorTrack describes.
/// Assumes a valid track (validate()).
Transform track_frame(const AnchorTrack& track, double time);

/// m/s, at least the fastest the point at rest position `rest` moves on
/// `track`: the chord between two keys over their time, times pi/2 (the slerp
/// between them, at most half a turn, is at most that much longer).
double track_speed_bound(const AnchorTrack& track, const Vec3& rest);

/// A triangle: three node indices and three texcoord indices (Oliveira listing 10).
/// Texcoords are per corner so that UV seams do not split the spring network.
struct Face {
    std::uint32_t node[3] = {0, 0, 0};
    std::uint32_t texcoord[3] = {0, 0, 0};
    friend bool operator==(const Face&, const Face&) = default;
};

struct TexCoord {
    float u = 0.0f;
    float v = 0.0f;
    friend bool operator==(const TexCoord&, const TexCoord&) = default;
};

/// A tetrahedron that keeps its signed volume: the one element here with a
/// handedness. Springs keep lengths, and every length of a shape is also a
/// length of its mirror image, so no spring network tells the two apart; a
/// tetrahedron's signed volume V = (b - a) . ((c - a) x (d - a)) / 6 changes
/// sign when it is mirrored. Its energy is E = k (V - rest)^2 / (2 G) with
/// k = Parameters::volume_stiffness and G the sum over its corners of
/// |dV/dx|^2 at the rest positions (Teschner et al. 2004, "A versatile and
/// robust model for geometrically complex deformable solids": the volume
/// term; normalised by G as XPBD normalises a constraint by its gradient,
/// Macklin et al. 2016), so that along its gradient it is as stiff as a
/// spring of k, whatever its size: an element with one corner through the
/// opposite face is pushed back out. While its faces are larger than at rest
/// G is taken now instead, which keeps that stiffness at k (the explicit step
/// stays as stable as at rest) at the price of an exact energy there.
struct VolumeElement {
    std::uint32_t node[4] = {0, 0, 0, 0};
    /// m^3, signed rest volume (b - a) . ((c - a) x (d - a)) / 6; 0 keeps the
    /// four nodes in one plane (a flat sheet's: a node moved off it changes V
    /// to first order).
    float rest = 0.0f;
    friend bool operator==(const VolumeElement&, const VolumeElement&) = default;
};

/// The signed volume of the tetrahedron a, b, c, d: (b - a) . ((c - a) x (d - a)) / 6.
double signed_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// 6 dV/dx at the corners a, b, c, d of that tetrahedron, in float: with
/// d1 = b - a, d2 = c - a, d3 = d - a, g_b = d2 x d3, g_c = d3 x d1,
/// g_d = d1 x d2 and g_a = -(g_b + g_c + g_d) (V does not change when all
/// four move alike). Twice the area vectors of the faces opposite each corner.
std::array<Vec3, 4> signed_volume_gradients(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// A force that always acts on one node, N: the lift of a gas-filled balloon, a
/// steady push. Added to the node's forces every substep.
struct ConstantForce {
    std::uint32_t node = 0;
    Vec3 force{};  ///< N
    friend bool operator==(const ConstantForce&, const ConstantForce&) = default;
};

/// Builderboy's single-segment rope: node `node` hangs on an inextensible rope of
/// `length` from the fixed `point`. Inside that sphere the node moves freely; at
/// its surface the rope removes only the node's outward radial velocity (the
/// tangential part stays, so a falling body turns into a pendulum), reversing
/// `bounce` times of it (Builderboy's "3/2" pull is bounce 0.5).
struct Tether {
    std::uint32_t node = 0;
    Vec3 point{};        ///< m, where the rope is tied
    float length = 1.0f; ///< m, the rope's length L (> 0)
    float bounce = 0.0f; ///< share of the outward speed sent back inward, [0, 1]
    friend bool operator==(const Tether&, const Tether&) = default;
};

/// Garrido's heavy bead (real-time rope thesis, "a sliding weighted particle on a
/// rope"): a body of `mass` that slides along the chain of nodes first, first+1,
/// ..., last. Gravity along the rope moves it, `friction` slows it, and its weight
/// across the rope loads the two nodes it sits between, so the rope sags under it.
struct Bead {
    std::uint32_t first = 0;  ///< first node of the chain
    std::uint32_t last = 1;   ///< last node of the chain (> first)
    float mass = 1.0f;        ///< kg (> 0)
    float start = 0.0f;       ///< starting place in segments from `first`: 2.5 = halfway along the third
    float friction = 0.0f;    ///< N s/m, slows its sliding along the rope
    friend bool operator==(const Bead&, const Bead&) = default;
};

/// How to draw a path of nodes (a rope, a string, a pole) as a smooth textured
/// tube (see rope_mesh.hpp): Catmull-Rom subdivision as in the Source engine, then
/// rings of `sides` vertices (Garrido's "future works": vertices generated around
/// the rope). Drawing only; the physics ignores it.
struct Tube {
    std::vector<std::uint32_t> nodes;  ///< the path, in order; at least 2 nodes
    float radius = 0.01f;     ///< m
    int sides = 8;            ///< vertices per ring, [3, 64]
    int subdivisions = 2;     ///< points added between two nodes, [0, 32]
    friend bool operator==(const Tube&, const Tube&) = default;
};

/// A named set of springs with their own stiffness and damping (the spring
/// counterpart of Blender's vertex groups): the editor's groups panel makes
/// them, files save them. Each spring is in at most one group.
struct SpringGroup {
    std::string name;                     ///< non-empty, unique in the model
    float stiffness_scale = 1.0f;         ///< > 0: its springs' k (own or Parameters::k) times this
    /// N s/m, >= 0: its springs' inner friction in place of Parameters::spring_damping;
    /// none = the model's.
    std::optional<float> damping;
    std::vector<std::uint32_t> springs;   ///< indices into Model::springs
    friend bool operator==(const SpringGroup&, const SpringGroup&) = default;
};

struct Model {
    std::string name;               ///< free text, shown by tools
    Parameters params;
    std::vector<Vec3> positions;    ///< m, rest position of each node
    std::vector<float> masses;      ///< kg per node; empty = every node has params.mass
    std::vector<Spring> springs;
    std::vector<Anchor> anchors;
    std::vector<Face> faces;
    std::vector<TexCoord> texcoords;
    std::string texture;            ///< image path, relative to the model file; may be empty
    std::vector<ConstantForce> constant_forces;  ///< may be empty
    std::vector<Tether> tethers;    ///< Builderboy ropes; may be empty
    std::vector<Bead> beads;        ///< Garrido beads; may be empty
    std::vector<Tube> tubes;        ///< chains drawn as tubes; may be empty
    std::vector<SpringGroup> spring_groups;  ///< named spring groups; may be empty
    std::vector<AnchorTrack> anchor_tracks;  ///< keyframed motions of track-driven anchors; may be empty
    std::vector<VolumeElement> volume_elements;  ///< signed-volume tetrahedra; may be empty

    std::size_t node_count() const { return positions.size(); }
    float node_mass(std::size_t i) const { return masses.empty() ? params.mass : masses[i]; }
    /// A spring's k before its group's stiffness scale (spring_stiffnesses() applies it).
    float spring_k(const Spring& s) const { return s.k > 0.0f ? s.k : params.k; }
    friend bool operator==(const Model&, const Model&) = default;
};

/// The k every spring is stepped with: spring_k() times its group's
/// stiffness_scale (exactly spring_k() for springs in no group).
std::vector<float> spring_stiffnesses(const Model& model);
/// The inner friction every spring is stepped with: its group's damping, else
/// Parameters::spring_damping.
std::vector<float> spring_dampings(const Model& model);
/// The group of every spring: an index into spring_groups, or -1 for none.
/// Assumes a valid model (indices in range).
std::vector<int> spring_group_of(const Model& model);

/// Sets every spring's rest length to the current distance of its nodes.
void compute_rest_lengths(Model& model);

/// Appends a spring from a to b with the current distance as rest length.
/// Returns false (and adds nothing) when a == b or the pair already has a spring.
/// Uses a linear search: for bulk building use SpringSet (builders.hpp).
bool add_spring(Model& model, std::uint32_t a, std::uint32_t b, float k = 0.0f,
                SpringKind kind = SpringKind::hooke);

/// Checks everything a Simulation relies on. Throws springkit::Error whose message
/// names the first problem and where it is, prefixed with `context` (usually the
/// file name) when given: index out of range, mass <= 0, NaN/Inf, rest length <= 0,
/// duplicate spring, anchor out of range or repeated, bad parameters, a coordinate
/// beyond kMaxCoordinate, max_substep outside [kMinSubstep, kMaxSubstep].
void validate(const Model& model, const std::string& context = {});

/// The part of validate() that checks the parameters alone, with its messages.
void validate_parameters(const Parameters& params, const std::string& context = {});

/// The part of validate() that checks the spring groups (against the model's
/// spring count), with its messages: names, stiffness scales, damping, indices.
void validate_spring_groups(const Model& model, const std::string& context = {});

/// The part of validate() that checks the anchor tracks and the anchors that
/// follow them, with its messages: keys, times, rotations, track indices.
void validate_anchor_tracks(const Model& model, const std::string& context = {});

/// Stability estimate of explicit mass-spring integration (Garrido): the largest
/// k dt^2 / m over Hooke springs, with m the lighter node and dt = max_substep.
/// Above about 0.3 the model is at risk; the limit is below 0.5.
struct Stability {
    double worst = 0.0;          ///< max k dt^2 / m
    std::size_t worst_spring = 0; ///< index of that spring (0 when there are none)
};
Stability stability_estimate(const Model& model);
constexpr double kStabilityWarning = 0.3;

/// The step's own stability measure, which the per-spring estimate misses for a
/// node held by many springs: dt times the highest natural angular frequency of
/// the model's Hooke springs about its current positions, anchored nodes held
/// (the largest eigenvalue of M^-1 K, found by power iteration: a lower bound,
/// within about 1% for meshes; rope constraints, ground and attachments left out).
/// Symplectic Euler and Verlet are stable for omega_dt < 2 (the textbook bound
/// for x'' = -omega^2 x); explicit Euler grows by sqrt(1 + omega_dt^2) per substep
/// unless damped. With the velocity scaled by keep per substep its amplitude
/// changes by sqrt(keep (1 + omega_dt^2)) per substep (the determinant of its
/// 2x2 map), so its limit is sqrt(1/keep - 1) (spring damping and air friction,
/// left out, add to it).
/// Spring damping is explicit too: symplectic Euler on x'' = -w^2 x - g x' maps
/// (x, v) by a matrix of determinant 1 - g dt and trace 2 - (w dt)^2 - g dt, and
/// the Jury conditions make it stable iff (w dt)^2 + 2 g dt < 4. A node light
/// for the damping of its springs (--total-mass on a fine mesh) explodes so with
/// omega_dt well below 2; `damped` says how far it is for symplectic Euler and
/// Verlet (0 for the other integrators, for which damping is left out).
struct FrequencyStability {
    double omega_dt = 0.0;  ///< max_substep * highest angular frequency
    double limit = 2.0;     ///< the integrator's bound on omega_dt
    /// max_substep * the highest rate of the spring damping, the largest
    /// eigenvalue of M^-1/2 C M^-1/2 (C: c u u^T per spring): by power iteration
    /// where Gershgorin's bound on it (the most, over the free nodes i, of the sum
    /// over their springs of c (1/m_i + 1/sqrt(m_i m_j))) is above 0.05 / max_substep,
    /// else that bound
    double damping_dt = 0.0;
    /// omega_dt^2 + 2 damping_dt, stable below 4 (symplectic Euler, Verlet; else 0)
    double damped = 0.0;
    static constexpr double kDampedLimit = 4.0;
    /// The damping alone, or with the springs, takes the step past its limit.
    bool damping_above_limit() const { return damped >= kDampedLimit; }
    /// At or above the limit: the model will explode.
    bool above_limit() const { return (omega_dt > 0.0 && omega_dt >= limit) || damping_above_limit(); }
    /// The share of a limit from which a model is near it. omega_dt is measured
    /// about the current pose, and a mesh pulled far from it (a dragged node, a
    /// fall) lines its springs up and stiffens: 0.9 of the limit. `damped` is a
    /// budget, (dt omega)^2 + 2 dt gamma, whose damping part is linear in the
    /// velocity and does not stiffen with the pose: 0.9 of it. (A chain at
    /// Garrido's k dt^2/m = 0.8, Tunca's rope, is at 1.79 and 3.26 with its
    /// damping, within both, and runs calm.)
    static constexpr double kNearShare = 0.9;
    bool springs_near_limit() const { return omega_dt > 0.0 && omega_dt >= kNearShare * limit; }
    bool damping_near_limit() const { return damped >= kNearShare * kDampedLimit; }
    /// At or above kNearShare of the limit, past it included.
    bool near_limit() const { return springs_near_limit() || damping_near_limit() || above_limit(); }
};
/// `min_iterations`: the power iteration's floor on a big model (the budget of
/// about 4e6 spring visits gives small ones up to 200); fewer are faster and
/// may come out a few percent low.
FrequencyStability frequency_stability(const Model& model, int min_iterations = 20);

/// The warning every tool shows (CLI, games that want one) when
/// frequency_stability() is near or past its integrator's limit
/// (FrequencyStability::near_limit(): the model may or will explode), saying
/// what to change and, for the springs' frequency, naming the spring of the
/// highest k dt^2/m (stability_estimate()); empty otherwise. Garrido's k dt^2/m
/// alone does not warn: it looks at one spring and its lighter node, and a
/// chain runs calm up to 1 (Tunca's rope at 0.8), a node on many springs
/// explodes below 0.3.
std::string stability_warning(const Model& model);

/// Limits validate() puts on a model, so that a file cannot make a step hang or
/// overflow single-precision arithmetic.
inline constexpr float kMinSubstep = 1.0e-6f;    ///< s; 16667 substeps per 1/60 s frame
inline constexpr float kMaxSubstep = 0.1f;       ///< s
/// s; one step a 1/60 s frame: the substep a switch to Integrator::implicit
/// takes when none is given (ParameterOverrides::apply(), the editor).
inline constexpr float kImplicitSubstep = 1.0f / 60.0f;
inline constexpr float kMaxCoordinate = 1.0e9f;  ///< m; float spacing there is already 64 m

/// The substeps Simulation::step(frame_dt) divides a frame into: the fewest of
/// at most max_substep, ceil(frame_dt / max_substep) less a millionth for the
/// rounding of an exact multiple, and at least one. Tools that count or replay
/// substeps (frame costs, goldens, the editor's pulled frames) take this count
/// so that theirs is the step's to the bit.
std::uint64_t substeps_per_frame(float frame_dt, float max_substep);

/// Axis-aligned bounds of the rest positions (zero box for an empty model).
struct Bounds {
    Vec3 min{};
    Vec3 max{};
    float diagonal() const { return length(max - min); }
    /// Grows the box to hold p.
    void include(const Vec3& p) {
        min = {std::min(min.x, p.x), std::min(min.y, p.y), std::min(min.z, p.z)};
        max = {std::max(max.x, p.x), std::max(max.y, p.y), std::max(max.z, p.z)};
    }
};
Bounds bounds(const Model& model);

}  // namespace springkit
