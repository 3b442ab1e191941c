// The editor's run-time drives for the samples (app/editing/live_simulation):
// Tunca's keys move his rope's connection point at a velocity, Garrido's keys
// change the jump rope's circles, and both go on through edits of the model.
// Plain C++, no window.
#include <gtest/gtest.h>

#include <vector>

#include "editing/document.hpp"
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

namespace {

// The jump rope with a bead sliding on it in gusting air (gusts from 0.5 s to 1 s).
Model jump_rope_with_bead() {
    Model m = make_sample("jump-rope");
    m.beads = {{.first = 0, .last = 40, .mass = 0.05f, .start = 12.0f, .friction = 0.05f}};
    m.params.air_friction = 0.02f;
    m.params.gust = {.velocity = {0, 0, 3}, .period = 2.0f, .duration = 0.5f, .start = 0.5f};
    return m;
}

std::vector<Vec3> positions_of(const LiveSimulation& live) {
    return {live.simulation().positions().begin(), live.simulation().positions().end()};
}

}  // namespace

TEST(EditingSamples, EditKeepsTheJumpRopeTurningAndTheBeadWhereItIs) {
    springkit::editor::Document doc(jump_rope_with_bead(), "jump-rope.json", false);
    LiveSimulation live;
    live.restart(doc.model());
    for (int i = 0; i < 40; ++i) live.step(1.0f / 60.0f);
    ASSERT_TRUE(live.set_circle_drives(0.4f, 6.0f));
    live.step(1.0f / 60.0f);
    const double time = live.simulation().time();
    const float bead = live.simulation().bead_places()[0];
    ASSERT_NE(bead, doc.model().beads[0].start);
    const std::vector<Vec3> moving = positions_of(live);

    Parameters p = doc.model().params;
    p.k *= 1.5f;  // a slider drag
    ASSERT_TRUE(doc.set_parameters(p));
    live.update_model(doc.model());
    ASSERT_EQ(live.model().params.k, p.k);
    EXPECT_EQ(live.simulation().time(), time);
    EXPECT_EQ(live.simulation().bead_places()[0], bead);
    EXPECT_EQ(positions_of(live), moving);
    for (std::size_t a : {0u, 1u}) {
        EXPECT_FLOAT_EQ(live.simulation().anchor_circle_radius(a), 0.4f);
        EXPECT_EQ(live.simulation().anchor_angular_speed(a), 6.0f);
    }
}

TEST(EditingSamples, UpdateWithAnUnchangedModelGoesOnBitForBit) {
    const Model m = jump_rope_with_bead();
    LiveSimulation edited, untouched;
    for (LiveSimulation* live : {&edited, &untouched}) {
        live->restart(m);
        for (int i = 0; i < 40; ++i) live->step(1.0f / 60.0f);
        ASSERT_TRUE(live->set_circle_drives(0.4f, 6.0f));
    }
    edited.update_model(m);
    for (int i = 0; i < 60; ++i) {
        edited.step(1.0f / 60.0f);
        untouched.step(1.0f / 60.0f);
        ASSERT_EQ(positions_of(edited), positions_of(untouched)) << "frame " << i;
    }
    EXPECT_TRUE(edited.error().empty());
}

TEST(EditingSamples, TuncasConnectionPointKeepsMovingThroughAnEdit) {
    springkit::editor::Document doc(make_sample("tunca-rope"), "tunca-rope.json", false);
    LiveSimulation live;
    live.restart(doc.model());
    ASSERT_TRUE(live.drive_anchor(0, {1.0f, 0, 0}));
    for (int i = 0; i < 30; ++i) live.step(1.0f / 60.0f);
    const float x = live.simulation().positions()[0].x;
    Parameters p = doc.model().params;
    p.energy_loss = 0.98f;
    ASSERT_TRUE(doc.set_parameters(p));
    live.update_model(doc.model());
    for (int i = 0; i < 30; ++i) live.step(1.0f / 60.0f);
    EXPECT_NEAR(live.simulation().positions()[0].x - x, 0.5f, 1e-4);
}

TEST(EditingSamples, RopeSubdivisionsAreAnEditWithUndo) {
    using springkit::editor::Document;
    Document doc(make_sample("source-rope"), "source-rope.json", false);
    std::vector<Tube> tubes = doc.model().tubes;
    ASSERT_EQ(tubes.size(), 1u);
    const int before = tubes[0].subdivisions;
    tubes[0].subdivisions = 6;
    ASSERT_TRUE(doc.set_tubes(tubes, true));
    tubes[0].subdivisions = 7;  // the same slider drag: one undo entry
    ASSERT_TRUE(doc.set_tubes(tubes, true));
    doc.seal();
    EXPECT_EQ(doc.model().tubes[0].subdivisions, 7);
    EXPECT_TRUE(doc.dirty());
    EXPECT_STREQ(doc.undo_name(), "rope drawing");
    ASSERT_TRUE(doc.undo());
    EXPECT_EQ(doc.model().tubes[0].subdivisions, before);
    EXPECT_FALSE(doc.dirty());
    tubes[0].sides = 2;  // invalid: refused, nothing changes
    EXPECT_FALSE(doc.set_tubes(tubes));
    EXPECT_EQ(doc.model().tubes, make_sample("source-rope").tubes);
}

TEST(EditingSamples, AParameterEditChangesTheRunningInstanceInPlace) {
    const Model m = jump_rope_with_bead();
    LiveSimulation live;
    live.restart(m);
    Simulation reference(m);
    for (int i = 0; i < 30; ++i) {
        live.step(1.0f / 60.0f);
        reference.step(1.0f / 60.0f);
    }
    Model edited = m;
    edited.params.gravity = {0.5f, -4.0f, 0.0f};
    edited.params.spring_damping = 0.3f;
    const Simulation* before = &live.simulation();
    live.update_model(edited);
    EXPECT_EQ(&live.simulation(), before);  // the same instance: settings, no new layout
    EXPECT_EQ(live.model(), edited);
    EXPECT_EQ(live.simulation().parameters(), edited.params);
    Simulation rebuilt(edited);  // what the editor did before: a new simulation carried over
    rebuilt.carry_state_from(reference);
    for (int i = 0; i < 40; ++i) {
        live.step(1.0f / 60.0f);
        rebuilt.step(1.0f / 60.0f);
    }
    EXPECT_EQ(positions_of(live), std::vector<Vec3>(rebuilt.positions().begin(), rebuilt.positions().end()));
    edited.params.k *= 2.0f;  // k belongs to the body: rebuilt and carried over
    live.update_model(edited);
    EXPECT_EQ(live.simulation().model().params.k, edited.params.k);
    EXPECT_TRUE(live.error().empty());
}

// Truthful stability: the four rope samples of the source texts run calm, with
// Garrido's per-spring k dt^2/m at 0.4 to 0.8; neither the step's frequency
// estimate nor the watch of the run may call them unstable.
TEST(EditingSamples, TheCalmRopeSamplesAreNeitherRedNorUnstable) {
    for (const char* name : {"tunca-rope", "garrido-rope", "bead-rope", "jump-rope"}) {
        SCOPED_TRACE(name);
        const Model model = make_sample(name);
        EXPECT_GT(stability_estimate(model).worst, kStabilityWarning) << "the rule of thumb would flag it";
        EXPECT_NE(editor::frequency_alarm(frequency_stability(model)), editor::Alarm::bad);
        LiveSimulation live;
        live.restart(model);
        for (int frame = 0; frame < 180; ++frame) {
            live.step(1.0f / 60.0f);
            const editor::RunHealth health = live.health();
            ASSERT_EQ(health.alarm, editor::Alarm::good) << "frame " << frame << ": " << health.text;
        }
        EXPECT_EQ(live.health().text.rfind("calm", 0), 0u) << live.health().text;
    }
}

TEST(EditingSamples, AClothAboveItsFrequencyLimitReadsRedThenExploded) {
    // A cloth at dt omega_max = 2.4, above symplectic Euler's limit of 2: the
    // estimate is red before it runs, and once the runtime's runaway guard stops
    // it (within a few frames) the watch says EXPLODED with the runtime's reason.
    Model cloth = make_sample("cloth");
    const FrequencyStability before = frequency_stability(cloth);
    cloth.params.k *= static_cast<float>((2.4 / before.omega_dt) * (2.4 / before.omega_dt));
    ASSERT_NEAR(frequency_stability(cloth).omega_dt, 2.4, 0.01);
    EXPECT_EQ(editor::frequency_alarm(frequency_stability(cloth)), editor::Alarm::bad);
    LiveSimulation live;
    live.restart(cloth);
    for (int frame = 0; frame < 60 && live.error().empty(); ++frame) live.step(1.0f / 60.0f);
    ASSERT_FALSE(live.error().empty());
    const editor::RunHealth health = live.health();
    EXPECT_EQ(health.alarm, editor::Alarm::bad);
    EXPECT_EQ(health.text, "EXPLODED: " + live.error());
}

TEST(EditingSamples, AFallingBodyIsNotUnstableButATornOneIs) {
    // A free jelly falls for 4 s without a ground or losses: 39 m/s, kinetic
    // energy above 20 energy scales, nearly all of it in the centre of mass's motion.
    JellySpec spec;
    Model jelly = make_jelly(spec);
    jelly.params.energy_loss = 1.0f;
    jelly.params.air_friction = 0.0f;
    LiveSimulation live;
    live.restart(jelly);
    for (int frame = 0; frame < 240; ++frame) live.step(1.0f / 60.0f);
    EXPECT_GT(live.simulation().kinetic_energy(), 20.0 * live.energy_scale());
    EXPECT_EQ(live.health().alarm, editor::Alarm::good) << live.health().text;

    // The same jelly with one node pulled 4 m out of it: a spring at 3x+ its rest length.
    jelly.positions[0] = jelly.positions[0] + Vec3{4, 0, 0};
    live.restart(jelly);
    const editor::RunHealth torn = live.health();
    EXPECT_EQ(torn.alarm, editor::Alarm::bad);
    EXPECT_TRUE(torn.text.starts_with("TORN: spring ")) << torn.text;
    EXPECT_GT(torn.max_strain, 2.0);
}
