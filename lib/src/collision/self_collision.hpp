// springkit — what an instance keeps for self-collision (private; a member of
// Simulation::Impl, stepped by the "self-collision" stage in
// lib/src/collision/self_collision.cpp). All of it is scratch or derived from
// the body: nothing here is carried between instances or saved.
#pragma once

#include <cstdint>
#include <vector>

#include "geometry/spring_graph.hpp"

namespace springkit::detail {

struct SelfCollisionState {
    /// The nodes each node shares a spring with (any kind), each node's sorted.
    /// Built on the first substep that needs them (O(springs)); never repelled.
    SpringGraph joined;
    // The spatial hash, rebuilt every substep (Teschner et al. 2003).
    std::vector<std::uint64_t> cell;          ///< per node: its cell's key (cell_key() in self_collision.cpp)
    std::vector<unsigned char> hashed;        ///< per node: 1 when in the table (finite position)
    std::vector<std::uint32_t> bucket_of;     ///< per node: its bucket
    std::vector<std::uint32_t> bucket_begin;  ///< per bucket: its first entry; one more at the end
    /// The entries, by bucket, ascending by node within each: the node and its
    /// cell's key side by side, so that a lookup reads one run of memory.
    std::vector<std::uint64_t> entry_cell;
    std::vector<std::uint32_t> entry_node;
    /// The pairs each thread found from the nodes of its range.
    struct Pairs {
        std::vector<std::uint32_t> a, b;
    };
    std::vector<Pairs> found;
    /// The pairs found this substep (a < b are not ordered between them: a is
    /// the node whose query found b), in the order they are resolved.
    std::vector<std::uint32_t> pair_a, pair_b;
};

}  // namespace springkit::detail
