// Named spring groups: their stiffness scale and damping against analytic
// answers, the kernels and thread counts agreeing with them, and validation.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <optional>
#include <string>

#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;

namespace {

// Two vertical chains of `nodes` nodes side by side, each hanging from an
// anchored top node; chain 0 uses nodes [0, nodes), chain 1 [nodes, 2 nodes).
Model two_chains(int nodes, float k) {
    Model m;
    m.params.k = k;
    m.params.energy_loss = 0.9f;  // settles within a few seconds
    for (int chain = 0; chain < 2; ++chain) {
        const auto first = static_cast<std::uint32_t>(m.positions.size());
        for (int i = 0; i < nodes; ++i) m.positions.push_back({static_cast<float>(chain), -0.1f * static_cast<float>(i), 0});
        for (int i = 0; i + 1 < nodes; ++i) add_spring(m, first + static_cast<std::uint32_t>(i), first + static_cast<std::uint32_t>(i) + 1);
        m.anchors.push_back({.node = first});
    }
    return m;
}

// The bottom node's drop below its rest position.
float stretch(const Simulation& sim, const Model& m, std::uint32_t bottom) {
    return m.positions[bottom].y - sim.positions()[bottom].y;
}

// A node on a spring from an anchored node, no gravity: one oscillator per pair.
Model oscillators(float k, float mass) {
    Model m;
    m.params.k = k;
    m.params.mass = mass;
    m.params.gravity = {0, 0, 0};
    m.params.energy_loss = 1.0f;
    for (int pair = 0; pair < 2; ++pair) {
        const auto a = static_cast<std::uint32_t>(m.positions.size());
        m.positions.push_back({static_cast<float>(pair), 0, 0});
        m.positions.push_back({static_cast<float>(pair), -1, 0});
        add_spring(m, a, a + 1);
        m.anchors.push_back({.node = a});
    }
    return m;
}

SpringGroup group(std::string name, std::vector<std::uint32_t> springs, float scale = 1.0f,
                  std::optional<float> damping = std::nullopt) {
    SpringGroup g;
    g.name = std::move(name);
    g.stiffness_scale = scale;
    g.damping = damping;
    g.springs = std::move(springs);
    return g;
}

std::vector<std::uint32_t> all_springs(const Model& m) {
    std::vector<std::uint32_t> s(m.springs.size());
    std::iota(s.begin(), s.end(), 0u);
    return s;
}

}  // namespace

TEST(SpringGroups, DoubleStiffnessHalvesTheStaticStretch) {
    // At rest each spring of a hanging chain carries the weight below it, so
    // the bottom node drops sum_j j m g / k = n(n-1)/2 m g / k; twice the k,
    // half the drop.
    const int nodes = 4;
    Model m = two_chains(nodes, 1000.0f);
    m.spring_groups.push_back(group("stiff", {3, 4, 5}, 2.0f));
    Simulation sim(m);
    for (int frame = 0; frame < 600; ++frame) sim.step(1.0f / 60.0f);
    const double expected = (nodes - 1) * nodes / 2.0 * m.params.mass * 9.81 / 1000.0;
    const float plain = stretch(sim, m, nodes - 1);
    const float stiff = stretch(sim, m, 2 * nodes - 1);
    EXPECT_NEAR(plain, expected, 1e-3 * expected);
    EXPECT_NEAR(stiff, expected / 2, 1e-3 * expected);
}

TEST(SpringGroups, GroupDampingDecaysAtTheAnalyticRate) {
    // x'' = -(k/m) x - (c/m) x': the amplitude decays as exp(-c t / (2 m)). Only
    // the grouped oscillator is damped; the other keeps its amplitude.
    const float k = 20.0f, mass = 0.05f, c = 0.05f;
    Model m = oscillators(k, mass);
    m.spring_groups.push_back(group("damped", {1}, 1.0f, c));
    for (SpringKernel kernel : {SpringKernel::batched, SpringKernel::reference}) {
        Simulation sim(m, {.kernel = kernel});
        const float a0 = 0.1f;
        for (std::uint32_t node : {1u, 3u}) sim.set_position(node, m.positions[node] + Vec3{0, -a0, 0});
        const float dt = m.params.max_substep;
        float previous[2] = {a0, a0}, before[2] = {a0, a0};
        double last_peak[2] = {a0, a0}, peak_time = 0.0;
        for (int i = 1; i <= 1000; ++i) {  // 2 s, about 6 periods
            sim.step(dt);
            for (int pair = 0; pair < 2; ++pair) {
                const std::uint32_t node = 2 * static_cast<std::uint32_t>(pair) + 1;
                const float x = m.positions[node].y - sim.positions()[node].y;
                // A maximum of the displacement one substep ago.
                if (i >= 2 && previous[pair] > before[pair] && previous[pair] >= x) {
                    last_peak[pair] = previous[pair];
                    if (pair == 1) peak_time = (i - 1) * static_cast<double>(dt);
                }
                before[pair] = previous[pair];
                previous[pair] = x;
            }
        }
        ASSERT_GT(peak_time, 1.5);
        const double rate = std::log(a0 / last_peak[1]) / peak_time;
        EXPECT_NEAR(rate, c / (2 * mass), 0.01 * c / (2 * mass)) << "kernel " << static_cast<int>(kernel);
        EXPECT_NEAR(last_peak[0], a0, 1e-3 * a0);
    }
}

TEST(SpringGroups, AGroupWithTheModelsValuesStepsTheSameBits) {
    // Every spring in a group of damping c and scale 1 is the model with
    // spring_damping c: the same values in every slot of the batched kernel.
    Parameters p;
    p.spring_damping = 0.3f;
    const Model plain = make_cloth({.columns = 40, .rows = 30}, p);
    Model grouped = plain;
    grouped.params.spring_damping = 0.0f;
    grouped.spring_groups.push_back(group("all", all_springs(plain), 1.0f, 0.3f));
    for (int threads : {1, 2}) {
        Simulation a(plain, {.threads = threads}), b(grouped, {.threads = threads});
        for (int frame = 0; frame < 30; ++frame) {
            a.step(1.0f / 60.0f);
            b.step(1.0f / 60.0f);
        }
        ASSERT_EQ(a.positions().size(), b.positions().size());
        for (std::size_t i = 0; i < a.positions().size(); ++i)
            ASSERT_EQ(a.positions()[i], b.positions()[i]) << "node " << i << ", " << threads << " threads";
        // The group keeps its damping when the instance's own changes.
        Parameters other = grouped.params;
        other.spring_damping = 0.8f;
        b.set_parameters(other);
        Parameters same = plain.params;
        a.set_parameters(same);
        for (int frame = 0; frame < 10; ++frame) {
            a.step(1.0f / 60.0f);
            b.step(1.0f / 60.0f);
        }
        for (std::size_t i = 0; i < a.positions().size(); ++i)
            ASSERT_EQ(a.positions()[i], b.positions()[i]) << "node " << i << " after set_parameters";
    }
}

TEST(SpringGroups, PartOfAClothInAGroupIsTheSameOnAnyThreadsAndCloseToTheReference) {
    Model m = make_cloth({.columns = 50, .rows = 40});
    SpringGroup g = group("half", {}, 1.5f, 0.4f);
    for (std::uint32_t i = 0; i < m.springs.size(); i += 2) g.springs.push_back(i);
    m.spring_groups.push_back(g);
    Simulation one(m), two(m, {.threads = 2}), reference(m, {.kernel = SpringKernel::reference});
    for (int frame = 0; frame < 30; ++frame)
        for (Simulation* s : {&one, &two, &reference}) s->step(1.0f / 60.0f);
    for (std::size_t i = 0; i < m.node_count(); ++i) {
        ASSERT_EQ(one.positions()[i], two.positions()[i]) << "node " << i;
        ASSERT_NEAR(one.positions()[i].y, reference.positions()[i].y, 1e-4f) << "node " << i;
    }
    // The group changed the motion: without it the cloth is elsewhere.
    Model plain = m;
    plain.spring_groups.clear();
    Simulation without(plain);
    for (int frame = 0; frame < 30; ++frame) without.step(1.0f / 60.0f);
    float largest = 0.0f;
    for (std::size_t i = 0; i < m.node_count(); ++i)
        largest = std::max(largest, std::abs(without.positions()[i].y - one.positions()[i].y));
    EXPECT_GT(largest, 1e-3f);
}

TEST(SpringGroups, StiffnessesAndDampingsResolvePerSpring) {
    Model m = two_chains(3, 800.0f);
    m.params.spring_damping = 0.1f;
    m.springs[0].k = 500.0f;
    m.spring_groups.push_back(group("a", {0, 2}, 3.0f));
    m.spring_groups.push_back(group("b", {3}, 1.0f, 0.0f));
    EXPECT_EQ(spring_stiffnesses(m), (std::vector<float>{1500.0f, 800.0f, 2400.0f, 800.0f}));
    EXPECT_EQ(spring_dampings(m), (std::vector<float>{0.1f, 0.1f, 0.1f, 0.0f}));
    EXPECT_EQ(spring_group_of(m), (std::vector<int>{0, -1, 0, 1}));
    // The stability estimate sees the group's k.
    EXPECT_EQ(stability_estimate(m).worst_spring, 2u);
}

TEST(SpringGroups, ValidationNamesTheGroupAndWhatIsWrong) {
    const Model base = two_chains(3, 800.0f);
    auto error = [&](auto change) {
        Model m = base;
        change(m);
        return test::error_of([&] { validate(m, "m.json"); });
    };
    EXPECT_EQ(error([](Model& m) { m.spring_groups.push_back(group("a", {0, 4})); }),
              "m.json: /spring_groups/0/springs/1: spring index 4 out of range (model has 4 springs)");
    EXPECT_EQ(error([](Model& m) {
                  m.spring_groups.push_back(group("a", {0}));
                  m.spring_groups.push_back(group("a", {1}));
              }),
              "m.json: /spring_groups/1/name: duplicate group name \"a\" (same as spring group 0)");
    EXPECT_EQ(error([](Model& m) {
                  m.spring_groups.push_back(group("a", {0, 1}));
                  m.spring_groups.push_back(group("b", {2, 1}));
              }),
              "m.json: /spring_groups/1/springs/1: spring 1 is already in spring group \"a\"");
    EXPECT_EQ(error([](Model& m) { m.spring_groups.push_back(group("a", {2, 2})); }),
              "m.json: /spring_groups/0/springs/1: spring 2 is already in spring group \"a\"");
    EXPECT_EQ(error([](Model& m) { m.spring_groups.push_back(group("", {0})); }),
              "m.json: /spring_groups/0/name: a spring group needs a name");
    EXPECT_EQ(error([](Model& m) { m.spring_groups.push_back(group("a", {}, 0.0f)); }),
              "m.json: /spring_groups/0/stiffness_scale: stiffness scale must be > 0 (got 0)");
    EXPECT_EQ(error([](Model& m) { m.spring_groups.push_back(group("a", {}, NAN)); }),
              "m.json: /spring_groups/0/stiffness_scale: value is not a finite number");
    EXPECT_EQ(error([](Model& m) { m.spring_groups.push_back(group("a", {}, 1.0f, -1.0f)); }),
              "m.json: /spring_groups/0/damping: spring damping must be >= 0 N s/m (got -1)");
    EXPECT_EQ(error([](Model& m) { m.spring_groups.push_back(group("a", {}, 1.0f, INFINITY)); }),
              "m.json: /spring_groups/0/damping: value is not a finite number");
    EXPECT_EQ(error([](Model& m) { m.spring_groups.push_back(group("empty", {})); }), "");
}
