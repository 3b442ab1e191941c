// springkit — node order for speed. The runtime streams springs whose nodes lie
// close together in the node arrays (Simulation's batched kernel); a mesh whose
// vertices come in scattered order steps several times slower than the same
// mesh numbered along its surface (docs/PERFORMANCE.md measures it). The
// converter renumbers what it converts; games and tools may call this too.
#pragma once

#include <cstdint>
#include <vector>

#include "springkit/model.hpp"

namespace springkit {

/// Renumbers the nodes of `model` in reverse Cuthill-McKee order over its
/// springs (a breadth-first walk from an outlying node, neighbours by
/// increasing degree, reversed: Cuthill and McKee 1969, George 1971), which
/// keeps every spring's two nodes close in the arrays, and remaps springs,
/// faces, anchors, constant forces, tethers and tubes to match. Nothing else
/// changes: the model behaves the same (up to float rounding).
///
/// Leaves the model as it is and returns an empty vector when its order is
/// already good (springs on average within 4 sqrt(n) + 16 nodes, as a surface
/// numbered row by row; most springs in runs of consecutive nodes, as the
/// builders' grids; or springs already at least as close as the new order would
/// put them), or when it has beads (their chains must stay consecutive nodes).
/// Otherwise returns the new index of each old node. An invalid model is left
/// as it is too (validate() says why).
std::vector<std::uint32_t> reorder_for_locality(Model& model);

/// Renumbers the nodes of `model`: old node i becomes new_index[i] (a
/// permutation of 0 .. node_count() - 1), remapping everything that refers to
/// nodes. Throws springkit::Error, leaving the model as it was, for an invalid
/// model, when new_index is not such a permutation, or when a bead's chain would
/// not stay consecutive nodes.
void renumber_nodes(Model& model, const std::vector<std::uint32_t>& new_index);

}  // namespace springkit
