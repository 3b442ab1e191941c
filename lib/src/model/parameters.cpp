// springkit — the table of physics parameters (parameters.hpp).
#include "springkit/parameters.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "springkit/error.hpp"

namespace springkit {

namespace {

constexpr double kNone = std::numeric_limits<double>::infinity();
constexpr ParameterBound kNoMin{-kNone, false};
constexpr ParameterBound kNoMax{kNone, false};
constexpr ParameterBound at_least(double v) { return {v, true}; }
constexpr ParameterBound above(double v) { return {v, false}; }
constexpr ParameterBound at_most(double v) { return {v, true}; }

using T = ParameterType;
using S = ParameterSection;
using G = ParameterTopic;

// In the order the model file writes them (the writer and the schema test follow it).
constexpr std::array kTable{
    ParameterInfo{"k", S::main, G::main, "k", "--k", "N/m", T::number, at_least(0), kNoMax,
                  "stiffness of springs without their own k: F = -k (|x| - rest) x/|x| (Oliveira, listing 1)"},
    ParameterInfo{"energy_loss", S::main, G::main, "energy loss", "--energy-loss", "", T::number, above(0), at_most(1),
                  "velocity kept per 1/60 s frame (Oliveira); pow(energy_loss, dt * 60) per substep; 1 = none"},
    ParameterInfo{"mass", S::main, G::main, "mass", "--mass", "kg", T::number, above(0), kNoMax,
                  "mass of nodes without their own mass"},
    ParameterInfo{"gravity", S::main, G::main, "gravity", "--gravity", "m/s^2", T::vector, kNoMin, kNoMax,
                  "acceleration of every node"},
    ParameterInfo{"spring_damping", S::main, G::main, "spring damping", "--damping", "N s/m", T::number, at_least(0), kNoMax,
                  "inner spring friction (Tunca), along the spring: F_a += spring_damping ((v_b - v_a) . u) u, u the unit a->b"},
    ParameterInfo{"air_friction", S::main, G::main, "air friction", "--air-friction", "N s/m", T::number, at_least(0), kNoMax,
                  "drag -air_friction * (v - wind) on every node (Tunca)"},
    ParameterInfo{"height", S::ground, G::ground, "ground height", "--ground", "m", T::number, kNoMin, kNoMax,
                  "height y of the ground plane (Tunca); no ground when absent"},
    ParameterInfo{"repulsion", S::ground, G::ground, "ground repulsion", "--ground-repulsion", "N/m", T::number, at_least(0),
                  kNoMax, "pushes a node below the ground back up, per metre below (Tunca)"},
    ParameterInfo{"friction", S::ground, G::ground, "ground friction", "--ground-friction", "N s/m", T::number, at_least(0),
                  kNoMax, "slows the sliding of a node touching the ground (Tunca)"},
    ParameterInfo{"absorption", S::ground, G::ground, "ground absorption", "--ground-absorption", "N s/m", T::number,
                  at_least(0), kNoMax, "absorbs the downward speed of a node touching the ground (Tunca)"},
    ParameterInfo{"wind", S::main, G::wind, "wind", "--wind", "m/s", T::vector, kNoMin, kNoMax,
                  "velocity of the air that air friction drags towards"},
    ParameterInfo{"max_substep", S::main, G::main, "max substep", "--max-substep", "s", T::number, at_least(kMinSubstep),
                  at_most(kMaxSubstep), "longest substep: a frame runs ceil(frame / max_substep) equal substeps (Tunca: 0.002)"},
    ParameterInfo{"integrator", S::main, G::main, "integrator", "--integrator", "", T::integrator, kNoMin, kNoMax,
                  "explicit_euler, symplectic_euler (the seeds' order), verlet (the Source engine's ropes) or implicit "
                  "(implicit Euler by local/global iterations, Liu et al. 2013: stable for any k)"},
    ParameterInfo{"rope_iterations", S::main, G::main, "rope iterations", "--rope-iterations", "", T::count, at_least(0),
                  at_most(1000), "relaxation passes over rope constraints per substep (Source engine: 3)"},
    ParameterInfo{"verlet_damping", S::main, G::main, "verlet damping", "--verlet-damping", "", T::number, above(0), at_most(1),
                  "Verlet velocity kept per 1/60 s frame (Source engine: 0.98); pow(verlet_damping, dt * 60) per substep"},
    ParameterInfo{"node_radius", S::main, G::main, "node radius", "--node-radius", "m", T::number, at_least(0), at_most(10),
                  "collision radius of every node: colliders keep nodes this far from their surface", false},
    ParameterInfo{"pressure", S::main, G::main, "pressure", "--pressure", "J", T::number, at_least(0), kNoMax,
                  "ideal gas n R T in a closed face mesh: p = pressure / volume pushes each face along its normal (Jolt's mPressure); 0 = none", false},
    ParameterInfo{"volume_stiffness", S::main, G::main, "volume stiffness", "--volume-stiffness", "N/m", T::number, at_least(0),
                  kNoMax,
                  "stiffness of the volume elements (signed-volume tetrahedra: they tell a shape from its mirror image, "
                  "Teschner et al. 2004), as stiff as a spring of this k along their gradient; 0 = off", false},
    ParameterInfo{"velocity", S::gust, G::wind, "gust velocity", "--gust-velocity", "m/s", T::vector, kNoMin, kNoMax,
                  "peak air velocity a gust adds to the wind, rising and falling as sin^2"},
    ParameterInfo{"period", S::gust, G::wind, "gust period", "--gust-period", "s", T::number, at_least(0), kNoMax,
                  "time from one gust's start to the next; 0 = no gusts"},
    ParameterInfo{"duration", S::gust, G::wind, "gust duration", "--gust-duration", "s", T::number, kNoMin, kNoMax,
                  "length of one gust, in (0, period] when there are gusts"},
    ParameterInfo{"start", S::gust, G::wind, "gust start", "--gust-start", "s", T::number, kNoMin, kNoMax,
                  "simulation time of the first gust"},
    ParameterInfo{"implicit_iterations", S::main, G::implicit, "implicit iterations", "--implicit-iterations", "", T::count,
                  at_least(1), at_most(1000),
                  "local/global iterations per substep of the implicit integrator (Liu et al. 2013, Chebyshev-weighted "
                  "Jacobi after Wang 2015)", false},
    ParameterInfo{"strain_limit", S::main, G::implicit, "strain limit", "--strain-limit", "", T::number, at_least(0), kNoMax,
                  "implicit integrator: largest stretch of a Hooke spring as a share of its rest length, kept by a "
                  "projection after the solve (Provot 1995); 0 = none", false},
    ParameterInfo{"chebyshev_rho", S::main, G::implicit, "chebyshev rho", "--chebyshev-rho", "", T::number, at_least(0), above(1),
                  "implicit integrator: the spectral radius rho of Wang's Chebyshev weights on its iterations "
                  "(SIGGRAPH Asia 2015), [0, 1); 0 = plain iterations", false},
    ParameterInfo{"self_collision_distance", S::main, G::self_collision, "self-collision distance", "--self-collision", "m", T::number,
                  at_least(0), at_most(10),
                  "nodes of the body closer than this, joined by no spring and this far apart at rest, are pushed "
                  "apart (spatial hash of Teschner et al. 2003); 0 = off", false},
    ParameterInfo{"self_friction", S::main, G::self_collision, "self friction", "--self-friction", "", T::number, at_least(0), kNoMax,
                  "Coulomb coefficient between two nodes of the body in self-collision (Bridson et al. 2002)", false},
    ParameterInfo{"long_range_attachments", S::main, G::implicit, "long range attachments", "--long-range-attachments", "",
                  T::count, at_least(0), at_most(64),
                  "implicit integrator: each free node's distance from its nearest this many anchors (along the "
                  "springs) is capped at its rest distance from them (Kim, Chentanez, Mueller 2012); 0 = none", false},
    ParameterInfo{"strain_limit_passes", S::main, G::implicit, "strain limit passes", "--strain-limit-passes", "", T::count,
                  at_least(1), at_most(1000),
                  "implicit integrator: Gauss-Seidel passes of the strain limit and the long range attachments after "
                  "the solve", false},
    ParameterInfo{"strain_limit_every_spring", S::main, G::implicit, "strain limit every spring",
                  "--strain-limit-every-spring", "", T::count, at_least(0), at_most(1),
                  "implicit integrator: 1 = the strain limit also projects the springs whose cap two shorter springs "
                  "imply (a cloth's bend springs), which carry a correction two springs a pass along straight lines; "
                  "0 = it skips them (fewer springs a pass)", false},
    ParameterInfo{"strain_limit_global_steps", S::main, G::implicit, "strain limit global steps",
                  "--strain-limit-global-steps", "", T::count, at_least(0), at_most(100),
                  "implicit integrator: after the strain-limit passes, this many solves through the implicit "
                  "solve's factor pulling the springs longer than the limit towards it, which carries a correction "
                  "across the whole body at once; 0 = none", false},
    ParameterInfo{"implicit_theta", S::main, G::implicit, "implicit theta", "--implicit-theta", "", T::number, at_least(0.5),
                  at_most(1),
                  "implicit integrator: theta of the one-leg theta-method, the forces taken theta of the way through "
                  "each substep; 1 = implicit Euler (damps the swing), 0.5 = implicit midpoint (keeps the energy of "
                  "linear springs); a little above 0.5 keeps the swing and still damps stiff ringing", false},
    ParameterInfo{"implicit_tolerance", S::main, G::implicit, "implicit tolerance", "--implicit-tolerance", "m", T::number,
                  at_least(0), kNoMax,
                  "implicit integrator: the iterations of a substep stop once none moves a node farther than this "
                  "(implicit_iterations stays the most); 0 = always implicit_iterations", false},
    ParameterInfo{"total_mass", S::main, G::material, "total mass", "--total-mass", "kg", T::number, at_least(0), kNoMax,
                  "material: the model's mass, spread over the nodes by the area around each (lumped mass), so that "
                  "it does not depend on the resolution; 0 = node masses as given", false},
    ParameterInfo{"density", S::main, G::material, "density", "--density", "kg/m^3", T::number, at_least(0), kNoMax,
                  "material: mass per cubic metre of the volume a closed face mesh encloses, spread as total mass "
                  "is; 0 = not given", false},
    ParameterInfo{"area_density", S::main, G::material, "area density", "--area-density", "kg/m^2", T::number, at_least(0), kNoMax,
                  "material: mass per square metre of the faces (a sheet, a shell), spread as total mass is; 0 = "
                  "not given", false},
    ParameterInfo{"stretch_stiffness", S::main, G::material, "stretch stiffness", "--stretch-stiffness", "N/m", T::number,
                  at_least(0), kNoMax,
                  "material: a sheet's Young's modulus x thickness; each face edge gets k = S sum|T| / |e|^2 over "
                  "its faces (Van Gelder 1998), other springs S a / rest^2 with a the area around their ends, the same "
                  "stretch at any resolution; 0 = k as given", false},
};

// Bounds held as floats (kMinSubstep) print as the float they are ("1e-06"),
// not as the double nearest to it.
std::string number_text(double v) {
    char buf[32];
    const auto f = static_cast<float>(v);
    const auto [end, ec] = static_cast<double>(f) == v ? std::to_chars(buf, buf + sizeof buf, f)
                                                       : std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc{} ? std::string(buf, end) : std::string("?");
}

// The address of a row's field, or nullptr when its section is absent. Members
// are picked by key: the table above is the only place that lists them.
template <class P>
auto field(const ParameterInfo& row, P& p) {
    using Float = std::conditional_t<std::is_const_v<P>, const float, float>;
    using Vector = std::conditional_t<std::is_const_v<P>, const Vec3, Vec3>;
    using Int = std::conditional_t<std::is_const_v<P>, const int, int>;
    using Choice = std::conditional_t<std::is_const_v<P>, const Integrator, Integrator>;
    struct Field {
        Float* number = nullptr;
        Vector* vector = nullptr;
        Int* count = nullptr;
        Choice* integrator = nullptr;
    } f;
    const std::string_view k = row.key;
    switch (row.section) {
        case S::main:
            if (k == "k") f.number = &p.k;
            else if (k == "energy_loss") f.number = &p.energy_loss;
            else if (k == "mass") f.number = &p.mass;
            else if (k == "gravity") f.vector = &p.gravity;
            else if (k == "spring_damping") f.number = &p.spring_damping;
            else if (k == "air_friction") f.number = &p.air_friction;
            else if (k == "wind") f.vector = &p.wind;
            else if (k == "max_substep") f.number = &p.max_substep;
            else if (k == "integrator") f.integrator = &p.integrator;
            else if (k == "rope_iterations") f.count = &p.rope_iterations;
            else if (k == "verlet_damping") f.number = &p.verlet_damping;
            else if (k == "implicit_iterations") f.count = &p.implicit_iterations;
            else if (k == "strain_limit") f.number = &p.strain_limit;
            else if (k == "chebyshev_rho") f.number = &p.chebyshev_rho;
            else if (k == "long_range_attachments") f.count = &p.long_range_attachments;
            else if (k == "strain_limit_passes") f.count = &p.strain_limit_passes;
            else if (k == "strain_limit_every_spring") f.count = &p.strain_limit_every_spring;
            else if (k == "strain_limit_global_steps") f.count = &p.strain_limit_global_steps;
            else if (k == "implicit_theta") f.number = &p.implicit_theta;
            else if (k == "implicit_tolerance") f.number = &p.implicit_tolerance;
            else if (k == "node_radius") f.number = &p.node_radius;
            else if (k == "pressure") f.number = &p.pressure;
            else if (k == "volume_stiffness") f.number = &p.volume_stiffness;
            else if (k == "self_collision_distance") f.number = &p.self_collision_distance;
            else if (k == "self_friction") f.number = &p.self_friction;
            else if (k == "total_mass") f.number = &p.total_mass;
            else if (k == "density") f.number = &p.density;
            else if (k == "area_density") f.number = &p.area_density;
            else if (k == "stretch_stiffness") f.number = &p.stretch_stiffness;
            break;
        case S::ground:
            if (!p.ground) break;
            if (k == "height") f.number = &p.ground->height;
            else if (k == "repulsion") f.number = &p.ground->repulsion;
            else if (k == "friction") f.number = &p.ground->friction;
            else if (k == "absorption") f.number = &p.ground->absorption;
            break;
        case S::gust:
            if (k == "velocity") f.vector = &p.gust.velocity;
            else if (k == "period") f.number = &p.gust.period;
            else if (k == "duration") f.number = &p.gust.duration;
            else if (k == "start") f.number = &p.gust.start;
            break;
    }
    return f;
}

}  // namespace

std::span<const ParameterInfo> parameter_table() { return kTable; }

std::string ParameterInfo::pointer() const {
    switch (section) {
        case S::main: return "/parameters/" + std::string(key);
        case S::ground: return "/parameters/ground/" + std::string(key);
        case S::gust: return "/parameters/gust/" + std::string(key);
    }
    return {};
}

bool ParameterInfo::in_range(double value) const {
    if (std::isnan(value)) return false;
    const bool above_min = min.included ? value >= min.value : value > min.value;
    const bool below_max = max.included ? value <= max.value : value < max.value;
    return above_min && below_max;
}

std::string ParameterInfo::range_text() const {
    const bool has_min = std::isfinite(min.value);
    const bool has_max = std::isfinite(max.value);
    std::string text;
    if (has_min && has_max) {
        text += min.included ? '[' : '(';
        text += number_text(min.value);
        text += ", ";
        text += number_text(max.value);
        text += max.included ? ']' : ')';
    } else if (has_min) {
        text += min.included ? ">= " : "> ";
        text += number_text(min.value);
    } else if (has_max) {
        text += max.included ? "<= " : "< ";
        text += number_text(max.value);
    } else {
        text = "any finite value";
    }
    return text;
}

std::string parameter_range_message(const ParameterInfo& row, std::string_view got) {
    const bool interval = std::isfinite(row.min.value) && std::isfinite(row.max.value);
    std::string text(row.label);
    text += interval ? " must be in " : " must be ";
    text += row.range_text();
    if (!row.unit.empty()) {
        text += ' ';
        text += row.unit;
    }
    text += " (got ";
    text += got;
    text += ')';
    return text;
}

const ParameterInfo* find_parameter(std::string_view path) {
    for (const ParameterInfo& row : kTable) {
        const std::string pointer = row.pointer();
        if (pointer.size() > 12 && std::string_view(pointer).substr(12) == path) return &row;  // after "/parameters/"
    }
    return nullptr;
}

float* parameter_number(const ParameterInfo& row, Parameters& p) { return field(row, p).number; }
const float* parameter_number(const ParameterInfo& row, const Parameters& p) { return field(row, p).number; }
Vec3* parameter_vector(const ParameterInfo& row, Parameters& p) { return field(row, p).vector; }
const Vec3* parameter_vector(const ParameterInfo& row, const Parameters& p) { return field(row, p).vector; }
int* parameter_count(const ParameterInfo& row, Parameters& p) { return field(row, p).count; }
const int* parameter_count(const ParameterInfo& row, const Parameters& p) { return field(row, p).count; }
Integrator* parameter_integrator(const ParameterInfo& row, Parameters& p) { return field(row, p).integrator; }
const Integrator* parameter_integrator(const ParameterInfo& row, const Parameters& p) {
    return field(row, p).integrator;
}

const Parameters& parameter_defaults() {
    static const Parameters defaults = [] {
        Parameters p;
        p.ground = Ground{};
        return p;
    }();
    return defaults;
}

namespace {

// A float as CLI11 reads one (strtold, then to float): an option of the table
// gives the same float as a plain CLI11 float option would.
bool parse_float(std::string_view text, float& out) {
    const std::string s(text);
    if (s.empty()) return false;
    char* end = nullptr;
    const long double v = std::strtold(s.c_str(), &end);
    if (end != s.c_str() + s.size()) return false;
    out = static_cast<float>(v);
    return true;
}

}  // namespace

std::string parse_parameter(const ParameterInfo& row, std::string_view text, ParameterValue& out) {
    auto check = [&row](float v, std::string_view got) -> std::string {
        if (!std::isfinite(v)) return std::string(row.label) + " must be a finite number (got " + std::string(got) + ")";
        if (!row.in_range(v)) return parameter_range_message(row, got);
        return {};
    };
    switch (row.type) {
        case T::number:
            if (!parse_float(text, out.number)) return "expected a number, got \"" + std::string(text) + "\"";
            return check(out.number, text);
        case T::vector: {
            float c[3];
            std::size_t at = 0;
            for (int i = 0; i < 3; ++i) {
                const std::size_t comma = i < 2 ? text.find(',', at) : text.size();
                if (comma == std::string_view::npos || !parse_float(text.substr(at, comma - at), c[i]))
                    return "expected X,Y,Z, got \"" + std::string(text) + "\"";
                if (std::string error = check(c[i], text.substr(at, comma - at)); !error.empty()) return error;
                at = comma + 1;
            }
            out.vector = {c[0], c[1], c[2]};
            return {};
        }
        case T::count: {
            long long n = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
            if (ec != std::errc{} || end != text.data() + text.size() || text.empty())
                return "expected an integer, got \"" + std::string(text) + "\"";
            if (!row.in_range(static_cast<double>(n))) return parameter_range_message(row, text);
            out.count = static_cast<int>(n);
            return {};
        }
        case T::integrator:
            if (auto i = integrator_from_name(text)) {
                out.integrator = *i;
                return {};
            }
            return "unknown integrator \"" + std::string(text) + "\" (expected explicit_euler, symplectic_euler, verlet or implicit)";
    }
    return "unknown parameter type";
}

void ParameterOverrides::set(const ParameterInfo& row, const ParameterValue& value) {
    for (auto& [r, v] : values_)
        if (r == &row) {
            v = value;
            return;
        }
    values_.emplace_back(&row, value);
    const ParameterInfo* first = kTable.data();
    std::sort(values_.begin(), values_.end(), [first](const auto& a, const auto& b) {
        return a.first - first < b.first - first;
    });
}

void ParameterOverrides::erase(const ParameterInfo& row) {
    std::erase_if(values_, [&row](const auto& entry) { return entry.first == &row; });
}

const ParameterValue* ParameterOverrides::find(const ParameterInfo& row) const {
    for (const auto& [r, v] : values_)
        if (r == &row) return &v;
    return nullptr;
}

void take_implicit_substep(Parameters& params, Integrator before) {
    if (params.integrator == Integrator::implicit && before != Integrator::implicit)
        params.max_substep = std::max(params.max_substep, kImplicitSubstep);
}

void ParameterOverrides::apply(Parameters& params) const {
    const Integrator before = params.integrator;
    for (const auto& [row, value] : values_) {
        if (row->section == S::ground && !params.ground) {
            if (row->key != "height")
                throw Error(std::string(row->cli_option.empty() ? row->key : row->cli_option) +
                            ": the model has no ground; add one with --ground HEIGHT");
            params.ground = Ground{};
        }
        if (float* x = parameter_number(*row, params)) *x = value.number;
        else if (Vec3* v = parameter_vector(*row, params)) *v = value.vector;
        else if (int* n = parameter_count(*row, params)) *n = value.count;
        else if (Integrator* i = parameter_integrator(*row, params)) *i = value.integrator;
    }
    // A substep given with the switch is the one wanted.
    const ParameterInfo* substep = find_parameter("max_substep");
    if (substep != nullptr && find(*substep) == nullptr) take_implicit_substep(params, before);
}

}  // namespace springkit
