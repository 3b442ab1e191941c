// springkit — model helpers and validation.
#include "springkit/model.hpp"

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <numbers>
#include <span>
#include <sstream>
#include <system_error>
#include <unordered_map>

#include "collision/pressure.hpp"
#include "springkit/error.hpp"
#include "springkit/parameters.hpp"
#include "springkit/printable.hpp"
#include "springkit/rope_mesh.hpp"

namespace springkit {

const char* integrator_name(Integrator integrator) {
    switch (integrator) {
        case Integrator::explicit_euler: return "explicit_euler";
        case Integrator::symplectic_euler: return "symplectic_euler";
        case Integrator::verlet: return "verlet";
        case Integrator::implicit: return "implicit";
    }
    return "symplectic_euler";
}

std::optional<Integrator> integrator_from_name(std::string_view name) {
    for (Integrator i : {Integrator::explicit_euler, Integrator::symplectic_euler, Integrator::verlet,
                          Integrator::implicit})
        if (name == integrator_name(i)) return i;
    return std::nullopt;
}

const char* spring_role_name(SpringRole role) {
    switch (role) {
        case SpringRole::unspecified: return "unspecified";
        case SpringRole::edge: return "edge";
        case SpringRole::shear: return "shear";
        case SpringRole::bend: return "bend";
        case SpringRole::volume: return "volume";
        case SpringRole::user: return "user";
    }
    return "unknown";
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

std::vector<int> spring_group_of(const Model& model) {
    std::vector<int> group(model.springs.size(), -1);
    for (std::size_t g = 0; g < model.spring_groups.size(); ++g)
        for (std::uint32_t s : model.spring_groups[g].springs)
            if (s < group.size()) group[s] = static_cast<int>(g);
    return group;
}

std::vector<float> spring_stiffnesses(const Model& model) {
    std::vector<float> k(model.springs.size());
    for (std::size_t i = 0; i < k.size(); ++i) k[i] = model.spring_k(model.springs[i]);
    for (const SpringGroup& g : model.spring_groups)
        if (g.stiffness_scale != 1.0f)
            for (std::uint32_t s : g.springs)
                if (s < k.size()) k[s] = model.spring_k(model.springs[s]) * g.stiffness_scale;
    return k;
}

std::vector<float> spring_dampings(const Model& model) {
    std::vector<float> c(model.springs.size(), model.params.spring_damping);
    for (const SpringGroup& g : model.spring_groups)
        if (g.damping)
            for (std::uint32_t s : g.springs)
                if (s < c.size()) c[s] = *g.damping;
    return c;
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

// Finiteness and ranges come from the parameter table (one message shape for
// every row, at the row's pointer); what ties two fields together is stated
// below it.
void validate_parameters(const Parameters& p, const std::string& context) {
    const std::span<const ParameterInfo> rows = parameter_table();
    for (const ParameterInfo& row : rows) {
        if (const float* x = parameter_number(row, p)) check_finite(*x, context, row.pointer());
        else if (const Vec3* v = parameter_vector(row, p)) check_finite(*v, context, row.pointer());
    }
    for (const ParameterInfo& row : rows) {
        if (const float* x = parameter_number(row, p)) {
            if (!row.in_range(*x)) fail(context, row.pointer(), parameter_range_message(row, str(*x)));
        } else if (const Vec3* v = parameter_vector(row, p)) {
            for (const float c : {v->x, v->y, v->z})
                if (!row.in_range(c)) fail(context, row.pointer(), parameter_range_message(row, str(c)));
        } else if (const int* n = parameter_count(row, p)) {
            if (!row.in_range(*n)) fail(context, row.pointer(), parameter_range_message(row, std::to_string(*n)));
        }
    }
    if (p.gust.period > 0 && !(p.gust.duration > 0 && p.gust.duration <= p.gust.period))
        fail(context, "/parameters/gust/duration",
             "must be in (0, period] (got " + str(p.gust.duration) + " for a period of " + str(p.gust.period) +
                 " s)");
    // One way of giving the mass: the rows would each set the masses.
    if ((p.total_mass > 0) + (p.density > 0) + (p.area_density > 0) > 1)
        fail(context, p.density > 0 ? "/parameters/density" : "/parameters/area_density",
             "give one of total_mass, density and area_density, not several (got total mass " + str(p.total_mass) +
                 " kg, density " + str(p.density) + " kg/m^3, area density " + str(p.area_density) + " kg/m^2)");
}

namespace {

// "node index 7 out of range (model has 3 nodes)": an index past its list.
std::string out_of_range(std::string_view what, std::size_t index, std::size_t count, std::string_view noun) {
    return std::string(what) + " " + std::to_string(index) + " out of range (model has " + counted(count, noun) + ")";
}

// A chain first..last of consecutive nodes, as beads use.
void check_chain(std::uint32_t first, std::uint32_t last, std::size_t n, const std::string& context,
                 const std::string& at) {
    if (first >= last)
        fail(context, at, "first node " + std::to_string(first) + " must be below last node " +
                              std::to_string(last));
    if (last >= n)
        fail(context, at + "/last",
             out_of_range("node index", last, n, "node"));
}

// The additions that hold on to nodes: constant forces, tethers, beads, tubes.
void validate_attachments(const Model& model, const std::string& context) {
    const std::size_t n = model.positions.size();
    auto check_node = [&](std::uint32_t node, const std::string& at) {
        if (node >= n)
            fail(context, at,
                 out_of_range("node index", node, n, "node"));
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
    std::uint64_t tube_vertices = 0;
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
        // Sides and subdivisions are bounded above, the path's length is not: a
        // path that repeats its nodes makes a mesh of any size (rope_mesh.hpp).
        const std::uint64_t vertices = tube_mesh_vertices(t);
        if (vertices > kMaxTubeMeshVertices - tube_vertices)
            fail(context, at + "/nodes",
                 "the tube's mesh would have " + std::to_string(vertices) + " vertices (" +
                     std::to_string(t.nodes.size()) + " nodes, " + std::to_string(t.subdivisions) +
                     " subdivisions, " + std::to_string(t.sides) + " sides)" +
                     (tube_vertices > 0 ? ", the tubes before it " + std::to_string(tube_vertices) : "") +
                     ", more than the " + std::to_string(kMaxTubeMeshVertices) +
                     " a model's tubes may have; use fewer nodes, subdivisions or sides");
        tube_vertices += vertices;
    }
}

// Volume elements: four distinct nodes in range, a finite nonzero rest volume,
// and rest positions not all on one line (else the volume has no gradient to
// push along: VolumeElement's G is 0).
void validate_volume_elements(const Model& model, const std::string& context) {
    const std::size_t n = model.positions.size();
    for (std::size_t i = 0; i < model.volume_elements.size(); ++i) {
        const VolumeElement& e = model.volume_elements[i];
        for (int c = 0; c < 4; ++c) {
            const std::string at = "/volume_elements/nodes/" + std::to_string(4 * i + static_cast<std::size_t>(c));
            if (e.node[c] >= n)
                fail(context, at,
                     out_of_range("node index", e.node[c], n, "node"));
            for (int d = 0; d < c; ++d)
                if (e.node[d] == e.node[c])
                    fail(context, at,
                         "volume element " + std::to_string(i) + " names node " + std::to_string(e.node[c]) +
                             " twice (a tetrahedron needs four different nodes)");
        }
        const std::string at = "/volume_elements/rest/" + std::to_string(i);
        check_finite(e.rest, context, at);
        const Vec3 a = model.positions[e.node[0]];
        const Vec3 ab = model.positions[e.node[1]] - a, ac = model.positions[e.node[2]] - a,
                   ad = model.positions[e.node[3]] - a;
        if (cross(ab, ac) == Vec3{} && cross(ab, ad) == Vec3{} && cross(ac, ad) == Vec3{})
            fail(context, "/volume_elements/nodes/" + std::to_string(4 * i),
                 "the four nodes of volume element " + std::to_string(i) + " lie on one line at rest");
    }
}

}  // namespace

std::array<Vec3, 4> signed_volume_gradients(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    const Vec3 d1 = b - a, d2 = c - a, d3 = d - a;
    const Vec3 g1 = cross(d2, d3), g2 = cross(d3, d1), g3 = cross(d1, d2);
    return {-(g1 + g2 + g3), g1, g2, g3};
}

double signed_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    const double ab[3] = {double(b.x) - a.x, double(b.y) - a.y, double(b.z) - a.z};
    const double ac[3] = {double(c.x) - a.x, double(c.y) - a.y, double(c.z) - a.z};
    const double ad[3] = {double(d.x) - a.x, double(d.y) - a.y, double(d.z) - a.z};
    return (ab[0] * (ac[1] * ad[2] - ac[2] * ad[1]) + ab[1] * (ac[2] * ad[0] - ac[0] * ad[2]) +
            ab[2] * (ac[0] * ad[1] - ac[1] * ad[0])) /
           6.0;
}

Transform track_frame(const AnchorTrack& track, double time) {
    const std::vector<TrackKey>& keys = track.keys;
    const double period = keys.back().time;
    // A looping clip repeats with the period of its last key's time (the
    // converter's clips end on the key that equals their first).
    if (track.loop && period > 0.0) {
        time = std::fmod(time, period);
        if (time < 0.0) time += period;
    }
    if (keys.size() == 1 || time <= keys.front().time) return {keys.front().position, keys.front().rotation};
    if (time >= period) return {keys.back().position, keys.back().rotation};
    // The first key after `time`; keys[i - 1].time <= time < keys[i].time.
    const auto after = std::upper_bound(keys.begin(), keys.end(), time,
                                        [](double t, const TrackKey& k) { return t < double(k.time); });
    const TrackKey& a = *(after - 1);
    const TrackKey& b = *after;
    const auto s = static_cast<float>((time - a.time) / (double(b.time) - a.time));
    return {a.position * (1.0f - s) + b.position * s, slerp(a.rotation, b.rotation, s)};
}

double track_speed_bound(const AnchorTrack& track, const Vec3& rest) {
    double speed = 0.0;
    const std::vector<TrackKey>& keys = track.keys;
    for (std::size_t k = 1; k < keys.size(); ++k) {
        const Vec3 from = apply(Transform{keys[k - 1].position, keys[k - 1].rotation}, rest);
        const Vec3 to = apply(Transform{keys[k].position, keys[k].rotation}, rest);
        speed = std::max(speed, std::numbers::pi / 2 * static_cast<double>(length(to - from)) /
                                    (double(keys[k].time) - keys[k - 1].time));
    }
    return speed;
}

void validate_anchor_tracks(const Model& model, const std::string& context) {
    for (std::size_t i = 0; i < model.anchor_tracks.size(); ++i) {
        const AnchorTrack& track = model.anchor_tracks[i];
        const std::string at = "/anchor_tracks/" + std::to_string(i);
        if (track.keys.empty()) fail(context, at + "/times", "a track needs at least one key");
        for (std::size_t k = 0; k < track.keys.size(); ++k) {
            const TrackKey& key = track.keys[k];
            const std::string index = std::to_string(k);
            check_finite(key.time, context, at + "/times/" + index);
            if (key.time < 0.0f) fail(context, at + "/times/" + index, "key time must be >= 0 s (got " + str(key.time) + ")");
            if (k > 0 && !(key.time > track.keys[k - 1].time))
                fail(context, at + "/times/" + index,
                     "key times must increase (" + str(key.time) + " s after " + str(track.keys[k - 1].time) + " s)");
            check_finite(key.position, context, at + "/positions/" + std::to_string(3 * k));
            const Vec3& p = key.position;
            const float largest = std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)});
            if (largest > kMaxCoordinate)
                fail(context, at + "/positions/" + std::to_string(3 * k),
                     "coordinate " + str(largest) + " m is beyond +-" + str(kMaxCoordinate) + " m");
            if (!is_unit(key.rotation))
                fail(context, at + "/rotations/" + std::to_string(4 * k),
                     "not a unit quaternion [w, x, y, z] (|q|^2 = " + str(squared_norm(key.rotation)) + ")");
        }
    }
    for (std::size_t i = 0; i < model.anchors.size(); ++i) {
        const Anchor& a = model.anchors[i];
        if (a.drive == AnchorDrive::track && a.track >= model.anchor_tracks.size())
            fail(context, "/anchors/" + std::to_string(i) + "/track",
                 out_of_range("track", a.track, model.anchor_tracks.size(), "anchor track"));
    }
}

// Spring groups: names, their values, and springs each in one group at most.
void validate_spring_groups(const Model& model, const std::string& context) {
    const std::size_t n = model.springs.size();
    std::unordered_map<std::string_view, std::size_t> names;
    std::vector<std::int32_t> owner(model.spring_groups.empty() ? 0 : n, -1);
    const ParameterInfo* damping_row = find_parameter("spring_damping");
    for (std::size_t i = 0; i < model.spring_groups.size(); ++i) {
        const SpringGroup& g = model.spring_groups[i];
        const std::string at = "/spring_groups/" + std::to_string(i);
        if (g.name.empty()) fail(context, at + "/name", "a spring group needs a name");
        if (auto [it, inserted] = names.emplace(g.name, i); !inserted)
            fail(context, at + "/name",
                 "duplicate group name \"" + g.name + "\" (same as spring group " + std::to_string(it->second) + ")");
        check_finite(g.stiffness_scale, context, at + "/stiffness_scale");
        if (g.stiffness_scale <= 0)
            fail(context, at + "/stiffness_scale", "stiffness scale must be > 0 (got " + str(g.stiffness_scale) + ")");
        if (g.damping) {
            check_finite(*g.damping, context, at + "/damping");
            if (!damping_row->in_range(*g.damping))
                fail(context, at + "/damping", parameter_range_message(*damping_row, str(*g.damping)));
        }
        for (std::size_t k = 0; k < g.springs.size(); ++k) {
            const std::uint32_t s = g.springs[k];
            const std::string where = at + "/springs/" + std::to_string(k);
            if (s >= n)
                fail(context, where,
                     out_of_range("spring index", s, n, "spring"));
            if (owner[s] >= 0)
                fail(context, where,
                     "spring " + std::to_string(s) + " is already in spring group \"" +
                         model.spring_groups[static_cast<std::size_t>(owner[s])].name + "\"");
            owner[s] = static_cast<std::int32_t>(i);
        }
    }
}

Vec3 wind_at(const Parameters& params, double time) {
    const Gust& g = params.gust;
    if (g.period <= 0.0f || time < g.start) return params.wind;
    const double into = std::fmod(time - g.start, static_cast<double>(g.period));
    if (into >= g.duration) return params.wind;
    const double s = std::sin(std::numbers::pi * into / g.duration);
    return params.wind + g.velocity * static_cast<float>(s * s);
}

namespace {

// The rules for each element of the big arrays, shared by the two passes of
// validate(): the quick pass asks only whether an element has a problem, the
// detailed pass names it. Each rule gives the first problem it finds (none
// when the element is good); the detailed pass switches over every problem
// without a default, so a problem added here without its message does not
// compile (-Wswitch with -Werror).

enum class PositionProblem : std::uint8_t { none, not_finite, too_far };
enum class MassProblem : std::uint8_t { none, not_finite, not_positive };
enum class SpringProblem : std::uint8_t {
    none, node_out_of_range, to_itself, rest_not_finite, k_not_finite, rest_not_positive, k_negative, unknown_role
};
enum class AnchorProblem : std::uint8_t {
    none, node_out_of_range, anchored_twice, velocity_not_finite, center_not_finite, axis_not_finite,
    angular_speed_not_finite, zero_axis
};
enum class TexcoordProblem : std::uint8_t { none, not_finite };
enum class FaceProblem : std::uint8_t { none, node_out_of_range, texcoord_out_of_range };

float largest_coordinate(const Vec3& p) { return std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)}); }

PositionProblem position_problem(const Vec3& p) {
    if (!is_finite(p)) return PositionProblem::not_finite;
    if (largest_coordinate(p) > kMaxCoordinate) return PositionProblem::too_far;
    return PositionProblem::none;
}

MassProblem mass_problem(float m) {
    if (!std::isfinite(m)) return MassProblem::not_finite;
    if (m <= 0) return MassProblem::not_positive;
    return MassProblem::none;
}

// Duplicates are a rule over all springs; each pass finds them its own way.
SpringProblem spring_problem(const Spring& s, std::size_t n) {
    if (s.a >= n || s.b >= n) return SpringProblem::node_out_of_range;
    if (s.a == s.b) return SpringProblem::to_itself;
    if (!std::isfinite(s.rest)) return SpringProblem::rest_not_finite;
    if (!std::isfinite(s.k)) return SpringProblem::k_not_finite;
    if (s.rest <= 0) return SpringProblem::rest_not_positive;
    if (s.k < 0) return SpringProblem::k_negative;
    if (static_cast<std::uint8_t>(s.role) > kMaxSpringRole) return SpringProblem::unknown_role;
    return SpringProblem::none;
}

// `anchored`: the nodes anchors before this one hold (this one's is set when good).
AnchorProblem anchor_problem(const Anchor& a, std::size_t n, std::vector<bool>& anchored) {
    if (a.node >= n) return AnchorProblem::node_out_of_range;
    if (anchored[a.node]) return AnchorProblem::anchored_twice;
    anchored[a.node] = true;
    if (!is_finite(a.velocity)) return AnchorProblem::velocity_not_finite;
    if (!is_finite(a.center)) return AnchorProblem::center_not_finite;
    if (!is_finite(a.axis)) return AnchorProblem::axis_not_finite;
    if (!std::isfinite(a.angular_speed)) return AnchorProblem::angular_speed_not_finite;
    if (a.drive == AnchorDrive::circle && length(a.axis) <= 0) return AnchorProblem::zero_axis;
    return AnchorProblem::none;
}

TexcoordProblem texcoord_problem(const TexCoord& t) {
    return std::isfinite(t.u) && std::isfinite(t.v) ? TexcoordProblem::none : TexcoordProblem::not_finite;
}

// `corner`: set to the corner with the problem. t = texcoord count (0: faces
// carry no texcoords and their texcoord indices are not checked).
FaceProblem face_problem(const Face& f, std::size_t n, std::size_t t, int& corner) {
    for (corner = 0; corner < 3; ++corner) {
        if (f.node[corner] >= n) return FaceProblem::node_out_of_range;
        if (t > 0 && f.texcoord[corner] >= t) return FaceProblem::texcoord_out_of_range;
    }
    return FaceProblem::none;
}

bool too_many_nodes(const Model& model) { return model.positions.size() > 0xFFFFFFF0u; }
bool masses_count_wrong(const Model& model) {
    return !model.masses.empty() && model.masses.size() != model.positions.size();
}

// The checks of validate() with the message of the first problem; slow (it
// builds each element's location). validate() runs it only when the quick
// pass below has found a problem, so that it names the same first problem.
void validate_in_detail(const Model& model, const std::string& context) {
    validate_parameters(model.params, context);
    const std::size_t n = model.positions.size();
    if (too_many_nodes(model)) fail(context, "/positions", "too many nodes");
    auto node_out_of_range = [&](std::uint32_t node) { return out_of_range("node index", node, n, "node"); };
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3& p = model.positions[i];
        const std::string at = "/positions/" + std::to_string(i);
        switch (position_problem(p)) {
            case PositionProblem::none: break;
            case PositionProblem::not_finite: fail(context, at, "value is not a finite number");
            case PositionProblem::too_far:
                fail(context, at,
                     "coordinate " + str(largest_coordinate(p)) + " m is beyond +-" + str(kMaxCoordinate) +
                         " m; single-precision physics cannot work at that scale (scale the model down)");
        }
    }
    if (masses_count_wrong(model))
        fail(context, "/masses",
             "has " + std::to_string(model.masses.size()) + " entries but the model has " + std::to_string(n) +
                 " nodes");
    for (std::size_t i = 0; i < model.masses.size(); ++i) {
        const float m = model.masses[i];
        const std::string at = "/masses/" + std::to_string(i);
        switch (mass_problem(m)) {
            case MassProblem::none: break;
            case MassProblem::not_finite: fail(context, at, "value is not a finite number");
            case MassProblem::not_positive: fail(context, at, "node mass must be > 0 kg (got " + str(m) + ")");
        }
    }

    std::unordered_map<std::uint64_t, std::size_t> seen;
    seen.reserve(model.springs.size());
    for (std::size_t i = 0; i < model.springs.size(); ++i) {
        const Spring& s = model.springs[i];
        const std::string at = "/springs/" + std::to_string(i);
        switch (spring_problem(s, n)) {
            case SpringProblem::none: break;
            case SpringProblem::node_out_of_range: fail(context, at, node_out_of_range(s.a >= n ? s.a : s.b));
            case SpringProblem::to_itself: fail(context, at, "spring connects node " + std::to_string(s.a) + " to itself");
            case SpringProblem::rest_not_finite: fail(context, at + "/rest", "value is not a finite number");
            case SpringProblem::k_not_finite: fail(context, at + "/k", "value is not a finite number");
            case SpringProblem::rest_not_positive:
                fail(context, at + "/rest", "rest length must be > 0 m (got " + str(s.rest) + ")");
            case SpringProblem::k_negative: fail(context, at + "/k", "stiffness must not be negative (got " + str(s.k) + ")");
            case SpringProblem::unknown_role:
                fail(context, at + "/role",
                     "unknown spring role " + std::to_string(static_cast<unsigned>(s.role)) + " (expected 0 to " +
                         std::to_string(kMaxSpringRole) + ")");
        }
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
        switch (anchor_problem(a, n, anchored)) {
            case AnchorProblem::none: break;
            case AnchorProblem::node_out_of_range:
                fail(context, at,
                     out_of_range("anchor node", a.node, n, "node"));
            case AnchorProblem::anchored_twice: fail(context, at, "node " + std::to_string(a.node) + " is anchored twice");
            case AnchorProblem::velocity_not_finite: fail(context, at + "/velocity", "value is not a finite number");
            case AnchorProblem::center_not_finite: fail(context, at + "/center", "value is not a finite number");
            case AnchorProblem::axis_not_finite: fail(context, at + "/axis", "value is not a finite number");
            case AnchorProblem::angular_speed_not_finite:
                fail(context, at + "/angular_speed", "value is not a finite number");
            case AnchorProblem::zero_axis: fail(context, at + "/axis", "circle axis must not be zero");
        }
    }

    const std::size_t t = model.texcoords.size();
    for (std::size_t i = 0; i < t; ++i) {
        const std::string at = "/texcoords/" + std::to_string(i);
        switch (texcoord_problem(model.texcoords[i])) {
            case TexcoordProblem::none: break;
            case TexcoordProblem::not_finite: fail(context, at, "value is not a finite number");
        }
    }
    for (std::size_t i = 0; i < model.faces.size(); ++i) {
        const Face& f = model.faces[i];
        const std::string at = "/faces/" + std::to_string(i);
        int c = 0;
        switch (face_problem(f, n, t, c)) {
            case FaceProblem::none: break;
            case FaceProblem::node_out_of_range: fail(context, at, node_out_of_range(f.node[c]));
            case FaceProblem::texcoord_out_of_range:
                fail(context, at,
                     out_of_range("texcoord index", f.texcoord[c], t, "texcoord"));
        }
    }
    validate_attachments(model, context);
    validate_spring_groups(model, context);
    validate_anchor_tracks(model, context);
}

bool springs_look_valid(const Model& model) {
    const std::size_t n = model.positions.size();
    std::vector<std::uint32_t> bucket_start(n + 1, 0);
    for (const Spring& s : model.springs) {
        if (spring_problem(s, n) != SpringProblem::none) return false;
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
        if (position_problem(p) != PositionProblem::none) return false;
    if (masses_count_wrong(model)) return false;
    for (float m : model.masses)
        if (mass_problem(m) != MassProblem::none) return false;
    std::vector<bool> anchored(n, false);
    for (const Anchor& a : model.anchors)
        if (anchor_problem(a, n, anchored) != AnchorProblem::none) return false;
    const std::size_t t = model.texcoords.size();
    for (const TexCoord& c : model.texcoords)
        if (texcoord_problem(c) != TexcoordProblem::none) return false;
    int corner = 0;
    for (const Face& f : model.faces)
        if (face_problem(f, n, t, corner) != FaceProblem::none) return false;
    return true;
}

// The rules above without messages: true if no element breaks one. Duplicate springs are
// found with springs bucketed by their lower node (linear time). For big models
// the springs are checked on a second thread meanwhile (about half the work).
bool arrays_look_valid(const Model& model) {
    if (too_many_nodes(model)) return false;
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
    validate_spring_groups(model, context);
    validate_anchor_tracks(model, context);
    validate_volume_elements(model, context);
    detail::check_pressure_mesh(model, model.params, context);
}

Stability stability_estimate(const Model& model) {
    Stability result;
    const double dt = model.params.max_substep;
    const std::vector<float> k = spring_stiffnesses(model);
    for (std::size_t i = 0; i < model.springs.size(); ++i) {
        const Spring& s = model.springs[i];
        if (s.kind != SpringKind::hooke) continue;
        const double m = std::min(model.node_mass(s.a), model.node_mass(s.b));
        const double value = k[i] * dt * dt / m;
        if (value > result.worst) {
            result.worst = value;
            result.worst_spring = i;
        }
    }
    return result;
}

FrequencyStability frequency_stability(const Model& model, int min_iterations) {
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
    // Implicit Euler damps every frequency: no bound.
    if (p.integrator == Integrator::implicit) result.limit = std::numeric_limits<double>::infinity();
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
    const std::vector<float> stiffness = spring_stiffnesses(model);
    for (std::size_t si = 0; si < model.springs.size(); ++si) {
        const Spring& spring = model.springs[si];
        if (spring.kind != SpringKind::hooke) continue;
        const Vec3 d = model.positions[spring.b] - model.positions[spring.a];
        const double length = std::sqrt(static_cast<double>(d.x) * d.x + static_cast<double>(d.y) * d.y +
                                        static_cast<double>(d.z) * d.z);
        if (!(length > 0.0)) continue;
        const double k = stiffness[si];
        const double s = std::max(0.0, 1.0 - spring.rest / length);
        blocks.push_back({spring.a, spring.b, k * s, k * (1.0 - s), {d.x / length, d.y / length, d.z / length}});
    }
    // A volume element's stiffness (VolumeElement: E = k (V - V0)^2 / (2 G)):
    // k / G dV/dx dV/dx^T, that is q q^T with q = sqrt(k / sum |g_i|^2) g over
    // its 12 coordinates (g_i = 6 dV/dx_i); the term (V - V0) / G d2V/dx2,
    // zero at rest, is left out as a compressed spring's tension is.
    struct Element {
        std::uint32_t node[4];
        double q[12];
    };
    std::vector<Element> elements;
    if (p.volume_stiffness > 0.0f) {
        elements.reserve(model.volume_elements.size());
        for (const VolumeElement& e : model.volume_elements) {
            const std::array<Vec3, 4> g = signed_volume_gradients(
                model.positions[e.node[0]], model.positions[e.node[1]], model.positions[e.node[2]],
                model.positions[e.node[3]]);
            double sum = 0.0;
            for (const Vec3& gi : g) sum += double(gi.x) * gi.x + double(gi.y) * gi.y + double(gi.z) * gi.z;
            if (!(sum > 0.0)) continue;
            const double scale = std::sqrt(static_cast<double>(p.volume_stiffness) / sum);
            Element out{};
            for (int c = 0; c < 4; ++c) {
                out.node[c] = e.node[c];
                out.q[3 * c] = g[c].x * scale, out.q[3 * c + 1] = g[c].y * scale, out.q[3 * c + 2] = g[c].z * scale;
            }
            elements.push_back(out);
        }
    }
    // Power iteration on A = M^-1/2 K M^-1/2 (symmetric), held nodes fixed at 0.
    // What a spring reads and writes of its two nodes lies in one 64-byte line
    // per node (y = M^-1/2 v, M^-1/2 and the sum w = A v), fetched kAhead
    // springs early: most of a mesh's volume springs join distant nodes, where
    // three separate arrays would cost three cache misses per node. The blocks
    // themselves stream in order, fetched 4 kAhead early: amid the random
    // fetches of the lines the hardware's stream prefetcher falls behind. The
    // arithmetic and the order of every sum are the plain loop's, so the bits are.
    struct alignas(64) NodeLine {
        double y[3];
        double inv_sqrt_mass;
        double w[3];
    };
    std::vector<NodeLine> line(n);
    std::vector<double> v(3 * n);
    for (std::size_t i = 0; i < n; ++i) line[i].inv_sqrt_mass = 1.0 / std::sqrt(static_cast<double>(model.node_mass(i)));
    for (const Anchor& anchor : model.anchors) line[anchor.node].inv_sqrt_mass = 0.0;
    // The largest eigenvalue of M^-1/2 (sum of `of`'s blocks, and the elements
    // when `with_elements`) M^-1/2, by power iteration from a fixed start.
    const std::vector<Element> no_elements;
    auto largest = [&](const std::vector<Block>& of, bool with_elements) {
        std::uint64_t seed = 0x9E3779B97F4A7C15ull;  // a fixed start: the same answer every time
        for (std::size_t i = 0; i < 3 * n; ++i) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            v[i] = (static_cast<double>(seed >> 11) * 0x1p-53 - 0.5) * (line[i / 3].inv_sqrt_mass > 0.0 ? 1.0 : 0.0);
        }
        // At most about 4e6 spring visits (the editor runs this once after each edit;
        // docs/PERFORMANCE.md times it) unless that is under 20
        // iterations: fewer iterations on big models, where the Rayleigh quotient is
        // still within a few percent (the top modes of a mesh lie close together;
        // cloth of 10k and 65k nodes: 0.899 and 0.886).
        const auto floor = static_cast<std::size_t>(std::clamp(min_iterations, 1, 200));
        // (Volume elements, one or two per node, are left out of the budget: fewer
        // iterations would let a model with them come out lower than without.)
        const int iterations = static_cast<int>(std::clamp<std::size_t>(4'000'000 / (of.size() + 1), floor, 200));
        constexpr std::size_t kAhead = 32;
        double lambda = 0.0;
        double norm = 0.0;  // |v|^2, summed in index order
        for (double x : v) norm += x * x;
        for (int iteration = 0; iteration < iterations; ++iteration) {
            if (!(norm > 0.0)) break;
            norm = std::sqrt(norm);
            for (std::size_t i = 0; i < n; ++i)
                for (int c = 0; c < 3; ++c) {
                    v[3 * i + c] /= norm;
                    line[i].y[c] = v[3 * i + c] * line[i].inv_sqrt_mass;
                    line[i].w[c] = 0.0;
                }
            for (std::size_t bi = 0; bi < of.size(); ++bi) {
                if (bi + kAhead < of.size()) {
                    __builtin_prefetch(&line[of[bi + kAhead].a], 1);
                    __builtin_prefetch(&line[of[bi + kAhead].b], 1);
                    if (bi + 4 * kAhead < of.size()) __builtin_prefetch(&of[bi + 4 * kAhead]);
                }
                const Block& b = of[bi];
                NodeLine &la = line[b.a], &lb = line[b.b];
                const double sa = la.inv_sqrt_mass, sb = lb.inv_sqrt_mass;
                double r[3];
                for (int c = 0; c < 3; ++c) r[c] = la.y[c] - lb.y[c];  // y_a - y_b
                const double along = b.along * (r[0] * b.u[0] + r[1] * b.u[1] + r[2] * b.u[2]);
                for (int c = 0; c < 3; ++c) {
                    const double f = b.across * r[c] + along * b.u[c];
                    la.w[c] += f * sa;
                    lb.w[c] -= f * sb;
                }
            }
            for (const Element& e : with_elements ? elements : no_elements) {
                double along = 0.0;  // q . y, y = M^-1/2 v
                for (int c = 0; c < 4; ++c)
                    for (int j = 0; j < 3; ++j) along += e.q[3 * c + j] * line[e.node[c]].y[j];
                for (int c = 0; c < 4; ++c)
                    for (int j = 0; j < 3; ++j)
                        line[e.node[c]].w[j] += along * e.q[3 * c + j] * line[e.node[c]].inv_sqrt_mass;
            }
            // The Rayleigh quotient v.w, and w as the next v with its |v|^2, in one pass.
            double rayleigh = 0.0;
            norm = 0.0;
            for (std::size_t i = 0; i < n; ++i)
                for (int c = 0; c < 3; ++c) {
                    const double w = line[i].w[c];
                    rayleigh += v[3 * i + c] * w;
                    v[3 * i + c] = w;
                    norm += w * w;
                }
            const bool settled = iteration >= 8 && std::abs(rayleigh - lambda) <= 1e-6 * rayleigh;
            lambda = rayleigh;
            if (settled) break;
        }
        return lambda;
    };
    const double lambda = largest(blocks, true);
    result.omega_dt = std::sqrt(std::max(0.0, lambda)) * static_cast<double>(p.max_substep);
    if (p.integrator == Integrator::symplectic_euler || p.integrator == Integrator::verlet) {
        // The damping's matrix C = sum over springs of c u u^T on (a, b) is as K's
        // along-part; its largest eigenvalue in M^-1/2 C M^-1/2 is at most the
        // largest absolute row sum of 3x3 blocks of norm c / m_i and c / sqrt(m_i m_j)
        // (Gershgorin), exact for a node on one spring to an anchor; where that
        // matters, the power iteration gives the eigenvalue itself.
        const std::vector<float> damping = spring_dampings(model);
        std::vector<double> rate(n, 0.0);
        for (std::size_t si = 0; si < model.springs.size(); ++si) {
            const Spring& spring = model.springs[si];
            if (spring.kind != SpringKind::hooke || !(damping[si] > 0.0f)) continue;
            const double sa = line[spring.a].inv_sqrt_mass, sb = line[spring.b].inv_sqrt_mass;
            rate[spring.a] += damping[si] * (sa * sa + sa * sb);
            rate[spring.b] += damping[si] * (sb * sb + sa * sb);
        }
        double gamma = rate.empty() ? 0.0 : *std::max_element(rate.begin(), rate.end());
        // Only where the bound says the damping matters is its own power
        // iteration worth its cost (the bound is below a twentieth of the budget
        // of 4 otherwise); the iteration's answer is a lower bound, Gershgorin's
        // an upper one.
        if (gamma * static_cast<double>(p.max_substep) > 0.05) {
            std::vector<Block> damped;
            for (std::size_t si = 0; si < model.springs.size(); ++si) {
                const Spring& spring = model.springs[si];
                if (spring.kind != SpringKind::hooke || !(damping[si] > 0.0f)) continue;
                const Vec3 d = model.positions[spring.b] - model.positions[spring.a];
                const double length = std::sqrt(static_cast<double>(d.x) * d.x + static_cast<double>(d.y) * d.y +
                                                static_cast<double>(d.z) * d.z);
                if (length > 0.0)
                    damped.push_back({spring.a, spring.b, 0.0, damping[si], {d.x / length, d.y / length, d.z / length}});
            }
            gamma = std::min(gamma, largest(damped, false));
        }
        result.damping_dt = gamma * static_cast<double>(p.max_substep);
        result.damped = result.omega_dt * result.omega_dt + 2.0 * result.damping_dt;
    }
    return result;
}

std::uint64_t substeps_per_frame(float frame_dt, float max_substep) {
    const float count = std::ceil(frame_dt / max_substep - 1e-6f);
    return count < 1.0f ? 1 : static_cast<std::uint64_t>(count);
}

std::string stability_warning(const Model& model) {
    // Implicit Euler is stable for any k dt^2/m: nothing to warn of.
    if (model.params.integrator == Integrator::implicit) return {};
    const FrequencyStability f = frequency_stability(model);
    if (!f.near_limit()) return {};
    const char* integrator = integrator_name(model.params.integrator);
    std::ostringstream out;
    out.precision(3);
    if (!f.springs_near_limit() || (!(f.omega_dt >= f.limit) && f.damping_above_limit())) {
        out << "(dt * omega_max)^2 + 2 dt * damping rate = " << f.damped;
        if (f.damping_above_limit())
            out << " is at or above " << FrequencyStability::kDampedLimit << ", the stability limit of " << integrator
                << " with spring damping (dt * omega_max = " << f.omega_dt << ", dt * damping rate = " << f.damping_dt
                << "): the model will explode";
        else
            out << " is near " << FrequencyStability::kDampedLimit << ", the stability limit of " << integrator
                << " with spring damping (warned of from "
                << FrequencyStability::kNearShare * FrequencyStability::kDampedLimit
                << "; dt * omega_max = " << f.omega_dt << ", dt * damping rate = " << f.damping_dt
                << "): it may explode";
        out << "; use a smaller max_substep or a lower spring_damping";
        return out.str();
    }
    out << "dt * omega_max = " << f.omega_dt;
    if (f.omega_dt >= f.limit)
        out << " is at or above " << f.limit << ", the stability limit of " << integrator << ": the model will explode";
    else
        out << " is near " << f.limit << ", the stability limit of " << integrator << " (warned of from "
            << FrequencyStability::kNearShare * f.limit << "): pulled far from rest, the model may explode";
    out << "; use a smaller max_substep"
        << (model.params.integrator == Integrator::explicit_euler ? " or symplectic_euler" : " or a lower k");
    const Stability s = stability_estimate(model);
    if (s.worst > 0.0) {
        const Spring& spring = model.springs[s.worst_spring];
        out << " (the stiffest spring for its mass: spring " << s.worst_spring << " (nodes " << spring.a << "-"
            << spring.b << "), k dt^2/m = " << s.worst << ")";
    }
    return out.str();
}

Bounds bounds(const Model& model) {
    if (model.positions.empty()) return {};
    Bounds b{model.positions[0], model.positions[0]};
    for (const Vec3& p : model.positions) b.include(p);
    return b;
}

}  // namespace springkit
