// springkit CLI — what changed between two models, named: which springs (by
// node pair), which nodes, which parameters. `diff` prints it and `check` uses
// it as the exact structural fingerprint of a golden's model.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "springkit/model.hpp"

namespace springkit::cli {

/// One line per difference of `b` against `a` ("spring 17 (nodes 3-4): k 1000
/// -> 2000 N/m", "parameter k: 1000 -> 1010", "texcoord 7: (0.5, 0.25) ->
/// (0.5, 0.3)"); empty when the models are equal. At most `limit` lines per
/// kind of change are listed one by one, the rest counted; a change that is the
/// same for all of its kind is one line (a scaled rest length, a moved model, a
/// new global k is "parameter k" alone, not one line per spring). When `b` has
/// `a`'s nodes in another order (the same positions, a permutation), the first
/// line says so and the rest compares through that renumbering: the same shape
/// renumbered (reorder_for_locality) is otherwise identical.
std::vector<std::string> model_differences(const Model& a, const Model& b, std::size_t limit);

}  // namespace springkit::cli
