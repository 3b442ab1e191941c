// springkit-editor — selection of nodes and springs.
#include "editing/selection.hpp"

#include <algorithm>

namespace springkit::editor {

namespace {

void combine(std::vector<std::uint32_t>& set, std::span<const std::uint32_t> items, SelectMode mode) {
    if (mode == SelectMode::replace) set.clear();
    // Membership flags keep a box selection of many thousand nodes linear.
    std::uint32_t largest = 0;
    for (std::uint32_t i : set) largest = std::max(largest, i);
    for (std::uint32_t i : items) largest = std::max(largest, i);
    std::vector<char> in_set(std::size_t{largest} + 1, 0), in_items(std::size_t{largest} + 1, 0);
    for (std::uint32_t i : set) in_set[i] = 1;
    for (std::uint32_t i : items) in_items[i] = 1;

    std::vector<std::uint32_t> out;
    out.reserve(set.size() + items.size());
    // Items already selected and picked again move to the end (the active end).
    const bool keep_picked = mode == SelectMode::replace || mode == SelectMode::add;
    for (std::uint32_t i : set)
        if (!in_items[i]) out.push_back(i);
    for (std::uint32_t i : items) {
        if (!in_items[i]) continue;  // a duplicate within items
        in_items[i] = 0;
        if (keep_picked || (mode == SelectMode::toggle && !in_set[i])) out.push_back(i);
    }
    set = std::move(out);
}

}  // namespace

std::optional<std::uint32_t> Selection::active_node() const {
    if (nodes_.empty()) return std::nullopt;
    return nodes_.back();
}

bool Selection::has_node(std::uint32_t node) const {
    return std::find(nodes_.begin(), nodes_.end(), node) != nodes_.end();
}

bool Selection::has_spring(std::uint32_t spring) const {
    return std::find(springs_.begin(), springs_.end(), spring) != springs_.end();
}

void Selection::clear() {
    nodes_.clear();
    springs_.clear();
}

void Selection::select_node(std::uint32_t node, SelectMode mode) {
    const std::uint32_t one[] = {node};
    select_nodes(one, mode);
}

void Selection::select_nodes(std::span<const std::uint32_t> nodes, SelectMode mode) {
    if (mode == SelectMode::replace) springs_.clear();
    combine(nodes_, nodes, mode);
}

void Selection::select_spring(std::uint32_t spring, SelectMode mode) {
    if (mode == SelectMode::replace) nodes_.clear();
    const std::uint32_t one[] = {spring};
    combine(springs_, one, mode);
}

void Selection::select_springs(std::span<const std::uint32_t> springs, SelectMode mode) {
    if (mode == SelectMode::replace) nodes_.clear();
    combine(springs_, springs, mode);
}

void Selection::next_node(std::size_t node_count) {
    if (node_count == 0) return;
    const auto active = active_node();
    const auto next = active ? static_cast<std::uint32_t>((*active + 1) % node_count) : 0u;
    select_node(next, SelectMode::replace);
}

void Selection::previous_node(std::size_t node_count) {
    if (node_count == 0) return;
    const auto active = active_node();
    const auto count = static_cast<std::uint32_t>(node_count);
    const std::uint32_t previous = active ? (*active + count - 1) % count : count - 1;
    select_node(previous, SelectMode::replace);
}

void Selection::fit(const Model& model) {
    const std::size_t n = model.node_count();
    std::erase_if(nodes_, [&](std::uint32_t i) { return i >= n; });
    if (model.springs.size() != spring_count_) springs_.clear();
    spring_count_ = model.springs.size();
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> spring_candidate(const Selection& selection) {
    const auto& nodes = selection.nodes();
    if (nodes.size() < 2) return std::nullopt;
    return std::pair{nodes[nodes.size() - 2], nodes.back()};
}

}  // namespace springkit::editor
