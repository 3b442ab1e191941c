// Volume elements (Model::volume_elements, volume_elements.cpp): tetrahedra
// that keep their signed volume, the one element that tells a shape from its
// mirror image.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "simulation/packed_node_state.hpp"
#include "simulation/volume_elements.hpp"
#include "simulation/worker_pool.hpp"
#include "springkit/springkit.hpp"

namespace springkit {
namespace {

// The corner tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1): V = 1/6.
Model tetrahedron(bool with_springs, float volume_stiffness) {
    Model m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    m.params.gravity = {};
    m.params.max_substep = 0.001f;
    m.params.volume_stiffness = volume_stiffness;
    if (with_springs) {
        for (std::uint32_t a = 0; a < 4; ++a)
            for (std::uint32_t b = a + 1; b < 4; ++b) add_spring(m, a, b);
    }
    m.volume_elements.push_back({{0, 1, 2, 3}, 1.0f / 6.0f});
    return m;
}

double volume_now(const Simulation& sim) {
    const auto x = sim.positions();
    return signed_volume(x[0], x[1], x[2], x[3]);
}

TEST(VolumeElements, SignedVolumeOfTheCornerTetrahedron) {
    EXPECT_DOUBLE_EQ(signed_volume({0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}), 1.0 / 6.0);
    EXPECT_DOUBLE_EQ(signed_volume({0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 1}), -1.0 / 6.0);  // mirrored
}

// The apex pushed through the opposite face: at (0, 0, -1) the tetrahedron is
// its own mirror image, all six edge springs at their rest length, and at
// (0, 0, -0.3) nearer that than the rest shape, so springs alone settle it
// mirrored (V = -V0); the volume element brings it back to +V0.
TEST(VolumeElements, AnInvertedTetrahedronReturnsToItsRestVolume) {
    for (const float apex : {-1.0f, -0.3f})
        for (const float stiffness : {0.0f, 1000.0f}) {
            Model m = tetrahedron(true, stiffness);
            m.params.energy_loss = 0.9f;
            Simulation sim(m);
            sim.set_position(3, {0, 0, apex});
            for (int f = 0; f < 180; ++f) sim.step(1.0f / 60.0f);
            const double expected = stiffness > 0.0f ? 1.0 / 6.0 : -1.0 / 6.0;
            EXPECT_NEAR(volume_now(sim), expected, 1e-4) << "apex at z = " << apex << ", stiffness " << stiffness;
        }
}

// An element of rest volume 0 keeps its four nodes in one plane (a flat
// sheet's, docs/FILE_FORMAT.md): the square (0,0,0), (1,0,0), (1,1,0),
// (0,1,0) with its six springs, one corner lifted by 0.2 m. Springs alone
// resist that only at second order (a fold of a square keeps every length to
// first order): after 1 s it is still more than 5% of the lift off the plane;
// the element brings it back within 0.05% of it.
TEST(VolumeElements, ARestVolumeOf0KeepsFourNodesInOnePlane) {
    for (const float stiffness : {0.0f, 1000.0f}) {
        Model m;
        m.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
        m.params.gravity = {};
        m.params.max_substep = 0.001f;
        m.params.energy_loss = 0.9f;
        m.params.volume_stiffness = stiffness;
        for (std::uint32_t a = 0; a < 4; ++a)
            for (std::uint32_t b = a + 1; b < 4; ++b) add_spring(m, a, b);
        m.volume_elements.push_back({{0, 1, 2, 3}, 0.0f});
        validate(m);
        Simulation sim(m);
        sim.set_position(2, {1, 1, 0.2f});
        for (int f = 0; f < 60; ++f) sim.step(1.0f / 60.0f);
        const auto x = sim.positions();
        // The distance of corner 2 from the plane of the other three: 6|V| /
        // (twice the area of their triangle).
        const double off = std::abs(6.0 * signed_volume(x[0], x[1], x[3], x[2])) /
                           double(length(cross(x[1] - x[0], x[3] - x[0])));
        if (stiffness > 0.0f)
            EXPECT_LT(off, 1e-4);
        else
            EXPECT_GT(off, 0.01);
    }
}

// The forces sum to zero and their torques too: no momentum or angular
// momentum from nothing, whatever the shape. (With its edge springs: a lone
// element has free modes that keep its volume, along which it stretches
// without bound.)
TEST(VolumeElements, ForcesKeepMomentumAndAngularMomentum) {
    Model m = tetrahedron(true, 1000.0f);
    m.params.energy_loss = 1.0f;
    m.masses = {0.05f, 0.1f, 0.07f, 0.2f};
    Simulation sim(m);
    sim.set_position(3, {0.3f, -0.2f, -0.6f});
    sim.set_position(1, {1.2f, 0.1f, 0.0f});
    // Rounding aside: relative to the largest momentum and moment a node has.
    double peak = 0.0, peak_moment = 0.0;
    for (int f = 0; f < 60; ++f) {
        sim.step(1.0f / 60.0f);
        Vec3 p{}, l{};
        for (std::uint32_t i = 0; i < 4; ++i) {
            const Vec3 momentum = sim.velocities()[i] * m.masses[i];
            p += momentum;
            l += cross(sim.positions()[i], momentum);
            peak = std::max(peak, double(length(momentum)));
            peak_moment = std::max(peak_moment, double(length(sim.positions()[i]) * length(momentum)));
        }
        EXPECT_LT(length(p), 1e-5 * peak) << "frame " << f;
        EXPECT_LT(length(l), 1e-4 * peak_moment) << "frame " << f;
    }
    EXPECT_GT(peak, 0.01) << "the element moved the nodes";
}

// E = k (V - V0)^2 / (2 G) plus the kinetic energy: conserved without damping
// (within the integrator's error), falls with it. The base is held and the
// apex moves on the z axis (its force, along (c - a) x (d - a) ... = z, keeps
// it there): one degree of freedom, so the force is the gradient of some
// energy everywhere, and of E while the faces are no larger than at rest
// (z <= 1, where sum |g|^2 = 2 + 4 z^2 <= 6), where E is checked.
TEST(VolumeElements, EnergyIsKeptWithoutDampingAndLostWithIt) {
    for (const float loss : {1.0f, 0.99f}) {
        Model m = tetrahedron(false, 1000.0f);
        m.params.energy_loss = loss;
        m.params.max_substep = 0.0002f;
        for (std::uint32_t i = 0; i < 3; ++i) m.anchors.push_back({.node = i});
        Simulation sim(m);
        sim.set_position(3, {0, 0, 0.5f});
        auto energy = [&] {
            const Vec3 x = sim.positions()[3], v = sim.velocities()[3];
            const double dv = signed_volume(m.positions[0], m.positions[1], m.positions[2], x) - 1.0 / 6.0;
            return 1000.0 * dv * dv / (2.0 * 6.0 / 36.0) + 0.5 * m.node_mass(3) * dot(v, v);
        };
        const double start = energy();
        EXPECT_NEAR(start, 1000.0 * (1.0 / 144.0) / (2.0 / 6.0), 1e-4);  // V = V0 / 2
        double last = start;
        int checked = 0;
        for (int f = 0; f < 120; ++f) {
            sim.step(1.0f / 60.0f);
            const Vec3 x = sim.positions()[3];
            EXPECT_LT(std::abs(x.x) + std::abs(x.y), 1e-6) << "frame " << f;
            if (x.z > 1.0f) continue;
            const double now = energy();
            ++checked;
            // Symplectic Euler keeps a nearby energy: measured with the velocity
            // half a substep off, it wobbles by about omega dt / 2 (0.6% here).
            if (loss == 1.0f) {
                EXPECT_NEAR(now, start, 0.02 * start) << "frame " << f;
            } else {
                EXPECT_LT(now, 1.02 * last) << "frame " << f;
            }
            last = now;
        }
        EXPECT_GT(checked, 30);
        if (loss < 1.0f) {
            EXPECT_LT(last, 0.5 * start);
        }
    }
}

// The stage sums into the forces on one thread in element order: the same
// bits on any number of threads. With more than one, the forces stage's
// threads compute the elements' blocks (343 elements: two blocks of 256), and
// the stage only adds them.
TEST(VolumeElements, ResultsDoNotDependOnTheThreads) {
    Model m = make_jelly({.nx = 8, .ny = 8, .nz = 8});
    m.params.gravity = {};
    m.params.volume_stiffness = 500.0f;
    const float h = m.positions[1].x - m.positions[0].x;
    auto near = [&](Vec3 p) -> std::int64_t {
        for (std::size_t j = 0; j < m.node_count(); ++j)
            if (length(m.positions[j] - p) < 1e-3f * h) return static_cast<std::int64_t>(j);
        return -1;
    };
    for (std::uint32_t i = 0; i < m.node_count(); ++i) {
        const Vec3 p = m.positions[i];
        const std::int64_t x = near(p + Vec3{h, 0, 0}), y = near(p + Vec3{0, h, 0}), z = near(p + Vec3{0, 0, h});
        if (x < 0 || y < 0 || z < 0) continue;
        VolumeElement e{{i, std::uint32_t(x), std::uint32_t(y), std::uint32_t(z)}, 0.0f};
        e.rest = static_cast<float>(signed_volume(p, m.positions[e.node[1]], m.positions[e.node[2]], m.positions[e.node[3]]));
        m.volume_elements.push_back(e);
    }
    ASSERT_EQ(m.volume_elements.size(), 7u * 7u * 7u);
    auto run = [&](int threads) {
        SimulationOptions options;
        options.threads = threads;
        Simulation sim(m, options);
        for (std::uint32_t i = 0; i < m.node_count(); ++i)
            sim.set_position(i, m.positions[i] + Vec3{0.3f * h * std::sin(float(i)), 0.2f * h * std::cos(float(3 * i)), 0});
        for (int f = 0; f < 30; ++f) sim.step(1.0f / 60.0f);
        return std::vector<Vec3>(sim.positions().begin(), sim.positions().end());
    };
    const std::vector<Vec3> one = run(1);
    EXPECT_TRUE(one == run(2));
    EXPECT_TRUE(one == run(3));
    // A pool that runs solo (one task, worker_pool.hpp) leaves the elements to
    // the stage; switched at every step, the same bits.
    using detail::ThreadChoice;
    ThreadChoice::set_rule(ThreadChoice::Rule::alternate);
    const bool alternating_same = one == run(2) && one == run(3);
    ThreadChoice::set_rule(ThreadChoice::Rule::measured);
    EXPECT_TRUE(alternating_same);
    m.params.volume_stiffness = 0.0f;
    EXPECT_FALSE(one == run(1)) << "the elements moved the nodes";
}

// The stage's two passes (forces of a block of elements into a buffer, a
// vector loop; then their sums into the nodes, in element order) against the
// scalar formula element by element, summed straight into the nodes: the same
// bits, on random elements that share corners, some pulled larger than at
// rest (where 1 / sum |g|^2 now replaces the rest scale), for blocks of any
// size. The portable build runs the clone for this CPU's widest vectors.
TEST(VolumeElements, VectorPassGivesTheScalarFormulasBits) {
    std::mt19937 random(17);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    Model m;
    const std::uint32_t nodes = 40;
    for (std::uint32_t i = 0; i < nodes; ++i) m.positions.push_back({unit(random), unit(random), unit(random)});
    std::uniform_int_distribution<std::uint32_t> pick(0, nodes - 1);
    while (m.volume_elements.size() < 1000) {
        VolumeElement e{{pick(random), pick(random), pick(random), pick(random)}, 0.0f};
        if (e.node[0] == e.node[1] || e.node[0] == e.node[2] || e.node[0] == e.node[3] || e.node[1] == e.node[2] ||
            e.node[1] == e.node[3] || e.node[2] == e.node[3])
            continue;
        e.rest = static_cast<float>(signed_volume(m.positions[e.node[0]], m.positions[e.node[1]],
                                                  m.positions[e.node[2]], m.positions[e.node[3]]));
        if (std::abs(e.rest) < 1e-3f) continue;
        m.volume_elements.push_back(e);
    }
    const detail::VolumeElementArrays arrays = detail::volume_element_arrays(m);
    ASSERT_EQ(arrays.size(), m.volume_elements.size());
    // Now: every node moved, a third of them 1.5 times as far from the origin
    // and the rest 0.8 times, so that some elements' faces are larger than at
    // rest and others' smaller.
    std::vector<float> x(nodes), y(nodes), z(nodes);
    for (std::uint32_t i = 0; i < nodes; ++i) {
        const float stretch = i % 3 == 0 ? 1.5f : 0.8f;
        x[i] = stretch * m.positions[i].x + 0.2f * unit(random);
        y[i] = stretch * m.positions[i].y + 0.2f * unit(random);
        z[i] = stretch * m.positions[i].z + 0.2f * unit(random);
    }
    const float k = 123.25f;
    // The scalar formula, as written in volume_elements.cpp's comment.
    std::vector<Vec3> expected(nodes, Vec3{0.5f, -0.25f, 0.125f});
    int larger = 0;
    for (std::size_t i = 0; i < m.volume_elements.size(); ++i) {
        const VolumeElement& e = m.volume_elements[i];
        const Vec3 a{x[e.node[0]], y[e.node[0]], z[e.node[0]]};
        auto at = [&](std::uint32_t n) { return Vec3{x[n], y[n], z[n]} - a; };
        const Vec3 d1 = at(e.node[1]), d2 = at(e.node[2]), d3 = at(e.node[3]);
        const Vec3 g1 = cross(d2, d3), g2 = cross(d3, d1), g3 = cross(d1, d2), g0 = -(g1 + g2 + g3);
        const float six_v = dot(d1, g1);
        const float now = dot(g0, g0) + dot(g1, g1) + dot(g2, g2) + dot(g3, g3);
        larger += now * arrays.scale[i] > 1.0f ? 1 : 0;
        const float scale = now * arrays.scale[i] > 1.0f ? 1.0f / now : arrays.scale[i];
        const float s = -k * (six_v - 6.0f * e.rest) * scale;
        const Vec3 f1 = g1 * s, f2 = g2 * s, f3 = g3 * s;
        expected[e.node[0]] = expected[e.node[0]] - (f1 + f2 + f3);
        expected[e.node[1]] = expected[e.node[1]] + f1;
        expected[e.node[2]] = expected[e.node[2]] + f2;
        expected[e.node[3]] = expected[e.node[3]] + f3;
    }
    EXPECT_GT(larger, 100);
    EXPECT_LT(larger, 900);
    // The corners gathered from the x, y, z arrays, and from the packed node
    // state that a step with many loose springs keeps (x, y, z, vx, vy, vz a
    // node, then kPackedTail floats; the velocities here are garbage the
    // gather must not read as positions).
    std::vector<float> packed(nodes * detail::kPackedStride + detail::kPackedTail, 0.0f);
    for (std::uint32_t i = 0; i < nodes; ++i) {
        float* q = packed.data() + i * detail::kPackedStride;
        q[0] = x[i];
        q[1] = y[i];
        q[2] = z[i];
        q[3] = q[4] = q[5] = 1e30f;
    }
    const detail::NodePositions from_arrays{x.data(), y.data(), z.data()};
    const detail::NodePositions from_packed{x.data(), y.data(), z.data(), packed.data()};
    for (const detail::NodePositions& at : {from_arrays, from_packed}) {
        for (const std::size_t block : {std::size_t{1}, std::size_t{7}, std::size_t{17}, detail::kVolumeElementBlock}) {
            const char* source = at.packed ? "packed" : "arrays";
            std::vector<float> fx(nodes, 0.5f), fy(nodes, -0.25f), fz(nodes, 0.125f);
            std::vector<float> buffer(detail::kVolumeForceArrays * detail::kVolumeElementBlock);
            for (std::size_t begin = 0; begin < arrays.size(); begin += block) {
                const std::size_t end = std::min(arrays.size(), begin + block);
                detail::volume_element_forces(arrays, at, k, begin, end, buffer.data());
                detail::add_volume_element_forces(arrays, buffer.data(), begin, end, fx.data(), fy.data(), fz.data());
            }
            for (std::uint32_t i = 0; i < nodes; ++i) {
                EXPECT_EQ(fx[i], expected[i].x) << "node " << i << ", blocks of " << block << ", " << source;
                EXPECT_EQ(fy[i], expected[i].y) << "node " << i << ", blocks of " << block << ", " << source;
                EXPECT_EQ(fz[i], expected[i].z) << "node " << i << ", blocks of " << block << ", " << source;
            }
        }
    }
}

TEST(VolumeElements, JsonAndBinaryFormsKeepThemExactly) {
    Model m = tetrahedron(true, 250.5f);
    m.positions.push_back({0.3f, 0.3f, 0.3f});
    m.volume_elements.push_back({{4, 2, 1, 3}, static_cast<float>(signed_volume(m.positions[4], m.positions[2],
                                                                                 m.positions[1], m.positions[3]))});
    const Model from_json = model_from_json(model_to_json(m));
    EXPECT_EQ(from_json, m);
    EXPECT_EQ(model_from_binary(model_to_binary(m)), m);
    // Without elements and at the default stiffness the file has neither.
    Model plain = m;
    plain.volume_elements.clear();
    plain.params.volume_stiffness = 0.0f;
    const std::string text = model_to_json(plain);
    EXPECT_EQ(text.find("volume"), std::string::npos);
}

TEST(VolumeElements, BadElementsGetOneClearError) {
    auto message = [](const Model& m) {
        try {
            validate(m, "t.json");
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    Model m = tetrahedron(true, 1000.0f);
    m.volume_elements[0].node[2] = 9;
    EXPECT_EQ(message(m), "t.json: /volume_elements/nodes/2: node index 9 out of range (model has 4 nodes)");
    m = tetrahedron(true, 1000.0f);
    m.volume_elements[0].node[3] = 1;
    EXPECT_EQ(message(m), "t.json: /volume_elements/nodes/3: volume element 0 names node 1 twice (a tetrahedron "
                          "needs four different nodes)");
    m = tetrahedron(true, 1000.0f);
    m.volume_elements[0].rest = 0.0f;  // four nodes kept in one plane (a flat sheet's)
    EXPECT_EQ(message(m), "no error");
    m = tetrahedron(true, 1000.0f);
    m.positions = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
    compute_rest_lengths(m);
    EXPECT_EQ(message(m), "t.json: /volume_elements/nodes/0: the four nodes of volume element 0 lie on one line at rest");
    // The reader names the place in the file.
    const std::string text = R"({"format": "springkit", "version": 1, "positions": [0,0,0, 1,0,0, 0,1,0, 0,0,1],
        "springs": {"pairs": [], "rest": []}, "anchors": [], "faces": [], "texcoords": [],
        "volume_elements": {"nodes": [0, 1, 2, 3], "rest": [0.1, 0.2]}})";
    try {
        model_from_json(text, "v.json");
        FAIL() << "accepted";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "v.json: /volume_elements/rest: has 2 volumes but there are 1 elements (4 nodes each)");
    }
}

}  // namespace
}  // namespace springkit
