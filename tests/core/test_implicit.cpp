// Integrator::implicit against known answers: the static stretch of a hanging
// chain, the exact 2x2 map of implicit Euler on a mass and spring, momentum
// conservation of a free body, stability far past the explicit limit, and
// convergence of the local/global iterations to the implicit Euler step
// found here independently (Newton's method, dense Gaussian elimination).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "simulation/global_iteration.hpp"
#include "simulation/implicit_solver.hpp"
#include "springkit/springkit.hpp"

using namespace springkit;

namespace {

constexpr float kFrame = 1.0f / 60.0f;

// Implicit Euler at one step per 1/60 s frame, no losses.
Parameters implicit_params(int iterations) {
    Parameters p;
    p.integrator = Integrator::implicit;
    p.max_substep = kFrame;
    p.implicit_iterations = iterations;
    p.energy_loss = 1.0f;
    return p;
}

// A vertical chain of `nodes` nodes spaced `rest` apart, hanging from node 0.
Model hanging_chain(int nodes, float rest, float k, float mass, int iterations) {
    Model m;
    m.params = implicit_params(iterations);
    m.params.k = k;
    m.params.mass = mass;
    for (int i = 0; i < nodes; ++i) m.positions.push_back({0.0f, -rest * static_cast<float>(i), 0.0f});
    for (int i = 0; i + 1 < nodes; ++i)
        m.springs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1), rest});
    m.anchors = {{.node = 0}};
    return m;
}

// One node on a spring along x from an anchor at the origin, no gravity, one
// iteration a step.
Model mass_on_spring(float k, float mass, float rest, float theta) {
    Model m;
    m.params = implicit_params(1);
    m.params.implicit_theta = theta;
    m.params.gravity = {0, 0, 0};
    m.params.k = k;
    m.params.mass = mass;
    m.positions = {{0, 0, 0}, {rest, 0, 0}};
    m.springs = {{0, 1, rest}};
    m.anchors = {{.node = 0}};
    return m;
}

double spring_length(const Simulation& sim, const Spring& s) {
    const Vec3 d = sim.positions()[s.b] - sim.positions()[s.a];
    return std::sqrt(static_cast<double>(d.x) * d.x + static_cast<double>(d.y) * d.y + static_cast<double>(d.z) * d.z);
}

double max_strain(const Model& m, const Simulation& sim) {
    double worst = 0.0;
    for (const Spring& s : m.springs) worst = std::max(worst, spring_length(sim, s) / s.rest - 1.0);
    return worst;
}

}  // namespace

TEST(Implicit, HangingChainStretchesEachSpringByTheWeightBelowItOverK) {
    // At rest, implicit Euler's minimiser satisfies grad E = M g exactly (y - x
    // = h^2 g): spring i (from the top) carries the nodes below it, so it is
    // rest + (nodes - 1 - i) m g / k long.
    const int nodes = 10;
    const float rest = 0.1f, k = 2000.0f, mass = 0.05f;
    const Model m = hanging_chain(nodes, rest, k, mass, 30);
    Simulation sim(m);
    for (int frame = 0; frame < 600; ++frame) sim.step(kFrame);  // 10 s: implicit Euler damps the bounce
    const double g = 9.81;
    for (int i = 0; i + 1 < nodes; ++i) {
        const double expected = rest + (nodes - 1 - i) * mass * g / k;
        EXPECT_NEAR(spring_length(sim, m.springs[static_cast<std::size_t>(i)]), expected, 2e-6) << "spring " << i;
    }
    EXPECT_LT(sim.kinetic_energy(), 1e-10);
}

TEST(Implicit, MassOnAStiffSpringFollowsTheImplicitEulerMap) {
    // One node on a spring along x, no gravity: the spring never turns, so one
    // local/global iteration is the exact step. Implicit Euler on
    // u'' = -w^2 u (u the stretch): (1 + h^2 w^2) u' = u + h v, v' = (u' - u) / h,
    // whose eigenvalues (1 +- i h w) / (1 + h^2 w^2) give a turn of atan(h w)
    // per step (a period of 2 pi / atan(h w) steps, longer than 2 pi / (h w))
    // and an amplitude shrinking by 1 / sqrt(1 + h^2 w^2) per step.
    const float k = 400.0f, mass = 0.1f, rest = 0.5f, amplitude = 0.05f;
    Simulation sim(mass_on_spring(k, mass, rest, 1.0f));
    sim.set_position(1, {rest + amplitude, 0, 0});
    const double h = kFrame, w2 = k / mass, hw = h * std::sqrt(w2);
    double u = amplitude, v = 0.0;
    const std::complex<double> lambda = std::complex<double>(1.0, hw) / (1.0 + hw * hw);
    for (int step = 1; step <= 120; ++step) {
        sim.step(kFrame);
        const double next = (u + h * v) / (1.0 + h * h * w2);
        v = (next - u) / h;
        u = next;
        ASSERT_NEAR(sim.positions()[1].x - rest, u, 2e-6) << "step " << step;
        ASSERT_NEAR(sim.velocities()[1].x, v, 2e-4) << "step " << step;
    }
    // The closed form: u_n = Re(c lambda^n) with c fitted to u_0 = A, v_0 = 0.
    // From u_1 = A / (1 + h^2 w^2) = Re(c lambda): c = A (1 - i / (h w)).
    const std::complex<double> c = static_cast<double>(amplitude) * std::complex<double>(1.0, -1.0 / hw);
    EXPECT_NEAR(u, (c * std::pow(lambda, 120)).real(), 1e-9);
    EXPECT_NEAR(std::abs(lambda), 1.0 / std::sqrt(1.0 + hw * hw), 1e-15);
}

TEST(Implicit, MassOnAStiffSpringFollowsTheThetaMethodsMap) {
    // The theta-method on u'' = -w^2 u: (1 + theta^2 h^2 w^2) u' =
    // (1 - theta (1 - theta) h^2 w^2) u + h v, v' = v - h w^2 ((1 - theta) u +
    // theta u'). One iteration is exact (the spring never turns). At theta =
    // 1/2 the map keeps v^2 + w^2 u^2 (the trapezoidal rule conserves
    // quadratic invariants); above it, the energy shrinks by (1 + (1 -
    // theta)^2 h^2 w^2) / (1 + theta^2 h^2 w^2) per step.
    const float k = 400.0f, mass = 0.1f, rest = 0.5f, amplitude = 0.05f;
    for (const float theta : {0.5f, 0.6f, 0.8f}) {
        Simulation sim(mass_on_spring(k, mass, rest, theta));
        sim.set_position(1, {rest + amplitude, 0, 0});
        const double h = kFrame, w2 = k / mass, t = theta;
        double u = amplitude, v = 0.0;
        for (int step = 1; step <= 240; ++step) {
            sim.step(kFrame);
            const double next = ((1.0 - t * (1.0 - t) * h * h * w2) * u + h * v) / (1.0 + t * t * h * h * w2);
            v -= h * w2 * ((1.0 - t) * u + t * next);
            u = next;
            ASSERT_NEAR(sim.positions()[1].x - rest, u, 2e-6) << "theta " << theta << ", step " << step;
            ASSERT_NEAR(sim.velocities()[1].x, v, 2e-4) << "theta " << theta << ", step " << step;
        }
        const double energy = v * v + w2 * u * u, start = w2 * amplitude * amplitude;
        const double shrink = (1.0 + (1.0 - t) * (1.0 - t) * h * h * w2) / (1.0 + t * t * h * h * w2);
        EXPECT_NEAR(energy / start, std::pow(shrink, 240), 1e-9) << "theta " << theta;
        if (theta == 0.5f) {
            EXPECT_NEAR(energy / start, 1.0, 1e-9);
        }
    }
}

TEST(Implicit, ThetaBelowOneKeepsAPendulumsSwingAsTheLinearMapSays) {
    // A 1 m pendulum on a stiff spring (k h^2 / m = 278) released 0.05 rad
    // from the bottom: small swings of u'' = -(g / L) u, where the one-leg
    // theta-method shrinks the energy by (1 + (1 - theta)^2 h^2 w^2) / (1 +
    // theta^2 h^2 w^2) per step; the spring turns with the pendulum, so this
    // is the nonlinear solve. Implicit Euler keeps 44% of the swing after 5 s
    // at one step a frame, theta = 0.55 92%.
    const float mass = 0.01f, length = 1.0f, angle = 0.05f;
    for (const float theta : {1.0f, 0.55f}) {
        Model m;
        m.params = implicit_params(20);
        m.params.implicit_theta = theta;
        m.params.k = 1e4f;
        m.params.mass = mass;
        m.positions = {{0, 0, 0}, {length * std::sin(angle), -length * std::cos(angle), 0}};
        m.springs = {{0, 1, length}};
        m.anchors = {{.node = 0}};
        Simulation sim(m);
        const auto energy = [&] {
            const Vec3 x = sim.positions()[1], v = sim.velocities()[1];
            return 0.5 * mass * static_cast<double>(dot(v, v)) + mass * 9.81 * (static_cast<double>(x.y) + length);
        };
        const double start = energy();
        const int steps = 300;
        for (int step = 0; step < steps; ++step) sim.step(kFrame);
        const double h2w2 = static_cast<double>(kFrame) * kFrame * 9.81 / length, t = theta;
        const double expected = std::pow((1.0 + (1.0 - t) * (1.0 - t) * h2w2) / (1.0 + t * t * h2w2), steps);
        EXPECT_NEAR(energy() / start, expected, 0.01) << "theta " << theta;
        EXPECT_NEAR(expected, theta == 1.0f ? 0.443 : 0.922, 0.001);
    }
}

TEST(Implicit, FreeBodyKeepsItsMomentum) {
    // Springs are inner forces: 1^T L = 0 and 1^T J d = 0, so every global
    // step keeps sum m x = sum m y, and the momentum stays what it was; the
    // theta-method's carrying on to the substep's end is linear in x and v
    // and keeps it too.
    for (const float theta : {1.0f, 0.55f}) {
        Parameters p = implicit_params(8);
        p.gravity = {0, 0, 0};
        p.k = 5000.0f;
        p.implicit_theta = theta;
        Model m = make_jelly({.nx = 4, .ny = 3, .nz = 3}, p);
        m.anchors.clear();
        Simulation sim(m);
        for (std::uint32_t i = 0; i < m.node_count(); ++i) {
            const Vec3 at = m.positions[i];
            sim.set_velocity(i, Vec3{0.5f, -0.2f, 0.1f} + cross(Vec3{0, 3, 1}, at) + Vec3{at.y * at.y, 0, 0});
        }
        const Vec3 before = sim.linear_momentum();
        for (int frame = 0; frame < 120; ++frame) sim.step(kFrame);
        const Vec3 after = sim.linear_momentum();
        EXPECT_NEAR(after.x, before.x, 1e-5) << "theta " << theta;
        EXPECT_NEAR(after.y, before.y, 1e-5) << "theta " << theta;
        EXPECT_NEAR(after.z, before.z, 1e-5) << "theta " << theta;
        // It moved and wobbled: the test is not of a body at rest.
        EXPECT_GT(std::abs(before.x), 0.1f);
    }
}

namespace {

// The global step by conjugate gradients, as for a body whose factor would be
// too large (global_iteration.hpp), for the life of the object.
struct IteratedGlobalStep {
    detail::FactorBounds old = detail::set_factor_bounds({0.0, 0.0});
    ~IteratedGlobalStep() { detail::set_factor_bounds(old); }
};

}  // namespace

TEST(Implicit, StaysStableAtKDtSquaredOverMOf1000) {
    // 500 times the explicit integrators' stability bound, at one step a frame.
    Parameters p = implicit_params(10);
    const int n = 12;
    p.mass = 1.0f / (n * n);
    p.k = 1000.0f * p.mass / (kFrame * kFrame);
    const Model m = make_cloth({.columns = n, .rows = n, .anchors = ClothAnchors::top_corners}, p);
    ASSERT_NEAR(stability_estimate(m).worst, 1000.0, 1.0);
    EXPECT_EQ(stability_warning(m), "");
    // With the factor, and with the global steps by conjugate gradients (as
    // for a body whose factor would be too large): approximate solves still
    // lower the step's energy.
    for (const bool iterated : {false, true}) {
        std::optional<IteratedGlobalStep> by_iterations;
        if (iterated) by_iterations.emplace();
        Simulation sim(m);
        double peak = 0.0;
        for (int frame = 0; frame < 600; ++frame) {
            sim.step(kFrame);
            ASSERT_LT(max_strain(m, sim), 0.05) << "frame " << frame << (iterated ? ", conjugate gradients" : "");
            peak = std::max(peak, sim.kinetic_energy());
        }
        // It swings (1 kg falling at most the cloth's 2 m: below m g h = 19.6 J)
        // without gaining speed: an unstable step would pass that bound within a
        // few frames (explicit Euler grows by sqrt(1 + k dt^2 / m) = 32 a step).
        EXPECT_GT(peak, 0.1);
        EXPECT_LT(peak, 19.6);
        EXPECT_LT(sim.kinetic_energy(), peak);
    }
}

namespace {

// The largest difference of a coordinate between the positions and `exact`
// (3 a node).
double largest_difference(const Simulation& sim, const std::vector<double>& exact) {
    double error = 0.0;
    for (std::size_t i = 0; i < sim.positions().size(); ++i) {
        const Vec3 x = sim.positions()[i];
        const double got[3] = {x.x, x.y, x.z};
        for (int c = 0; c < 3; ++c) error = std::max(error, std::abs(got[c] - exact[3 * i + c]));
    }
    return error;
}

// The implicit Euler step of a model from rest, found by Newton's method on
// M (x - y) / h^2 + grad E(x) = 0 with a dense Hessian and Gaussian
// elimination with partial pivoting: independent of the solver under test.
std::vector<double> newton_implicit_euler_step(const Model& m, double h) {
    const std::size_t n = m.node_count();
    std::vector<int> row(n, -1);
    int free_count = 0;
    std::vector<bool> anchored(n, false);
    for (const Anchor& a : m.anchors) anchored[a.node] = true;
    for (std::size_t i = 0; i < n; ++i)
        if (!anchored[i]) row[i] = free_count++;
    const Vec3 g = m.params.gravity;
    std::vector<double> x(3 * n), y(3 * n);
    for (std::size_t i = 0; i < n; ++i) {
        const double p[3] = {m.positions[i].x, m.positions[i].y, m.positions[i].z};
        const double gv[3] = {g.x, g.y, g.z};
        for (int c = 0; c < 3; ++c) y[3 * i + c] = p[c] + (anchored[i] ? 0.0 : h * h * gv[c]);
    }
    x = y;
    const std::size_t dim = 3 * static_cast<std::size_t>(free_count);
    for (int iteration = 0; iteration < 30; ++iteration) {
        std::vector<double> a(dim * dim, 0.0), r(dim, 0.0);
        for (std::size_t i = 0; i < n; ++i) {
            if (row[i] < 0) continue;
            const double w = m.node_mass(i) / (h * h);
            for (std::size_t c = 0; c < 3; ++c) {
                const std::size_t k = 3 * static_cast<std::size_t>(row[i]) + c;
                a[k * dim + k] += w;
                r[k] += w * (x[3 * i + c] - y[3 * i + c]);
            }
        }
        for (const Spring& s : m.springs) {
            double d[3], len = 0.0;
            for (int c = 0; c < 3; ++c) {
                d[c] = x[3 * s.a + c] - x[3 * s.b + c];
                len += d[c] * d[c];
            }
            len = std::sqrt(len);
            const double k = m.spring_k(s);
            double u[3], block[3][3];
            for (int c = 0; c < 3; ++c) u[c] = d[c] / len;
            // Hessian of (k/2)(|d| - rest)^2: k [(1 - rest/|d|)(I - u u^T) + u u^T].
            for (int p = 0; p < 3; ++p)
                for (int q = 0; q < 3; ++q)
                    block[p][q] = k * ((1.0 - s.rest / len) * ((p == q ? 1.0 : 0.0) - u[p] * u[q]) + u[p] * u[q]);
            const int ends[2] = {row[s.a], row[s.b]};
            const double sign[2] = {1.0, -1.0};
            for (int e = 0; e < 2; ++e) {
                if (ends[e] < 0) continue;
                for (std::size_t p = 0; p < 3; ++p) {
                    const std::size_t rp = 3 * static_cast<std::size_t>(ends[e]) + p;
                    r[rp] += sign[e] * k * (len - s.rest) * u[p];
                    for (int f = 0; f < 2; ++f) {
                        if (ends[f] < 0) continue;
                        for (std::size_t q = 0; q < 3; ++q)
                            a[rp * dim + 3 * static_cast<std::size_t>(ends[f]) + q] += sign[e] * sign[f] * block[p][q];
                    }
                }
            }
        }
        // Solve a dx = r by Gaussian elimination with partial pivoting.
        for (std::size_t col = 0; col < dim; ++col) {
            std::size_t pivot = col;
            for (std::size_t i = col + 1; i < dim; ++i)
                if (std::abs(a[i * dim + col]) > std::abs(a[pivot * dim + col])) pivot = i;
            for (std::size_t j = 0; j < dim; ++j) std::swap(a[col * dim + j], a[pivot * dim + j]);
            std::swap(r[col], r[pivot]);
            for (std::size_t i = col + 1; i < dim; ++i) {
                const double f = a[i * dim + col] / a[col * dim + col];
                for (std::size_t j = col; j < dim; ++j) a[i * dim + j] -= f * a[col * dim + j];
                r[i] -= f * r[col];
            }
        }
        std::vector<double> dx(dim);
        for (std::size_t i = dim; i-- > 0;) {
            double sum = r[i];
            for (std::size_t j = i + 1; j < dim; ++j) sum -= a[i * dim + j] * dx[j];
            dx[i] = sum / a[i * dim + i];
        }
        for (std::size_t i = 0; i < n; ++i)
            if (row[i] >= 0)
                for (std::size_t c = 0; c < 3; ++c) x[3 * i + c] -= dx[3 * static_cast<std::size_t>(row[i]) + c];
    }
    return x;
}

}  // namespace


TEST(Implicit, IterationsConvergeToTheImplicitEulerStep) {
    // A 4 x 4 cloth released flat from rest: the first step bends it, so the
    // local steps turn springs and the iterations matter. The same with the
    // global steps solved by conjugate gradients in place of the factor (as
    // for a body whose factor would be too large): each solve is approximate
    // (a residual 1e-6 of its right-hand side), but the right-hand side is
    // the local/global iterations' residual, which shrinks as they converge,
    // so they reach the same step.
    Parameters p = implicit_params(1);
    p.k = 50.0f;
    p.mass = 0.01f;
    const Model base = make_cloth({.columns = 4, .rows = 4, .anchors = ClothAnchors::top_corners}, p);
    const std::vector<double> exact = newton_implicit_euler_step(base, kFrame);
    for (const bool iterated : {false, true}) {
        std::optional<IteratedGlobalStep> by_iterations;
        if (iterated) by_iterations.emplace();
        double previous_error = 1e9;
        for (int iterations : {1, 2, 4, 8, 64}) {
            Model m = base;
            m.params.implicit_iterations = iterations;
            Simulation sim(m);
            sim.step(kFrame);
            const double error = largest_difference(sim, exact);
            // Closer with every doubling, until float rounding of the positions.
            EXPECT_TRUE(error < previous_error || error < 1e-6)
                << iterations << " iterations" << (iterated ? ", conjugate gradients" : "") << ": " << error;
            previous_error = error;
        }
        EXPECT_LT(previous_error, 1e-6) << (iterated ? "conjugate gradients" : "factor");
    }
    // Wang's Chebyshev weights change the path, not the answer.
    Model m = base;
    m.params.implicit_iterations = 64;
    m.params.chebyshev_rho = 0.8f;
    Simulation sim(m);
    sim.step(kFrame);
    for (std::size_t i = 0; i < m.node_count(); ++i) {
        EXPECT_NEAR(sim.positions()[i].x, exact[3 * i], 1e-6) << "node " << i;
        EXPECT_NEAR(sim.positions()[i].y, exact[3 * i + 1], 1e-6) << "node " << i;
        EXPECT_NEAR(sim.positions()[i].z, exact[3 * i + 2], 1e-6) << "node " << i;
    }
}

TEST(Implicit, ToleranceStopsTheIterationsOnceNoNodeMovesMore) {
    // A 6 x 6 cloth, k h^2 / m = 14, every node shaken 5 cm from its rest
    // place: the local/global iterations converge slowly (linearly). With a
    // tolerance of 0.1 mm and 1000 iterations allowed, the step is bit for bit
    // the step of a smaller fixed count n: the first whose last iteration
    // moved no coordinate more than 0.1 mm (without Chebyshev weights an
    // iteration moves the nodes by its correction).
    Parameters p = implicit_params(1);
    p.k = 500.0f;
    p.mass = 0.01f;
    const Model base = make_cloth({.columns = 6, .rows = 6, .anchors = ClothAnchors::top_corners}, p);
    const auto step = [&](int iterations, float tolerance) {
        Model m = base;
        m.params.implicit_iterations = iterations;
        m.params.implicit_tolerance = tolerance;
        Simulation sim(m);
        for (std::uint32_t i = 0; i < m.node_count(); ++i) {
            const auto f = static_cast<float>(i);
            sim.set_position(i, m.positions[i] + 0.05f * Vec3{std::sin(1.7f * f), std::cos(2.3f * f), std::sin(0.9f * f)});
        }
        sim.step(kFrame);
        return std::vector<Vec3>(sim.positions().begin(), sim.positions().end());
    };
    const float tolerance = 1e-4f;
    const std::vector<Vec3> early = step(1000, tolerance);
    int same_as = 0;
    for (int iterations = 1; iterations < 1000 && same_as == 0; ++iterations) {
        const std::vector<Vec3> fixed = step(iterations, 0.0f);
        if (std::equal(fixed.begin(), fixed.end(), early.begin(),
                       [](Vec3 a, Vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }))
            same_as = iterations;
    }
    ASSERT_GT(same_as, 2);
    ASSERT_LT(same_as, 1000);
    const auto largest_move = [&](int iterations) {  // of a coordinate in the last iteration
        const std::vector<Vec3> a = step(iterations - 1, 0.0f), b = step(iterations, 0.0f);
        float largest = 0.0f;
        for (std::size_t i = 0; i < a.size(); ++i)
            largest = std::max({largest, std::abs(a[i].x - b[i].x), std::abs(a[i].y - b[i].y), std::abs(a[i].z - b[i].z)});
        return largest;
    };
    EXPECT_LE(largest_move(same_as), tolerance * 1.01f) << same_as << " iterations";
    EXPECT_GT(largest_move(same_as - 1), tolerance * 0.99f) << same_as << " iterations";
}

TEST(Implicit, StrainLimitHoldsAHangingSpringAtItsCap) {
    // Left alone, the spring hangs at rest + m g / k: 49% long. Capped at 10%,
    // the projection holds it at 1.1 rest.
    const float rest = 0.2f, k = 10.0f, mass = 0.1f;
    Model m = hanging_chain(2, rest, k, mass, 10);
    Simulation free_sim(m);
    for (int frame = 0; frame < 1500; ++frame) free_sim.step(kFrame);
    EXPECT_NEAR(spring_length(free_sim, m.springs[0]), rest + mass * 9.81 / k, 1e-5);
    m.params.strain_limit = 0.1f;
    Simulation capped(m);
    for (int frame = 0; frame < 300; ++frame) {
        capped.step(kFrame);
        ASSERT_LE(spring_length(capped, m.springs[0]), 1.1 * rest + 1e-6) << "frame " << frame;
    }
    EXPECT_NEAR(spring_length(capped, m.springs[0]), 1.1 * rest, 1e-6);
}

// A vertical chain of `nodes` nodes spaced `rest` apart standing on the
// ground at y = 0, node 0 at the bottom, nothing anchored.
Model standing_chain(int nodes, float rest, float k, float mass, int iterations) {
    Model m;
    m.params = implicit_params(iterations);
    m.params.k = k;
    m.params.mass = mass;
    m.params.ground = Ground{.height = 0.0f, .repulsion = 0.0f, .friction = 0.0f, .absorption = 0.0f};
    for (int i = 0; i < nodes; ++i) m.positions.push_back({0.0f, rest * static_cast<float>(i), 0.0f});
    for (int i = 0; i + 1 < nodes; ++i)
        m.springs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1), rest});
    return m;
}

TEST(Implicit, ChainStandingOnTheGroundShortensEachSpringByTheWeightAboveIt) {
    // At rest spring j (nodes j, j + 1) carries the nodes above it:
    // rest - (nodes - 1 - j) m g / k. Implicit Euler's fixed point is this
    // static state whatever the step, if the ground holds the bottom node
    // inside the step: lifted after the solve only, the chain above fell
    // g h^2 a step through its springs, and its bottom spring settled 7.4
    // times as compressed (a heavier body slumps and topples).
    const int nodes = 8;
    const float rest = 0.25f, k = 2000.0f, mass = 0.1f;
    const Model m = standing_chain(nodes, rest, k, mass, 20);
    Simulation sim(m);
    for (int frame = 0; frame < 300; ++frame) sim.step(kFrame);
    for (int j = 0; j + 1 < nodes; ++j) {
        const double expected = rest - (nodes - 1 - j) * mass * 9.81 / k;
        EXPECT_NEAR(spring_length(sim, m.springs[static_cast<std::size_t>(j)]), expected, 2e-5) << "spring " << j;
    }
    EXPECT_EQ(sim.positions()[0].y, 0.0f);
}

TEST(Implicit, ChainStandingOnABoxOrASphereShortensEachSpringByTheWeightAboveIt) {
    // The colliders are constraints of the step as the ground is: the chain
    // standing on a box's top face, or on the top of a sphere, settles to the
    // static answer (lifted by the contact stage alone, a step late, its
    // bottom spring settled 7.4 times as compressed).
    const int nodes = 8;
    const float rest = 0.25f, k = 2000.0f, mass = 0.1f;
    Model m = standing_chain(nodes, rest, k, mass, 20);
    m.params.ground.reset();
    Collider box = box_collider({1.0f, 0.5f, 1.0f});
    box.pose.position = {0.0f, -0.5f, 0.0f};
    Collider ball = sphere_collider(2.0f);
    ball.pose.position = {0.0f, -2.0f, 0.0f};
    for (const Collider& support : {box, ball}) {
        auto set = std::make_shared<ColliderSet>();
        set->add(support);
        Simulation sim(m);
        sim.set_colliders(set);
        for (int frame = 0; frame < 300; ++frame) sim.step(kFrame);
        for (int j = 0; j + 1 < nodes; ++j) {
            const double expected = rest - (nodes - 1 - j) * mass * 9.81 / k;
            EXPECT_NEAR(spring_length(sim, m.springs[static_cast<std::size_t>(j)]), expected, 2e-5)
                << "spring " << j << " on the " << (support.shape == ColliderShape::box ? "box" : "sphere");
        }
        EXPECT_NEAR(sim.positions()[0].y, 0.0f, 1e-5f);
        // The contact report holds the push inside the step: at rest the
        // support's impulse over a step is the chain's weight times the step.
        double lifted = 0.0;
        for (const Contact& c : sim.contacts()) lifted += c.impulse.y;
        EXPECT_NEAR(lifted, nodes * mass * 9.81 * kFrame, 1e-3 * nodes * mass * 9.81 * kFrame);
    }
}

TEST(Implicit, BodyStartingInsideAColliderIsNotShotOut) {
    // A bar of four nodes lies 0.3 m inside a box. The step pushes a node out
    // only by what its own motion took it inside; pushed out of its whole
    // overlap in one step it would leave at 0.3 m / (1/60 s) = 18 m/s. The
    // contact stage moves it out instead, and it rests on the top face.
    Model m;
    m.params = implicit_params(20);
    m.params.k = 2000.0f;
    m.params.mass = 0.1f;
    for (int i = 0; i < 4; ++i) m.positions.push_back({0.25f * static_cast<float>(i), 0.0f, 0.0f});
    for (std::uint32_t i = 0; i + 1 < 4; ++i) m.springs.push_back({i, i + 1, 0.25f});
    Collider box = box_collider({2.0f, 0.5f, 2.0f});
    box.pose.position = {0.0f, -0.2f, 0.0f};  // top face at y = 0.3
    auto set = std::make_shared<ColliderSet>();
    set->add(box);
    Simulation sim(m);
    sim.set_colliders(set);
    for (int frame = 0; frame < 60; ++frame) {
        sim.step(kFrame);
        for (const Vec3& v : sim.velocities()) ASSERT_LT(length(v), 0.5f) << "frame " << frame;
    }
    for (const Vec3& x : sim.positions()) EXPECT_NEAR(x.y, 0.3f, 1e-5f);
}

TEST(Implicit, GroundOnlyPushesABodyThrownUpLeavesIt) {
    // The ground's multipliers are kept >= 0: a chain thrown up at 3 m/s
    // from the ground flies (a multiplier that pulled would hold its bottom
    // node down). Its centre of mass follows the free flight, y = y0 + v t -
    // g t^2 / 2, up to implicit Euler's g h t / 2 for t = 0.1 s.
    const int nodes = 8;
    const Model m = standing_chain(nodes, 0.25f, 2000.0f, 0.1f, 20);
    Simulation sim(m);
    for (int frame = 0; frame < 120; ++frame) sim.step(kFrame);
    const double y0 = sim.center_of_mass().y;
    for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(nodes); ++i) sim.set_velocity(i, {0.0f, 3.0f, 0.0f});
    for (int frame = 0; frame < 6; ++frame) sim.step(kFrame);
    const double t = 6 * static_cast<double>(kFrame);
    const double flight = y0 + 3.0 * t - 9.81 * t * t / 2;
    EXPECT_NEAR(sim.center_of_mass().y, flight, 9.81 * kFrame * t / 2 + 1e-4);
    EXPECT_GT(sim.positions()[0].y, 0.2f);
}

TEST(Implicit, JellyRestingOnTheGroundKeepsItsHeightAtOneStepAFrame) {
    // A stiff 5 x 5 x 5 jelly on the ground at one step a frame: its weight
    // (12.3 N over k = 20000 springs) shortens it by well under a millimetre.
    // Without the ground inside the step it settled 8 cm lower and swayed.
    Parameters p = implicit_params(10);
    p.k = 20000.0f;
    p.mass = 0.01f;
    p.energy_loss = 0.99f;
    p.ground = Ground{.height = 0.0f};
    const Model m = make_jelly({.nx = 5, .ny = 5, .nz = 5, .size = 1.0f, .origin = {-0.5f, 0.0f, -0.5f}}, p);
    Simulation sim(m);
    for (int frame = 0; frame < 180; ++frame) sim.step(kFrame);
    float low = 1e9f, high = -1e9f;
    for (const Vec3& x : sim.positions()) {
        low = std::min(low, x.y);
        high = std::max(high, x.y);
    }
    EXPECT_GE(low, 0.0f);
    EXPECT_NEAR(high - low, 1.0f, 1e-3f);
    EXPECT_LT(max_strain(m, sim), 1e-3);
}

TEST(Implicit, SameBitsForAnyThreadCount) {
    Parameters p = implicit_params(5);
    p.k = 20000.0f;
    p.strain_limit = 0.05f;
    p.strain_limit_every_spring = 1;
    p.strain_limit_global_steps = 1;
    p.long_range_attachments = 2;
    p.air_friction = 0.01f;
    p.wind = {1.0f, 0.0f, 0.5f};
    p.ground = Ground{.height = -0.5f};
    const Model m = make_cloth({.columns = 24, .rows = 24, .anchors = ClothAnchors::top_corners}, p);
    Simulation one(m, {.threads = 1}), two(m, {.threads = 2});
    for (int frame = 0; frame < 60; ++frame) {
        one.step(kFrame);
        two.step(kFrame);
    }
    ASSERT_EQ(one.positions().size(), two.positions().size());
    for (std::size_t i = 0; i < m.node_count(); ++i) {
        EXPECT_EQ(one.positions()[i], two.positions()[i]) << "node " << i;
        EXPECT_EQ(one.velocities()[i], two.velocities()[i]) << "node " << i;
    }
}

TEST(Implicit, StiffnessScaleRepreparesTheSolve) {
    // The hanging chain's static stretch under set_stiffness_scale(s) is that
    // of k s: the factorisation is rebuilt with the new k.
    const Model m = hanging_chain(3, 0.1f, 500.0f, 0.05f, 30);
    Simulation sim(m);
    sim.step(kFrame);
    sim.set_stiffness_scale(4.0f);
    for (int frame = 0; frame < 600; ++frame) sim.step(kFrame);
    EXPECT_NEAR(spring_length(sim, m.springs[0]), 0.1 + 2 * 0.05 * 9.81 / 2000.0, 2e-6);
}

TEST(Implicit, LongRangeAttachmentsKeepAFallingChainWithinItsRestPath) {
    // A soft chain released horizontally from its anchor: left alone its
    // springs stretch by the weight below them (tens of percent at k = 20).
    // Attached to the anchor (Kim et al. 2012), node i is never farther from
    // it than i rest, the rest length of the path, in any frame.
    const int nodes = 12;
    const float rest = 0.1f;
    Model m;
    m.params = implicit_params(2);
    m.params.k = 20.0f;
    m.params.mass = 0.01f;
    for (int i = 0; i < nodes; ++i) m.positions.push_back({rest * static_cast<float>(i), 0.0f, 0.0f});
    for (int i = 0; i + 1 < nodes; ++i)
        m.springs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i + 1), rest});
    m.anchors = {{.node = 0}};
    const auto farthest_over_path = [&](const Simulation& sim) {
        double worst = 0.0;
        for (int i = 1; i < nodes; ++i)
            worst = std::max(worst, static_cast<double>(length(sim.positions()[static_cast<std::size_t>(i)] -
                                                                sim.positions()[0])) /
                                        (rest * i));
        return worst;
    };
    Simulation free_chain(m);
    double free_worst = 0.0;
    for (int frame = 0; frame < 120; ++frame) {
        free_chain.step(kFrame);
        free_worst = std::max(free_worst, farthest_over_path(free_chain));
    }
    EXPECT_GT(free_worst, 1.2);  // the chain on its own stretches well past its rest path
    m.params.long_range_attachments = 1;
    Simulation attached(m);
    double lowest = 0.0;
    for (int frame = 0; frame < 120; ++frame) {
        attached.step(kFrame);
        ASSERT_LE(farthest_over_path(attached), 1.0 + 1e-6) << "frame " << frame;
        lowest = std::min(lowest, static_cast<double>(attached.positions()[nodes - 1].y));
    }
    // It fell and swung down: the end hangs near its full rest path below.
    EXPECT_LT(lowest, -0.9 * rest * (nodes - 1));
    // Turned on mid-run by set_parameters(), they hold from the next step.
    Parameters turned_on = free_chain.parameters();
    turned_on.long_range_attachments = 1;
    free_chain.set_parameters(turned_on);
    free_chain.step(kFrame);
    EXPECT_LE(farthest_over_path(free_chain), 1.0 + 1e-6);
}

TEST(Implicit, StrainLimitPassesHoldAHangingClothAtItsLimit) {
    // A soft 12 x 12 cloth held at two corners sags tens of percent; the long
    // range attachments and enough strain-limit passes bring every edge
    // (bend springs included, which the structural ones imply) within the
    // 5% limit once it has settled.
    Parameters p = implicit_params(2);
    p.k = 50.0f;
    p.mass = 1.0f / 144.0f;
    p.energy_loss = 0.9f;
    p.strain_limit = 0.05f;
    const Model soft = make_cloth({.columns = 12, .rows = 12, .anchors = ClothAnchors::top_corners}, p);
    p.long_range_attachments = 2;
    p.strain_limit_passes = 40;
    const Model held = make_cloth({.columns = 12, .rows = 12, .anchors = ClothAnchors::top_corners}, p);
    Simulation loose(soft), tight(held);
    for (int frame = 0; frame < 300; ++frame) {
        loose.step(kFrame);
        tight.step(kFrame);
    }
    EXPECT_GT(max_strain(soft, loose), 0.06);  // 4 passes alone do not hold it
    EXPECT_LE(max_strain(held, tight), 0.05 + 1e-5);
}

TEST(Implicit, StrainLimitAndAttachmentsKeepAFreeBodysMomentum) {
    // Without anchors there is nothing to attach to, and each strain-limit
    // projection moves its two ends by opposite impulses (split by inverse
    // mass): a stretched, spinning free cloth keeps its linear momentum. So
    // it does with every spring projected and with global steps, whose
    // forces come in equal and opposite pairs through a matrix whose rows
    // sum to the masses (M dx sums to zero).
    for (const bool global : {false, true}) {
        Parameters p = implicit_params(3);
        p.gravity = {0, 0, 0};
        p.k = 200.0f;
        p.strain_limit = 0.01f;
        p.long_range_attachments = 2;
        p.strain_limit_every_spring = global ? 1 : 0;
        p.strain_limit_global_steps = global ? 2 : 0;
        Model m = make_cloth({.columns = 8, .rows = 8, .anchors = ClothAnchors::none}, p);
        for (Vec3& x : m.positions) x = x * 1.3f;  // every spring 30% long
        Simulation sim(m);
        for (std::uint32_t i = 0; i < m.node_count(); ++i)
            sim.set_velocity(i, Vec3{0.4f, 0.3f, -0.2f} + cross(Vec3{0, 2, 0}, m.positions[i]));
        const Vec3 before = sim.linear_momentum();
        sim.step(kFrame);
        const double strain_after_one = max_strain(m, sim);
        for (int frame = 0; frame < 30; ++frame) sim.step(kFrame);
        const Vec3 after = sim.linear_momentum();
        EXPECT_NEAR(after.x, before.x, 1e-5) << "global steps " << global;
        EXPECT_NEAR(after.y, before.y, 1e-5) << "global steps " << global;
        EXPECT_NEAR(after.z, before.z, 1e-5) << "global steps " << global;
        EXPECT_LT(strain_after_one, 0.3);  // the projection did act
    }
}

TEST(Implicit, StrainLimitColoursShareNoNode) {
    // The strain limit projects a colour's springs side by side: no two
    // springs of one colour may share a node, each spring it projects is in
    // exactly one colour, and a run's springs are what it says (first nodes
    // a stride apart, one shape). A 12 x 12 cloth: its 4 structural and shear
    // shapes, each in rows, take 2 colours each; the bend springs, implied
    // by two structural ones, are not projected unless every spring is
    // asked for (strain_limit_every_spring), when all of them are.
    const Model m = make_cloth({.columns = 12, .rows = 12, .anchors = ClothAnchors::top_corners}, Parameters{});
    detail::ImplicitLayout l;
    const std::size_t n = m.node_count();
    l.node_first.assign(n + 1, 0);
    for (const Spring& s : m.springs) {
        l.a.push_back(s.a);
        l.b.push_back(s.b);
        l.rest.push_back(s.rest);
        ++l.node_first[s.a + 1];
        ++l.node_first[s.b + 1];
    }
    for (std::size_t i = 0; i < n; ++i) l.node_first[i + 1] += l.node_first[i];
    std::vector<std::uint32_t> fill(l.node_first.begin(), l.node_first.end() - 1);
    l.node_entry.resize(2 * l.a.size());
    for (std::uint32_t s = 0; s < l.a.size(); ++s) {
        l.node_entry[fill[l.a[s]]++] = 2 * s;
        l.node_entry[fill[l.b[s]]++] = 2 * s + 1;
    }
    for (const bool every : {false, true}) {
        const auto limited = detail::build_strain_limit_springs(l, every);
        const detail::StrainLimitSprings& sl = *limited;
        EXPECT_EQ(sl.every_spring, every);
        const std::size_t structural_and_shear = 2 * 12 * 11 + 2 * 11 * 11;
        const std::size_t bend = 2 * 12 * 10;
        const auto fillers = static_cast<std::size_t>(std::count(sl.rest.begin(), sl.rest.end(), -1.0f));
        EXPECT_EQ(sl.a.size() - fillers, every ? structural_and_shear + bend : structural_and_shear);
        ASSERT_EQ(m.springs.size(), structural_and_shear + bend);
        if (!every) {
            EXPECT_EQ(sl.colour_first.size(), 9u);
        }
        std::set<std::pair<std::uint32_t, std::uint32_t>> springs;  // (a, b), a < b
        for (std::size_t c = 0; c + 1 < sl.colour_first.size(); ++c) {
            std::set<std::uint32_t> nodes;
            for (std::uint32_t p = sl.colour_first[c]; p < sl.colour_first[c + 1]; ++p) {
                const detail::StrainLimitSprings::Piece& piece = sl.pieces[p];
                for (std::uint32_t e = piece.begin; e < piece.end; ++e) {
                    if (sl.rest[e] < 0.0f) {  // a filler block of a stride-4 piece: no spring
                        EXPECT_EQ(piece.stride, 4u) << "spring " << e;
                        continue;
                    }
                    EXPECT_TRUE(nodes.insert(sl.a[e]).second) << "colour " << c << " spring " << e;
                    EXPECT_TRUE(nodes.insert(sl.b[e]).second) << "colour " << c << " spring " << e;
                    EXPECT_TRUE(springs.insert({sl.a[e], sl.b[e]}).second) << "spring " << e;
                    if (piece.stride == 0) continue;
                    if (piece.stride == 4) {  // blocks of four nodes: j to j + 2, j + 1 to j + 3
                        const std::uint32_t i = e - piece.begin;
                        EXPECT_EQ(sl.a[e], sl.a[piece.begin] + 4 * (i / 2) + i % 2) << "spring " << e;
                        EXPECT_EQ(sl.b[e], sl.a[e] + 2) << "spring " << e;
                        continue;
                    }
                    EXPECT_EQ(sl.a[e], sl.a[piece.begin] + piece.stride * (e - piece.begin)) << "spring " << e;
                    EXPECT_EQ(sl.b[e] - sl.a[e], sl.b[piece.begin] - sl.a[piece.begin]) << "spring " << e;
                }
            }
        }
        // With every spring, the rows' bend springs are in blocks of four
        // nodes, not gathered: of one colour first nodes 0, 1, 4, 5, 8, 9 of
        // each row of 12, the rows one after the other; of the other 2, 3, 6,
        // 7, and a filler block at each row's end but the last (10 to 13).
        std::size_t in_blocks = 0;
        for (const detail::StrainLimitSprings::Piece& piece : sl.pieces)
            if (piece.stride == 4) in_blocks += piece.end - piece.begin;
        EXPECT_EQ(in_blocks - fillers, every ? 10u * 12u : 0u);
        EXPECT_EQ(fillers, every ? 2u * 11u : 0u);
        for (const Spring& s : m.springs) {
            const bool is_bend = length(m.positions[s.a] - m.positions[s.b]) > 1.5f * (2.0f / 11.0f);
            EXPECT_EQ(springs.count(std::minmax(s.a, s.b)), is_bend && !every ? 0u : 1u) << s.a << " " << s.b;
        }
    }
}

TEST(Implicit, StrainLimitGlobalStepMatchesTheHandSolvedChain) {
    // Anchor 0 and free nodes 1 and 2 on the x axis, two springs of rest r,
    // both stretched, at rest (v = 0), no gravity: along one line the
    // local/global step is linear, and each stage of the step is solved here
    // by hand. With c = h^2 k and M = m I:
    // 1. the implicit Euler step (one iteration is exact on a line):
    //    (m + 2c) x1 - c x2 = m x1(0), -c x1 + (m + c) x2 = m x2(0) + c r;
    // 2. one strain-limit pass, spring (0, 1) first (its colour): node 1 goes
    //    to the cap; then spring (1, 2) splits its excess between its ends;
    // 3. the global step: spring (0, 1) capped (spring (1, 2) is at its cap),
    //    [m + 2c, -c; -c, m + c] dx = (c (cap - x1), 0).
    const double r = 0.1, k = 50.0, m = 0.01, limit = 0.05, h = 1.0 / 60.0, c = h * h * k;
    const double x1_0 = 0.16, x2_0 = 0.34;
    Model model;
    model.params = implicit_params(1);
    model.params.gravity = {0, 0, 0};
    model.params.k = static_cast<float>(k);
    model.params.mass = static_cast<float>(m);
    model.params.strain_limit = static_cast<float>(limit);
    model.params.strain_limit_passes = 1;
    model.positions = {{0, 0, 0}, {static_cast<float>(x1_0), 0, 0}, {static_cast<float>(x2_0), 0, 0}};
    model.springs = {{0, 1, static_cast<float>(r)}, {1, 2, static_cast<float>(r)}};
    model.anchors = {{.node = 0}};
    const auto solve = [&](double b1, double b2, double& y1, double& y2) {
        const double det = (m + 2 * c) * (m + c) - c * c;
        y1 = (b1 * (m + c) + c * b2) / det;
        y2 = ((m + 2 * c) * b2 + c * b1) / det;
    };
    double x1, x2;
    solve(m * x1_0, m * x2_0 + c * r, x1, x2);
    const double cap = static_cast<double>(static_cast<float>(r) * (1.0f + static_cast<float>(limit)));
    ASSERT_GT(x1, cap);
    x1 = cap;
    ASSERT_GT(x2 - x1, cap);
    const double excess = x2 - x1 - cap;
    x1 += excess / 2;
    x2 -= excess / 2;
    Simulation passes_only(model);
    passes_only.step(kFrame);
    EXPECT_NEAR(passes_only.positions()[1].x, x1, 1e-6);
    EXPECT_NEAR(passes_only.positions()[2].x, x2, 1e-6);
    double dx1, dx2;
    solve(c * (cap - x1), 0.0, dx1, dx2);
    ASSERT_GT(std::abs(dx1), 1e-3);  // the step moves the nodes by millimetres
    model.params.strain_limit_global_steps = 1;
    Simulation global(model);
    global.step(kFrame);
    EXPECT_NEAR(global.positions()[1].x, x1 + dx1, 1e-6);
    EXPECT_NEAR(global.positions()[2].x, x2 + dx2, 1e-6);
    EXPECT_EQ(global.positions()[2].y, 0.0f);
    // The velocities are the whole step's motion over h, the global step's
    // correction included.
    EXPECT_NEAR(global.velocities()[1].x, (x1 + dx1 - x1_0) / h, 1e-4);
}

namespace {

// M + c L of a mass-spring graph (c = h^2 k per spring) as the global
// step assembles it, every row free, in both triangles, and densely.
struct SpringMatrix {
    std::size_t rows = 0;
    std::vector<detail::MatrixEntry> entries;
    std::vector<double> dense;  // rows x rows
};

SpringMatrix spring_matrix(std::size_t rows, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& springs,
                           const std::vector<double>& c, const std::vector<double>& mass) {
    SpringMatrix out;
    out.rows = rows;
    out.dense.assign(rows * rows, 0.0);
    const auto add = [&](std::uint32_t i, std::uint32_t j, double v) {
        out.entries.push_back({i, j, v});
        out.dense[i * rows + j] += v;
    };
    for (std::uint32_t i = 0; i < rows; ++i) add(i, i, mass[i]);
    for (std::size_t s = 0; s < springs.size(); ++s) {
        const auto [a, b] = springs[s];
        add(a, a, c[s]);
        add(b, b, c[s]);
        add(a, b, -c[s]);
        add(b, a, -c[s]);
    }
    return out;
}

// x = A^-1 r for three right-hand sides (3 per row) by dense Cholesky in double.
std::vector<double> dense_solve(const SpringMatrix& m, const std::vector<double>& r) {
    const std::size_t n = m.rows;
    std::vector<double> l(n * n, 0.0);
    for (std::size_t j = 0; j < n; ++j) {
        double d = m.dense[j * n + j];
        for (std::size_t k = 0; k < j; ++k) d -= l[j * n + k] * l[j * n + k];
        l[j * n + j] = std::sqrt(d);
        for (std::size_t i = j + 1; i < n; ++i) {
            double v = m.dense[i * n + j];
            for (std::size_t k = 0; k < j; ++k) v -= l[i * n + k] * l[j * n + k];
            l[i * n + j] = v / l[j * n + j];
        }
    }
    std::vector<double> x = r;
    for (std::size_t c = 0; c < 3; ++c) {
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t k = 0; k < i; ++k) x[3 * i + c] -= l[i * n + k] * x[3 * k + c];
            x[3 * i + c] /= l[i * n + i];
        }
        for (std::size_t i = n; i-- > 0;) {
            for (std::size_t k = i + 1; k < n; ++k) x[3 * i + c] -= l[k * n + i] * x[3 * k + c];
            x[3 * i + c] /= l[i * n + i];
        }
    }
    return x;
}

// Solves A x = r through factor_global_matrix() and returns the largest
// error against the dense solve, relative to the largest |x|.
double factor_error(const SpringMatrix& m, const detail::GlobalFactor& f, const std::vector<double>& r) {
    std::vector<float> work(4 * m.rows, 0.0f);
    for (std::size_t i = 0; i < m.rows; ++i)
        for (std::size_t c = 0; c < 3; ++c)
            work[4 * static_cast<std::size_t>(f.place[i]) + c] = static_cast<float>(r[3 * i + c]);
    f.solve_in_place(work);
    const std::vector<double> exact = dense_solve(m, r);
    double largest = 0.0, error = 0.0;
    for (std::size_t i = 0; i < m.rows; ++i)
        for (std::size_t c = 0; c < 3; ++c) {
            largest = std::max(largest, std::abs(exact[3 * i + c]));
            error = std::max(error,
                             std::abs(work[4 * static_cast<std::size_t>(f.place[i]) + c] - exact[3 * i + c]));
        }
    return error / largest;
}

}  // namespace

TEST(Implicit, GlobalFactorSolvesAsADenseCholeskySolve) {
    // The global step's solve (supernodal blocks of L in float) against a
    // dense Cholesky factorisation in double, on a 12 x 12 cloth's matrix
    // and on a graph that is no grid (each node joined to a few others
    // picked by a fixed pseudo-random sequence, k and masses varying): float
    // rounding only. Both factors have blocks of one column and blocks wide
    // enough for the 4-column kernels, so each kernel is used.
    const double h2 = 1.0 / 3600.0;
    std::uint32_t seed = 12345u;
    const auto next = [&] {
        seed = seed * 1664525u + 1013904223u;
        return seed >> 8;
    };
    std::vector<SpringMatrix> cases;
    {
        const Model cloth = make_cloth({.columns = 12, .rows = 12}, Parameters{});
        std::vector<std::pair<std::uint32_t, std::uint32_t>> springs;
        std::vector<double> c;
        for (const Spring& s : cloth.springs) {
            springs.emplace_back(s.a, s.b);
            c.push_back(h2 * 100.0);
        }
        cases.push_back(spring_matrix(cloth.node_count(), springs, c, std::vector<double>(cloth.node_count(), 1e-3)));
    }
    {
        const std::uint32_t n = 150;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> springs;
        std::vector<double> c, mass;
        for (std::uint32_t i = 0; i < n; ++i) {
            mass.push_back(1e-3 * (1.0 + static_cast<double>(next() % 100) / 50.0));
            for (int e = 0; e < 2; ++e) {
                // Mostly near neighbours in index, some far: a mesh-like graph.
                const std::uint32_t span = next() % 4 == 0 ? n : 12;
                const std::uint32_t j = (i + 1 + next() % (span - 1)) % n;
                springs.emplace_back(i, j);
                c.push_back(h2 * (10.0 + static_cast<double>(next() % 1000)));
            }
        }
        cases.push_back(spring_matrix(n, springs, c, mass));
    }
    for (const SpringMatrix& m : cases) {
        const auto factor = detail::factor_global_matrix(m.rows, m.entries);
        const detail::GlobalFactor& f = *factor;
        std::size_t narrowest = 100, widest = 0;
        for (std::size_t b = 0; b + 1 < f.block_column.size(); ++b) {
            const auto width = static_cast<std::size_t>(f.block_column[b + 1] - f.block_column[b]);
            narrowest = std::min(narrowest, width);
            widest = std::max(widest, width);
        }
        EXPECT_EQ(narrowest, 1u) << m.rows << " rows";
        EXPECT_GE(widest, 5u) << m.rows << " rows";
        EXPECT_EQ(f.block_column.back(), static_cast<std::int32_t>(m.rows));
        std::vector<double> r(3 * m.rows);
        for (double& v : r) v = static_cast<double>(next() % 2001) / 1000.0 - 1.0;
        EXPECT_LT(factor_error(m, f, r), 2e-6) << m.rows << " rows";
    }
}

TEST(Implicit, ColouredStrainLimitPassesLeaveNoSpringPastTheLimit) {
    // A soft 10 x 10 cloth held along one edge would sag tens of percent;
    // with enough coloured Gauss-Seidel passes (no attachments) the
    // projections converge: after each frame no spring, bend springs
    // included (implied by the structural ones), is longer than 1.01 rest.
    Parameters p = implicit_params(1);
    p.k = 20.0f;
    p.mass = 0.01f;
    p.energy_loss = 0.9f;
    p.strain_limit = 0.01f;
    p.strain_limit_passes = 300;
    const Model m = make_cloth({.columns = 10, .rows = 10, .anchors = ClothAnchors::top_edge}, p);
    Parameters few = p;
    few.strain_limit_passes = 4;
    const Model loose = make_cloth({.columns = 10, .rows = 10, .anchors = ClothAnchors::top_edge}, few);
    Simulation sim(m), four(loose);
    double four_worst = 0.0;
    for (int frame = 0; frame < 60; ++frame) {
        sim.step(kFrame);
        four.step(kFrame);
        four_worst = std::max(four_worst, max_strain(loose, four));
        ASSERT_LE(max_strain(m, sim), 0.01 + 1e-5) << "frame " << frame;
    }
    EXPECT_GT(four_worst, 0.02);  // four passes do not hold it
    double lowest = 0.0;
    for (const Vec3& x : sim.positions()) lowest = std::min(lowest, static_cast<double>(x.y - m.positions[0].y));
    EXPECT_LT(lowest, -0.5);  // it did fall
}

TEST(Implicit, TwoAttachmentsHoldANodeWhereTheirSpheresTouch) {
    // A node halfway between two anchors 2 r apart, attached to both at r
    // (its rest distance): the two balls touch at one point, where the node
    // must stay, however gravity and a soft spring pull it. Projected onto
    // both at once (the nearest point of their intersection), it is there
    // after every frame with a single pass; one projection after the other
    // would leave it off the line (each undoes part of the other).
    const float r = 0.5f;
    Model m;
    m.params = implicit_params(1);
    m.params.k = 10.0f;
    m.params.mass = 0.1f;
    m.params.long_range_attachments = 2;
    m.params.strain_limit_passes = 1;
    m.positions = {{0.0f, 0.0f, 0.0f}, {r, 0.0f, 0.0f}, {2.0f * r, 0.0f, 0.0f}, {r, -r, 0.0f}};
    m.springs = {{0, 1, r}, {1, 2, r}, {1, 3, r}};
    m.anchors = {{.node = 0}, {.node = 2}};
    Simulation sim(m);
    for (int frame = 0; frame < 60; ++frame) {
        sim.step(kFrame);
        EXPECT_NEAR(sim.positions()[1].x, r, 1e-6) << "frame " << frame;
        EXPECT_NEAR(sim.positions()[1].y, 0.0, 1e-6) << "frame " << frame;
        // Node 3's balls (sqrt(2) r around each anchor) meet in a circle of
        // radius r around the line; gravity holds it at the circle's lowest
        // point, where it started.
        EXPECT_NEAR(sim.positions()[3].x, r, 1e-6) << "frame " << frame;
        EXPECT_NEAR(sim.positions()[3].y, -r, 1e-6) << "frame " << frame;
    }
}


TEST(Implicit, ConjugateGradientsSolveTheGlobalMatrix) {
    // M' + h^2 L of a chain of 50 free nodes, masses 1..2 kg, h^2 k = 30 per
    // spring: tridiagonal, solved exactly by elimination (Thomas), against
    // the iterations' answer for three right-hand sides at once.
    const std::size_t n = 50;
    detail::GlobalIteration g;
    std::vector<double> diagonal(n), off(n, -30.0);  // off[i]: entry (i, i + 1)
    g.row_first.push_back(0);
    for (std::size_t i = 0; i < n; ++i) {
        diagonal[i] = 1.0 + static_cast<double>(i) / static_cast<double>(n) + (i > 0 ? 30.0 : 0.0) + (i + 1 < n ? 30.0 : 0.0);
        if (i > 0) g.column.push_back(static_cast<std::int32_t>(i - 1)), g.entry.push_back(-30.0f);
        if (i + 1 < n) g.column.push_back(static_cast<std::int32_t>(i + 1)), g.entry.push_back(-30.0f);
        g.row_first.push_back(static_cast<std::int32_t>(g.column.size()));
        g.diagonal.push_back(static_cast<float>(diagonal[i]));
        g.inverse_diagonal.push_back(static_cast<float>(1.0 / diagonal[i]));
    }
    g.tolerance = 1e-6f;
    std::vector<float> work(4 * n, 0.0f);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t c = 0; c < 3; ++c) work[4 * i + c] = std::sin(0.3f * static_cast<float>(i) + static_cast<float>(c));
    const std::vector<float> right = work;
    std::vector<float> scratch;
    g.solve_in_place(work, scratch);
    for (std::size_t c = 0; c < 3; ++c) {
        // Thomas: forward elimination, then back substitution.
        std::vector<double> d = diagonal, r(n), x(n);
        for (std::size_t i = 0; i < n; ++i) r[i] = right[4 * i + c];
        for (std::size_t i = 1; i < n; ++i) {
            const double w = off[i - 1] / d[i - 1];
            d[i] -= w * off[i - 1];
            r[i] -= w * r[i - 1];
        }
        x[n - 1] = r[n - 1] / d[n - 1];
        for (std::size_t i = n - 1; i-- > 0;) x[i] = (r[i] - off[i] * x[i + 1]) / d[i];
        for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(work[4 * i + c], x[i], 1e-4 * std::abs(x[i]) + 1e-6) << i << " " << c;
    }
}
