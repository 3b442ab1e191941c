// Node order for speed (locality.hpp): renumbering keeps the model's meaning,
// and reorder_for_locality() brings scattered nodes close together while
// leaving well-ordered models alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
using springkit::test::error_of;

namespace {

std::vector<std::uint32_t> shuffled_indices(std::size_t n, unsigned seed) {
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), std::mt19937(seed));
    return order;
}

double mean_spring_distance(const Model& m) {
    double sum = 0.0;
    for (const Spring& s : m.springs) sum += std::max(s.a, s.b) - std::min(s.a, s.b);
    return sum / static_cast<double>(m.springs.size());
}

}  // namespace

TEST(Locality, RenumberingRemapsEveryReferenceToANode) {
    Model m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    m.masses = {1, 2, 3, 4};
    add_spring(m, 0, 1);
    add_spring(m, 2, 3);
    m.faces.push_back({{0, 1, 2}, {0, 0, 0}});
    m.texcoords.push_back({});
    m.anchors.push_back({.node = 3});
    m.constant_forces.push_back({.node = 1, .force = {0, 5, 0}});
    m.tethers.push_back({.node = 2, .point = {0, 2, 0}, .length = 1.0f});
    m.tubes.push_back({.nodes = {0, 1, 3}});
    renumber_nodes(m, {3, 2, 1, 0});  // old node i becomes 3 - i
    EXPECT_EQ(m.positions, (std::vector<Vec3>{{1, 1, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 0}}));
    EXPECT_EQ(m.masses, (std::vector<float>{4, 3, 2, 1}));
    EXPECT_EQ(m.springs[0].a, 3u);
    EXPECT_EQ(m.springs[0].b, 2u);
    EXPECT_EQ(m.springs[1].a, 1u);
    EXPECT_EQ(m.springs[1].b, 0u);
    EXPECT_EQ(m.faces[0].node[0], 3u);
    EXPECT_EQ(m.faces[0].node[1], 2u);
    EXPECT_EQ(m.faces[0].node[2], 1u);
    EXPECT_EQ(m.anchors[0].node, 0u);
    EXPECT_EQ(m.constant_forces[0].node, 2u);
    EXPECT_EQ(m.tethers[0].node, 1u);
    EXPECT_EQ(m.tubes[0].nodes, (std::vector<std::uint32_t>{3, 2, 0}));
}

TEST(Locality, RenumberingRefusesWhatIsNotAPermutationAndChangesNothing) {
    Model m = make_string({.nodes = 4});
    const Model before = m;
    EXPECT_EQ(error_of([&] { renumber_nodes(m, {0, 1, 1, 2}); }),
              "renumber_nodes: the new indices are not a permutation of the model's 4 nodes");
    EXPECT_EQ(error_of([&] { renumber_nodes(m, {0, 1, 2}); }),
              "renumber_nodes: the new indices are not a permutation of the model's 4 nodes");
    EXPECT_EQ(m, before);
    Model beads = make_sample("bead-rope");
    const Model beads_before = beads;
    const std::vector<std::uint32_t> scattered = shuffled_indices(beads.node_count(), 3);
    EXPECT_NE(error_of([&] { renumber_nodes(beads, scattered); }).find("would no longer be consecutive nodes"),
              std::string::npos);
    EXPECT_EQ(beads, beads_before);
}

TEST(Locality, ScatteredNodesAreBroughtTogetherAndTheModelBehavesTheSame) {
    const Model ordered = make_cloth({.columns = 40, .rows = 30});
    Model scattered = ordered;
    renumber_nodes(scattered, shuffled_indices(ordered.node_count(), 11));
    Model reordered = scattered;
    const std::vector<std::uint32_t> new_index = reorder_for_locality(reordered);
    ASSERT_EQ(new_index.size(), ordered.node_count());
    // Scattered: about a third of the nodes apart on average. Reverse
    // Cuthill-McKee keeps springs within a couple of rows (40 nodes each).
    EXPECT_GT(mean_spring_distance(scattered), 300.0);
    EXPECT_LT(mean_spring_distance(reordered), 80.0) << mean_spring_distance(reordered);
    validate(reordered);

    Simulation a(scattered), b(reordered);
    for (int i = 0; i < 60; ++i) {
        a.step(1.0f / 60.0f);
        b.step(1.0f / 60.0f);
    }
    double moved = 0.0;
    for (std::size_t i = 0; i < scattered.node_count(); ++i) {
        // Only the order forces are summed in differs: float rounding.
        EXPECT_LT(length(a.positions()[i] - b.positions()[new_index[i]]), 1e-3f) << "node " << i;
        moved = std::max(moved, static_cast<double>(length(a.positions()[i] - scattered.positions[i])));
    }
    EXPECT_GT(moved, 0.1) << "the cloth must swing for the comparison to mean something";
}

TEST(Locality, WellOrderedModelsAndModelsWithBeadsAreLeftAsTheyAre) {
    for (Model m : {make_cloth({.columns = 30, .rows = 20}), make_jelly({.nx = 6, .ny = 5, .nz = 4}),
                    make_sample("bead-rope"), make_string({.nodes = 10})}) {
        const Model before = m;
        EXPECT_TRUE(reorder_for_locality(m).empty()) << m.name;
        EXPECT_EQ(m, before) << m.name;
    }
}

// A spring a-b continues a run when a+1 - b+1 or a-1 - b-1 is a spring too; a
// model whose springs are far apart is left as it is when at least half of them
// do (the runtime streams runs without index arrays), and renumbered otherwise.
TEST(Locality, ModelsWithHalfTheirSpringsInRunsAreLeftAsTheyAre) {
    auto model = [](int isolated) {
        Model m;
        for (int i = 0; i < 400; ++i) m.positions.push_back({float(i), float(i % 7), 0.0f});
        // 11 runs of two springs, 200 nodes apart: 22 springs that continue a
        // run, the last run ending at the last node.
        for (std::uint32_t a : {0u, 20u, 40u, 60u, 80u, 100u, 120u, 140u, 160u, 180u, 198u}) {
            add_spring(m, a, a + 200);
            add_spring(m, a + 1, a + 201);
        }
        // Springs no other one continues (no spring one node before or after).
        std::vector<std::pair<std::uint32_t, std::uint32_t>> alone;
        for (std::uint32_t j = 0; j < 10; ++j) {
            alone.push_back({20 * j + 5, 20 * j + 205});
            alone.push_back({20 * j + 10, 20 * j + 210});
        }
        alone.push_back({190, 395});
        alone.push_back({192, 390});
        alone.push_back({150, 360});
        for (int i = 0; i < isolated; ++i) add_spring(m, alone[i].first, alone[i].second);
        return m;
    };
    for (int isolated : {21, 22}) {  // 22 of 43 and 22 of 44 springs continue a run
        Model m = model(isolated);
        const Model before = m;
        EXPECT_TRUE(reorder_for_locality(m).empty()) << isolated;
        EXPECT_EQ(m, before) << isolated;
    }
    Model m = model(23);  // 22 of 45: renumbered, every spring then joins neighbours
    EXPECT_GT(mean_spring_distance(m), 190.0);
    ASSERT_EQ(reorder_for_locality(m).size(), 400u);
    EXPECT_LT(mean_spring_distance(m), 2.0) << mean_spring_distance(m);
    validate(m);
}
