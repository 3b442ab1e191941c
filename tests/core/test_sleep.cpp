// Sleeping (issue 15, item 9): an instance at rest falls asleep after
// SleepSettings::quiet_time of low kinetic energy, costs nothing while asleep
// (no substep runs, the nodes stay bit for bit), wakes on every call that
// changes its state or settings, and then steps on exactly as an awake
// instance whose velocities were zeroed at the same moment.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "springkit/springkit.hpp"

using namespace springkit;

namespace {

constexpr float kFrame = 1.0f / 60.0f;

/// A string hanging straight down from its anchored first node, released at
/// its rest lengths: it stretches under gravity and settles (energy_loss 0.9).
Model hanging_string() {
    Parameters p;
    p.energy_loss = 0.9f;
    return make_string({.nodes = 8, .length = 1.0f, .start = {0, 2, 0}, .direction = {0, -1, 0}}, p);
}

SimulationOptions sleepy() { return {.sleep = {.enabled = true, .energy_per_kg = 1e-6f, .quiet_time = 0.25f}}; }

/// Steps until the instance falls asleep; the frames it took (-1: not in 1200).
int frames_to_sleep(Simulation& sim) {
    for (int frame = 0; frame < 1200; ++frame) {
        sim.step(kFrame);
        if (sim.asleep()) return frame;
    }
    return -1;
}

bool same_bits(std::span<const Vec3> a, std::span<const Vec3> b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

}  // namespace

TEST(Sleep, OffByDefault) {
    Simulation sim(hanging_string());
    EXPECT_FALSE(sim.sleep_settings().enabled);
    EXPECT_EQ(frames_to_sleep(sim), -1);
}

TEST(Sleep, QuietInstanceSleepsFrozenAndStepsAtNoCost) {
    Simulation sim(hanging_string(), sleepy());
    const int frames = frames_to_sleep(sim);
    ASSERT_GT(frames, 15);  // at least quiet_time (15 frames) of quiet first
    for (const Vec3& v : sim.velocities()) EXPECT_EQ(v, Vec3{});  // zeroed on falling asleep
    const std::vector<Vec3> frozen(sim.positions().begin(), sim.positions().end());
    const std::uint64_t substeps = sim.substeps_taken();
    const double time = sim.time();
    for (int frame = 0; frame < 100; ++frame) {
        const StepResult r = sim.step(kFrame);
        EXPECT_TRUE(r.asleep);
        EXPECT_EQ(r.substeps, 0u);
    }
    EXPECT_EQ(sim.substeps_taken(), substeps);
    EXPECT_DOUBLE_EQ(sim.time(), time + 100.0 * kFrame);
    EXPECT_TRUE(same_bits(sim.positions(), frozen));
    // The hanging string's static stretch is there: the bottom node sits below
    // its rest place (1 m down from the anchor).
    EXPECT_LT(frozen.back().y, 1.0f);
}

TEST(Sleep, WokenInstanceStepsOnAsAnAwakeOneWithZeroedVelocities) {
    Simulation sleeper(hanging_string(), sleepy());
    Simulation awake(hanging_string());
    const int frames = frames_to_sleep(sleeper);
    ASSERT_GE(frames, 0);
    for (int frame = 0; frame <= frames; ++frame) awake.step(kFrame);
    for (std::uint32_t i = 0; i < awake.positions().size(); ++i) awake.set_velocity(i, {});
    ASSERT_TRUE(same_bits(sleeper.positions(), awake.positions()));
    for (int frame = 0; frame < 30; ++frame) sleeper.step(kFrame);  // asleep meanwhile

    // A kick to the bottom node wakes it; both then step the same bits.
    const std::uint32_t bottom = static_cast<std::uint32_t>(awake.positions().size() - 1);
    sleeper.apply_force(bottom, {50.0f, 0.0f, 0.0f});
    awake.apply_force(bottom, {50.0f, 0.0f, 0.0f});
    EXPECT_FALSE(sleeper.asleep());
    const float before = sleeper.positions()[bottom].x;
    for (int frame = 0; frame < 20; ++frame) {
        const StepResult r = sleeper.step(kFrame);
        EXPECT_FALSE(r.asleep) << frame;
        awake.step(kFrame);
        ASSERT_TRUE(same_bits(sleeper.positions(), awake.positions())) << frame;
        ASSERT_TRUE(same_bits(sleeper.velocities(), awake.velocities())) << frame;
    }
    EXPECT_GT(sleeper.positions()[bottom].x, before + 0.01f);  // it swung
}

TEST(Sleep, EveryStateOrSettingChangeWakesIt) {
    const Model m = hanging_string();
    Simulation rested(m, sleepy());
    ASSERT_GE(frames_to_sleep(rested), 0);
    const std::vector<std::byte> state = rested.save_state();
    const std::vector<std::pair<std::string, std::function<void(Simulation&)>>> wakers = {
        {"set_position", [](Simulation& s) { s.set_position(3, s.positions()[3]); }},
        {"set_velocity", [](Simulation& s) { s.set_velocity(3, {}); }},
        {"apply_force", [](Simulation& s) { s.apply_force(3, {1, 0, 0}); }},
        {"add_impulse", [](Simulation& s) { s.add_impulse({0.1f, 0, 0}); }},
        {"add_velocity", [](Simulation& s) { s.add_velocity({0.1f, 0, 0}); }},
        {"set_anchor_position", [](Simulation& s) { s.set_anchor_position(0, {0, 2, 0}); }},
        {"set_anchor_velocity", [](Simulation& s) { s.set_anchor_velocity(0, {}); }},
        {"set_anchor_target", [](Simulation& s) { s.set_anchor_target(0, {0.1f, 2, 0}); }},
        {"teleport", [](Simulation& s) { s.teleport({{1, 0, 0}, {}}, true); }},
        {"set_parameters", [](Simulation& s) { s.set_parameters(s.parameters()); }},
        {"set_stiffness_scale", [](Simulation& s) { s.set_stiffness_scale(2.0f); }},
        {"restore_state", [&](Simulation& s) { s.restore_state(state); }},
        {"reset", [](Simulation& s) { s.reset(); }},
        {"wake", [](Simulation& s) { s.wake(); }},
        {"set_sleep off", [](Simulation& s) { s.set_sleep({}); }},
    };
    for (const auto& [name, wake] : wakers) {
        Simulation sim = rested;
        ASSERT_TRUE(sim.asleep()) << name;
        wake(sim);
        EXPECT_FALSE(sim.asleep()) << name;
        EXPECT_FALSE(sim.step(kFrame).asleep) << name;
    }
}

TEST(Sleep, MovingDriveKeepsItAwake) {
    Model m = hanging_string();
    m.anchors[0].drive = AnchorDrive::velocity;
    m.anchors[0].velocity = {1e-4f, 0.0f, 0.0f};  // slow, but the body must follow
    Simulation sim(m, sleepy());
    EXPECT_EQ(frames_to_sleep(sim), -1);
}

TEST(Sleep, BadSettingsAreRefused) {
    Simulation sim(hanging_string());
    try {
        sim.set_sleep({.enabled = true, .energy_per_kg = -1.0f});
        FAIL() << "expected an Error";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "SleepSettings: energy_per_kg must be finite and >= 0 J/kg (got -1.000000)");
    }
    EXPECT_THROW(Simulation(hanging_string(), {.sleep = {.enabled = true, .quiet_time = std::nanf("")}}), Error);
    EXPECT_FALSE(sim.sleep_settings().enabled);  // unchanged
}
