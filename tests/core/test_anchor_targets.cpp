// Anchor targets (issue 15, item 5): an anchor moved once a frame by
// set_anchor_target() reaches each target exactly at the frame's end with the
// handle's velocity (no lag of a frame, no jump), and a group moved by a
// rotating frame (set_anchor_group_target()) moves rigidly, by slerp, within
// the frame: its anchors' last-substep velocities are those of the rigid
// rotation computed here in double, not of a straight chord.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "springkit/springkit.hpp"

using namespace springkit;

namespace {

constexpr float kFrame = 1.0f / 60.0f;
constexpr int kSubsteps = 10;

Model string_at_10_substeps() {
    Model m = make_string({.nodes = 10});
    m.params.max_substep = kFrame / kSubsteps;
    return m;
}

/// A 6 x 6 cloth held along its top edge (6 anchors).
Model cloth_held_by_its_edge() {
    ClothSpec spec;
    spec.columns = spec.rows = 6;
    spec.anchors = ClothAnchors::top_edge;
    Model m = make_cloth(spec);
    m.params.max_substep = kFrame / kSubsteps;
    return m;
}

double distance(Vec3 a, Vec3 b) { return length(b - a); }

/// r turned by `angle` rad about +y, in double.
void turn_y(const Vec3& r, double angle, double out[3]) {
    const double c = std::cos(angle), s = std::sin(angle);
    out[0] = c * r.x + s * r.z;
    out[1] = r.y;
    out[2] = -s * r.x + c * r.z;
}

}  // namespace

TEST(AnchorTargets, ConstantVelocityHandleIsReachedAtFrameEndWithItsVelocity) {
    Simulation sim(string_at_10_substeps());
    const Vec3 start = sim.positions()[0];
    const Vec3 u{1.5f, -0.5f, 0.75f};  // m/s, the handle's velocity
    for (int frame = 1; frame <= 30; ++frame) {
        const Vec3 target = start + u * (kFrame * static_cast<float>(frame));
        sim.set_anchor_target(0, target);
        ASSERT_TRUE(sim.step(kFrame).ok());
        EXPECT_EQ(sim.positions()[0], target) << frame;  // exactly, no lag
        const Vec3 v = sim.velocities()[0];
        EXPECT_NEAR(v.x, u.x, 1e-3f) << frame;
        EXPECT_NEAR(v.y, u.y, 1e-3f) << frame;
        EXPECT_NEAR(v.z, u.z, 1e-3f) << frame;
    }
    // No target: the fixed drive holds the anchor at the last one.
    const Vec3 last = sim.positions()[0];
    sim.step(kFrame);
    EXPECT_EQ(sim.positions()[0], last);
    EXPECT_EQ(sim.velocities()[0], Vec3{});
}

TEST(AnchorTargets, TargetIsReachedAtTheEndOfABudgetedFrame) {
    Simulation sim(string_at_10_substeps(), {.substep_budget = 3});
    const Vec3 target = sim.positions()[0] + Vec3{0.1f, 0.0f, 0.0f};
    sim.set_anchor_target(0, target);
    const StepResult r = sim.step(kFrame);
    EXPECT_EQ(r.substeps, 3u);
    EXPECT_EQ(sim.positions()[0], target);
    // Over the 3 substeps simulated: 0.1 m in 3/600 s.
    EXPECT_NEAR(sim.velocities()[0].x, 0.1f / (3.0f * kFrame / kSubsteps), 1e-2f);
}

TEST(AnchorTargets, RotatingGroupMovesRigidlyBySlerp) {
    const Model m = cloth_held_by_its_edge();
    ASSERT_EQ(m.anchors.size(), 6u);
    Simulation sim(m);
    std::vector<std::size_t> group;
    for (std::size_t i = 0; i < m.anchors.size(); ++i) group.push_back(i);
    // The frame turns 0.5 rad a frame about +y (30 rad/s) and moves at 2 m/s along x.
    const double turn = 0.5;
    const float speed = 2.0f;
    for (int frame = 1; frame <= 12; ++frame) {
        const Transform to{{speed * kFrame * static_cast<float>(frame), 0.0f, 0.0f},
                           quat_from_axis_angle({0, 1, 0}, static_cast<float>(turn * frame))};
        sim.set_anchor_group_target(group, to);
        ASSERT_TRUE(sim.step(kFrame).ok());
        for (std::size_t i = 0; i < group.size(); ++i) {
            const std::uint32_t node = m.anchors[i].node;
            const Vec3 r = m.positions[node];
            // At the frame's end: the target.
            EXPECT_EQ(sim.positions()[node], apply(to, r)) << frame << " " << i;
            // Over the last substep, fraction s = 1 - 1/10 .. 1 of the frame's
            // motion: the rigid rotation by turn (frame - 1 + s), in double.
            double end[3], before[3];
            turn_y(r, turn * frame, end);
            turn_y(r, turn * (frame - 1.0 / kSubsteps), before);
            const double dt = static_cast<double>(kFrame) / kSubsteps;
            const Vec3 v = sim.velocities()[node];
            EXPECT_NEAR(v.x, (end[0] - before[0]) / dt + speed, 2e-2) << frame << " " << i;
            EXPECT_NEAR(v.y, 0.0, 1e-4) << frame << " " << i;
            EXPECT_NEAR(v.z, (end[2] - before[2]) / dt, 2e-2) << frame << " " << i;
            // The anchors keep their mutual distances.
            for (std::size_t j = 0; j < i; ++j) {
                const std::uint32_t other = m.anchors[j].node;
                EXPECT_NEAR(distance(sim.positions()[node], sim.positions()[other]),
                            distance(r, m.positions[other]), 1e-5)
                    << frame << " " << i << " " << j;
            }
        }
    }
}

TEST(AnchorTargets, BadTargetsAreRefused) {
    Simulation sim(cloth_held_by_its_edge());
    EXPECT_THROW(sim.set_anchor_target(6, {}), Error);
    EXPECT_THROW(sim.set_anchor_target(0, {std::nanf(""), 0.0f, 0.0f}), Error);
    const std::vector<std::size_t> group{0, 9};
    try {
        sim.set_anchor_group_target(group, {});
        FAIL() << "expected an Error";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "Simulation::set_anchor_group_target: anchor 9 is out of range (the model has 6 anchors)");
    }
    const std::vector<std::size_t> ok{0, 1};
    EXPECT_THROW(sim.set_anchor_group_target(ok, {{}, {2.0f, 0.0f, 0.0f, 0.0f}}), Error);  // |q|^2 = 4
}

TEST(AnchorTargets, SameBitsOnAnyThreadCount) {
    const Model m = cloth_held_by_its_edge();
    std::vector<std::size_t> group;
    for (std::size_t i = 0; i < m.anchors.size(); ++i) group.push_back(i);
    std::vector<std::vector<Vec3>> results;
    for (const int threads : {1, 2, 3}) {
        Simulation sim(m, {.threads = threads, .substep_budget = 7});
        for (int frame = 1; frame <= 20; ++frame) {
            sim.set_anchor_group_target(group, {{0.0f, 0.05f * static_cast<float>(frame), 0.0f},
                                                quat_from_axis_angle({1, 1, 0}, 0.1f * static_cast<float>(frame))});
            sim.set_anchor_target(2, {0.0f, 1.0f, 0.02f * static_cast<float>(frame)});  // this one to a point
            sim.step(kFrame);
        }
        results.emplace_back(sim.positions().begin(), sim.positions().end());
    }
    for (std::size_t t = 1; t < results.size(); ++t)
        for (std::size_t i = 0; i < results[0].size(); ++i) ASSERT_EQ(results[t][i], results[0][i]) << t << " " << i;
}
