// step() results (issue 15, item 6): what a runaway does under each
// RunawayPolicy, checked on a mass on a spring made unstable on purpose, and
// what the per-frame substep budget drops.
//
// The unstable model: node 1 (m = 1 kg) hangs from anchored node 0 by one
// spring, no gravity, no damping, explicit Euler. Explicit Euler maps
// (x, v) -> (x + v dt, v - w^2 x dt), whose eigenvalues 1 +- i w dt have modulus
// sqrt(1 + (w dt)^2) > 1: it is unstable at any substep without energy loss,
// and with w dt = 1 the amplitude grows by sqrt 2 a substep. Symplectic Euler
// on the same spring is stable for w dt < 2.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "springkit/springkit.hpp"

using namespace springkit;

namespace {

constexpr float kFrame = 1.0f / 60.0f;
constexpr float kSubstep = 1.0f / 600.0f;  // 10 substeps a frame

Model unstable_spring() {
    Model m;
    m.params.gravity = {0.0f, 0.0f, 0.0f};
    m.params.energy_loss = 1.0f;
    m.params.mass = 1.0f;
    m.params.max_substep = kSubstep;
    m.params.integrator = Integrator::explicit_euler;
    // w dt = 1: k = (1 / dt)^2 m.
    const float k = 1.0f / (kSubstep * kSubstep);
    m.positions = {{0.0f, 0.0f, 0.0f}, {0.0f, -1.0f, 0.0f}};
    m.springs = {{0, 1, 1.0f, k}};
    m.anchors = {{.node = 0}};
    return m;
}

/// Made with `policy`, pulled 1 cm off its rest length: it runs away within
/// a few frames.
Simulation pulled(RunawayPolicy policy) {
    Simulation sim(unstable_spring(), {.runaway = policy});
    sim.set_position(1, {0.0f, -1.01f, 0.0f});
    return sim;
}

/// Steps until a frame reports a runaway; returns its index (-1: none in 60).
int frames_until_runaway(Simulation& sim, StepResult& result) {
    for (int frame = 0; frame < 60; ++frame) {
        result = sim.step(kFrame);
        if (result.runaway != RunawayCause::none) return frame;
    }
    return -1;
}

/// The frame the throwing default fails in, and its message.
struct Failure {
    int frame = -1;
    std::string message;
};
Failure thrown_failure() {
    Simulation sim = pulled(RunawayPolicy::throw_error);
    for (int frame = 0; frame < 60; ++frame) {
        try {
            sim.step(kFrame);
        } catch (const SimulationError& e) {
            return {frame, e.what()};
        }
    }
    return {};
}

}  // namespace

TEST(StepResult, SoundFrameIsOkWithItsSubsteps) {
    Model m = make_string({.nodes = 6});
    m.params.max_substep = kSubstep;
    Simulation sim(m);
    const StepResult r = sim.step(kFrame);
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.substeps, 10u);
    EXPECT_EQ(r.dropped_substeps, 0u);
    EXPECT_EQ(r.runaway, RunawayCause::none);
    EXPECT_EQ(r.node, StepResult::kNone);
    EXPECT_FALSE(r.asleep);
    EXPECT_TRUE(sim.failure().empty());
}

TEST(StepResult, ThrowIsTheDefaultAndFailureHoldsItsMessage) {
    const Failure f = thrown_failure();
    ASSERT_GE(f.frame, 1);  // the 1 cm pull needs more than one frame of growth
    EXPECT_NE(f.message.find("node 1 runs away (speed above the model's bound)"), std::string::npos) << f.message;
    EXPECT_NE(f.message.find("its stiffest spring 0 (nodes 0-1"), std::string::npos) << f.message;
    Simulation sim = pulled(RunawayPolicy::throw_error);
    EXPECT_EQ(sim.runaway_policy(), RunawayPolicy::throw_error);
    for (int frame = 0; frame < f.frame; ++frame) EXPECT_TRUE(sim.step(kFrame).ok());
    EXPECT_THROW(sim.step(kFrame), SimulationError);
    EXPECT_EQ(sim.failure(), f.message);
    EXPECT_THROW(sim.step(kFrame), SimulationError);  // until reset()
}

TEST(StepResult, StopFreezesAndReportsTheNodeSpringAndCause) {
    const Failure f = thrown_failure();
    Simulation sim = pulled(RunawayPolicy::stop);
    StepResult r;
    // The same frame as the throwing default: the policy changes nothing before.
    ASSERT_EQ(frames_until_runaway(sim, r), f.frame);
    EXPECT_EQ(r.runaway, RunawayCause::too_fast);  // caught while still finite
    EXPECT_EQ(r.node, 1u);
    EXPECT_EQ(r.spring, 0u);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(sim.failure(), f.message);
    const std::vector<Vec3> frozen(sim.positions().begin(), sim.positions().end());
    const double time = sim.time();
    for (int frame = 0; frame < 3; ++frame) {
        const StepResult later = sim.step(kFrame);
        EXPECT_TRUE(later.stopped);
        EXPECT_EQ(later.substeps, 0u);
        EXPECT_FALSE(later.ok());
    }
    EXPECT_EQ(sim.time(), time);
    EXPECT_EQ(sim.positions()[1], frozen[1]);
    // reset() lifts the stop.
    sim.reset();
    EXPECT_TRUE(sim.step(kFrame).ok());
}

TEST(StepResult, ResetToRestPutsTheRestPoseBack) {
    const Failure f = thrown_failure();
    Simulation sim = pulled(RunawayPolicy::reset_to_rest);
    StepResult r;
    ASSERT_EQ(frames_until_runaway(sim, r), f.frame);
    EXPECT_EQ(r.node, 1u);
    EXPECT_EQ(sim.failure(), f.message);
    EXPECT_EQ(sim.time(), 0.0);
    EXPECT_EQ(sim.substeps_taken(), 0u);
    EXPECT_EQ(sim.positions()[1], (Vec3{0.0f, -1.0f, 0.0f}));
    EXPECT_EQ(sim.velocities()[1], Vec3{});
    // At rest on its rest length the spring has no force: it stays there (up to
    // the rounding of the batched kernel's 1/length, grown 2^5 by a frame).
    EXPECT_TRUE(sim.step(kFrame).ok());
    EXPECT_NEAR(sim.positions()[1].y, -1.0f, 1e-5f);
}

TEST(StepResult, RestoreLastGoodGoesBackToTheFrameStartAndCanStepOn) {
    const Failure f = thrown_failure();
    Simulation sim = pulled(RunawayPolicy::restore_last_good);
    // Step to the frame before the runaway and keep that state.
    for (int frame = 0; frame < f.frame; ++frame) ASSERT_TRUE(sim.step(kFrame).ok());
    const std::vector<std::byte> before = sim.save_state();
    const std::vector<Vec3> x(sim.positions().begin(), sim.positions().end());
    const std::vector<Vec3> v(sim.velocities().begin(), sim.velocities().end());
    const double time = sim.time();
    const StepResult r = sim.step(kFrame);
    EXPECT_EQ(r.runaway, RunawayCause::too_fast);
    EXPECT_EQ(r.node, 1u);
    EXPECT_EQ(sim.failure(), f.message);
    EXPECT_EQ(sim.time(), time);
    EXPECT_EQ(sim.positions()[1], x[1]);
    EXPECT_EQ(sim.velocities()[1], v[1]);
    EXPECT_EQ(sim.save_state(), before);  // everything, bit for bit
    // The same settings run away again; symplectic Euler (stable at w dt = 1 < 2)
    // steps on from the restored state.
    Parameters p = sim.parameters();
    p.integrator = Integrator::symplectic_euler;
    sim.set_parameters(p);
    for (int frame = 0; frame < 60; ++frame) ASSERT_TRUE(sim.step(kFrame).ok()) << frame;
}

TEST(StepResult, SubstepBudgetRunsOnlyTheBudgetAndSaysWhatItDropped) {
    Model m = make_string({.nodes = 8});
    m.params.max_substep = kSubstep;
    Simulation budgeted(m, {.substep_budget = 4});
    EXPECT_EQ(budgeted.substep_budget(), 4u);
    const StepResult r = budgeted.step(kFrame);
    EXPECT_EQ(r.substeps, 4u);
    EXPECT_EQ(r.dropped_substeps, 6u);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(budgeted.substeps_taken(), 4u);
    // Only the substeps run are simulated: 4 of the frame's 10 equal substeps.
    EXPECT_EQ(budgeted.time(), static_cast<double>(kFrame) / 10.0 * 4.0);
    // Each substep is the one the unbudgeted frame would run: the same as a
    // frame of exactly those 4 substeps (4 dt / 4 = dt in binary float).
    const float dt = kFrame / 10.0f;
    Simulation four(m);
    const StepResult whole = four.step(4.0f * dt);
    EXPECT_EQ(whole.substeps, 4u);
    EXPECT_TRUE(whole.ok());
    for (std::size_t i = 0; i < m.node_count(); ++i) {
        EXPECT_EQ(budgeted.positions()[i], four.positions()[i]) << i;
        EXPECT_EQ(budgeted.velocities()[i], four.velocities()[i]) << i;
    }
    // A frame within the budget drops nothing.
    budgeted.set_substep_budget(10);
    const StepResult within = budgeted.step(kFrame);
    EXPECT_EQ(within.substeps, 10u);
    EXPECT_EQ(within.dropped_substeps, 0u);
    EXPECT_TRUE(within.ok());
}
