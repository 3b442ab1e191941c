// Heap bytes a prepared body and a running instance hold per node, against
// what their arrays need (docs/PERFORMANCE.md, "Memory per node and per
// spring"): an array that a model never reads, or the slack of a vector's
// growth, shows here. Measured with mallinfo2() (or ASan's count) around each
// part; skipped where the allocator does not report (TSan).
#include <gtest/gtest.h>

#include <cstdint>

#include "springkit/springkit.hpp"
#include "support/memory_use.hpp"
#include "support/scattered.hpp"
#include "support/test_files.hpp"

using namespace springkit;

namespace {

Model cloth(int side) { return make_cloth({.columns = side, .rows = side, .anchors = ClothAnchors::top_corners}); }

// A converted mesh's layout: nodes in scattered order, renumbered along the
// springs, most springs in no run.
Model reordered_cloth(int side) {
    Model m = cloth(side);
    test::scatter_nodes(m, 5);
    reorder_for_locality(m);
    return m;
}

double per_node(std::size_t bytes, const Model& m) {
    return static_cast<double>(bytes) / static_cast<double>(m.node_count());
}

}  // namespace

TEST(Memory, ALoadedModelHoldsItsArraysWithoutSlack) {
    if (!test::heap_is_measurable()) GTEST_SKIP() << "the allocator does not report heap use";
    const Model m = cloth(128);
    const test::TempDir dir;
    // Positions, springs, faces and texcoords at their sizes, and a little for
    // the strings and the allocator's headers: no slack of growing vectors.
    const std::size_t arrays = m.positions.size() * sizeof(Vec3) + m.springs.size() * sizeof(Spring) +
                               m.faces.size() * sizeof(Face) + m.texcoords.size() * sizeof(TexCoord);
    for (const char* name : {"cloth.json", "cloth.skb"}) {
        SCOPED_TRACE(name);
        save_model(m, dir.path() / name);
        const test::MemoryUse use = test::measure_memory([&] { return load_model(dir.path() / name); });
        EXPECT_GE(use.model, arrays);
        EXPECT_LT(use.model, arrays + 4096);
    }
}

TEST(Memory, AClothsInstanceHoldsFourNodeArraysAndWhatItIsAskedFor) {
    if (!test::heap_is_measurable()) GTEST_SKIP() << "the allocator does not report heap use";
    const Model m = cloth(128);
    const test::MemoryUse use = test::measure_memory([&] { return m; });
    // Position, velocity and force as float arrays and the normals normals()
    // shows: 4 x 12 bytes a node. No previous positions (symplectic Euler), no
    // copy of the inverse masses, no normal sums of their own, no packed state
    // (no loose springs), and no Vec3 copies of positions and velocities
    // until positions() and velocities() are asked for.
    const double instance = per_node(use.instance, m);
    EXPECT_GE(instance, 48.0);
    EXPECT_LT(instance, 52.0);
    // Each accessor, once called, holds its copy: 12 bytes a node each (and
    // the allocator's header and page for the block: under 8 KB).
    const double positions = per_node(use.instance_drawn - use.instance, m);
    const double velocities = per_node(use.instance_read - use.instance_drawn, m);
    EXPECT_GE(positions, 12.0);
    EXPECT_LT(positions, 12.5);
    EXPECT_GE(velocities, 12.0);
    EXPECT_LT(velocities, 12.5);
    // The body beside its model copy: the springs' values per run slot (k,
    // k * rest, rest: uniform runs hold none) and the inverse masses, 62-67
    // bytes a node here; no per-spring k, damping or index arrays for a cloth
    // whose springs share them (any one of them: 4 bytes x 5.9 springs a node
    // more), no mass array for equal masses.
    const double derived = per_node(use.body - use.body_model, m);
    EXPECT_LT(derived, 80.0);
}

TEST(Memory, AOneThreadInstanceReadsTheBodysLooseSprings) {
    if (!test::heap_is_measurable()) GTEST_SKIP() << "the allocator does not report heap use";
    const Model m = reordered_cloth(96);
    const test::MemoryUse use = test::measure_memory([&] { return m; });
    // Most of its 6 springs a node are loose: a copy of them (a, b, k, k *
    // rest) would be 16 bytes each, about 90 a node. The one thread reads the
    // body's, and all its faces without a list of them (2 a node, 8 bytes);
    // the instance holds the four node arrays, the packed node state where
    // the CPU has AVX2 (24 bytes a node) and the thread's small tables.
    EXPECT_LT(per_node(use.instance, m), 48.0 + 24.0 + 2.0);
    // The body: its loose springs once (a, b, k, k * rest, rest: 20 bytes
    // each), run values for the rest and the inverse masses.
    EXPECT_LT(per_node(use.body - use.body_model, m), 6.0 * 20.0 + 12.0);
}
