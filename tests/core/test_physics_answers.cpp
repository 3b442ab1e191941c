// The physics against independent answers: conservation laws, analytic
// solutions and the exact discrete maps of the integrators.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "springkit/springkit.hpp"

using namespace springkit;

namespace {

struct Double3 {
    double x = 0, y = 0, z = 0;
};

Double3 to_double(Vec3 v) { return {v.x, v.y, v.z}; }
Double3 operator-(Double3 a, Double3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Double3 cross(Double3 a, Double3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double norm(Double3 a) { return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z); }

Double3 centre_of_mass(const Model& m, std::span<const Vec3> positions) {
    Double3 sum;
    double mass = 0.0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const double w = m.node_mass(i);
        sum = {sum.x + w * positions[i].x, sum.y + w * positions[i].y, sum.z + w * positions[i].z};
        mass += w;
    }
    return {sum.x / mass, sum.y / mass, sum.z / mass};
}

// L = sum m (r - c) x v about the centre of mass c, in double precision.
Double3 angular_momentum(const Model& m, const Simulation& sim) {
    const Double3 c = centre_of_mass(m, sim.positions());
    Double3 l;
    for (std::size_t i = 0; i < m.node_count(); ++i) {
        const Double3 r = to_double(sim.positions()[i]) - c;
        const Double3 v = to_double(sim.velocities()[i]);
        const Double3 rv = cross(r, v);
        const double w = m.node_mass(i);
        l = {l.x + w * rv.x, l.y + w * rv.y, l.z + w * rv.z};
    }
    return l;
}

// A free jelly in vacuum: no gravity, no ground, no anchors, no energy loss,
// only spring damping.
Model free_damped_jelly() {
    Parameters p;
    p.gravity = {0, 0, 0};
    p.energy_loss = 1.0f;
    p.spring_damping = 0.2f;  // Tunca's value
    return make_jelly({.nx = 9, .ny = 7, .nz = 6}, p);
}

}  // namespace

TEST(PhysicsAnswers, SpringDampingKeepsTheAngularMomentumOfAFreeSpinningBody) {
    // Spring forces and damping along the springs are central pairs: no torque,
    // so L about the centre of mass is constant. With symplectic Euler
    // (v += F/m dt, then x += v dt) it is constant to rounding: sum r' x v' =
    // sum r x v' = L + dt sum r x F, and sum r x F = 0 for central pairs. Both
    // kernels (the batched one has runs and loose springs for this jelly).
    const Model m = free_damped_jelly();
    for (SpringKernel kernel : {SpringKernel::batched, SpringKernel::reference}) {
        Simulation sim(m, {.kernel = kernel});
        const Double3 c = centre_of_mass(m, m.positions);
        const Double3 omega{0.6, 2.0, 0.3};  // rad/s
        for (std::uint32_t i = 0; i < m.node_count(); ++i) {
            const Double3 v = cross(omega, to_double(m.positions[i]) - c);
            sim.set_velocity(i, {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)});
        }
        const Double3 before = angular_momentum(m, sim);
        for (int i = 0; i < 120; ++i) sim.step(1.0f / 60.0f);  // 2 s
        const Double3 after = angular_momentum(m, sim);
        const double error = norm(after - before) / norm(before);
        RecordProperty(kernel == SpringKernel::batched ? "batched_error" : "reference_error", std::to_string(error));
        EXPECT_LT(error, 1e-3) << "kernel " << static_cast<int>(kernel) << ": |L| " << norm(before) << " -> "
                               << norm(after);
    }
}

TEST(PhysicsAnswers, SpringDampingStillDampsAVibratingBody) {
    // The same jelly stretched by 10% and let go, not rotating: it vibrates,
    // and the damping along the springs takes the energy (E = kinetic + spring
    // energy, no gravity). Without damping symplectic Euler keeps it (within the
    // few percent its energy oscillates by at this stretch).
    for (float damping : {0.2f, 0.0f}) {
        Model m = free_damped_jelly();
        m.params.spring_damping = damping;
        const Double3 c = centre_of_mass(m, m.positions);
        for (Vec3& p : m.positions)
            p = {static_cast<float>(c.x + 1.1 * (p.x - c.x)), static_cast<float>(c.y + 1.1 * (p.y - c.y)),
                 static_cast<float>(c.z + 1.1 * (p.z - c.z))};
        Simulation sim(m);
        const double start = sim.kinetic_energy() + sim.potential_energy();
        for (int i = 0; i < 120; ++i) sim.step(1.0f / 60.0f);
        const double end = sim.kinetic_energy() + sim.potential_energy();
        RecordProperty(damping > 0.0f ? "damped_kept" : "undamped_kept", std::to_string(end / start));
        if (damping > 0.0f)
            EXPECT_LT(end, 0.1 * start) << "damped: " << start << " J -> " << end << " J";
        else
            EXPECT_NEAR(end, start, 0.1 * start) << "undamped";
    }
}

namespace {

// The speed of a node falling from rest under Verlet (energy_loss 1) over the
// frame after `seconds`, and what the discrete map gives then. With keep =
// verlet_damping^(dt * 60) per substep of dt, the node's step u = x - x_prev
// follows u' = u keep + g dt^2 from u = 0: u_n = u* (1 - keep^n) with the fixed
// point u* = g dt^2 / (1 - keep), the terminal speed v* = u* / dt =
// g dt / (1 - keep). keep^n = verlet_damping^(60 t) after time t whatever dt,
// and v* tends to g / (60 ln(1 / verlet_damping)) as dt -> 0: a fall that does
// not depend on the substep or the frame rate.
struct Fall {
    double speed = 0.0;     ///< m/s over the frame from `seconds` on (a frame's fall averages out rounding)
    double expected = 0.0;  ///< m/s, the discrete map's mean over that frame
    double terminal = 0.0;  ///< m/s, g dt / (1 - keep)
};
Fall verlet_fall(double damping, float max_substep, int rate, double seconds, float start_height) {
    const double g = 9.81;
    Model m;
    m.params.integrator = Integrator::verlet;
    m.params.verlet_damping = static_cast<float>(damping);
    m.params.energy_loss = 1.0f;
    m.params.max_substep = max_substep;
    m.positions = {{0, start_height, 0}};
    Simulation sim(m);
    const float frame = 1.0f / static_cast<float>(rate);
    const int frames = static_cast<int>(std::lround(seconds * rate));
    for (int i = 0; i < frames; ++i) sim.step(frame);
    const double before = sim.positions()[0].y;
    sim.step(frame);
    Fall f;
    f.speed = (before - sim.positions()[0].y) / frame;
    const auto substeps = static_cast<int>(std::ceil(frame / max_substep - 1e-6f));
    const double dt = static_cast<double>(frame) / substeps;
    const double keep = std::pow(damping, dt * 60.0);
    f.terminal = g * dt / (1.0 - keep);
    double fall = 0.0;  // sum of u_n over the frame's substeps
    for (int n = frames * substeps + 1; n <= (frames + 1) * substeps; ++n)
        fall += f.terminal * dt * (1.0 - std::pow(keep, n));
    f.expected = fall / frame;
    return f;
}

}  // namespace

TEST(PhysicsAnswers, VerletFallIsTheSameForEverySubstepAndFrameRate) {
    // The Source rope's 0.98, 1 s into the fall (2/3 of the terminal speed
    // 8.09 m/s): the exact discrete map within 0.3%, and the six runs within 2%
    // of each other. (The node starts at 1.7 m so that it stays near 0, where
    // float positions resolve the per-substep steps of a few millimetres.)
    double lowest = INFINITY, highest = 0.0;
    for (float max_substep : {0.0005f, 0.001f, 0.002f})
        for (int rate : {30, 60}) {
            const Fall f = verlet_fall(0.98, max_substep, rate, 1.0, 1.7f);
            EXPECT_NEAR(f.speed, f.expected, 3e-3 * f.expected) << "substep " << max_substep << " s, " << rate << " Hz";
            lowest = std::min(lowest, f.speed);
            highest = std::max(highest, f.speed);
        }
    RecordProperty("lowest", std::to_string(lowest));
    RecordProperty("highest", std::to_string(highest));
    EXPECT_LT(highest / lowest - 1.0, 0.02);
    const double continuous = 9.81 / (60.0 * std::log(1.0 / 0.98)) * (1.0 - std::pow(0.98, 60.0));
    EXPECT_NEAR(lowest, continuous, 0.02 * continuous);
}

TEST(PhysicsAnswers, VerletReachesTheTerminalSpeedOfItsDiscreteMap) {
    // v* = g dt / (1 - keep), reached after 7 time constants 1 / (60 ln(1 /
    // verlet_damping)). Strong damping (0.5: v* about 0.24 m/s, time constant
    // 24 ms) keeps the fall within centimetres of y = 0: u changes by
    // (1 - keep)(u* - u) per substep, and where that is below half the float
    // spacing of x rounding stops the approach, short of u* by ulp(x) /
    // (2 g dt^2) (3% at 30 m with 0.5 ms substeps). v* differs from its dt -> 0
    // limit by about 60 ln(1 / verlet_damping) dt / 2: 4% here at 2 ms, 0.1%
    // for 0.98.
    double lowest = INFINITY, highest = 0.0;
    for (float max_substep : {0.0005f, 0.001f, 0.002f})
        for (int rate : {30, 60}) {
            const Fall f = verlet_fall(0.5, max_substep, rate, 1.0 / 6.0, 0.02f);
            EXPECT_NEAR(f.speed, f.terminal, 2e-3 * f.terminal) << "substep " << max_substep << " s, " << rate << " Hz";
            lowest = std::min(lowest, f.speed);
            highest = std::max(highest, f.speed);
        }
    EXPECT_LT(highest / lowest - 1.0, 0.05);
}

TEST(PhysicsAnswers, ExplicitEulerIsStableJustBelowItsReportedLimitAndNotAbove) {
    // A mass on a spring (x'' = -w^2 x along the spring, which is linear there)
    // under explicit Euler with the energy loss of 0.99 a frame: 10000 substeps
    // of 2 ms at 0.9 and 1.1 of frequency_stability()'s limit. Its exact map in
    // (x, v dt) is [[1, 1], [-keep h^2, keep]] with h = w dt, whose eigenvalues
    // have modulus sqrt(det) = sqrt(keep (1 + h^2)), so the energy changes by
    // det^10000 overall (to within the few percent its ellipse is off a circle):
    // 0.10 at 0.9 of sqrt(1/keep - 1), 12.6 at 1.1.
    const float dt = 0.002f, mass = 0.05f, rest = 1.0f;
    for (double factor : {0.9, 1.1}) {
        Model m;
        m.params.gravity = {0, 0, 0};
        m.params.energy_loss = 0.99f;
        m.params.integrator = Integrator::explicit_euler;
        m.params.max_substep = dt;
        m.params.mass = mass;
        m.positions = {{0, 0, 0}, {0, -rest, 0}};
        m.springs = {{0, 1, rest}};
        m.anchors = {{.node = 0}};
        const double limit = frequency_stability(m).limit;
        const double keep = std::pow(0.99, static_cast<double>(dt) * 60.0);
        EXPECT_NEAR(limit, std::sqrt(1.0 / keep - 1.0), 1e-6);
        const double h = factor * limit;
        m.params.k = static_cast<float>(mass * (h / dt) * (h / dt));
        EXPECT_NEAR(frequency_stability(m).omega_dt, h, 1e-4 * h);
        Simulation sim(m);
        sim.set_position(1, {0, -rest - 0.01f, 0});  // 1 cm along the spring
        const double start = sim.kinetic_energy() + sim.potential_energy();
        for (int i = 0; i < 10000; ++i) sim.step(dt);  // one substep a step
        const double ratio = (sim.kinetic_energy() + sim.potential_energy()) / start;
        const double expected = std::pow(keep * (1.0 + h * h), 10000);
        RecordProperty(factor < 1.0 ? "ratio_0_9" : "ratio_1_1", std::to_string(ratio));
        EXPECT_NEAR(ratio, expected, 0.15 * expected) << "at " << factor << " of the limit";
        if (factor < 1.0)
            EXPECT_LT(ratio, 1.0) << "below the limit the energy must not grow";
        else
            EXPECT_GT(ratio, 2.0) << "above the limit it must grow";
    }
}

TEST(PhysicsAnswers, FrequencyStabilityIsThePlainPowerIterationBitForBit) {
    // frequency_stability() lays its arrays out for the cache; the number must
    // be that of the plain power iteration on A = M^-1/2 K M^-1/2 (the same
    // sums in the same order), written out here: the converter chooses and
    // writes max_substep from it. A jelly numbered at random (springs between
    // distant nodes), some nodes heavier and some anchored.
    Model m = make_jelly({.nx = 7, .ny = 6, .nz = 5});
    std::vector<std::uint32_t> order(m.node_count());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = (i * 97u + 13u) % static_cast<std::uint32_t>(order.size());
    renumber_nodes(m, order);
    m.masses.assign(m.node_count(), m.params.mass);
    for (std::size_t i = 0; i < m.node_count(); i += 5) m.masses[i] *= 3.0f;
    m.anchors = {{.node = 4}, {.node = 100}};
    m.positions[7].x += 0.01f;  // some springs stretched, one compressed: tension across them
    m.positions[150].y -= 0.02f;
    const std::size_t n = m.node_count();
    const std::vector<float> k = spring_stiffnesses(m);
    std::vector<double> s(n), v(3 * n), w(3 * n);
    for (std::size_t i = 0; i < n; ++i) s[i] = 1.0 / std::sqrt(static_cast<double>(m.node_mass(i)));
    for (const Anchor& a : m.anchors) s[a.node] = 0.0;
    std::uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (std::size_t i = 0; i < 3 * n; ++i) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        v[i] = (static_cast<double>(seed >> 11) * 0x1p-53 - 0.5) * (s[i / 3] > 0.0 ? 1.0 : 0.0);
    }
    // About 4e6 spring visits, 20 to 200 iterations; fewer when it settles.
    const auto iterations = std::clamp<std::size_t>(4'000'000 / (m.springs.size() + 1), 20, 200);
    double lambda = 0.0;
    for (std::size_t iteration = 0; iteration < iterations; ++iteration) {
        double norm = 0.0;
        for (double x : v) norm += x * x;
        norm = std::sqrt(norm);
        for (double& x : v) x /= norm;
        std::fill(w.begin(), w.end(), 0.0);
        for (std::size_t si = 0; si < m.springs.size(); ++si) {
            const Spring& sp = m.springs[si];
            const Vec3 d = m.positions[sp.b] - m.positions[sp.a];
            const double length = std::sqrt(double(d.x) * d.x + double(d.y) * d.y + double(d.z) * d.z);
            const double t = std::max(0.0, 1.0 - sp.rest / length);
            const double across = k[si] * t, along_k = k[si] * (1.0 - t);
            const double u[3] = {d.x / length, d.y / length, d.z / length};
            double r[3];
            for (int c = 0; c < 3; ++c) r[c] = v[3 * sp.a + c] * s[sp.a] - v[3 * sp.b + c] * s[sp.b];
            const double along = along_k * (r[0] * u[0] + r[1] * u[1] + r[2] * u[2]);
            for (int c = 0; c < 3; ++c) {
                const double f = across * r[c] + along * u[c];
                w[3 * sp.a + c] += f * s[sp.a];
                w[3 * sp.b + c] -= f * s[sp.b];
            }
        }
        double rayleigh = 0.0;
        for (std::size_t i = 0; i < 3 * n; ++i) rayleigh += v[i] * w[i];
        const bool settled = iteration >= 8 && std::abs(rayleigh - lambda) <= 1e-6 * rayleigh;
        lambda = rayleigh;
        v.swap(w);
        if (settled) break;
    }
    const double expected = std::sqrt(lambda) * static_cast<double>(m.params.max_substep);
    EXPECT_GT(expected, 0.1);
    EXPECT_EQ(frequency_stability(m).omega_dt, expected);
}

TEST(PhysicsAnswers, CircleAnchorFollowsOmegaTForAnHour) {
    // A jump-rope handle (12 rad/s about x, radius 1 m) driven for an hour of
    // simulated time at 60 frames a second: its angle must be omega t (in
    // double, wrapped) within 1e-4 rad all along, checked every 10 minutes.
    Model m;
    const float omega = 12.0f;
    m.params.gravity = {0, 0, 0};
    m.positions = {{0, -1, 0}};
    m.anchors = {{.node = 0, .drive = AnchorDrive::circle, .center = {0, 0, 0}, .axis = {1, 0, 0},
                  .angular_speed = omega}};
    Simulation sim(m);
    const float frame = 1.0f / 60.0f;
    for (int minutes = 10; minutes <= 60; minutes += 10) {
        while (sim.time() < minutes * 60.0 - 0.5 * frame) sim.step(frame);
        // Rodrigues about x turns (0, -1, 0) to (0, -cos a, -sin a).
        const Vec3 p = sim.positions()[0];
        const double angle = std::atan2(-static_cast<double>(p.z), -static_cast<double>(p.y));
        const double expected = std::fmod(static_cast<double>(omega) * sim.time(), 2.0 * std::numbers::pi);
        const double error = std::remainder(angle - expected, 2.0 * std::numbers::pi);
        EXPECT_LT(std::abs(error), 1e-4) << "after " << minutes << " minutes";
        EXPECT_NEAR(length(p), 1.0f, 1e-5f);
    }
}

namespace {

// A Source rope (Verlet, rope constraints) whipped by one end driven on a
// circle of 0.3 m at `omega` (12 rad/s: the end moves at 3.6 m/s) for 5 s:
// its largest segment length over rest, minus 1, at the end of each frame.
double whipped_rope_stretch(int passes, int segments, int rate, float omega = 12.0f) {
    Model m = make_source_rope({.segments = segments});
    m.params.rope_iterations = passes;
    Anchor& end = m.anchors[0];
    end.drive = AnchorDrive::circle;
    end.center = m.positions[end.node] - Vec3{0, 0.3f, 0};
    end.axis = {0, 0, 1};
    end.angular_speed = omega;
    Simulation sim(m);
    double worst = 0.0;
    for (int frame = 0; frame < 5 * rate; ++frame) {
        sim.step(1.0f / static_cast<float>(rate));
        for (const Spring& s : m.springs)
            worst = std::max(worst, static_cast<double>(length(sim.positions()[s.b] - sim.positions()[s.a])) /
                                        static_cast<double>(s.rest) - 1.0);
    }
    return worst;
}

}  // namespace

TEST(PhysicsAnswers, WhippedRopeStretchesWithinItsDocumentedBound) {
    // The Source engine's rope_iterations relaxation passes (3) shorten each
    // overlong segment in turn, which lengthens its neighbours: they do not
    // converge within a substep, and a rope pulled fast stretches. The bound
    // documented for SpringKind::rope (model.hpp) and in FILE_FORMAT.md: 3% for
    // 10 segments and 7% for 20 with 3 passes at this whip; more passes lower it.
    const double three = whipped_rope_stretch(3, 10, 60);
    RecordProperty("stretch_3_passes", std::to_string(three));
    EXPECT_LT(three, 0.03);
    EXPECT_GT(three, 0.005) << "the rope does stretch: the documented bound is not idle";
    EXPECT_LT(whipped_rope_stretch(3, 10, 30), 0.03) << "30 frames a second";
    EXPECT_LT(whipped_rope_stretch(3, 20, 60), 0.07) << "20 segments";
    EXPECT_LT(whipped_rope_stretch(10, 10, 60), 0.5 * three) << "10 passes";
    EXPECT_LT(whipped_rope_stretch(30, 10, 60), 0.005) << "30 passes";
}
