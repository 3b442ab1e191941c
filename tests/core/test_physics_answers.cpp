// The physics against independent answers: conservation laws, analytic
// solutions and the exact discrete maps of the integrators.
#include <gtest/gtest.h>

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
