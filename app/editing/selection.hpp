// springkit-editor — what is selected: nodes (in the order they were picked, the
// last one active) and springs. Plain C++; indices refer to the document's model.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "springkit/model.hpp"

namespace springkit::editor {

/// How a click or a box combines with what is already selected (Blender: click
/// replaces, Shift adds or toggles, Ctrl subtracts).
enum class SelectMode : std::uint8_t { replace, add, toggle, subtract };

class Selection {
public:
    const std::vector<std::uint32_t>& nodes() const { return nodes_; }
    const std::vector<std::uint32_t>& springs() const { return springs_; }
    /// The node picked last (what previous/next and the arrow keys act on).
    std::optional<std::uint32_t> active_node() const;
    bool has_node(std::uint32_t node) const;
    bool has_spring(std::uint32_t spring) const;
    bool empty() const { return nodes_.empty() && springs_.empty(); }

    void clear();
    void select_node(std::uint32_t node, SelectMode mode);
    void select_nodes(std::span<const std::uint32_t> nodes, SelectMode mode);
    void select_spring(std::uint32_t spring, SelectMode mode);
    void select_springs(std::span<const std::uint32_t> springs, SelectMode mode);

    /// Oliveira's loop through the nodes: the one after (or before) the active node,
    /// wrapping around; selects node 0 (or the last) when nothing is active.
    void next_node(std::size_t node_count);
    void previous_node(std::size_t node_count);

    /// Call after every change of the model: drops nodes that no longer exist, and
    /// the selected springs when the number of springs changed (indices shifted).
    void fit(const Model& model);

private:
    std::vector<std::uint32_t> nodes_;
    std::vector<std::uint32_t> springs_;
    std::size_t spring_count_ = 0;  ///< springs in the model at the last fit()
};

/// The two nodes a new spring would join: the last two selected nodes, if any.
std::optional<std::pair<std::uint32_t, std::uint32_t>> spring_candidate(const Selection& selection);

}  // namespace springkit::editor
