// springkit — model builders shared by tests, samples, benchmarks, CLI and editor.
#include "springkit/builders.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "springkit/error.hpp"

namespace springkit {

SpringSet::SpringSet(Model& model) : model_(model) {
    pairs_.reserve(model.springs.size() * 2);
    for (const Spring& s : model.springs)
        pairs_.insert((std::uint64_t{std::min(s.a, s.b)} << 32) | std::max(s.a, s.b));
}

bool SpringSet::add(std::uint32_t a, std::uint32_t b, float k, SpringKind kind) {
    return add_with_rest(a, b, length(model_.positions[b] - model_.positions[a]), k, kind);
}

bool SpringSet::add_with_rest(std::uint32_t a, std::uint32_t b, float rest, float k, SpringKind kind) {
    if (a == b) return false;
    const std::uint64_t key = (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
    if (!pairs_.insert(key).second) return false;
    model_.springs.push_back({a, b, rest, k, kind});
    return true;
}

namespace {

void require(bool ok, const char* what) {
    if (!ok) throw Error(what);
}

std::uint32_t add_node(Model& m, Vec3 p) {
    m.positions.push_back(p);
    return static_cast<std::uint32_t>(m.positions.size() - 1);
}

std::uint32_t add_texcoord(Model& m, float u, float v) {
    m.texcoords.push_back({u, v});
    return static_cast<std::uint32_t>(m.texcoords.size() - 1);
}

// Adds triangle a-b-c, flipped if needed so that its normal points along `outward`.
void add_face(Model& m, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t ta,
              std::uint32_t tb, std::uint32_t tc, const Vec3& outward) {
    const Vec3 n = cross(m.positions[b] - m.positions[a], m.positions[c] - m.positions[a]);
    if (dot(n, outward) < 0.0f) {
        std::swap(b, c);
        std::swap(tb, tc);
    }
    m.faces.push_back({{a, b, c}, {ta, tb, tc}});
}

void anchor(Model& m, std::uint32_t node) { m.anchors.push_back({.node = node}); }

// The node indices first, first + 1, ..., last.
std::vector<std::uint32_t> chain(std::uint32_t first, std::uint32_t last) {
    std::vector<std::uint32_t> nodes;
    for (std::uint32_t i = first; i <= last; ++i) nodes.push_back(i);
    return nodes;
}

}  // namespace

Model make_string(const StringSpec& spec, const Parameters& params) {
    require(spec.nodes >= 2, "string: needs at least 2 nodes");
    require(spec.length > 0.0f, "string: length must be > 0 m");
    Model m;
    m.name = "string";
    m.params = params;
    const Vec3 dir = normalized(spec.direction);
    require(length(dir) > 0.0f, "string: direction must not be zero");
    const float spacing = spec.length / static_cast<float>(spec.nodes - 1);
    for (int i = 0; i < spec.nodes; ++i) add_node(m, spec.start + dir * (spacing * static_cast<float>(i)));
    SpringSet springs(m);
    for (int i = 0; i + 1 < spec.nodes; ++i)
        springs.add(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1));
    if (spec.anchor_first) anchor(m, 0);
    return m;
}

Model make_cloth(const ClothSpec& spec, const Parameters& params) {
    require(spec.columns >= 2 && spec.rows >= 2, "cloth: needs at least 2 x 2 nodes");
    require(spec.width > 0.0f && spec.height > 0.0f, "cloth: size must be > 0 m");
    Model m;
    m.name = "cloth";
    m.params = params;
    const int cols = spec.columns, rows = spec.rows;
    const float dx = spec.width / static_cast<float>(cols - 1);
    const float dz = spec.height / static_cast<float>(rows - 1);
    m.positions.reserve(static_cast<std::size_t>(cols) * rows);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            const float x = dx * static_cast<float>(c), z = dz * static_cast<float>(r);
            add_node(m, spec.origin + (spec.vertical ? Vec3{x, -z, 0.0f} : Vec3{x, 0.0f, z}));
            add_texcoord(m, static_cast<float>(c) / static_cast<float>(cols - 1),
                         static_cast<float>(r) / static_cast<float>(rows - 1));
        }
    }
    auto at = [cols](int c, int r) { return static_cast<std::uint32_t>(r * cols + c); };
    const Vec3 up = spec.vertical ? Vec3{0, 0, 1} : Vec3{0, 1, 0};
    // Rest lengths from the grid's spacing, not from the float positions (which
    // round differently at each node): every spring of one shape then has the
    // same rest length, so a run of them shares one k * rest and the kernel
    // reads nothing per spring (docs/PERFORMANCE.md, "Exact rest lengths").
    const auto rest = [&](int columns_apart, int rows_apart) {
        const double x = static_cast<double>(dx) * columns_apart, z = static_cast<double>(dz) * rows_apart;
        return static_cast<float>(std::sqrt(x * x + z * z));
    };
    SpringSet springs(m);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            if (c + 1 < cols) springs.add_with_rest(at(c, r), at(c + 1, r), rest(1, 0));
            if (r + 1 < rows) springs.add_with_rest(at(c, r), at(c, r + 1), rest(0, 1));
            if (spec.shear && c + 1 < cols && r + 1 < rows) {
                springs.add_with_rest(at(c, r), at(c + 1, r + 1), rest(1, 1));
                springs.add_with_rest(at(c + 1, r), at(c, r + 1), rest(1, 1));
            }
            if (spec.bend && c + 2 < cols) springs.add_with_rest(at(c, r), at(c + 2, r), rest(2, 0));
            if (spec.bend && r + 2 < rows) springs.add_with_rest(at(c, r), at(c, r + 2), rest(0, 2));
            if (c + 1 < cols && r + 1 < rows) {
                const std::uint32_t a = at(c, r), b = at(c + 1, r), d = at(c, r + 1), e = at(c + 1, r + 1);
                add_face(m, a, d, b, a, d, b, up);
                add_face(m, b, d, e, b, d, e, up);
            }
        }
    }
    switch (spec.anchors) {
        case ClothAnchors::none:
            break;
        case ClothAnchors::top_corners:
            anchor(m, at(0, 0));
            anchor(m, at(cols - 1, 0));
            break;
        case ClothAnchors::top_edge:
            for (int c = 0; c < cols; ++c) anchor(m, at(c, 0));
            break;
        case ClothAnchors::center_square: {
            // Four nodes a quarter of the way in from each side of the centre.
            const int c0 = (cols - 1) / 4, c1 = cols - 1 - c0;
            const int r0 = (rows - 1) / 4, r1 = rows - 1 - r0;
            for (std::uint32_t node : {at(c0, r0), at(c1, r0), at(c0, r1), at(c1, r1)}) {
                if (std::none_of(m.anchors.begin(), m.anchors.end(),
                                 [&](const Anchor& a) { return a.node == node; }))
                    anchor(m, node);
            }
            break;
        }
    }
    return m;
}

Model make_towel(const TowelSpec& spec, const Parameters& params) {
    require(spec.columns >= 2 && spec.rows >= 3, "towel: needs at least 2 x 3 nodes");
    Model m = make_cloth({.columns = spec.columns,
                          .rows = spec.rows,
                          .width = spec.width,
                          .height = spec.length,
                          .origin = spec.center - Vec3{spec.width / 2, 0.0f, spec.length / 2},
                          .anchors = ClothAnchors::none},
                         params);
    m.name = "towel";
    const int held = spec.rows / 2;
    for (int c = 0; c < spec.columns; ++c) anchor(m, static_cast<std::uint32_t>(held * spec.columns + c));
    return m;
}

Model make_jelly(const JellySpec& spec, const Parameters& params) {
    require(spec.nx >= 2 && spec.ny >= 2 && spec.nz >= 2, "jelly: needs at least 2 nodes per axis");
    require(spec.size > 0.0f, "jelly: size must be > 0 m");
    Model m;
    m.name = "jelly";
    m.params = params;
    const int nx = spec.nx, ny = spec.ny, nz = spec.nz;
    const float h = spec.size / static_cast<float>(nx - 1);
    auto at = [&](int i, int j, int k) { return static_cast<std::uint32_t>((k * ny + j) * nx + i); };
    for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i)
                add_node(m, spec.origin + Vec3{h * static_cast<float>(i), h * static_cast<float>(j),
                                               h * static_cast<float>(k)});
    // Oliveira Figure 8: every cell gets its 12 edges, the 2 diagonals of each of
    // its 6 faces and its 4 body diagonals; shared edges and face diagonals are
    // added once.
    // Rest lengths from the spacing, as the cloth's (make_cloth): h times the
    // length of the offset in cells.
    const auto rest = [&](int di, int dj, int dk) {
        return static_cast<float>(static_cast<double>(h) * std::sqrt(static_cast<double>(di * di + dj * dj + dk * dk)));
    };
    SpringSet springs(m);
    for (int k = 0; k + 1 < nz; ++k)
        for (int j = 0; j + 1 < ny; ++j)
            for (int i = 0; i + 1 < nx; ++i) {
                std::uint32_t corner[8];
                for (int c = 0; c < 8; ++c) corner[c] = at(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
                for (int a = 0; a < 8; ++a)
                    for (int b = a + 1; b < 8; ++b) {
                        const int d = a ^ b;  // the axes the two corners differ in
                        springs.add_with_rest(corner[a], corner[b], rest(d & 1, (d >> 1) & 1, (d >> 2) & 1));
                    }
            }
    if (spec.bend)
        for (int k = 0; k < nz; ++k)
            for (int j = 0; j < ny; ++j)
                for (int i = 0; i < nx; ++i) {
                    if (i + 2 < nx) springs.add_with_rest(at(i, j, k), at(i + 2, j, k), rest(2, 0, 0));
                    if (j + 2 < ny) springs.add_with_rest(at(i, j, k), at(i, j + 2, k), rest(0, 2, 0));
                    if (k + 2 < nz) springs.add_with_rest(at(i, j, k), at(i, j, k + 2), rest(0, 0, 2));
                }
    // Surface: each of the 6 sides as a grid of quads, two triangles each, wound
    // outward, with its own texcoords (u, v across the side).
    const Vec3 center = spec.origin + Vec3{h * (nx - 1), h * (ny - 1), h * (nz - 1)} * 0.5f;
    const int dims[3] = {nx, ny, nz};
    for (int axis = 0; axis < 3; ++axis) {
        const int ua = (axis + 1) % 3, va = (axis + 2) % 3;
        for (int side = 0; side < 2; ++side) {
            const int fixed = side == 0 ? 0 : dims[axis] - 1;
            auto node = [&](int u, int v) {
                int idx[3];
                idx[axis] = fixed;
                idx[ua] = u;
                idx[va] = v;
                return at(idx[0], idx[1], idx[2]);
            };
            const std::uint32_t tex0 = static_cast<std::uint32_t>(m.texcoords.size());
            for (int v = 0; v < dims[va]; ++v)
                for (int u = 0; u < dims[ua]; ++u)
                    add_texcoord(m, static_cast<float>(u) / static_cast<float>(dims[ua] - 1),
                                 static_cast<float>(v) / static_cast<float>(dims[va] - 1));
            auto tex = [&](int u, int v) { return tex0 + static_cast<std::uint32_t>(v * dims[ua] + u); };
            for (int v = 0; v + 1 < dims[va]; ++v)
                for (int u = 0; u + 1 < dims[ua]; ++u) {
                    const Vec3 outward = m.positions[node(u, v)] - center;
                    add_face(m, node(u, v), node(u + 1, v), node(u + 1, v + 1), tex(u, v), tex(u + 1, v),
                             tex(u + 1, v + 1), outward);
                    add_face(m, node(u, v), node(u + 1, v + 1), node(u, v + 1), tex(u, v),
                             tex(u + 1, v + 1), tex(u, v + 1), outward);
                }
        }
    }
    if (spec.anchor_bottom)
        for (int k = 0; k < nz; ++k)
            for (int i = 0; i < nx; ++i) anchor(m, at(i, 0, k));
    return m;
}

Model make_balloon(const BalloonSpec& spec, const Parameters& params) {
    require(spec.rings >= 3 && spec.segments >= 3, "balloon: needs at least 3 rings and 3 segments");
    require(spec.radius > 0.0f, "balloon: radius must be > 0 m");
    require(spec.string_nodes >= 2 && spec.string_length > 0.0f, "balloon: string needs 2 nodes and a length");
    require(spec.lift >= 0.0f && spec.string_k >= 0.0f && spec.string_radius > 0.0f,
            "balloon: lift and string k must be >= 0, string radius > 0 m");
    Model m;
    m.name = "balloon";
    m.params = params;
    const float pi = std::numbers::pi_v<float>;
    const int rings = spec.rings, segs = spec.segments;
    // Nodes: top pole, (rings - 1) rings of `segs`, bottom pole, centre.
    const std::uint32_t top = add_node(m, spec.center + Vec3{0, spec.radius, 0});
    for (int r = 1; r < rings; ++r) {
        const float theta = pi * static_cast<float>(r) / static_cast<float>(rings);
        for (int s = 0; s < segs; ++s) {
            const float phi = 2.0f * pi * static_cast<float>(s) / static_cast<float>(segs);
            add_node(m, spec.center + Vec3{std::sin(theta) * std::cos(phi), std::cos(theta),
                                           std::sin(theta) * std::sin(phi)} * spec.radius);
        }
    }
    const std::uint32_t bottom = add_node(m, spec.center - Vec3{0, spec.radius, 0});
    const std::uint32_t middle = add_node(m, spec.center);
    auto ring = [&](int r, int s) {  // r in 0..rings, s wraps
        if (r == 0) return top;
        if (r == rings) return bottom;
        return static_cast<std::uint32_t>(1 + (r - 1) * segs + ((s % segs) + segs) % segs);
    };
    // Texcoords: (segs + 1) columns so the seam at u = 0/1 has its own corners.
    auto tex = [&](int r, int s) {
        return static_cast<std::uint32_t>(r * (segs + 1) + s);
    };
    for (int r = 0; r <= rings; ++r)
        for (int s = 0; s <= segs; ++s)
            add_texcoord(m, static_cast<float>(s) / static_cast<float>(segs),
                         static_cast<float>(r) / static_cast<float>(rings));
    SpringSet springs(m);
    for (int r = 0; r < rings; ++r)
        for (int s = 0; s < segs; ++s) {
            const std::uint32_t a = ring(r, s), b = ring(r, s + 1), c = ring(r + 1, s), d = ring(r + 1, s + 1);
            springs.add(a, b);
            springs.add(a, c);
            springs.add(a, d);
            springs.add(b, c);
            if (r + 2 <= rings) springs.add(a, ring(r + 2, s));  // skip a ring: resists folding
            const Vec3 out = m.positions[a] + m.positions[d] - spec.center * 2.0f;
            if (a != b) add_face(m, a, c, b, tex(r, s), tex(r + 1, s), tex(r, s + 1), out);
            if (c != d) add_face(m, b, c, d, tex(r, s + 1), tex(r + 1, s), tex(r + 1, s + 1), out);
        }
    for (std::uint32_t i = 0; i < middle; ++i) springs.add(middle, i);  // spokes keep it round
    // The string hangs from the bottom pole.
    std::uint32_t previous = bottom;
    Tube string{.nodes = {bottom}, .radius = spec.string_radius, .sides = 6, .subdivisions = 2};
    const float spacing = spec.string_length / static_cast<float>(spec.string_nodes - 1);
    for (int i = 1; i < spec.string_nodes; ++i) {
        const std::uint32_t node =
            add_node(m, m.positions[bottom] - Vec3{0, spacing * static_cast<float>(i), 0});
        springs.add(previous, node, spec.string_k);
        string.nodes.push_back(node);
        previous = node;
    }
    if (spec.anchor_string_end) anchor(m, previous);
    m.tubes.push_back(std::move(string));
    // The gas's lift, shared by the body's nodes (the centre included), against
    // gravity: `lift` times the weight of every node, body and string.
    if (spec.lift > 0.0f) {
        double weight = 0.0;
        for (std::size_t i = 0; i < m.node_count(); ++i) weight += m.node_mass(i);
        const Vec3 up = Vec3{} - normalized(params.gravity);  // not -gravity: no -0 components in the file
        const float share = static_cast<float>(weight * length(params.gravity) * spec.lift /
                                               static_cast<double>(middle + 1));
        for (std::uint32_t i = 0; i <= middle; ++i) m.constant_forces.push_back({i, up * share});
    }
    return m;
}

Parameters tunca_rope_parameters() {
    Parameters p;
    p.k = 10000.0f;
    p.mass = 0.05f;
    p.energy_loss = 1.0f;  // Tunca loses energy by friction only
    p.spring_damping = 0.2f;
    p.air_friction = 0.02f;
    p.gravity = {0.0f, -9.81f, 0.0f};
    p.ground = Ground{-1.5f, 100.0f, 0.2f, 2.0f};
    p.max_substep = 0.002f;
    p.integrator = Integrator::symplectic_euler;
    return p;
}

Model make_tunca_rope(const TuncaRopeSpec& spec) {
    require(spec.masses >= 2 && spec.segment > 0.0f, "rope: needs 2 masses and a segment length > 0");
    Model m;
    m.name = "tunca-rope";
    m.params = tunca_rope_parameters();
    for (int i = 0; i < spec.masses; ++i)
        add_node(m, spec.start + Vec3{spec.segment * static_cast<float>(i), 0, 0});
    SpringSet springs(m);
    for (int i = 0; i + 1 < spec.masses; ++i)
        springs.add(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1));
    m.anchors.push_back({.node = 0, .drive = AnchorDrive::velocity});
    m.tubes.push_back({.nodes = chain(0, static_cast<std::uint32_t>(spec.masses - 1)), .radius = spec.radius,
                       .sides = 8, .subdivisions = 1});
    return m;
}

Parameters garrido_rope_parameters() {
    Parameters p = tunca_rope_parameters();
    p.k = 20000.0f;
    p.spring_damping = 0.0f;
    p.max_substep = 0.001f;
    return p;
}

Model make_garrido_rope(const TuncaRopeSpec& spec) {
    Model m = make_tunca_rope(spec);
    m.name = "garrido-rope";
    m.params = garrido_rope_parameters();
    return m;
}

namespace {

// Nodes from `start` to `end` on a parabola hanging `sag` below the straight line
// (Garrido's Figure 25), springs between neighbours at their current length.
// Returns the index of the first node.
std::uint32_t add_hanging_rope(Model& m, Vec3 start, Vec3 end, int segments, float sag) {
    SpringSet springs(m);
    const auto first = static_cast<std::uint32_t>(m.node_count());
    for (int i = 0; i <= segments; ++i) {
        const float t = static_cast<float>(i) / static_cast<float>(segments);
        add_node(m, start + (end - start) * t - Vec3{0, 4.0f * sag * t * (1.0f - t), 0});
        if (i > 0) springs.add(first + static_cast<std::uint32_t>(i) - 1, first + static_cast<std::uint32_t>(i));
    }
    return first;
}

// The sag of a parabola whose arc is `slack` longer than its chord D:
// arc ~ D + 8 sag^2 / (3 D).
float sag_for_slack(float chord, float slack) { return std::sqrt(3.0f * chord * slack / 8.0f); }

}  // namespace

Model make_bead_rope(const BeadRopeSpec& spec) {
    require(spec.segments >= 2, "bead rope: needs at least 2 segments");
    require(spec.slack >= 0.0f && spec.bead_mass > 0.0f && spec.bead_friction >= 0.0f,
            "bead rope: slack and friction must be >= 0, bead mass > 0 kg");
    require(spec.bead_start >= 0.0f && spec.bead_start <= static_cast<float>(spec.segments),
            "bead rope: the bead must start on the rope");
    Model m;
    m.name = "bead-rope";
    m.params = garrido_rope_parameters();
    m.params.ground.reset();
    const std::uint32_t first =
        add_hanging_rope(m, spec.start, spec.end, spec.segments, sag_for_slack(length(spec.end - spec.start), spec.slack));
    const std::uint32_t last = first + static_cast<std::uint32_t>(spec.segments);
    anchor(m, first);
    anchor(m, last);
    m.beads.push_back({.first = first, .last = last, .mass = spec.bead_mass, .start = spec.bead_start,
                       .friction = spec.bead_friction});
    m.tubes.push_back({.nodes = chain(first, last), .radius = 0.015f, .sides = 8, .subdivisions = 1});
    return m;
}

Model make_jump_rope(const JumpRopeSpec& spec) {
    require(spec.segments >= 2 && spec.span > 0.0f && spec.sag >= 0.0f && spec.radius > 0.0f,
            "jump rope: needs 2 segments, span and radius > 0 m, sag >= 0 m");
    Model m;
    m.name = "jump-rope";
    m.params = garrido_rope_parameters();
    m.params.ground.reset();
    // Garrido: the ends start at z = radius from their circles' centres.
    const Vec3 half{spec.span * 0.5f, 0, 0}, arm{0, 0, spec.radius};
    const std::uint32_t first = add_hanging_rope(m, spec.center - half + arm, spec.center + half + arm,
                                                 spec.segments, spec.sag);
    const std::uint32_t last = first + static_cast<std::uint32_t>(spec.segments);
    for (auto [node, center] : {std::pair{first, spec.center - half}, std::pair{last, spec.center + half}})
        m.anchors.push_back({.node = node, .drive = AnchorDrive::circle, .center = center,
                             .axis = {1, 0, 0}, .angular_speed = spec.angular_speed});
    m.tubes.push_back({.nodes = chain(first, last), .radius = 0.01f, .sides = 8, .subdivisions = 1});
    return m;
}

Model make_tethered_bodies(const TetherSpec& spec) {
    require(spec.length > 0.0f && spec.bounce >= 0.0f && spec.bounce <= 1.0f,
            "tethered bodies: rope length must be > 0 m and bounce in [0, 1]");
    Model m;
    m.name = "single-segment-rope";
    m.params.energy_loss = 1.0f;  // Builderboy's rope loses only the outward speed
    // A pendulum dropped from inside its circle, 0.8 L to the side at the height of the point.
    const Vec3 left = spec.point - Vec3{spec.spacing * 0.5f, 0, 0};
    add_node(m, left + Vec3{0.8f * spec.length, 0, 0});
    m.tethers.push_back({.node = 0, .point = left, .length = spec.length, .bounce = 0.0f});
    // A body dropped straight down from halfway, with the bouncing pull.
    const Vec3 right = spec.point + Vec3{spec.spacing * 0.5f, 0, 0};
    add_node(m, right - Vec3{0, 0.5f * spec.length, 0});
    m.tethers.push_back({.node = 1, .point = right, .length = spec.length, .bounce = spec.bounce});
    return m;
}

Model make_source_rope(const SourceRopeSpec& spec) {
    require(spec.segments >= 1, "source rope: needs at least 1 segment");
    require(spec.slack >= 0.0f, "source rope: slack must be >= 0 m");
    require(spec.mass > 0.0f, "source rope: mass must be > 0 kg");
    require(spec.subdivisions >= 0 && spec.subdivisions <= 32 && spec.radius > 0.0f,
            "source rope: subdivisions must be in [0, 32] and radius > 0 m");
    Model m;
    m.name = "source-rope";
    m.params.mass = spec.mass;
    m.params.energy_loss = 1.0f;
    m.params.integrator = Integrator::verlet;
    m.params.verlet_damping = 0.98f;
    m.params.rope_iterations = 3;
    const float distance = length(spec.end - spec.start);
    // Valve: each spring is (distance + slack) / segments long.
    const float rest = (distance + spec.slack) / static_cast<float>(spec.segments);
    require(rest > 0.0f, "source rope: start and end coincide and there is no slack");
    for (int i = 0; i <= spec.segments; ++i)
        add_node(m, spec.start + (spec.end - spec.start) *
                                     (static_cast<float>(i) / static_cast<float>(spec.segments)));
    for (int i = 0; i < spec.segments; ++i)
        m.springs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1), rest, 0.0f,
                             SpringKind::rope});
    anchor(m, 0);
    anchor(m, static_cast<std::uint32_t>(spec.segments));
    m.tubes.push_back({.nodes = chain(0, static_cast<std::uint32_t>(spec.segments)), .radius = spec.radius,
                       .sides = 8, .subdivisions = spec.subdivisions});
    return m;
}

std::uint32_t append_model(Model& into, const Model& part) {
    const auto offset = static_cast<std::uint32_t>(into.node_count());
    const auto tex_offset = static_cast<std::uint32_t>(into.texcoords.size());
    if (!into.masses.empty() || !part.masses.empty() || part.params.mass != into.params.mass) {
        if (into.masses.empty()) into.masses.assign(into.node_count(), into.params.mass);
        for (std::size_t i = 0; i < part.node_count(); ++i) into.masses.push_back(part.node_mass(i));
    }
    into.positions.insert(into.positions.end(), part.positions.begin(), part.positions.end());
    for (Spring s : part.springs) {
        s.a += offset;
        s.b += offset;
        if (s.k == 0.0f && part.params.k != into.params.k) s.k = part.params.k;
        into.springs.push_back(s);
    }
    for (Anchor a : part.anchors) {
        a.node += offset;
        into.anchors.push_back(a);
    }
    for (Face f : part.faces) {
        for (int c = 0; c < 3; ++c) {
            f.node[c] += offset;
            f.texcoord[c] += tex_offset;
        }
        into.faces.push_back(f);
    }
    into.texcoords.insert(into.texcoords.end(), part.texcoords.begin(), part.texcoords.end());
    for (ConstantForce c : part.constant_forces) {
        c.node += offset;
        into.constant_forces.push_back(c);
    }
    for (Tether t : part.tethers) {
        t.node += offset;
        into.tethers.push_back(t);
    }
    for (Bead b : part.beads) {
        b.first += offset;
        b.last += offset;
        into.beads.push_back(b);
    }
    for (Tube t : part.tubes) {
        for (std::uint32_t& n : t.nodes) n += offset;
        into.tubes.push_back(std::move(t));
    }
    return offset;
}

Model make_flag(const FlagSpec& spec) {
    require(spec.pole_height > 0.0f && spec.pole_thickness > 0.0f && spec.pole_height >= spec.height,
            "flag: pole height and thickness must be > 0 m, the pole at least as tall as the flag");
    require(spec.pole_k > 0.0f && spec.pole_node_mass > 0.0f && spec.flag_node_mass > 0.0f,
            "flag: pole k and node masses must be > 0");
    Model m;
    m.name = "flag";
    m.params.k = 1000.0f;
    m.params.mass = spec.flag_node_mass;
    m.params.energy_loss = 0.995f;
    m.params.air_friction = 0.02f;
    m.params.wind = spec.wind;
    // The wind alone would stream the flag out and hold it; gusts of 60 % more
    // make it flap (our choice: one every 3 s, blowing 1.5 s).
    m.params.gust = {.velocity = spec.wind * 0.6f, .period = 3.0f, .duration = 1.5f, .start = 1.0f};
    m.params.max_substep = 0.001f;

    // The pole: a column of jelly cells, x in [-t, 0], z in [-t/2, t/2], foot anchored.
    const float t = spec.pole_thickness;
    const int levels = std::max(2, static_cast<int>(std::lround(spec.pole_height / t)) + 1);
    Parameters pole_params = m.params;
    pole_params.k = spec.pole_k;
    pole_params.mass = spec.pole_node_mass;
    Model pole = make_jelly({.nx = 2, .ny = levels, .nz = 2, .size = t, .origin = {-t, 0, -t * 0.5f},
                             .anchor_bottom = true},
                            pole_params);
    pole.faces.clear();  // drawn as a tube instead
    pole.texcoords.clear();
    append_model(m, pole);
    const float top = t * static_cast<float>(levels - 1);

    // The flag hangs in the xy plane from the pole's top, its edge on the pole's +x face.
    Model flag = make_cloth({.columns = spec.columns, .rows = spec.rows, .width = spec.width,
                             .height = spec.height, .origin = {0, top, 0}, .vertical = true,
                             .anchors = ClothAnchors::none},
                            m.params);
    const std::uint32_t flag0 = append_model(m, flag);
    // Tie each node of the flag's edge to the pole nodes of the +x face within 1.5 t.
    SpringSet springs(m);
    for (int r = 0; r < spec.rows; ++r) {
        const std::uint32_t edge = flag0 + static_cast<std::uint32_t>(r * spec.columns);
        for (std::uint32_t p = 0; p < flag0; ++p)
            if (m.positions[p].x > -0.5f * t && length(m.positions[p] - m.positions[edge]) <= 1.5f * t)
                springs.add(edge, p);
    }
    // Draw the pole as a tube along its axis: one corner column is close enough.
    Tube pole_tube{.nodes = {}, .radius = 0.5f * t, .sides = 12, .subdivisions = 0};
    for (int j = 0; j < levels; ++j) pole_tube.nodes.push_back(static_cast<std::uint32_t>(j * 2 + 1));
    m.tubes.push_back(std::move(pole_tube));
    return m;
}

Model make_finish_line(const FinishLineSpec& spec) {
    require(spec.span > spec.banner_width && spec.banner_width > 0.0f && spec.banner_height > 0.0f,
            "finish line: the banner must be narrower than the span between the poles");
    require(spec.banner_top < spec.pole_height && spec.banner_top - spec.banner_height > 0.0f,
            "finish line: the banner must hang between the ground and the pole tops");
    require(spec.string_nodes >= 2, "finish line: strings need at least 2 nodes");
    require(spec.gust_period > 0.0f && spec.gust_duration > 0.0f && spec.gust_duration <= spec.gust_period,
            "finish line: gusts need a period > 0 and a duration in (0, period]");
    Model m;
    m.name = "finish-line";
    m.params.k = 1000.0f;
    m.params.mass = 0.02f;
    m.params.energy_loss = 0.995f;
    m.params.air_friction = 0.02f;
    m.params.max_substep = 0.001f;
    m.params.gust = {.velocity = spec.gust, .period = spec.gust_period, .duration = spec.gust_duration,
                     .start = 1.0f};

    // The banner: a vertical cloth centred between the poles.
    const float half = spec.banner_width * 0.5f;
    Model banner = make_cloth({.columns = spec.columns, .rows = spec.rows, .width = spec.banner_width,
                               .height = spec.banner_height, .origin = {-half, spec.banner_top, 0},
                               .vertical = true, .anchors = ClothAnchors::none},
                              m.params);
    append_model(m, banner);
    const auto corner = [&](int c, int r) { return static_cast<std::uint32_t>(r * spec.columns + c); };
    const float bottom = spec.banner_top - spec.banner_height;

    // Two rigid poles: anchored nodes at the foot, where the lower string is tied,
    // and the top (springs only to show them in a wireframe).
    SpringSet springs(m);
    for (float side : {-1.0f, 1.0f}) {
        const float x = side * spec.span * 0.5f;
        Tube pole{.nodes = {}, .radius = 0.05f, .sides = 12, .subdivisions = 0};
        for (float y : {0.0f, bottom, spec.pole_height}) {
            pole.nodes.push_back(add_node(m, {x, y, 0}));
            anchor(m, pole.nodes.back());
        }
        springs.add(pole.nodes[0], pole.nodes[1]);
        springs.add(pole.nodes[1], pole.nodes[2]);
        // Strings from the pole top to the banner's top corner and from the pole at
        // the banner's bottom height to its bottom corner, taut at the start.
        const int c = side < 0.0f ? 0 : spec.columns - 1;
        for (auto [pole_node, banner_node] :
             {std::pair{pole.nodes[2], corner(c, 0)}, std::pair{pole.nodes[1], corner(c, spec.rows - 1)}}) {
            Tube string{.nodes = {pole_node}, .radius = 0.006f, .sides = 6, .subdivisions = 2};
            const Vec3 a = m.positions[pole_node], b = m.positions[banner_node];
            for (int i = 1; i + 1 < spec.string_nodes; ++i) {
                const float f = static_cast<float>(i) / static_cast<float>(spec.string_nodes - 1);
                string.nodes.push_back(add_node(m, a + (b - a) * f));
            }
            string.nodes.push_back(banner_node);
            for (std::size_t i = 0; i + 1 < string.nodes.size(); ++i)
                springs.add(string.nodes[i], string.nodes[i + 1], 3000.0f);
            m.tubes.push_back(std::move(string));
        }
        m.tubes.push_back(std::move(pole));
    }
    return m;
}

void presimulate(Model& model, float seconds) {
    Simulation sim(model);
    const float frame = 1.0f / 60.0f;
    for (float t = 0.0f; t < seconds; t += frame) sim.step(frame);
    const auto p = sim.positions();
    model.positions.assign(p.begin(), p.end());
}

}  // namespace springkit
