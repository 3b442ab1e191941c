// springkit-editor — spring groups as the groups panel edits them (spring_groups.hpp).
#include "editing/spring_groups.hpp"

#include <algorithm>

namespace springkit::editor {

std::string unused_group_name(std::span<const SpringGroup> groups) {
    for (std::size_t n = 1;; ++n) {
        std::string name = "group " + std::to_string(n);
        if (std::none_of(groups.begin(), groups.end(), [&](const SpringGroup& g) { return g.name == name; }))
            return name;
    }
}

std::vector<SpringGroup> with_springs_in_group(std::vector<SpringGroup> groups, std::size_t index,
                                               std::span<const std::uint32_t> springs) {
    std::vector<std::uint32_t> sorted(springs.begin(), springs.end());
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (g == index) continue;
        std::erase_if(groups[g].springs,
                      [&](std::uint32_t s) { return std::binary_search(sorted.begin(), sorted.end(), s); });
    }
    if (index < groups.size()) {
        std::vector<std::uint32_t>& members = groups[index].springs;
        members.insert(members.end(), sorted.begin(), sorted.end());
        std::sort(members.begin(), members.end());
        members.erase(std::unique(members.begin(), members.end()), members.end());
    }
    return groups;
}

std::vector<SpringGroup> with_new_group(std::vector<SpringGroup> groups, std::span<const std::uint32_t> springs,
                                        std::string name) {
    SpringGroup g;
    g.name = name.empty() ? unused_group_name(groups) : std::move(name);
    groups.push_back(std::move(g));
    const std::size_t index = groups.size() - 1;
    return with_springs_in_group(std::move(groups), index, springs);
}

}  // namespace springkit::editor
