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
    if (a == b) return false;
    const std::uint64_t key = (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
    if (!pairs_.insert(key).second) return false;
    model_.springs.push_back({a, b, length(model_.positions[b] - model_.positions[a]), k, kind});
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
    SpringSet springs(m);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            if (c + 1 < cols) springs.add(at(c, r), at(c + 1, r));
            if (r + 1 < rows) springs.add(at(c, r), at(c, r + 1));
            if (spec.shear && c + 1 < cols && r + 1 < rows) {
                springs.add(at(c, r), at(c + 1, r + 1));
                springs.add(at(c + 1, r), at(c, r + 1));
            }
            if (spec.bend && c + 2 < cols) springs.add(at(c, r), at(c + 2, r));
            if (spec.bend && r + 2 < rows) springs.add(at(c, r), at(c, r + 2));
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
    SpringSet springs(m);
    for (int k = 0; k + 1 < nz; ++k)
        for (int j = 0; j + 1 < ny; ++j)
            for (int i = 0; i + 1 < nx; ++i) {
                std::uint32_t corner[8];
                for (int c = 0; c < 8; ++c) corner[c] = at(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
                for (int a = 0; a < 8; ++a)
                    for (int b = a + 1; b < 8; ++b) springs.add(corner[a], corner[b]);
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
    const float spacing = spec.string_length / static_cast<float>(spec.string_nodes - 1);
    for (int i = 1; i < spec.string_nodes; ++i) {
        const std::uint32_t node =
            add_node(m, m.positions[bottom] - Vec3{0, spacing * static_cast<float>(i), 0});
        springs.add(previous, node);
        previous = node;
    }
    if (spec.anchor_string_end) anchor(m, previous);
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
    return m;
}

Model make_source_rope(const SourceRopeSpec& spec) {
    require(spec.segments >= 1, "source rope: needs at least 1 segment");
    require(spec.slack >= 0.0f, "source rope: slack must be >= 0 m");
    require(spec.mass > 0.0f, "source rope: mass must be > 0 kg");
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
