// Simulation guard (docs/RELIABILITY.md): a model made to explode on purpose stops
// with an error naming the node and spring that blew up and what to change; the
// stability warning comes near the step's limit and names the stiffest spring;
// lively but stable models never trip it.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>

#include "springkit/springkit.hpp"

using namespace springkit;

namespace {

// A soft string (nodes 0-9, springs 0-8, node 0 anchored) and, apart from it, one
// far too stiff spring 9 from anchored node 10 to free node 11: k dt^2/m =
// 1e6 * 0.002^2 / 0.05 = 80, far past Garrido's limit of 0.5.
Model string_with_one_stiff_spring() {
    Model m = make_string({.nodes = 10});
    m.positions.push_back({0, 5, 0});
    m.positions.push_back({0, 4, 0});
    m.springs.push_back({10, 11, 1.0f, 1.0e6f});
    m.anchors.push_back({.node = 10});
    return m;
}

}  // namespace

TEST(Guard, ModelMadeToExplodeNamesTheNodeAndSpringThatBlewUp) {
    const Model m = string_with_one_stiff_spring();
    Simulation sim(m);
    std::string error;
    try {
        for (int frame = 0; frame < 60; ++frame) sim.step(1.0f / 60.0f);
    } catch (const SimulationError& e) {
        error = e.what();
    }
    // The runaway is caught on the first frame, while the numbers are still finite.
    EXPECT_EQ(error.rfind("simulation exploded at t = 0.0166667 s: node 11 runs away (speed above the model's bound); "
                          "its stiffest spring 9 (nodes 10-11, k = 1e+06 N/m) has k dt^2/m = 80",
                          0),
              0u)
        << error;
    EXPECT_NE(error.find("; use a smaller max_substep or a lower k"), std::string::npos) << error;
    EXPECT_THROW(sim.step(1.0f / 60.0f), SimulationError);  // stays failed until reset()
}

TEST(Guard, ImplicitRunawayDoesNotBlameTheSprings) {
    // The implicit step is stable for any k: a runaway there was driven from
    // outside (here a velocity set on a node), and a smaller substep or a
    // lower k is no advice.
    Model m = string_with_one_stiff_spring();
    m.params.integrator = Integrator::implicit;
    m.params.max_substep = 1.0f / 60.0f;
    Simulation sim(m);
    sim.step(1.0f / 60.0f);
    sim.set_velocity(11, {1e9f, 0.0f, 0.0f});
    std::string error;
    try {
        sim.step(1.0f / 60.0f);
    } catch (const SimulationError& e) {
        error = e.what();
    }
    EXPECT_EQ(error.rfind("simulation exploded at t = 0.0333333 s: node 11 runs away (speed above the model's bound); "
                          "the implicit integrator is stable for any k, so something drove the node",
                          0),
              0u)
        << error;
    EXPECT_EQ(error.find("lower k"), std::string::npos) << error;
}

TEST(Guard, NonFiniteStateIsNamedAsSuch) {
    // An external force of 1e38 N on a 50 g node overflows float on the first substep.
    Model m = make_string({.nodes = 4});
    Simulation sim(m);
    sim.apply_force(2, {3.0e38f, 0, 0});
    try {
        sim.step(1.0f / 60.0f);
        FAIL() << "expected a SimulationError";
    } catch (const SimulationError& e) {
        EXPECT_NE(std::string(e.what()).find("has a non-finite position or velocity"), std::string::npos) << e.what();
    }
}

// The warning follows the step's own limit (dt * omega_max against 2 for
// symplectic Euler), from 90% of it on, and names the spring of the highest
// k dt^2/m; Garrido's k dt^2/m alone does not warn.
TEST(Guard, StabilityWarningIsGivenNearTheStepsLimitNamingTheStiffestSpring) {
    // The stiff spring alone: omega dt = sqrt(80) = 8.94.
    EXPECT_EQ(stability_warning(string_with_one_stiff_spring()),
              "dt * omega_max = 8.94 is at or above 2, the stability limit of symplectic_euler: the model will "
              "explode; use a smaller max_substep or a lower k (the stiffest spring for its mass: spring 9 (nodes "
              "10-11), k dt^2/m = 80)");
    // 1000 N/m, 0.05 kg, 2 ms: 0.08, no warning.
    EXPECT_EQ(stability_warning(make_string()), "");
    // One node hanging on a spring from an anchor: omega dt = sqrt(k dt^2 / m),
    // warned of from 0.9 x 2 = 1.8, k dt^2/m = 3.24 (k = 40500 N/m).
    Parameters p;
    p.spring_damping = 0.0f;  // the springs alone (damping takes from the same budget: below)
    p.k = 41000.0f;  // k dt^2/m 3.28, omega dt 1.81
    EXPECT_EQ(stability_warning(make_string({.nodes = 2}, p)),
              "dt * omega_max = 1.81 is near 2, the stability limit of symplectic_euler (warned of from 1.8): pulled "
              "far from rest, the model may explode; use a smaller max_substep or a lower k (the stiffest spring for "
              "its mass: spring 0 (nodes 0-1), k dt^2/m = 3.28)");
    p.k = 40000.0f;  // 3.2, 1.79
    EXPECT_EQ(stability_warning(make_string({.nodes = 2}, p)), "");
    // Tunca's rope: k dt^2/m 0.8 at every spring (Garrido's 0.3 warned of it),
    // its highest mode 1.79, 3.26 with its damping, and it runs calm
    // (EditingSamples.*).
    const Model rope = make_sample("tunca-rope");
    EXPECT_NEAR(stability_estimate(rope).worst, 0.8, 1e-6);
    EXPECT_NEAR(frequency_stability(rope).omega_dt, 1.79, 0.005);
    EXPECT_NEAR(frequency_stability(rope).damped, 3.26, 0.005);
    EXPECT_EQ(stability_warning(rope), "");
}

TEST(Guard, SmallerSubstepAsSuggestedMakesTheSameModelStable) {
    Model m = string_with_one_stiff_spring();
    m.params.max_substep = 1.0e-5f;  // k dt^2/m = 0.002
    EXPECT_EQ(stability_warning(m), "");
    Simulation sim(m);
    for (int frame = 0; frame < 30; ++frame) sim.step(1.0f / 60.0f);
    for (const Vec3& p : sim.positions()) EXPECT_TRUE(is_finite(p));
}

TEST(Guard, LivelyButStableModelsNeverTripIt) {
    // Every sample with one node yanked by a tenth of the model's size (what
    // shape_error does): fast motion, but no blow-up and no false alarm. (Yanked by
    // half their size, the balloon and the flag really do blow up at their own
    // substep and not at a tenth of it: see docs/RELIABILITY.md, known limits.)
    const std::filesystem::path samples = std::filesystem::path(SPRINGKIT_SOURCE_DIR) / "samples/models";
    for (const auto& entry : std::filesystem::directory_iterator(samples)) {
        if (entry.path().extension() != ".json") continue;
        const std::string name = entry.path().stem().string();
        const Model m = load_model(entry.path());
        Simulation sim(m);
        const float tenth = bounds(m).diagonal() * 0.1f;
        sim.set_position(0, m.positions[0] + Vec3{tenth, tenth, 0});
        try {
            for (int frame = 0; frame < 300; ++frame) sim.step(1.0f / 60.0f);
        } catch (const SimulationError& e) {
            ADD_FAILURE() << name << ": " << e.what();
        }
    }
}

namespace {

// n free nodes of mass m in a line along x between two anchored ones, every spring
// k at its rest length 1 m, no gravity or damping: a chain whose highest mode has
// omega^2 = 4 k/m sin^2(n pi / (2 (n + 1))).
Model chain(int n, float k, float m, float dt) {
    Model model;
    model.params.k = k;
    model.params.mass = m;
    model.params.gravity = {0, 0, 0};
    model.params.energy_loss = 1.0f;
    model.params.max_substep = dt;
    for (int i = 0; i <= n + 1; ++i) model.positions.push_back({static_cast<float>(i), 0, 0});
    for (int i = 0; i <= n; ++i)
        model.springs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1), 1.0f});
    model.anchors.push_back({.node = 0});
    model.anchors.push_back({.node = static_cast<std::uint32_t>(n + 1)});
    return model;
}

double chain_omega_max(int n, double k, double m) {
    const double s = std::sin(n * std::numbers::pi / (2.0 * (n + 1)));
    return 2.0 * std::sqrt(k / m) * s;
}

}  // namespace

TEST(Guard, FrequencyOfAMassOnASpringIsTheSquareRootOfKOverM) {
    // Node 1 on a spring from anchored node 0, at its rest length: k/m along the
    // spring, nothing across it.
    Model m = chain(1, 1000.0f, 0.05f, 0.002f);
    m.anchors.pop_back();
    m.springs.pop_back();
    m.positions.pop_back();
    const FrequencyStability f = frequency_stability(m);
    const double expected = std::sqrt(1000.0 / static_cast<double>(0.05f)) * static_cast<double>(0.002f);
    EXPECT_NEAR(f.omega_dt, expected, 1e-9 * expected);
    EXPECT_EQ(f.limit, 2.0);  // symplectic Euler
    EXPECT_FALSE(f.above_limit());
}

TEST(Guard, SpringDampingTakesFromTheSameBudgetAndExplodesPastIt) {
    // One node of 0.05 kg on a spring of k 1000 from an anchor, dt omega = 0.5,
    // with spring damping c: symplectic Euler on x'' = -w^2 x - g x', g = c / m,
    // has determinant 1 - g dt and trace 2 - (w dt)^2 - g dt; it is stable iff
    // (w dt)^2 + 2 g dt < 4. Just below that the nudge dies out; just above it
    // the step explodes, though dt omega is a quarter of its limit of 2.
    const double omega = std::sqrt(1000.0 / 0.05);
    const float dt = static_cast<float>(0.5 / omega);
    for (double target : {3.9, 4.1}) {
        Model m = chain(1, 1000.0f, 0.05f, dt);
        m.anchors.pop_back();
        m.springs.pop_back();
        m.positions.pop_back();
        const double w_dt = omega * static_cast<double>(dt);
        m.params.spring_damping = static_cast<float>((target - w_dt * w_dt) / 2.0 * 0.05 / static_cast<double>(dt));
        const FrequencyStability f = frequency_stability(m);
        EXPECT_NEAR(f.omega_dt, 0.5, 1e-6);
        EXPECT_NEAR(f.damping_dt, static_cast<double>(m.params.spring_damping) / static_cast<double>(0.05f) * dt,
                    1e-9);
        EXPECT_NEAR(f.damped, target, 1e-5);
        EXPECT_EQ(f.above_limit(), target > 4.0);
        // Near the limit (from 0.9 x 4 = 3.6) at 3.9, past it at 4.1.
        EXPECT_EQ(stability_warning(m).rfind(target > 4.0 ? "(dt * omega_max)^2 + 2 dt * damping rate = 4.1 is at or "
                                                             "above 4, the stability limit of symplectic_euler with "
                                                             "spring damping"
                                                           : "(dt * omega_max)^2 + 2 dt * damping rate = 3.9 is near "
                                                             "4, the stability limit of symplectic_euler with spring "
                                                             "damping (warned of from 3.6; ",
                                             0),
                  0u)
            << stability_warning(m);
        Simulation sim(m);
        sim.set_position(1, m.positions[1] + Vec3{1e-3f, 0, 0});
        bool exploded = false;
        float last = 0.0f;
        try {
            for (int substep = 0; substep < 3000; ++substep) sim.step(dt);
            last = std::abs(sim.positions()[1].x - m.positions[1].x);
        } catch (const SimulationError&) {
            exploded = true;
        }
        if (target < 4.0) {
            EXPECT_FALSE(exploded);
            EXPECT_LT(last, 1e-6f);
        } else {
            EXPECT_TRUE(exploded || last > 1.0f) << last;
        }
    }
}

TEST(Guard, FrequencyOfAChainIsItsHighestMode) {
    for (int n : {3, 10, 40}) {
        const FrequencyStability f = frequency_stability(chain(n, 500.0f, 0.02f, 0.001f));
        const double expected = chain_omega_max(n, 500.0, 0.02) * 0.001;
        EXPECT_NEAR(f.omega_dt, expected, 1e-3 * expected) << n << " nodes";
    }
}

TEST(Guard, SymplecticEulerExplodesJustPastTheFrequencyLimitAndNotBelowIt) {
    // The same chain at dt * omega_max = 1.9 and 2.1, every node nudged along the
    // chain: below the limit it swings for ever, above it blows up within a few
    // dozen substeps (the top mode grows 1.9x a substep at 2.1).
    const int n = 10;
    const double omega = chain_omega_max(n, 500.0, 0.02);
    for (double target : {1.9, 2.1}) {
        const Model m = chain(n, 500.0f, 0.02f, static_cast<float>(target / omega));
        const FrequencyStability f = frequency_stability(m);
        EXPECT_NEAR(f.omega_dt, target, 1e-3 * target);
        EXPECT_EQ(f.above_limit(), target > 2.0);
        Simulation sim(m);
        for (std::uint32_t i = 1; i <= n; ++i) sim.set_position(i, m.positions[i] + Vec3{i % 3 == 0 ? 1e-3f : -1e-3f, 0, 0});
        bool exploded = false;
        float largest = 0.0f;
        try {
            for (int substep = 0; substep < 3000; ++substep) {
                sim.step(m.params.max_substep);
                for (std::uint32_t i = 1; i <= n; ++i)
                    largest = std::max(largest, std::abs(sim.positions()[i].x - m.positions[i].x));
            }
        } catch (const SimulationError&) {
            exploded = true;
        }
        if (target < 2.0) {
            EXPECT_FALSE(exploded);
            EXPECT_LT(largest, 0.01f) << "the nudge is 1 mm; energy is kept, so it stays about that size";
        } else {
            EXPECT_TRUE(exploded || largest > 1.0f) << largest;
        }
    }
}

TEST(Guard, ExplicitEulerClothIsWarnedOfAndDoesExplode) {
    // Oliveira's explicit Euler: the cloth sample's k dt^2/m is a harmless 0.08, but
    // explicit Euler grows every mode by sqrt(1 + (omega dt)^2) a substep, far more
    // than the energy loss of 0.99 a frame takes back.
    Model m = make_sample("cloth");
    m.params.integrator = Integrator::explicit_euler;
    const FrequencyStability f = frequency_stability(m);
    EXPECT_NEAR(f.limit, std::sqrt(1.0 / std::pow(0.99, 0.002 * 60.0) - 1.0), 1e-6);
    EXPECT_TRUE(f.above_limit());
    const std::string warning = stability_warning(m);
    EXPECT_EQ(warning.rfind("dt * omega_max = ", 0), 0u) << warning;
    EXPECT_NE(warning.find("the stability limit of explicit_euler: the model will explode; use a smaller "
                           "max_substep or symplectic_euler"),
              std::string::npos)
        << warning;
    Simulation sim(m);
    EXPECT_THROW(
        for (int frame = 0; frame < 600; ++frame) sim.step(1.0f / 60.0f), SimulationError);
    // The same cloth with symplectic Euler is well inside its limit.
    m.params.integrator = Integrator::symplectic_euler;
    EXPECT_LT(frequency_stability(m).omega_dt, 1.0);
    EXPECT_EQ(stability_warning(m), "");
}

TEST(Guard, EverySampleIsBelowItsFrequencyLimit) {
    for (const SampleInfo& info : sample_catalogue()) {
        const FrequencyStability f = frequency_stability(make_sample(info.name));
        EXPECT_FALSE(f.above_limit()) << info.name << ": " << f.omega_dt << " of " << f.limit;
    }
}
