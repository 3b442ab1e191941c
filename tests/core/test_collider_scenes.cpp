// The scenes with colliders (collider_scenes.hpp) against their known answers,
// tunnelling at game speeds, restitution, pressure.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>

#include "springkit/springkit.hpp"

using namespace springkit;

namespace {

constexpr float kFrame = 1.0f / 60.0f;

// Steps a scene for `seconds` at 60 Hz, moving its colliders before each step
// and calling `each` after it.
void run(const ColliderScene& scene, Simulation& sim, float seconds, auto&& each) {
    const int frames = static_cast<int>(std::lround(seconds / kFrame));
    for (int f = 0; f < frames; ++f) {
        if (scene.drive) scene.drive(*scene.colliders, sim.time(), kFrame);
        sim.step(kFrame);
        each(sim);
    }
}

// The lowest signed distance of any node from any collider of the scene, less r.
float deepest(const ColliderScene& scene, const Simulation& sim) {
    float lowest = 1e30f;
    for (ColliderId c = 0; c < scene.colliders->size(); ++c)
        for (const Vec3& p : sim.positions())
            lowest = std::min(lowest, distance((*scene.colliders)[c], p).distance - sim.parameters().node_radius);
    return lowest;
}

double enclosed_volume(const Model& m, std::span<const Vec3> x) {
    double six = 0.0;
    for (const Face& f : m.faces) six += dot(x[f.node[0]], cross(x[f.node[1]], x[f.node[2]]));
    return six / 6.0;
}

}  // namespace

TEST(ColliderScenes, ClothRestsOnTheSphereAtRadiusPlusNodeRadius) {
    const ColliderScene scene = cloth_over_sphere(33);
    Simulation sim(scene.model);
    sim.set_colliders(scene.colliders);
    float worst = 0.0f;
    run(scene, sim, 10.0f, [&](const Simulation& s) { worst = std::min(worst, deepest(scene, s)); });
    // The centre node of the 33 x 33 grid lies on top of the sphere.
    const Vec3 top = sim.positions()[16 * 33 + 16];
    EXPECT_NEAR(top.y, 0.5f + 0.01f, 1e-3f);
    EXPECT_NEAR(top.x, 0.0f, 1e-3f);
    EXPECT_GT(worst, -1e-4f);  // no node ever inside the sphere (by more than 0.1 mm)
    // At rest without jitter: the kinetic energy (of 33 kg of cloth, 160 J
    // released in the fall) has decayed below 20 uJ and keeps decaying.
    const double settled = sim.kinetic_energy();
    EXPECT_LT(settled, 2e-5);
    double highest = 0.0;
    run(scene, sim, 2.0f, [&](const Simulation& s) { highest = std::max(highest, s.kinetic_energy()); });
    EXPECT_LT(highest, 2e-5);
    EXPECT_LT(sim.kinetic_energy(), settled);
}

TEST(ColliderScenes, ThreadCountsStepToTheSameBits) {
    const ColliderScene scene = cloth_over_sphere(33);
    Simulation one(scene.model), three(scene.model, {.threads = 3});
    one.set_colliders(scene.colliders);
    three.set_colliders(scene.colliders);
    for (int f = 0; f < 40; ++f) {
        one.step(kFrame);
        three.step(kFrame);
    }
    ASSERT_EQ(one.positions().size(), three.positions().size());
    EXPECT_EQ(0, std::memcmp(one.positions().data(), three.positions().data(), one.positions().size_bytes()));
    ASSERT_EQ(one.contacts().size(), three.contacts().size());
}

TEST(ColliderScenes, ResetAfterARunawayStepsAsAFreshInstance) {
    // A step that throws (a runaway) ends before its contact report; reset()
    // must not let what it gathered, or its time into the frame, leak on.
    const ColliderScene scene = jelly_and_paddle();
    Simulation fresh(scene.model), failed(scene.model);
    failed.set_colliders(scene.colliders);
    run(scene, failed, 0.1f, [](const Simulation&) {});
    failed.set_velocity(0, {1e6f, 0.0f, 0.0f});
    EXPECT_THROW(failed.step(kFrame), SimulationError);
    failed.reset();
    EXPECT_TRUE(failed.contacts().empty());
    const ColliderScene again = jelly_and_paddle();  // the paddle back at its start
    fresh.set_colliders(again.colliders);
    failed.set_colliders(again.colliders);
    for (int f = 0; f < 12; ++f) {
        again.drive(*again.colliders, fresh.time(), kFrame);
        fresh.step(kFrame);
        failed.step(kFrame);
        ASSERT_EQ(fresh.contacts().size(), failed.contacts().size()) << f;
    }
    EXPECT_EQ(0, std::memcmp(fresh.positions().data(), failed.positions().data(), fresh.positions().size_bytes()));
    EXPECT_FALSE(fresh.contacts().empty());
}

TEST(ColliderScenes, NoTunnellingThroughAThinBoxAt30MetresPerSecond) {
    // The speed bound: a node crosses at most |v| dt per substep, and the
    // contact stage tests that whole way, so no speed tunnels; 30 m/s against a
    // 1 cm box with substeps of 2 ms (6 cm a substep) and 10 ms (30 cm).
    for (const float substep : {0.002f, 0.01f}) {
        for (const bool mesh : {false, true}) {
            Model m;
            m.positions = {{-0.5f, 0.0f, 0.0f}};
            m.params.gravity = {};
            m.params.energy_loss = 1.0f;
            m.params.max_substep = substep;
            Simulation sim(m);
            sim.set_velocity(0, {30.0f, 0.3f, 0.0f});
            auto set = std::make_shared<ColliderSet>();
            if (mesh) {
                // A two-sided square wall at x = 0.
                set->add(mesh_collider(make_triangle_mesh({{0, -1, -1}, {0, 1, -1}, {0, 1, 1}, {0, -1, 1}},
                                                          {{{0, 1, 2}}, {{0, 2, 3}}})));
            } else {
                set->add(box_collider({0.005f, 1.0f, 1.0f}));
            }
            sim.set_colliders(set);
            for (int f = 0; f < 12; ++f) {
                sim.step(kFrame);
                EXPECT_LE(sim.positions()[0].x, mesh ? -0.9e-4f : -0.005f + 1e-6f) << substep << " " << mesh << " frame " << f;
            }
            EXPECT_LE(sim.velocities()[0].x, 0.0f);
        }
    }
}

TEST(ColliderScenes, RestitutionSetsTheReboundHeight) {
    // Dropped from 1 m with restitution e: it leaves at e times its speed and
    // rises to e^2 m.
    Model m;
    m.positions = {{0.0f, 1.0f, 0.0f}};
    m.params.energy_loss = 1.0f;
    m.params.max_substep = 0.0005f;
    Simulation sim(m);
    auto set = std::make_shared<ColliderSet>();
    Collider floor = plane_collider({0, 1, 0}, 0.0f);
    floor.restitution = 0.5f;
    set->add(floor);
    sim.set_colliders(set);
    float apex = 0.0f;
    bool bounced = false;
    for (int f = 0; f < 300; ++f) {
        sim.step(kFrame / 4);
        bounced = bounced || sim.velocities()[0].y > 0.0f;
        if (bounced) apex = std::max(apex, sim.positions()[0].y);
    }
    EXPECT_NEAR(apex, 0.25f, 0.01f);
}

TEST(ColliderScenes, PaddleThrowsTheJellyAndMomentumBalances) {
    const ColliderScene scene = jelly_and_paddle();
    Simulation sim(scene.model);
    sim.set_colliders(scene.colliders);
    Vec3 paddle_impulse{};
    float worst = 0.0f;
    run(scene, sim, 0.6f, [&](const Simulation& s) {
        for (const Contact& c : s.contacts())
            if (c.collider == 0) paddle_impulse += c.impulse;
        for (const Vec3& p : s.positions()) worst = std::min(worst, distance((*scene.colliders)[0], p).distance);
    });
    EXPECT_GT(worst, -1e-4f);  // no node ever inside the paddle (by more than 0.1 mm)
    // The floor is frictionless: along x only the paddle pushes, so the jelly's
    // momentum is the paddle's impulse (springs are internal).
    const Vec3 momentum = sim.linear_momentum();
    EXPECT_NEAR(momentum.x, paddle_impulse.x, 1e-4f * std::abs(paddle_impulse.x));
    // Thrown: at least the paddle's 3 m/s.
    EXPECT_GT(momentum.x / sim.total_mass(), 3.0f);
}

TEST(ColliderScenes, JellyTumblesDownTheStairsWithoutEnteringThem) {
    const ColliderScene scene = jelly_down_stairs();
    Simulation sim(scene.model);
    sim.set_colliders(scene.colliders);
    sim.add_velocity({2.5f, 0.0f, 0.0f});
    float worst = 0.0f;
    run(scene, sim, 3.0f, [&](const Simulation& s) {
        for (const Vec3& p : s.positions()) worst = std::min(worst, p.y - staircase_height(p.x));
    });
    EXPECT_GT(worst, -1e-3f);
    EXPECT_LT(sim.center_of_mass().y, 0.5f);  // it went down
}

TEST(ColliderScenes, RopeHangsOverTheCapsule) {
    const ColliderScene scene = rope_over_capsule();
    Simulation sim(scene.model);
    sim.set_colliders(scene.colliders);
    float worst = 0.0f;
    run(scene, sim, 4.0f, [&](const Simulation& s) { worst = std::min(worst, deepest(scene, s)); });
    EXPECT_NEAR(sim.positions()[20].y, 1.0f + 0.1f + 0.005f, 1e-3f);
    EXPECT_GT(worst, -1e-4f);
}

TEST(Pressure, RefusedWithoutAClosedMesh) {
    Parameters p;
    p.pressure = 10.0f;
    Model cloth = make_cloth({.columns = 3, .rows = 3}, p);
    try {
        validate(cloth);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("/parameters/pressure: pressure needs a closed face mesh: face"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("belongs to no other face (the mesh has a hole)"), std::string::npos);
    }
    Simulation ball(make_gas_ball());
    Parameters on = ball.parameters();
    on.pressure = 1.0f;
    ball.set_parameters(on);  // a closed ball takes it
    Simulation flat(make_cloth({.columns = 3, .rows = 3}));
    Parameters off = flat.parameters();
    off.pressure = 1.0f;
    EXPECT_THROW(flat.set_parameters(off), Error);
}

TEST(Pressure, EnergyIsConservedWithoutDissipation) {
    // No gravity, damping or energy loss: kinetic + springs - pressure ln V stays.
    Parameters p;
    p.gravity = {};
    p.energy_loss = 1.0f;
    p.k = 400.0f;
    p.mass = 0.002f;
    p.pressure = 50.0f;
    // Symplectic Euler keeps a nearby energy: its error is O(dt), so halving
    // the substep halves the drift; what is left is the integrator's, not a
    // force that is not the potential's gradient.
    double drifts[2] = {0.0, 0.0};
    for (int run = 0; run < 2; ++run) {
        p.max_substep = run == 0 ? 1e-4f : 5e-5f;
        const Model ball = make_gas_ball({}, p);
        Simulation sim(ball);
        auto energy = [&] {
            return sim.kinetic_energy() + sim.potential_energy() -
                   p.pressure * std::log(enclosed_volume(ball, sim.positions()));
        };
        const double e0 = energy();
        double highest_kinetic = 0.0;
        for (int f = 0; f < 60; ++f) {
            sim.step(kFrame);
            drifts[run] = std::max(drifts[run], std::abs(energy() - e0));
            highest_kinetic = std::max(highest_kinetic, sim.kinetic_energy());
        }
        EXPECT_GT(highest_kinetic, 0.1);  // the gas did work: the ball swelled
        drifts[run] /= highest_kinetic;
    }
    EXPECT_LT(drifts[1], 0.6 * drifts[0]);
    EXPECT_LT(drifts[1], 0.015);
}

TEST(Pressure, BalloonKeepsItsVolumeUnderWeightAndSqueezed) {
    // 1 kPa in a 0.3 m ball of springs: under its own weight on the floor it
    // holds 1.00-1.06 V0 (the gas stretches the envelope a little); squeezed
    // to 0.4 m wide between two boxes it still holds over 0.9 V0 (Boyle: the
    // pressure rises as much as the volume falls, some 10%).
    const ColliderScene scene = balloon_between_boxes();
    Simulation sim(scene.model);
    sim.set_colliders(scene.colliders);
    const double v0 = enclosed_volume(scene.model, scene.model.positions);
    double low = v0, high = v0;
    float worst = 0.0f;
    run(scene, sim, 1.5f, [&](const Simulation& s) {
        const double v = enclosed_volume(scene.model, s.positions());
        low = std::min(low, v);
        high = std::max(high, v);
    });
    EXPECT_GE(low, v0);
    EXPECT_LT(high, 1.06 * v0);
    low = high = enclosed_volume(scene.model, sim.positions());
    run(scene, sim, 2.0f, [&](const Simulation& s) {
        const double v = enclosed_volume(scene.model, s.positions());
        low = std::min(low, v);
        high = std::max(high, v);
        worst = std::min(worst, deepest(scene, s));
    });
    EXPECT_GT(low, 0.9 * v0);
    EXPECT_LT(high, 1.06 * v0);
    EXPECT_GT(worst, -1e-4f);  // no node inside a box or the floor
    const Bounds b = sim.bounds();
    EXPECT_NEAR(b.max.x - b.min.x, 0.4f - 2 * 0.005f, 1e-3f);  // squeezed: between the boxes, less the node radius
}
