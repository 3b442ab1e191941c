// frame_cost (springkit/frame_cost.hpp): the work of a 1/60 s frame from a
// model's counts, and whether it fits in the frame.
#include <gtest/gtest.h>

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

// The implicit integrator costs per node and iteration, not per spring visit: a
// 128 x 128 cloth at 20 iterations in 9 substeps is some 3 million node
// iterations, far beyond a frame (it was seen at about half a second), while one
// iteration at one step a frame fits.
TEST(FrameCost, ImplicitIterationsAreCountedPerNode) {
    ClothSpec spec;
    spec.columns = spec.rows = 128;
    Model m = make_cloth(spec);
    m.params.integrator = Integrator::implicit;
    m.params.implicit_iterations = 20;
    m.params.max_substep = 0.002f;
    const FrameCost slow = frame_cost(m);
    EXPECT_EQ(slow.implicit_node_iterations, 9u * 20u * 16384u);
    EXPECT_DOUBLE_EQ(slow.seconds, 9.0 * 20.0 * 16384.0 * kSecondsPerImplicitNodeIteration);
    EXPECT_FALSE(slow.real_time());

    m.params.implicit_iterations = 1;
    m.params.max_substep = 1.0f / 60.0f;
    const FrameCost fast = frame_cost(m);
    EXPECT_EQ(fast.implicit_node_iterations, 16384u);
    EXPECT_TRUE(fast.real_time());

    m.params.integrator = Integrator::symplectic_euler;
    EXPECT_EQ(frame_cost(m).implicit_node_iterations, 0u);
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
    EXPECT_DOUBLE_EQ(c.seconds, 80 * kSecondsPerImplicitNodeIteration + 150 * kSecondsPerStrainLimitVisit);
}
