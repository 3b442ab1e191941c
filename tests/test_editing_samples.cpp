// The editor's run-time drives for the samples (app/editing/live_simulation):
// Tunca's keys move his rope's connection point at a velocity, Garrido's keys
// change the jump rope's circles. Plain C++, no window.
#include <gtest/gtest.h>

#include "editing/live_simulation.hpp"
#include "springkit/springkit.hpp"

using namespace springkit;
using springkit::editor::LiveSimulation;

TEST(EditingSamples, KeysDriveTuncasConnectionPointAtAVelocity) {
    LiveSimulation live;
    live.restart(make_sample("tunca-rope"));
    ASSERT_EQ(live.sole_velocity_anchor(), std::optional<std::size_t>(0));
    const Vec3 start = live.simulation().positions()[0];
    ASSERT_TRUE(live.drive_anchor(0, {1.0f, 0, 0}));
    for (int i = 0; i < 60; ++i) live.step(1.0f / 60.0f);
    EXPECT_NEAR(live.simulation().positions()[0].x - start.x, 1.0f, 1e-4);
    EXPECT_FLOAT_EQ(live.simulation().velocities()[0].x, 1.0f);  // the rope feels the pull's speed
    ASSERT_TRUE(live.drive_anchor(0, {}));  // keys let go: it stops where it is
    const Vec3 stopped = live.simulation().positions()[0];
    for (int i = 0; i < 30; ++i) live.step(1.0f / 60.0f);
    EXPECT_EQ(live.simulation().positions()[0], stopped);
}

TEST(EditingSamples, OnlyAVelocityAnchorCanBeDriven) {
    LiveSimulation live;
    live.restart(make_sample("jump-rope"));
    EXPECT_FALSE(live.sole_velocity_anchor().has_value());
    EXPECT_FALSE(live.drive_anchor(0, {1, 0, 0}));
    live.restart(make_sample("cloth"));
    EXPECT_FALSE(live.first_circle_anchor().has_value());
    EXPECT_FALSE(live.set_circle_drives(0.3f, 5.0f));
}

TEST(EditingSamples, JumpRopeSlidersChangeBothEndsWhileItTurnsAndResetRestoresThem) {
    const JumpRopeSpec spec;
    LiveSimulation live;
    live.restart(make_sample("jump-rope"));
    ASSERT_EQ(live.first_circle_anchor(), std::optional<std::size_t>(0));
    for (int i = 0; i < 30; ++i) live.step(1.0f / 60.0f);
    ASSERT_TRUE(live.set_circle_drives(0.4f, 6.0f));
    live.step(1.0f / 60.0f);
    for (std::size_t a : {0u, 1u}) {
        EXPECT_FLOAT_EQ(live.simulation().anchor_circle_radius(a), 0.4f);
        EXPECT_FLOAT_EQ(live.simulation().anchor_angular_speed(a), 6.0f);
        const Anchor& end = live.model().anchors[a];
        const Vec3 arm = live.simulation().positions()[end.node] - end.center;
        EXPECT_NEAR(std::hypot(arm.y, arm.z), 0.4f, 1e-5);
    }
    live.reset();
    EXPECT_FLOAT_EQ(live.simulation().anchor_circle_radius(0), spec.radius);
    EXPECT_FLOAT_EQ(live.simulation().anchor_angular_speed(0), spec.angular_speed);
}
