// Attachments with known answers: Builderboy's single-segment rope (tethers),
// Garrido's sliding bead, constant forces and gusts of wind; and their state
// carried over to a simulation of an edited model (Simulation::carry_state_from).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
using springkit::test::load_error;

namespace {

constexpr float kFrame = 1.0f / 60.0f;

// One free node at `start`, no losses, tied by a Builderboy rope of length L to the origin.
Model tethered(Vec3 start, float rope_length, float bounce = 0.0f) {
    Model m;
    m.params.energy_loss = 1.0f;
    m.params.max_substep = 0.0005f;
    m.positions = {start};
    m.tethers = {{.node = 0, .point = {0, 0, 0}, .length = rope_length, .bounce = bounce}};
    return m;
}

// A straight chain of anchored nodes (a rigid rope) going down a slope of
// `degrees` along +x, 1 m per segment.
Model rigid_incline(int segments, float degrees) {
    Model m;
    m.params.energy_loss = 1.0f;
    const float a = degrees * std::numbers::pi_v<float> / 180.0f;
    for (int i = 0; i <= segments; ++i) {
        m.positions.push_back(Vec3{std::cos(a), -std::sin(a), 0} * static_cast<float>(i));
        m.anchors.push_back({.node = static_cast<std::uint32_t>(i)});
    }
    return m;
}

// Garrido's jump rope with a bead on it in gusting air: every kind of state that
// carry_state_from() takes over. The first gust blows from 0.5 s to 1 s.
Model jump_rope_with_bead_in_gusts() {
    Model m = make_jump_rope();
    m.beads = {{.first = 0, .last = 40, .mass = 0.05f, .start = 12.0f, .friction = 0.05f}};
    m.params.air_friction = 0.02f;
    m.params.gust = {.velocity = {0, 0, 3}, .period = 2.0f, .duration = 0.5f, .start = 0.5f};
    return m;
}

std::vector<Vec3> positions_of(const Simulation& sim) { return {sim.positions().begin(), sim.positions().end()}; }

}  // namespace

TEST(Tether, BodyInsideTheCircleMovesAsIfFree) {
    Model free_body = tethered({0.3f, 0, 0}, 2.0f);
    free_body.tethers.clear();
    const Model tied = tethered({0.3f, 0, 0}, 2.0f);
    Simulation a(free_body), b(tied);
    a.set_velocity(0, {1, 2, 0});
    b.set_velocity(0, {1, 2, 0});
    for (int i = 0; i < 45; ++i) {  // 0.75 s: it stays within 2 m of the origin
        a.step(kFrame);
        b.step(kFrame);
        ASSERT_LT(length(b.positions()[0]), 2.0f);
        ASSERT_EQ(a.positions()[0], b.positions()[0]) << "frame " << i;
    }
}

TEST(Tether, DistanceNeverExceedsTheRopeLength) {
    const Model m = tethered({0.5f, 0.2f, 0}, 1.0f);
    Simulation sim(m);
    sim.set_velocity(0, {3, 1, 2});
    for (int i = 0; i < 300; ++i) {
        sim.step(kFrame);
        ASSERT_LE(length(sim.positions()[0]), 1.0f + 1e-5f) << "frame " << i;
    }
}

TEST(Tether, PendulumKeepsItsTangentialSpeedWhenTheRopePullsTight) {
    // Dropped from rest at (0.8, 0) on a 1 m rope, the body falls 0.6 m and the rope
    // pulls tight at (0.8, -0.6) with v = sqrt(2 g 0.6) straight down. The rope
    // removes the radial part and keeps the tangential part, 0.8 v; from there it
    // swings as a pendulum, passing the bottom at sqrt((0.8 v)^2 + 2 g 0.4).
    const double g = 9.81, v = std::sqrt(2 * g * 0.6);
    const double tangential = 0.8 * v;
    const double at_bottom = std::sqrt(tangential * tangential + 2 * g * 0.4);
    const Model m = tethered({0.8f, 0, 0}, 1.0f);
    Simulation sim(m);
    double before = 0.0, after = 0.0, bottom = 0.0;
    bool taut = false;
    for (int i = 0; i < 120 && sim.positions()[0].x > 0.0f; ++i) {
        const Vec3 p = sim.positions()[0], vel = sim.velocities()[0];
        sim.step(kFrame);
        if (!taut && length(sim.positions()[0]) > 0.999f) {
            taut = true;
            const Vec3 n = normalized(p);
            before = length(vel - n * dot(vel, n));
            const Vec3 v1 = sim.velocities()[0], n1 = normalized(sim.positions()[0]);
            after = length(v1 - n1 * dot(v1, n1));
            EXPECT_NEAR(dot(v1, n1), 0.0, 1e-3) << "no outward speed left";
        }
        if (taut) bottom = std::max(bottom, static_cast<double>(length(sim.velocities()[0])));
    }
    ASSERT_TRUE(taut);
    EXPECT_NEAR(after, tangential, 0.02 * tangential);
    EXPECT_NEAR(after, before, 0.03 * tangential);  // one frame of gravity between the two
    EXPECT_NEAR(bottom, at_bottom, 0.01 * at_bottom);
}

TEST(Tether, BounceSendsBackItsShareOfTheOutwardSpeed) {
    // Dropped from 0.5 m below the point on a 1 m rope: it arrives at v = sqrt(2 g 0.5)
    // and leaves upward at 0.5 v, rising (0.5 v)^2 / 2g = 0.125 m.
    const Model m = tethered({0, -0.5f, 0}, 1.0f, 0.5f);
    Simulation sim(m);
    bool bounced = false;
    float highest = -1.0f;
    for (int i = 0; i < 60; ++i) {
        sim.step(kFrame);
        if (sim.velocities()[0].y > 0.0f) bounced = true;
        if (bounced) highest = std::max(highest, sim.positions()[0].y);
    }
    ASSERT_TRUE(bounced);
    EXPECT_NEAR(highest + 1.0f, 0.125f, 0.03f * 0.125f);
}

TEST(Bead, SlidesDownARigidInclineAtGSinTheta) {
    Model m = rigid_incline(10, 30.0f);
    m.beads = {{.first = 0, .last = 10, .mass = 0.1f, .start = 0.0f}};
    Simulation sim(m);
    for (int i = 0; i < 60; ++i) sim.step(kFrame);  // 1 s
    const double expected = 0.5 * 9.81 * 0.5;        // s = g sin(30) t^2 / 2 (1 m segments)
    EXPECT_NEAR(sim.bead_places()[0], expected, 0.005 * expected);
    const Vec3 p = sim.bead_positions()[0];
    EXPECT_NEAR(p.y, -expected * 0.5, 0.005 * expected);
}

TEST(Bead, FrictionLimitsItsSpeedToMGSinThetaOverC) {
    Model m = rigid_incline(40, 30.0f);
    m.beads = {{.first = 0, .last = 40, .mass = 0.1f, .start = 0.0f, .friction = 0.1f}};
    Simulation sim(m);
    for (int i = 0; i < 300; ++i) sim.step(kFrame);  // 5 s = 5 time constants M / c
    const float place = sim.bead_places()[0];
    sim.step(kFrame);
    const double speed = (sim.bead_places()[0] - place) / kFrame;
    const double terminal = 0.1 * 9.81 * 0.5 / 0.1 * (1.0 - std::exp(-5.0));
    EXPECT_NEAR(speed, terminal, 0.01 * terminal);
}

TEST(Bead, StopsAtTheEndOfItsChain) {
    Model m = rigid_incline(3, 45.0f);
    m.beads = {{.first = 0, .last = 3, .mass = 1.0f, .start = 1.5f}};
    Simulation sim(m);
    for (int i = 0; i < 120; ++i) sim.step(kFrame);
    EXPECT_FLOAT_EQ(sim.bead_places()[0], 3.0f);
    EXPECT_EQ(sim.bead_positions()[0], sim.positions()[3]);
}

TEST(Bead, StaysPutOnALevelRope) {
    Model m = rigid_incline(4, 0.0f);
    m.beads = {{.first = 0, .last = 4, .mass = 1.0f, .start = 2.25f}};
    Simulation sim(m);
    for (int i = 0; i < 60; ++i) sim.step(kFrame);
    EXPECT_FLOAT_EQ(sim.bead_places()[0], 2.25f);
}

TEST(ConstantForce, AcceleratesAFreeNodeByFOverMEveryStep) {
    Model m;
    m.params.energy_loss = 1.0f;
    m.params.gravity = {0, 0, 0};
    m.params.mass = 0.5f;
    m.positions = {{0, 0, 0}};
    m.constant_forces = {{.node = 0, .force = {0, 2, 0}}};  // 4 m/s^2
    Simulation sim(m);
    for (int i = 0; i < 60; ++i) sim.step(kFrame);
    EXPECT_NEAR(sim.velocities()[0].y, 4.0, 1e-3);
    EXPECT_NEAR(sim.positions()[0].y, 0.5 * 4.0 + 0.5 * 4.0 * 0.002, 1e-3);  // symplectic Euler
}

TEST(Gust, WindRisesAndFallsAsSineSquaredOncePerPeriod) {
    Parameters p;
    p.wind = {1, 0, 0};
    p.gust = {.velocity = {0, 0, 4}, .period = 3.0f, .duration = 1.0f, .start = 0.5f};
    EXPECT_EQ(wind_at(p, 0.25), p.wind);
    EXPECT_NEAR(wind_at(p, 1.0).z, 4.0f, 1e-5);          // middle of the first gust
    EXPECT_NEAR(wind_at(p, 0.75).z, 2.0f, 1e-5);         // sin^2(pi/4) = 1/2
    EXPECT_EQ(wind_at(p, 2.0), p.wind);                  // calm between gusts
    EXPECT_NEAR(wind_at(p, 4.0).z, 4.0f, 1e-5);          // the next gust, one period on
    EXPECT_FLOAT_EQ(wind_at(p, 4.0).x, 1.0f);
}

TEST(Gust, DragsAFreeNodeTowardsTheGustingAir) {
    Model m;
    m.params.energy_loss = 1.0f;
    m.params.gravity = {0, 0, 0};
    m.params.air_friction = 0.5f;
    m.params.gust = {.velocity = {0, 0, 2}, .period = 10.0f, .duration = 2.0f};
    m.positions = {{0, 0, 0}};
    Simulation sim(m);
    for (int i = 0; i < 60; ++i) sim.step(kFrame);  // the gust is at its peak at t = 1 s
    EXPECT_NEAR(sim.current_wind().z, 2.0f, 0.01f);  // read at the start of the last frame
    EXPECT_GT(sim.velocities()[0].z, 0.1f);
    for (int i = 0; i < 540; ++i) sim.step(kFrame);  // calm again at t = 10 s
    EXPECT_EQ(sim.current_wind(), Vec3{});
}

TEST(AttachmentsFile, SaveThenLoadKeepsEveryAttachment) {
    Model m = make_string({.nodes = 6});
    m.params.gust = {.velocity = {0, 0, 3}, .period = 4.0f, .duration = 1.5f, .start = 0.25f};
    m.constant_forces = {{.node = 2, .force = {0, 0.7f, 0}}};
    m.tethers = {{.node = 5, .point = {1, 2, 3}, .length = 1.5f, .bounce = 0.5f}};
    m.beads = {{.first = 0, .last = 5, .mass = 0.3f, .start = 1.25f, .friction = 0.01f}};
    m.tubes = {{.nodes = {0, 1, 2, 3, 4, 5}, .radius = 0.02f, .sides = 6, .subdivisions = 3}};
    EXPECT_EQ(model_from_json(model_to_json(m)), m);
}

TEST(AttachmentsFile, ModelWithoutThemLoadsAndSavesAsBefore) {
    const Model m = model_from_json(R"({"format": "springkit", "version": 1,
        "positions": [0,0,0, 1,0,0], "springs": {"pairs": [0, 1], "rest": [1]}})");
    EXPECT_TRUE(m.constant_forces.empty() && m.tethers.empty() && m.beads.empty() && m.tubes.empty());
    EXPECT_EQ(m.params.gust, Gust{});
    const std::string text = model_to_json(m);
    for (const char* key : {"gust", "constant_forces", "tethers", "beads", "tubes"})
        EXPECT_EQ(text.find(key), std::string::npos) << key;
}

TEST(AttachmentsFile, BadAttachmentsAreRefusedWithTheirPlace) {
    const std::string head = R"({"format": "springkit", "version": 1, "positions": [0,0,0, 1,0,0, 2,0,0], )";
    EXPECT_EQ(load_error(head + R"("tethers": [{"node": 1, "point": [0,0,0], "length": 0}]})"),
              "bad.json: /tethers/0/length: rope length must be > 0 m (got 0)");
    EXPECT_EQ(load_error(head + R"("tethers": [{"node": 1, "point": [0,0,0]}]})"),
              "bad.json: /tethers/0: missing field \"length\"");
    EXPECT_EQ(load_error(head + R"("beads": [{"first": 2, "last": 1, "mass": 1}]})"),
              "bad.json: /beads/0: first node 2 must be below last node 1");
    EXPECT_EQ(load_error(head + R"("beads": [{"first": 0, "last": 2, "mass": 1, "start": 3}]})"),
              "bad.json: /beads/0/start: must be between 0 and 2 segments (got 3)");
    EXPECT_EQ(load_error(head + R"("tubes": [{"nodes": [0, 7]}]})"),
              "bad.json: /tubes/0/nodes/1: node index 7 out of range (model has 3 nodes)");
    EXPECT_EQ(load_error(head + R"("tubes": [{"nodes": [1]}]})"),
              "bad.json: /tubes/0/nodes: a tube needs a path of at least 2 nodes");
    EXPECT_EQ(load_error(head + R"("tubes": [{"nodes": [0, 2], "sides": 2}]})"),
              "bad.json: /tubes/0/sides: must be between 3 and 64 (got 2)");
    EXPECT_EQ(load_error(head + R"("constant_forces": [{"node": 3, "force": [0,1,0]}]})"),
              "bad.json: /constant_forces/0/node: node index 3 out of range (model has 3 nodes)");
    EXPECT_EQ(load_error(head + R"("parameters": {"gust": {"period": 1, "duration": 2}}})"),
              "bad.json: /parameters/gust/duration: must be in (0, period] (got 2 for a period of 1 s)");
}

TEST(CarryState, UnchangedModelStepsOnBitForBitAsTheRunningSimulation) {
    for (const Integrator integrator : {Integrator::symplectic_euler, Integrator::verlet}) {
        SCOPED_TRACE(integrator_name(integrator));
        Model m = jump_rope_with_bead_in_gusts();
        m.params.integrator = integrator;
        Simulation running(m);
        for (int i = 0; i < 41; ++i) running.step(kFrame);  // t = 0.68 s: in the first gust
        running.set_anchor_circle(0, 0.3f, 9.0f);
        running.set_anchor_circle(1, 0.2f, -7.0f);
        running.apply_force(20, {0, 0, 0.5f});
        ASSERT_NE(running.current_wind(), m.params.wind);
        const Model copy = m;
        Simulation carried(copy, {.threads = 2});  // results do not depend on the thread count
        carried.carry_state_from(running);
        EXPECT_EQ(carried.time(), running.time());
        EXPECT_EQ(carried.substeps_taken(), running.substeps_taken());
        for (int i = 0; i < 90; ++i) {
            running.step(kFrame);
            carried.step(kFrame);
            ASSERT_EQ(positions_of(carried), positions_of(running)) << "frame " << i;
            ASSERT_EQ(carried.bead_places()[0], running.bead_places()[0]) << "frame " << i;
        }
    }
}

TEST(CarryState, EditOfKKeepsTheBeadsPlaceTheTimeAndTheCirclesPhaseRadiusAndSpeed) {
    const Model m = jump_rope_with_bead_in_gusts();
    Simulation running(m);
    for (int i = 0; i < 41; ++i) running.step(kFrame);
    running.set_anchor_circle(0, 0.3f, 9.0f);
    running.step(kFrame);
    ASSERT_NE(running.bead_places()[0], m.beads[0].start);
    Model stiffer = m;
    stiffer.params.k *= 1.5f;
    Simulation carried(stiffer);
    carried.carry_state_from(running);
    EXPECT_EQ(carried.time(), running.time());
    EXPECT_EQ(carried.bead_places()[0], running.bead_places()[0]);
    EXPECT_EQ(carried.bead_positions()[0], running.bead_positions()[0]);
    EXPECT_EQ(carried.anchor_circle_radius(0), running.anchor_circle_radius(0));
    EXPECT_EQ(carried.anchor_angular_speed(0), 9.0f);
    // The drive and the air depend on the time alone, not on k: one frame on, the
    // turning end is at the same point of its circle and the same gust blows.
    running.step(kFrame);
    carried.step(kFrame);
    const std::uint32_t end = m.anchors[0].node;
    EXPECT_EQ(carried.positions()[end], running.positions()[end]);
    EXPECT_EQ(carried.current_wind(), running.current_wind());
}

TEST(CarryState, VelocityDriveKeepsTheVelocitySetWhileItRuns) {
    const Model m = make_sample("tunca-rope");
    ASSERT_EQ(m.anchors[0].drive, AnchorDrive::velocity);
    Simulation running(m);
    running.set_anchor_velocity(0, {1, 0, 0.5f});
    for (int i = 0; i < 20; ++i) running.step(kFrame);
    Model heavier = m;
    heavier.params.mass *= 2.0f;
    Simulation carried(heavier);
    carried.carry_state_from(running);
    for (int i = 0; i < 20; ++i) {
        running.step(kFrame);
        carried.step(kFrame);
    }
    EXPECT_EQ(carried.positions()[m.anchors[0].node], running.positions()[m.anchors[0].node]);
}

TEST(CarryState, DriveValueChangedByTheEditWinsAndThePhaseStays) {
    const Model m = jump_rope_with_bead_in_gusts();
    Simulation running(m);
    for (int i = 0; i < 30; ++i) running.step(kFrame);
    running.set_anchor_circle(0, 0.3f, 9.0f);
    running.set_anchor_circle(1, 0.3f, 9.0f);
    running.step(kFrame);
    Model faster = m;
    faster.anchors[0].angular_speed = 20.0f;
    Simulation carried(faster);
    carried.carry_state_from(running);
    EXPECT_EQ(carried.anchor_angular_speed(0), 20.0f);
    EXPECT_EQ(carried.anchor_angular_speed(1), 9.0f);  // this end's model value is unchanged
    EXPECT_EQ(carried.anchor_circle_radius(0), running.anchor_circle_radius(0));
    // From the same point of its circle, 20/9 times as far round in one frame.
    const Anchor& a = m.anchors[0];
    const Vec3 from = running.positions()[a.node] - a.center;
    running.step(kFrame);
    carried.step(kFrame);
    const Vec3 slow = running.positions()[a.node] - a.center, fast = carried.positions()[a.node] - a.center;
    const float slow_turn = std::atan2(length(cross(from, slow)), dot(from, slow));
    const float fast_turn = std::atan2(length(cross(from, fast)), dot(from, fast));
    EXPECT_NEAR(slow_turn, 9.0f * kFrame, 1e-4f);
    EXPECT_NEAR(fast_turn, 20.0f * kFrame, 1e-4f);
}

TEST(CarryState, AnchorsAreMatchedByTheirNodeNotTheirIndex) {
    Model m = jump_rope_with_bead_in_gusts();
    m.anchors.insert(m.anchors.begin(), Anchor{.node = 30});  // removed by the edit below
    Simulation running(m);
    for (int i = 0; i < 30; ++i) running.step(kFrame);
    running.set_anchor_circle(1, 0.3f, 9.0f);
    Model edited = m;
    edited.anchors.erase(edited.anchors.begin());
    ASSERT_EQ(edited.anchors[0].node, m.anchors[1].node);
    Simulation carried(edited);
    carried.carry_state_from(running);
    EXPECT_EQ(carried.anchor_angular_speed(0), 9.0f);
    EXPECT_EQ(carried.anchor_circle_radius(0), running.anchor_circle_radius(1));
}

TEST(CarryState, BeadsStartAtTheirStartWhenTheBeadCountChanges) {
    const Model m = jump_rope_with_bead_in_gusts();
    Simulation running(m);
    for (int i = 0; i < 30; ++i) running.step(kFrame);
    ASSERT_NE(running.bead_places()[0], m.beads[0].start);
    Model two_beads = m;
    two_beads.beads.push_back({.first = 0, .last = 40, .mass = 0.05f, .start = 30.0f});
    Simulation carried(two_beads);
    carried.carry_state_from(running);
    EXPECT_EQ(carried.bead_places()[0], m.beads[0].start);
    EXPECT_EQ(carried.bead_places()[1], 30.0f);
    EXPECT_EQ(carried.time(), running.time());  // the rest carries over
}

TEST(CarryState, ModelWithOtherNodesIsRefusedAndNothingChanges) {
    const Model m = jump_rope_with_bead_in_gusts();
    Simulation running(m);
    for (int i = 0; i < 10; ++i) running.step(kFrame);
    const Model other = make_string({.nodes = 6});
    Simulation sim(other);
    EXPECT_THROW(sim.carry_state_from(running), Error);
    EXPECT_EQ(sim.time(), 0.0);
    EXPECT_EQ(positions_of(sim), other.positions);
}

TEST(CarryState, FailedSimulationIsRefused) {
    Model m = make_string({.nodes = 6});
    m.params.k = 1e7f;  // k dt^2 / m = 800: explodes at once
    Simulation exploded(m);
    EXPECT_THROW(for (int i = 0; i < 30; ++i) exploded.step(kFrame), SimulationError);
    Simulation sim(m);
    EXPECT_THROW(sim.carry_state_from(exploded), Error);
}
