// Islands joined by springs (converter/import/src/islands.cpp): the grid's
// nearest-node search, which skips the rings and cells outside the box of the
// nodes joined so far, against a search of every node.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "import_internal.hpp"
#include "springkit/springkit.hpp"

namespace springkit {
namespace {

// The nearest node of `joined` to p (ties to the lower index) that `used`
// does not hold, by looking at every one.
std::pair<std::uint32_t, float> nearest_of_all(const Model& m, const std::vector<std::uint32_t>& joined, Vec3 p,
                                               const std::vector<std::uint32_t>& used) {
    std::uint32_t best = UINT32_MAX;
    float distance = INFINITY;
    for (std::uint32_t n : joined) {
        if (std::find(used.begin(), used.end(), n) != used.end()) continue;
        const float d = length(m.positions[n] - p);
        if (d < distance || (d == distance && n < best)) best = n, distance = d;
    }
    return {best, distance};
}

TEST(Islands, ConnectedToTheNearestNodesAsAFullSearchFindsThem) {
    std::mt19937 random(5);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    Model m;
    // Island 0: a chain of 300 nodes in a 2 m cube; then 60 triangles, most
    // around it, some 40-60 m away on one side (far outside the joined box,
    // so their searches start rings away), some between.
    for (std::uint32_t i = 0; i < 300; ++i) {
        m.positions.push_back({2 * unit(random), 2 * unit(random), 2 * unit(random)});
        if (i > 0) add_spring(m, i - 1, i);
    }
    for (int t = 0; t < 60; ++t) {
        const float reach = t % 5 == 0 ? 40.0f + 20.0f * unit(random) : t % 5 == 1 ? 10.0f : 4.0f;
        const Vec3 c{reach * unit(random) - (t % 5 == 0 ? 0.0f : reach / 2), reach * unit(random) - reach / 2,
                     reach * unit(random) - reach / 2};
        const auto first = static_cast<std::uint32_t>(m.node_count());
        for (int k = 0; k < 3; ++k) m.positions.push_back(c + Vec3{0.1f * unit(random), 0.1f * unit(random), 0.1f * unit(random)});
        add_spring(m, first, first + 1);
        add_spring(m, first + 1, first + 2);
    }
    const std::size_t before = m.springs.size();
    const detail::Islands islands = detail::find_islands(m);
    ASSERT_EQ(islands.sizes.size(), 61u);
    Model joined_model = m;
    ASSERT_EQ(detail::connect_islands(joined_model, islands, 3), 60u * 3u);

    // The same rule, every node searched: islands largest first (the
    // triangles by their first node), each island's nodes by their distance to
    // the joined part (a stable sort of its nodes in index order), the first
    // three to distinct nodes there.
    std::vector<std::vector<std::uint32_t>> members(islands.sizes.size());
    for (std::uint32_t i = 0; i < m.node_count(); ++i) members[islands.of_node[i]].push_back(i);
    std::vector<std::uint32_t> joined = members[0];
    std::vector<Spring> expected;
    for (std::size_t k = 1; k < members.size(); ++k) {
        std::vector<std::pair<float, std::uint32_t>> order;
        for (std::uint32_t n : members[k]) order.push_back({nearest_of_all(m, joined, m.positions[n], {}).second, n});
        std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<std::uint32_t> used;
        for (const auto& [d, n] : order) {
            const auto [to, distance] = nearest_of_all(m, joined, m.positions[n], used);
            used.push_back(to);
            expected.push_back({n, to, distance});
        }
        joined.insert(joined.end(), members[k].begin(), members[k].end());
    }
    ASSERT_EQ(joined_model.springs.size(), before + expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const Spring& s = joined_model.springs[before + i];
        EXPECT_EQ(s.a, expected[i].a) << "spring " << i;
        EXPECT_EQ(s.b, expected[i].b) << "spring " << i;
        EXPECT_EQ(s.rest, expected[i].rest) << "spring " << i;
    }
}

}  // namespace
}  // namespace springkit
