// springkit — the nodes each node shares a spring with, as compressed rows
// (private; node renumbering and self-collision read it).
#pragma once

#include <cstdint>
#include <vector>

#include "springkit/model.hpp"

namespace springkit::detail {

struct SpringGraph {
    std::vector<std::uint32_t> start;  ///< node i's neighbours are next[start[i] .. start[i + 1])
    std::vector<std::uint32_t> next;   ///< in the order of the model's springs (both kinds)
    std::uint32_t degree(std::uint32_t v) const { return start[v + 1] - start[v]; }
};

/// O(nodes + springs). A node appears once per spring it shares.
SpringGraph spring_graph(const Model& model);

}  // namespace springkit::detail
