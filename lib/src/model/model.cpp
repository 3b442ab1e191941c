// springkit — model helpers and validation.
#include "springkit/model.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <numbers>
#include <sstream>
#include <system_error>
#include <unordered_map>

#include "springkit/error.hpp"

namespace springkit {

const char* integrator_name(Integrator integrator) {
    switch (integrator) {
        case Integrator::explicit_euler: return "explicit_euler";
        case Integrator::symplectic_euler: return "symplectic_euler";
        case Integrator::verlet: return "verlet";
    }
    return "symplectic_euler";
}

std::optional<Integrator> integrator_from_name(std::string_view name) {
    for (Integrator i : {Integrator::explicit_euler, Integrator::symplectic_euler, Integrator::verlet})
        if (name == integrator_name(i)) return i;
    return std::nullopt;
}

void compute_rest_lengths(Model& model) {
    for (Spring& s : model.springs) {
        s.rest = length(model.positions[s.b] - model.positions[s.a]);
    }
}

bool add_spring(Model& model, std::uint32_t a, std::uint32_t b, float k, SpringKind kind) {
    if (a == b) return false;
    for (const Spring& s : model.springs) {
        if ((s.a == a && s.b == b) || (s.a == b && s.b == a)) return false;
    }
    model.springs.push_back({a, b, length(model.positions[b] - model.positions[a]), k, kind});
    return true;
}

namespace {

[[noreturn]] void fail(const std::string& context, const std::string& where,
                       const std::string& what) {
    std::string message;
    if (!context.empty()) message += context + ": ";
    if (!where.empty()) message += where + ": ";
    message += what;
    throw Error(message);
}

std::string str(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

void check_finite(float v, const std::string& context, const std::string& where) {
    if (!std::isfinite(v)) fail(context, where, "value is not a finite number");
}

void check_finite(const Vec3& v, const std::string& context, const std::string& where) {
    if (!is_finite(v)) fail(context, where, "value is not a finite number");
}

}  // namespace

void validate_parameters(const Parameters& p, const std::string& context) {
    const std::string at = "/parameters/";
    check_finite(p.k, context, at + "k");
    check_finite(p.energy_loss, context, at + "energy_loss");
    check_finite(p.mass, context, at + "mass");
    check_finite(p.gravity, context, at + "gravity");
    check_finite(p.spring_damping, context, at + "spring_damping");
    check_finite(p.air_friction, context, at + "air_friction");
    check_finite(p.wind, context, at + "wind");
    check_finite(p.max_substep, context, at + "max_substep");
    check_finite(p.verlet_damping, context, at + "verlet_damping");
    if (p.k < 0) fail(context, at + "k", "stiffness must not be negative (got " + str(p.k) + ")");
    if (p.mass <= 0) fail(context, at + "mass", "mass must be > 0 kg (got " + str(p.mass) + ")");
    if (p.energy_loss <= 0 || p.energy_loss > 1)
        fail(context, at + "energy_loss",
             "energy loss must be in (0, 1] (velocity kept per 1/60 s frame; got " +
                 str(p.energy_loss) + ")");
    if (p.spring_damping < 0)
        fail(context, at + "spring_damping", "must not be negative (got " + str(p.spring_damping) + ")");
    if (p.air_friction < 0)
        fail(context, at + "air_friction", "must not be negative (got " + str(p.air_friction) + ")");
    if (!(p.max_substep >= kMinSubstep && p.max_substep <= kMaxSubstep))
        fail(context, at + "max_substep",
             "substep must be in [" + str(kMinSubstep) + ", " + str(kMaxSubstep) + "] s (got " +
                 str(p.max_substep) + ")");
    if (p.rope_iterations < 0 || p.rope_iterations > 1000)
        fail(context, at + "rope_iterations",
             "must be between 0 and 1000 (got " + std::to_string(p.rope_iterations) + ")");
    if (p.verlet_damping <= 0 || p.verlet_damping > 1)
        fail(context, at + "verlet_damping", "must be in (0, 1] (got " + str(p.verlet_damping) + ")");
    check_finite(p.gust.velocity, context, at + "gust/velocity");
    check_finite(p.gust.period, context, at + "gust/period");
    check_finite(p.gust.duration, context, at + "gust/duration");
    check_finite(p.gust.start, context, at + "gust/start");
    if (p.gust.period < 0)
        fail(context, at + "gust/period", "must not be negative (0 = no gusts; got " + str(p.gust.period) + ")");
    if (p.gust.period > 0 && !(p.gust.duration > 0 && p.gust.duration <= p.gust.period))
        fail(context, at + "gust/duration",
             "must be in (0, period] (got " + str(p.gust.duration) + " for a period of " +
                 str(p.gust.period) + " s)");
    if (p.ground) {
        check_finite(p.ground->height, context, at + "ground/height");
        check_finite(p.ground->repulsion, context, at + "ground/repulsion");
        check_finite(p.ground->friction, context, at + "ground/friction");
        check_finite(p.ground->absorption, context, at + "ground/absorption");
        if (p.ground->repulsion < 0 || p.ground->friction < 0 || p.ground->absorption < 0)
            fail(context, at + "ground", "repulsion, friction and absorption must not be negative");
    }
}

namespace {

// A chain first..last of consecutive nodes, as beads use.
void check_chain(std::uint32_t first, std::uint32_t last, std::size_t n, const std::string& context,
                 const std::string& at) {
    if (first >= last)
        fail(context, at, "first node " + std::to_string(first) + " must be below last node " +
                              std::to_string(last));
    if (last >= n)
        fail(context, at + "/last",
             "node index " + std::to_string(last) + " out of range (model has " + std::to_string(n) +
                 " nodes)");
}

// The additions that hold on to nodes: constant forces, tethers, beads, tubes.
void validate_attachments(const Model& model, const std::string& context) {
    const std::size_t n = model.positions.size();
    auto check_node = [&](std::uint32_t node, const std::string& at) {
        if (node >= n)
            fail(context, at,
                 "node index " + std::to_string(node) + " out of range (model has " + std::to_string(n) +
                     " nodes)");
    };
    for (std::size_t i = 0; i < model.constant_forces.size(); ++i) {
        const std::string at = "/constant_forces/" + std::to_string(i);
        check_node(model.constant_forces[i].node, at + "/node");
        check_finite(model.constant_forces[i].force, context, at + "/force");
    }
    for (std::size_t i = 0; i < model.tethers.size(); ++i) {
        const Tether& t = model.tethers[i];
        const std::string at = "/tethers/" + std::to_string(i);
        check_node(t.node, at + "/node");
        check_finite(t.point, context, at + "/point");
        check_finite(t.length, context, at + "/length");
        check_finite(t.bounce, context, at + "/bounce");
        if (t.length <= 0) fail(context, at + "/length", "rope length must be > 0 m (got " + str(t.length) + ")");
        if (t.bounce < 0 || t.bounce > 1)
            fail(context, at + "/bounce", "must be in [0, 1] (got " + str(t.bounce) + ")");
    }
    for (std::size_t i = 0; i < model.beads.size(); ++i) {
        const Bead& b = model.beads[i];
        const std::string at = "/beads/" + std::to_string(i);
        check_chain(b.first, b.last, n, context, at);
        check_finite(b.mass, context, at + "/mass");
        check_finite(b.start, context, at + "/start");
        check_finite(b.friction, context, at + "/friction");
        if (b.mass <= 0) fail(context, at + "/mass", "bead mass must be > 0 kg (got " + str(b.mass) + ")");
        if (b.start < 0 || b.start > static_cast<float>(b.last - b.first))
            fail(context, at + "/start",
                 "must be between 0 and " + std::to_string(b.last - b.first) + " segments (got " +
                     str(b.start) + ")");
        if (b.friction < 0) fail(context, at + "/friction", "must not be negative (got " + str(b.friction) + ")");
    }
    for (std::size_t i = 0; i < model.tubes.size(); ++i) {
        const Tube& t = model.tubes[i];
        const std::string at = "/tubes/" + std::to_string(i);
        if (t.nodes.size() < 2) fail(context, at + "/nodes", "a tube needs a path of at least 2 nodes");
        for (std::size_t k = 0; k < t.nodes.size(); ++k) check_node(t.nodes[k], at + "/nodes/" + std::to_string(k));
        check_finite(t.radius, context, at + "/radius");
        if (t.radius <= 0) fail(context, at + "/radius", "tube radius must be > 0 m (got " + str(t.radius) + ")");
        if (t.sides < 3 || t.sides > 64)
            fail(context, at + "/sides", "must be between 3 and 64 (got " + std::to_string(t.sides) + ")");
        if (t.subdivisions < 0 || t.subdivisions > 32)
            fail(context, at + "/subdivisions",
                 "must be between 0 and 32 (got " + std::to_string(t.subdivisions) + ")");
    }
}

}  // namespace

Vec3 wind_at(const Parameters& params, double time) {
    const Gust& g = params.gust;
    if (g.period <= 0.0f || time < g.start) return params.wind;
    const double into = std::fmod(time - g.start, static_cast<double>(g.period));
    if (into >= g.duration) return params.wind;
    const double s = std::sin(std::numbers::pi * into / g.duration);
    return params.wind + g.velocity * static_cast<float>(s * s);
}

namespace {

// The checks of validate() with the message of the first problem; slow (it
// builds each element's location). validate() runs it only when the quick
// pass below has found a problem, so that it names the same first problem.
void validate_in_detail(const Model& model, const std::string& context) {
    validate_parameters(model.params, context);
    const std::size_t n = model.positions.size();
    if (n > 0xFFFFFFF0u) fail(context, "/positions", "too many nodes");
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3& p = model.positions[i];
        const std::string at = "/positions/" + std::to_string(i);
        check_finite(p, context, at);
        const float largest = std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)});
        if (largest > kMaxCoordinate)
            fail(context, at,
                 "coordinate " + str(largest) + " m is beyond +-" + str(kMaxCoordinate) +
                     " m; single-precision physics cannot work at that scale (scale the model down)");
    }
    if (!model.masses.empty()) {
        if (model.masses.size() != n)
            fail(context, "/masses",
                 "has " + std::to_string(model.masses.size()) + " entries but the model has " +
                     std::to_string(n) + " nodes");
        for (std::size_t i = 0; i < n; ++i) {
            const float m = model.masses[i];
            const std::string at = "/masses/" + std::to_string(i);
            check_finite(m, context, at);
            if (m <= 0) fail(context, at, "node mass must be > 0 kg (got " + str(m) + ")");
        }
    }

    std::unordered_map<std::uint64_t, std::size_t> seen;
    seen.reserve(model.springs.size());
    for (std::size_t i = 0; i < model.springs.size(); ++i) {
        const Spring& s = model.springs[i];
        const std::string at = "/springs/" + std::to_string(i);
        if (s.a >= n || s.b >= n)
            fail(context, at,
                 "node index " + std::to_string(s.a >= n ? s.a : s.b) + " out of range (model has " +
                     std::to_string(n) + " nodes)");
        if (s.a == s.b) fail(context, at, "spring connects node " + std::to_string(s.a) + " to itself");
        check_finite(s.rest, context, at + "/rest");
        check_finite(s.k, context, at + "/k");
        if (s.rest <= 0) fail(context, at + "/rest", "rest length must be > 0 m (got " + str(s.rest) + ")");
        if (s.k < 0) fail(context, at + "/k", "stiffness must not be negative (got " + str(s.k) + ")");
        const std::uint64_t key = (std::uint64_t{std::min(s.a, s.b)} << 32) | std::max(s.a, s.b);
        auto [it, inserted] = seen.emplace(key, i);
        if (!inserted)
            fail(context, at,
                 "duplicate spring between nodes " + std::to_string(s.a) + " and " +
                     std::to_string(s.b) + " (same as spring " + std::to_string(it->second) + ")");
    }

    std::vector<bool> anchored(n, false);
    for (std::size_t i = 0; i < model.anchors.size(); ++i) {
        const Anchor& a = model.anchors[i];
        const std::string at = "/anchors/" + std::to_string(i);
        if (a.node >= n)
            fail(context, at,
                 "anchor node " + std::to_string(a.node) + " out of range (model has " +
                     std::to_string(n) + " nodes)");
        if (anchored[a.node]) fail(context, at, "node " + std::to_string(a.node) + " is anchored twice");
        anchored[a.node] = true;
        check_finite(a.velocity, context, at + "/velocity");
        check_finite(a.center, context, at + "/center");
        check_finite(a.axis, context, at + "/axis");
        check_finite(a.angular_speed, context, at + "/angular_speed");
        if (a.drive == AnchorDrive::circle && length(a.axis) <= 0)
            fail(context, at + "/axis", "circle axis must not be zero");
    }

    const std::size_t t = model.texcoords.size();
    for (std::size_t i = 0; i < t; ++i) {
        const std::string at = "/texcoords/" + std::to_string(i);
        check_finite(model.texcoords[i].u, context, at);
        check_finite(model.texcoords[i].v, context, at);
    }
    for (std::size_t i = 0; i < model.faces.size(); ++i) {
        const Face& f = model.faces[i];
        const std::string at = "/faces/" + std::to_string(i);
        for (int c = 0; c < 3; ++c) {
            if (f.node[c] >= n)
                fail(context, at,
                     "node index " + std::to_string(f.node[c]) + " out of range (model has " +
                         std::to_string(n) + " nodes)");
            if (t > 0 && f.texcoord[c] >= t)
                fail(context, at,
                     "texcoord index " + std::to_string(f.texcoord[c]) +
                         " out of range (model has " + std::to_string(t) + " texcoords)");
        }
    }
    validate_attachments(model, context);
}

bool springs_look_valid(const Model& model) {
    const std::size_t n = model.positions.size();
    std::vector<std::uint32_t> bucket_start(n + 1, 0);
    for (const Spring& s : model.springs) {
        if (s.a >= n || s.b >= n || s.a == s.b) return false;
        if (!std::isfinite(s.rest) || !std::isfinite(s.k) || s.rest <= 0 || s.k < 0) return false;
        ++bucket_start[std::min(s.a, s.b) + 1];
    }
    for (std::size_t i = 0; i < n; ++i) bucket_start[i + 1] += bucket_start[i];
    std::vector<std::uint32_t> upper(model.springs.size());
    std::vector<std::uint32_t> fill(bucket_start.begin(), bucket_start.end() - 1);
    for (const Spring& s : model.springs) upper[fill[std::min(s.a, s.b)]++] = std::max(s.a, s.b);
    std::vector<std::uint32_t> last_lower(n, 0xFFFFFFFFu);  // lower node whose bucket last named it
    for (std::size_t lower = 0; lower < n; ++lower)
        for (std::uint32_t k = bucket_start[lower]; k < bucket_start[lower + 1]; ++k) {
            if (last_lower[upper[k]] == lower) return false;
            last_lower[upper[k]] = static_cast<std::uint32_t>(lower);
        }
    return true;
}

bool the_rest_looks_valid(const Model& model) {
    const std::size_t n = model.positions.size();
    for (const Vec3& p : model.positions)
        if (!is_finite(p) || std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)}) > kMaxCoordinate) return false;
    if (!model.masses.empty()) {
        if (model.masses.size() != n) return false;
        for (float m : model.masses)
            if (!std::isfinite(m) || m <= 0) return false;
    }
    std::vector<bool> anchored(n, false);
    for (const Anchor& a : model.anchors) {
        if (a.node >= n || anchored[a.node]) return false;
        anchored[a.node] = true;
        if (!is_finite(a.velocity) || !is_finite(a.center) || !is_finite(a.axis) || !std::isfinite(a.angular_speed))
            return false;
        if (a.drive == AnchorDrive::circle && length(a.axis) <= 0) return false;
    }
    const std::size_t t = model.texcoords.size();
    for (const TexCoord& c : model.texcoords)
        if (!std::isfinite(c.u) || !std::isfinite(c.v)) return false;
    for (const Face& f : model.faces)
        for (int c = 0; c < 3; ++c)
            if (f.node[c] >= n || (t > 0 && f.texcoord[c] >= t)) return false;
    return true;
}

// The same conditions as validate_in_detail's node, spring, anchor, texcoord
// and face checks, without messages: true if none fails. Duplicate springs are
// found with springs bucketed by their lower node (linear time). For big models
// the springs are checked on a second thread meanwhile (about half the work).
bool arrays_look_valid(const Model& model) {
    if (model.positions.size() > 0xFFFFFFF0u) return false;
    if (model.springs.size() < 200000) return springs_look_valid(model) && the_rest_looks_valid(model);
    std::future<bool> springs;
    try {
        springs = std::async(std::launch::async, [&model] { return springs_look_valid(model); });
    } catch (const std::system_error&) {  // no thread to be had: one after the other
        return springs_look_valid(model) && the_rest_looks_valid(model);
    }
    const bool rest = the_rest_looks_valid(model);
    return springs.get() && rest;
}

}  // namespace

void validate(const Model& model, const std::string& context) {
    // Big models are checked in one quick pass; the detailed pass (which also
    // checks the parameters and attachments) names the first problem.
    validate_parameters(model.params, context);
    if (!arrays_look_valid(model)) validate_in_detail(model, context);  // throws
    validate_attachments(model, context);
}

Stability stability_estimate(const Model& model) {
    Stability result;
    const double dt = model.params.max_substep;
    for (std::size_t i = 0; i < model.springs.size(); ++i) {
        const Spring& s = model.springs[i];
        if (s.kind != SpringKind::hooke) continue;
        const double m = std::min(model.node_mass(s.a), model.node_mass(s.b));
        const double value = model.spring_k(s) * dt * dt / m;
        if (value > result.worst) {
            result.worst = value;
            result.worst_spring = i;
        }
    }
    return result;
}

FrequencyStability frequency_stability(const Model& model) {
    FrequencyStability result;
    const Parameters& p = model.params;
    const double keep = std::pow(static_cast<double>(p.energy_loss), static_cast<double>(p.max_substep) * 60.0);
    // Explicit Euler on x'' = -w^2 x with the velocity scaled by keep each
    // substep: x' = x + v dt, v' = keep (v - w^2 dt x). In (x, v dt), with
    // h = w dt, the amplification matrix is [[1, 1], [-keep h^2, keep]]: trace
    // 1 + keep, determinant keep (1 + h^2). Its eigenvalues are complex for
    // h^2 > (1 - keep)^2 / (4 keep), with modulus sqrt(det); real below that,
    // and then both in (0, 1). So the map is stable iff keep (1 + h^2) <= 1:
    // h <= sqrt(1/keep - 1). (The loss scales the velocity alone, not the whole
    // state: keep^2 (1 + h^2) <= 1 would be the limit if it scaled both.)
    if (p.integrator == Integrator::explicit_euler) result.limit = keep < 1.0 ? std::sqrt(1.0 / keep - 1.0) : 0.0;
    // The stiffness of a Hooke spring about its current length L (d = b - a,
    // u = d / L): the force at a is k (1 - rest/L) d, whose derivative in d is
    // k [(1 - rest/L) I + (rest/L) u u^T] (along the spring k, across it the
    // tension k (1 - rest/L), taken as 0 when compressed: buckling lowers, never
    // raises, the frequencies).
    struct Block {
        std::uint32_t a, b;
        double across, along;  // k s and k (1 - s), s = max(0, 1 - rest/L)
        double u[3];
    };
    const std::size_t n = model.node_count();
    std::vector<Block> blocks;
    blocks.reserve(model.springs.size());
    for (const Spring& spring : model.springs) {
        if (spring.kind != SpringKind::hooke) continue;
        const Vec3 d = model.positions[spring.b] - model.positions[spring.a];
        const double length = std::sqrt(static_cast<double>(d.x) * d.x + static_cast<double>(d.y) * d.y +
                                        static_cast<double>(d.z) * d.z);
        if (!(length > 0.0)) continue;
        const double k = model.spring_k(spring);
        const double s = std::max(0.0, 1.0 - spring.rest / length);
        blocks.push_back({spring.a, spring.b, k * s, k * (1.0 - s), {d.x / length, d.y / length, d.z / length}});
    }
    // Power iteration on A = M^-1/2 K M^-1/2 (symmetric), held nodes fixed at 0.
    std::vector<double> inv_sqrt_mass(n), v(3 * n), w(3 * n);
    for (std::size_t i = 0; i < n; ++i) inv_sqrt_mass[i] = 1.0 / std::sqrt(static_cast<double>(model.node_mass(i)));
    for (const Anchor& anchor : model.anchors) inv_sqrt_mass[anchor.node] = 0.0;
    std::uint64_t seed = 0x9E3779B97F4A7C15ull;  // a fixed start: the same answer every time
    for (std::size_t i = 0; i < 3 * n; ++i) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        v[i] = (static_cast<double>(seed >> 11) * 0x1p-53 - 0.5) * (inv_sqrt_mass[i / 3] > 0.0 ? 1.0 : 0.0);
    }
    // At most about 4e6 spring visits (some 40 ms) unless that is under 20
    // iterations: fewer iterations on big models, where the Rayleigh quotient is
    // still within a few percent (the top modes of a mesh lie close together;
    // cloth of 10k and 65k nodes: 0.899 and 0.886).
    const int iterations = static_cast<int>(std::clamp<std::size_t>(4'000'000 / (blocks.size() + 1), 20, 200));
    double lambda = 0.0;
    for (int iteration = 0; iteration < iterations; ++iteration) {
        double norm = 0.0;
        for (double x : v) norm += x * x;
        if (!(norm > 0.0)) break;
        norm = std::sqrt(norm);
        for (double& x : v) x /= norm;
        std::fill(w.begin(), w.end(), 0.0);
        for (const Block& b : blocks) {
            const double sa = inv_sqrt_mass[b.a], sb = inv_sqrt_mass[b.b];
            double r[3];
            for (int c = 0; c < 3; ++c) r[c] = v[3 * b.a + c] * sa - v[3 * b.b + c] * sb;  // y_a - y_b, y = M^-1/2 v
            const double along = b.along * (r[0] * b.u[0] + r[1] * b.u[1] + r[2] * b.u[2]);
            for (int c = 0; c < 3; ++c) {
                const double f = b.across * r[c] + along * b.u[c];
                w[3 * b.a + c] += f * sa;
                w[3 * b.b + c] -= f * sb;
            }
        }
        double rayleigh = 0.0;
        for (std::size_t i = 0; i < 3 * n; ++i) rayleigh += v[i] * w[i];
        const bool settled = iteration >= 8 && std::abs(rayleigh - lambda) <= 1e-6 * rayleigh;
        lambda = rayleigh;
        v.swap(w);
        if (settled) break;
    }
    result.omega_dt = std::sqrt(std::max(0.0, lambda)) * static_cast<double>(p.max_substep);
    return result;
}

std::string stability_warning(const Model& model) {
    const Stability s = stability_estimate(model);
    if (!(s.worst > kStabilityWarning)) {
        const FrequencyStability f = frequency_stability(model);
        if (!f.above_limit()) return {};
        std::ostringstream out;
        out.precision(3);
        out << "dt * omega_max = " << f.omega_dt << " is at or above " << f.limit << ", the stability limit of "
            << integrator_name(model.params.integrator) << ": the model will explode; use a smaller max_substep"
            << (model.params.integrator == Integrator::explicit_euler ? " or symplectic_euler" : " or a lower k");
        return out.str();
    }
    const Spring& spring = model.springs[s.worst_spring];
    std::ostringstream out;
    out.precision(3);
    out << "k dt^2/m = " << s.worst << " at spring " << s.worst_spring << " (nodes " << spring.a << "-"
        << spring.b << ") is above " << kStabilityWarning
        << ": the model may explode; use a smaller max_substep or a lower k";
    return out.str();
}

Bounds bounds(const Model& model) {
    if (model.positions.empty()) return {};
    Bounds b{model.positions[0], model.positions[0]};
    for (const Vec3& p : model.positions) {
        b.min = {std::min(b.min.x, p.x), std::min(b.min.y, p.y), std::min(b.min.z, p.z)};
        b.max = {std::max(b.max.x, p.x), std::max(b.max.y, p.y), std::max(b.max.z, p.z)};
    }
    return b;
}

}  // namespace springkit
