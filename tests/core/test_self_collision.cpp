// Self-collision (the "self-collision" stage, lib/src/collision/self_collision.cpp):
// two nodes meeting head-on stop at the distance with their momentum, Coulomb
// friction between them, a towel folded over a rail whose halves stay apart
// (and pass through each other without the stage), the same bits on any number
// of threads, and nothing changed while it is off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <vector>

#include "springkit/springkit.hpp"
#include "support/state_hash.hpp"

using namespace springkit;

namespace {

// Two free nodes with their own masses, no springs, no gravity and no energy
// loss: nothing but the self-collision stage changes their velocities.
Model two_nodes(Vec3 a, Vec3 b, float mass_a, float mass_b, float distance, float friction) {
    Model m;
    m.positions = {a, b};
    m.masses = {mass_a, mass_b};
    m.params.gravity = {};
    m.params.energy_loss = 1.0f;
    m.params.self_collision_distance = distance;
    m.params.self_friction = friction;
    return m;
}

// Pairs the stage may repel: no spring between them and at least d apart at rest.
std::vector<std::pair<std::uint32_t, std::uint32_t>> colliding_pairs(const Model& m, float d) {
    const std::size_t n = m.node_count();
    std::vector<char> joined(n * n, 0);
    for (const Spring& s : m.springs) joined[s.a * n + s.b] = joined[s.b * n + s.a] = 1;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    for (std::uint32_t a = 0; a < n; ++a)
        for (std::uint32_t b = a + 1; b < n; ++b)
            if (!joined[a * n + b] && length(m.positions[a] - m.positions[b]) >= d) pairs.emplace_back(a, b);
    return pairs;
}

double closest(const Simulation& sim, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs) {
    double nearest = std::numeric_limits<double>::infinity();
    for (const auto& [a, b] : pairs)
        nearest = std::min(nearest, static_cast<double>(length(sim.positions()[a] - sim.positions()[b])));
    return nearest;
}

// A small towel over a rail: 5 x 21 nodes 0.1 m apart, its halves 1 m long.
Model small_towel(float self_collision_distance) {
    Parameters p;
    p.mass = 0.02f;
    p.energy_loss = 0.98f;
    p.self_collision_distance = self_collision_distance;
    return make_towel({.columns = 5, .rows = 21, .width = 0.4f, .length = 2.0f}, p);
}

}  // namespace

TEST(SelfCollision, TwoNodesMeetingHeadOnStopAtTheDistance) {
    // Equal masses at +-1 m/s: the relative normal velocity goes to 0 with
    // equal and opposite impulses, so both stop, d = 0.1 m apart.
    Simulation sim(two_nodes({0, 0, 0}, {0.5f, 0, 0}, 0.25f, 0.25f, 0.1f, 0.3f));
    sim.set_velocity(0, {1, 0, 0});
    sim.set_velocity(1, {-1, 0, 0});
    sim.step(0.1f);  // 0.3 m apart: free flight, untouched
    EXPECT_NEAR(sim.positions()[1].x - sim.positions()[0].x, 0.3f, 1e-5f);
    EXPECT_EQ(sim.velocities()[0], (Vec3{1, 0, 0}));
    for (int i = 0; i < 30; ++i) sim.step(1.0f / 60.0f);
    EXPECT_EQ(sim.velocities()[0], (Vec3{0, 0, 0}));
    EXPECT_EQ(sim.velocities()[1], (Vec3{0, 0, 0}));
    EXPECT_NEAR(sim.positions()[1].x - sim.positions()[0].x, 0.1f, 1e-6f);
    EXPECT_NEAR(sim.positions()[0].x + sim.positions()[1].x, 0.5f, 1e-6f);  // the centre of mass stayed
}

TEST(SelfCollision, UnequalMassesKeepTheirMomentumExactly) {
    // 0.25 kg at 1.25 m/s meets 0.5 kg at -0.25 m/s: momentum 0.1875 N s. No
    // bounce: both leave at its share, 0.1875 / 0.75 = 0.25 m/s, d apart. The
    // values are powers of two, so every product is exact: the momentum is
    // kept to the bit.
    Simulation sim(two_nodes({0, 0, 0}, {0.6f, 0, 0}, 0.25f, 0.5f, 0.1f, 0.3f));
    sim.set_velocity(0, {1.25f, 0, 0});
    sim.set_velocity(1, {-0.25f, 0, 0});
    const Vec3 before = sim.linear_momentum();
    EXPECT_EQ(before, (Vec3{0.1875f, 0, 0}));
    for (int i = 0; i < 60; ++i) {
        sim.step(1.0f / 60.0f);
        EXPECT_EQ(sim.linear_momentum(), before) << "frame " << i;
        EXPECT_GT(sim.positions()[1].x - sim.positions()[0].x, 0.1f - 1e-6f) << "frame " << i;
    }
    EXPECT_EQ(sim.velocities()[0], (Vec3{0.25f, 0, 0}));
    EXPECT_EQ(sim.velocities()[1], (Vec3{0.25f, 0, 0}));
    EXPECT_NEAR(sim.positions()[1].x - sim.positions()[0].x, 0.1f, 1e-6f);
}

TEST(SelfCollision, ImpulsesAreEqualAndOppositeInAnyDirection) {
    // An oblique meeting in 3D with equal masses: whatever the rounding of the
    // impulse, the two velocity changes are the same floats negated.
    const Vec3 va{0.7f, -0.3f, 0.2f}, vb{-0.4f, 0.1f, -0.35f};
    Simulation sim(two_nodes({0, 0, 0}, {0.31f, -0.12f, 0.17f}, 0.03f, 0.03f, 0.1f, 0.3f));
    sim.set_velocity(0, va);
    sim.set_velocity(1, vb);
    bool met = false;
    for (int i = 0; i < 200 && !met; ++i) {
        sim.step(0.002f);
        const Vec3 dva = sim.velocities()[0] - va, dvb = sim.velocities()[1] - vb;
        met = !(dva == Vec3{});
        if (met) {
            // v + dv rounds: compare the changes as the stage made them, up to that.
            EXPECT_NEAR(dva.x, -dvb.x, 1e-7f);
            EXPECT_NEAR(dva.y, -dvb.y, 1e-7f);
            EXPECT_NEAR(dva.z, -dvb.z, 1e-7f);
            EXPECT_NEAR(length(sim.positions()[0] - sim.positions()[1]), 0.1f, 1e-6f);
        }
    }
    EXPECT_TRUE(met);
}

TEST(SelfCollision, FrictionFollowsCoulombsLaw) {
    // b at rest, a coming along +x with an offset of 1 cm in z: they meet with
    // n about (-1, 0, 0.1) and a relative velocity (1, 0, 0), so |v_n| is about
    // 0.995 m/s and the tangential speed 0.1 m/s. Without friction it stays;
    // with mu = 0.05 it shrinks by mu |v_n|; with mu = 0.2 > 0.1 / 0.995 it stops.
    for (const float mu : {0.0f, 0.05f, 0.2f}) {
        SCOPED_TRACE(mu);
        Simulation sim(two_nodes({-0.3f, 0, 0.01f}, {0, 0, 0}, 0.25f, 0.25f, 0.1f, mu));
        sim.set_velocity(0, {1, 0, 0});
        bool met = false;
        for (int i = 0; i < 200 && !met; ++i) {
            // Where the substep's integration puts a, before the stage: n is
            // the direction from b to there.
            const Vec3 a_free = sim.positions()[0] + Vec3{0.002f, 0, 0}, b = sim.positions()[1];
            sim.step(0.002f);
            if (sim.velocities()[0] == Vec3{1, 0, 0}) continue;
            met = true;
            const Vec3 n = normalized(a_free - b);
            const Vec3 v_rel{1, 0, 0};
            const float vn = dot(v_rel, n);
            const Vec3 vt = v_rel - n * vn;
            const Vec3 expected = vt * std::max(0.0f, 1.0f - mu * -vn / length(vt));
            const Vec3 after = sim.velocities()[0] - sim.velocities()[1];
            EXPECT_NEAR(after.x, expected.x, 1e-5f);
            EXPECT_NEAR(after.y, expected.y, 1e-5f);
            EXPECT_NEAR(after.z, expected.z, 1e-5f);
            const float kept = mu == 0.0f ? 0.1f : mu == 0.05f ? 0.1f - 0.05f * 0.995f : 0.0f;
            EXPECT_NEAR(length(after), kept, 3e-3f);
        }
        EXPECT_TRUE(met);
    }
}

TEST(SelfCollision, AnchoredNodesDoNotMove) {
    // An anchor takes no correction: the free node stops d from it.
    Model m = two_nodes({0, 0, 0}, {0.5f, 0, 0}, 0.25f, 0.25f, 0.1f, 0.3f);
    m.anchors.push_back({.node = 1});
    Simulation sim(m);
    sim.set_velocity(0, {1, 0, 0});
    for (int i = 0; i < 60; ++i) sim.step(1.0f / 60.0f);
    EXPECT_EQ(sim.positions()[1], (Vec3{0.5f, 0, 0}));
    EXPECT_NEAR(sim.positions()[0].x, 0.4f, 1e-6f);
    EXPECT_EQ(sim.velocities()[0], (Vec3{0, 0, 0}));
}

TEST(SelfCollision, ATowelOverARailKeepsItsHalvesApart) {
    // Its halves swing down from either side of the rail and meet below it:
    // with d = 0.1 m (the spacing) no two nodes the stage may repel come
    // closer than 0.98 d at any frame; without it the halves pass through each
    // other (nodes of the two halves come within 2 cm).
    const float d = 0.1f;
    const Model with = small_towel(d);
    const auto pairs = colliding_pairs(with, d);
    Simulation sim(with);
    Simulation without(small_towel(0.0f));
    double nearest_with = std::numeric_limits<double>::infinity();
    double nearest_without = nearest_with;
    for (int frame = 0; frame < 180; ++frame) {
        sim.step(1.0f / 60.0f);
        without.step(1.0f / 60.0f);
        nearest_with = std::min(nearest_with, closest(sim, pairs));
        nearest_without = std::min(nearest_without, closest(without, pairs));
    }
    EXPECT_GT(nearest_with, 0.98 * d);
    EXPECT_LT(nearest_without, 0.02);
    // They hang: the free corners about 1 m below the rail.
    EXPECT_LT(sim.positions()[0].y, 2.0f - 0.8f);
    EXPECT_LT(sim.positions().back().y, 2.0f - 0.8f);
}

TEST(SelfCollision, SameBitsOnOneAndThreeThreads) {
    const Model towel = find_scene("towel").build();
    ASSERT_GT(towel.params.self_collision_distance, 0.0f);
    Simulation one(towel);
    Simulation three(towel, {.threads = 3});
    for (int frame = 0; frame < 60; ++frame) {
        one.step(1.0f / 60.0f);
        three.step(1.0f / 60.0f);
    }
    EXPECT_EQ(test::state_hash(one), test::state_hash(three));
}

TEST(SelfCollision, OffByDefaultAndThenItsFrictionChangesNothing) {
    EXPECT_EQ(Parameters{}.self_collision_distance, 0.0f);
    // Off, the stage reads nothing: a towel with another friction steps to the same bits.
    Model a = small_towel(0.0f), b = a;
    b.params.self_friction = 0.9f;
    Simulation sa(a), sb(b);
    for (int frame = 0; frame < 30; ++frame) {
        sa.step(1.0f / 60.0f);
        sb.step(1.0f / 60.0f);
    }
    EXPECT_EQ(test::state_hash(sa), test::state_hash(sb));
    for (const Scene& scene : scenes()) {
        const float d = scene.build().params.self_collision_distance;
        EXPECT_EQ(d > 0.0f, std::string_view(scene.name) == "towel") << scene.name;
    }
}

TEST(SelfCollision, SetParametersTurnsItOnAndOff) {
    // A running towel: turned on, its halves stay apart from then on.
    Simulation sim(small_towel(0.0f));
    Parameters p = sim.parameters();
    p.self_collision_distance = 0.1f;
    sim.set_parameters(p);
    const auto pairs = colliding_pairs(sim.model(), 0.1f);
    double nearest = std::numeric_limits<double>::infinity();
    for (int frame = 0; frame < 120; ++frame) {
        sim.step(1.0f / 60.0f);
        nearest = std::min(nearest, closest(sim, pairs));
    }
    EXPECT_GT(nearest, 0.09);
    p.self_collision_distance = -0.1f;
    EXPECT_THROW(sim.set_parameters(p), Error);
}

TEST(SelfCollision, FarNodesShareTheEdgeCellsOfTheHashWithoutHarm) {
    // Cells are clamped 2^20 - 2 cells from 0 (1048.574 m at d = 1 mm): nodes
    // 500 and 600 km out share an edge cell, and are still told apart by their
    // distance.
    Model m = two_nodes({5e5f, 0, 0}, {6e5f, 0, 0}, 0.25f, 0.25f, 0.001f, 0.3f);
    m.positions.push_back({0, 0, 0});
    m.positions.push_back({0.0005f, 0, 0});
    m.masses = {0.25f, 0.25f, 0.25f, 0.25f};
    Simulation sim(m);
    sim.step(1.0f / 60.0f);
    EXPECT_EQ(sim.positions()[0], m.positions[0]);
    EXPECT_EQ(sim.positions()[1], m.positions[1]);
    // The two near 0 are closer than d, but were so at rest: never pushed.
    EXPECT_EQ(sim.positions()[3], m.positions[3]);
}
