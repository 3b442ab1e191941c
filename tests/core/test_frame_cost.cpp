// frame_cost (springkit/frame_cost.hpp): the work of a 1/60 s frame from a
// model's counts, and whether it fits in the frame.
#include <gtest/gtest.h>

#include "simulation/global_iteration.hpp"
#include "springkit/springkit.hpp"

using namespace springkit;

namespace {

/// A chain of `hooke` springs followed by `ropes` rope constraints.
Model chain(std::uint32_t hooke, std::uint32_t ropes) {
    Model m;
    for (std::uint32_t i = 0; i <= hooke + ropes; ++i) m.positions.push_back({static_cast<float>(i), 0, 0});
    for (std::uint32_t i = 0; i < hooke + ropes; ++i)
        m.springs.push_back({.a = i, .b = i + 1, .rest = 1.0f, .k = 0.0f,
                             .kind = i < hooke ? SpringKind::hooke : SpringKind::rope});
    return m;
}

}  // namespace

TEST(FrameCost, CountsSubstepsSpringsAndRopePasses) {
    Model m = chain(2, 3);
    m.params.max_substep = 1.0f / 600.0f;  // 10 substeps per 1/60 s
    m.params.rope_iterations = 7;
    const FrameCost c = frame_cost(m);
    EXPECT_EQ(c.substeps, 10u);
    EXPECT_EQ(c.spring_visits, 20u);
    EXPECT_EQ(c.rope_visits, 210u);  // 10 substeps x 7 passes x 3 constraints
    EXPECT_DOUBLE_EQ(c.seconds, 20 * kSecondsPerSpringVisit + 210 * kSecondsPerRopeVisit);
    EXPECT_TRUE(c.real_time());
}

TEST(FrameCost, SubstepsAreTakenAsTheStepTakesThem) {
    Model m = chain(1, 0);
    m.params.max_substep = 0.002f;  // 8.33 -> 9
    EXPECT_EQ(frame_cost(m).substeps, 9u);
    EXPECT_EQ(frame_cost(m).substeps, [&] {
        Simulation sim(m);
        sim.step(1.0f / 60.0f);
        return sim.substeps_taken();
    }());
}

// 20,000 rope constraints relaxed 1000 times per substep: 180 million visits
// per frame, about a second and a half, where a frame has 16.7 ms.
TEST(FrameCost, TwentyThousandRopeConstraintsAtAThousandPassesAreNotRealTime) {
    Model m = chain(0, 20000);
    m.params.rope_iterations = 1000;
    const FrameCost c = frame_cost(m);
    EXPECT_EQ(c.rope_visits, 9u * 1000u * 20000u);
    EXPECT_GT(c.seconds, 1.0);
    EXPECT_FALSE(c.real_time());
}

// The implicit integrator's iteration costs its springs' local step and a
// back-substitution through the factor, whose size the symbolic analysis
// knows: a chain's matrix is tridiagonal and its factor has no fill (one entry
// below the diagonal per spring between free nodes), a complete graph's factor
// is full (n (n - 1) / 2). A 128 x 128 cloth at 20 iterations in 9 substeps
// is far beyond a frame (it was seen at about half a second), one iteration at
// one step a frame fits.
TEST(FrameCost, ImplicitIterationsCostTheirSpringsAndTheirFactor) {
    Model m = chain(10, 0);
    m.params.integrator = Integrator::implicit;
    m.params.implicit_iterations = 3;
    m.params.max_substep = 1.0f / 120.0f;  // 2 substeps
    FrameCost c = frame_cost(m);
    EXPECT_EQ(c.implicit_node_iterations, 2u * 3u * 11u);
    EXPECT_EQ(c.implicit_factor_entries, 10u);
    EXPECT_EQ(c.implicit_matrix_entries, 11u + 2u * 10u);
    EXPECT_FALSE(c.implicit_iterates);
    EXPECT_DOUBLE_EQ(c.seconds, 6 * (10 * kSecondsPerImplicitSpring + 10 * kSecondsPerFactorEntry));
    m.anchors = {{.node = 0}};  // 10 free nodes, 9 springs between them
    c = frame_cost(m);
    EXPECT_EQ(c.implicit_factor_entries, 9u);
    EXPECT_EQ(c.implicit_matrix_entries, 10u + 2u * 9u);

    Model full;
    full.params = m.params;
    for (int i = 0; i < 20; ++i) full.positions.push_back({static_cast<float>(i), static_cast<float>(i * i), 0});
    for (std::uint32_t a = 0; a < 20; ++a)
        for (std::uint32_t b = a + 1; b < 20; ++b) full.springs.push_back({a, b, 1.0f});
    c = frame_cost(full);
    EXPECT_EQ(c.implicit_factor_entries, 190u);
    EXPECT_DOUBLE_EQ(c.seconds, 6 * (190 * kSecondsPerImplicitSpring + 190 * kSecondsPerFactorEntry));

    ClothSpec spec;
    spec.columns = spec.rows = 128;
    Model cloth = make_cloth(spec);
    cloth.params.integrator = Integrator::implicit;
    cloth.params.implicit_iterations = 20;
    cloth.params.max_substep = 0.002f;
    EXPECT_EQ(frame_cost(cloth).implicit_node_iterations, 9u * 20u * 16384u);
    EXPECT_FALSE(frame_cost(cloth).real_time());
    cloth.params.implicit_iterations = 1;
    cloth.params.max_substep = 1.0f / 60.0f;
    EXPECT_EQ(frame_cost(cloth).implicit_node_iterations, 16384u);
    EXPECT_TRUE(frame_cost(cloth).real_time());
    cloth.params.integrator = Integrator::symplectic_euler;
    EXPECT_EQ(frame_cost(cloth).implicit_node_iterations, 0u);
}

// Past the factor's bounds the global step iterates: conjugate gradients over
// the matrix's entries, each global step some kConjugateGradientIterations of them.
TEST(FrameCost, ImplicitStepPastTheFactorsBoundsCostsConjugateGradients) {
    Model m = chain(10, 0);
    m.params.integrator = Integrator::implicit;
    m.params.implicit_iterations = 3;
    m.params.max_substep = 1.0f / 60.0f;
    const detail::FactorBounds kept = detail::set_factor_bounds({.work = 1.0, .entries = 1.0});
    const FrameCost c = frame_cost(m);
    detail::set_factor_bounds(kept);
    EXPECT_TRUE(c.implicit_iterates);
    EXPECT_EQ(c.implicit_factor_entries, 0u);
    EXPECT_EQ(c.implicit_matrix_entries, 31u);
    EXPECT_DOUBLE_EQ(c.seconds,
                     3 * (10 * kSecondsPerImplicitSpring + kConjugateGradientIterations * 31 * kSecondsPerMatrixEntry));
}

// Volume elements, self-collision and the implicit strain limit cost per item
// and substep on top of the springs: a jelly's 27 elements, a cloth's nodes each
// searching for neighbours, and strain-limit passes over the implicit cloth's
// springs are counted, each at its own measured price.
TEST(FrameCost, ElementsSelfCollisionAndStrainLimitAreCounted) {
    Model m = chain(3, 0);
    m.params.max_substep = 1.0f / 600.0f;  // 10 substeps
    m.volume_elements.resize(27);
    FrameCost c = frame_cost(m);
    EXPECT_EQ(c.element_visits, 270u);
    EXPECT_EQ(c.self_collision_node_visits, 0u);
    EXPECT_DOUBLE_EQ(c.seconds, 30 * kSecondsPerSpringVisit + 270 * kSecondsPerElementVisit);

    m.volume_elements.clear();
    m.params.self_collision_distance = 0.01f;
    c = frame_cost(m);
    EXPECT_EQ(c.self_collision_node_visits, 40u);  // 4 nodes x 10 substeps
    EXPECT_DOUBLE_EQ(c.seconds, 30 * kSecondsPerSpringVisit + 40 * kSecondsPerSelfCollisionNodeVisit);

    m.params.self_collision_distance = 0.0f;
    m.params.integrator = Integrator::implicit;
    m.params.implicit_iterations = 2;
    m.params.strain_limit_passes = 5;
    EXPECT_EQ(frame_cost(m).strain_limit_visits, 0u) << "no strain limit asked";
    m.params.strain_limit = 0.01f;
    c = frame_cost(m);
    EXPECT_EQ(c.strain_limit_visits, 150u);  // 10 substeps x 5 passes x 3 springs
    // 20 iterations (10 substeps x 2) of 3 springs through a factor of 3 entries
    EXPECT_DOUBLE_EQ(c.seconds, 20 * (3 * kSecondsPerImplicitSpring + 3 * kSecondsPerFactorEntry) +
                                    150 * kSecondsPerStrainLimitVisit);
}
