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

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
    /// x' = x + (x - x_prev) * verlet_damping + a dt^2.
    verlet,
};

/// A ground plane y = height with Tunca's three constants (rope-physics-tutorial).
struct Ground {
    float height = 0.0f;       ///< m, the plane's y
    float repulsion = 100.0f;  ///< N/m, pushes a node below the plane back up
    float friction = 0.2f;     ///< N s/m, slows sliding of a node touching the plane
    float absorption = 2.0f;   ///< N s/m, absorbs downward speed of a node touching it
    friend bool operator==(const Ground&, const Ground&) = default;
};

/// Physics parameters of a model, with the defaults every builder and loader uses.
struct Parameters {
    float k = 1000.0f;           ///< N/m, stiffness of springs without their own k
    float energy_loss = 0.99f;   ///< velocity factor per 1/60 s frame (Oliveira); 1 = none
    float mass = 0.05f;          ///< kg, mass of nodes without their own mass
    Vec3 gravity{0.0f, -9.81f, 0.0f};  ///< m/s^2
    float spring_damping = 0.0f;  ///< N s/m, inner spring friction (Tunca): F_a += (v_b - v_a) * spring_damping
    float air_friction = 0.0f;    ///< N s/m, drag -air_friction * (v - wind) per node (Tunca)
    std::optional<Ground> ground; ///< none by default
    Vec3 wind{};                  ///< m/s, velocity of the air that air_friction drags towards
    float max_substep = 0.002f;   ///< s, longest substep; Tunca uses 0.002
    Integrator integrator = Integrator::symplectic_euler;
    int rope_iterations = 3;      ///< relaxation passes over rope constraints (Source engine: 3)
    float verlet_damping = 0.98f; ///< velocity kept per Verlet substep (Source engine: 0.98)
    friend bool operator==(const Parameters&, const Parameters&) = default;
};

/// What a spring does between its two nodes.
enum class SpringKind : std::uint8_t {
    hooke,  ///< F = -k (|x| - rest) x/|x| both ways (Oliveira listing 1)
    rope,   ///< max-length stick: never longer than `rest`, free when shorter (Source engine)
};

struct Spring {
    std::uint32_t a = 0;   ///< first node index
    std::uint32_t b = 0;   ///< second node index
    float rest = 0.0f;     ///< m, rest length (hooke) or maximum length (rope)
    float k = 0.0f;        ///< N/m, own stiffness; 0 = use Parameters::k
    SpringKind kind = SpringKind::hooke;
    friend bool operator==(const Spring&, const Spring&) = default;
};

/// How an anchored node moves. Forces never move an anchor; its drive does.
enum class AnchorDrive : std::uint8_t {
    fixed,     ///< stays at its node's rest position
    velocity,  ///< moves at a constant `velocity` (Tunca's rope connection point)
    circle,    ///< turns on a circle (Garrido's jump-rope ends)
};

struct Anchor {
    std::uint32_t node = 0;
    AnchorDrive drive = AnchorDrive::fixed;
    Vec3 velocity{};       ///< m/s, for AnchorDrive::velocity
    Vec3 center{};         ///< m, circle centre, for AnchorDrive::circle
    Vec3 axis{1, 0, 0};    ///< circle axis (normalised when used)
    float angular_speed = 0.0f;  ///< rad/s around `axis`; the radius is the rest distance to `center`
    friend bool operator==(const Anchor&, const Anchor&) = default;
};

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

    std::size_t node_count() const { return positions.size(); }
    float node_mass(std::size_t i) const { return masses.empty() ? params.mass : masses[i]; }
    float spring_k(const Spring& s) const { return s.k > 0.0f ? s.k : params.k; }
    friend bool operator==(const Model&, const Model&) = default;
};

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
/// duplicate spring, anchor out of range or repeated, bad parameters.
void validate(const Model& model, const std::string& context = {});

/// Stability estimate of explicit mass-spring integration (Garrido): the largest
/// k dt^2 / m over Hooke springs, with m the lighter node and dt = max_substep.
/// Above about 0.3 the model is at risk; the limit is below 0.5.
struct Stability {
    double worst = 0.0;          ///< max k dt^2 / m
    std::size_t worst_spring = 0; ///< index of that spring (0 when there are none)
};
Stability stability_estimate(const Model& model);
constexpr double kStabilityWarning = 0.3;

/// Axis-aligned bounds of the rest positions (zero box for an empty model).
struct Bounds {
    Vec3 min{};
    Vec3 max{};
    float diagonal() const { return length(max - min); }
};
Bounds bounds(const Model& model);

}  // namespace springkit
