// Test support: a model with its nodes numbered at random, as a mesh whose
// vertices come in scattered order (most springs in no run: loose).
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "springkit/locality.hpp"
#include "springkit/model.hpp"

namespace springkit::test {

/// Renumbers the nodes of `model` by a permutation drawn with std::mt19937(seed)
/// (old node i becomes the permutation's i-th entry).
inline void scatter_nodes(Model& model, unsigned seed) {
    std::vector<std::uint32_t> new_index(model.node_count());
    std::iota(new_index.begin(), new_index.end(), 0u);
    std::shuffle(new_index.begin(), new_index.end(), std::mt19937(seed));
    renumber_nodes(model, new_index);
}

}  // namespace springkit::test
