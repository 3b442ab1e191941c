// springkit-editor — what the groups panel does to a model's spring groups,
// as plain functions over the group list (Document::set_spring_groups applies
// the result as one undo entry). Plain C++: tests drive it without a window.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "springkit/model.hpp"

namespace springkit::editor {

/// "group 1", "group 2", ...: the first such name no group of `groups` has.
std::string unused_group_name(std::span<const SpringGroup> groups);

/// `groups` with a new group of `springs` (scale 1, the model's damping) named
/// `name` (or an unused name when empty) at the end; the springs leave the
/// groups they were in (each spring is in one group at most). The members are
/// kept ascending and unique.
std::vector<SpringGroup> with_new_group(std::vector<SpringGroup> groups, std::span<const std::uint32_t> springs,
                                        std::string name = {});

/// `groups` with the springs of `springs` added to group `index` (leaving any
/// other group).
std::vector<SpringGroup> with_springs_in_group(std::vector<SpringGroup> groups, std::size_t index,
                                               std::span<const std::uint32_t> springs);

}  // namespace springkit::editor
