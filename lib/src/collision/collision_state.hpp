// springkit — what an instance keeps for its colliders and contacts (private;
// a member of Simulation::Impl, stepped by the "contacts" stages in
// lib/src/collision/contact_stage.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "springkit/colliders.hpp"

namespace springkit::detail {

struct CollisionState {
    std::shared_ptr<const ColliderSet> colliders;  ///< what set_colliders() gave; may be null
    std::vector<Contact> contacts;   ///< of the last step, by node then collider
    std::vector<Contact> pending;    ///< gathered over the current step's substeps
    /// Per node: index into pending of its latest contact this step, or kNone.
    std::vector<std::uint32_t> latest;
    std::vector<std::uint32_t> touched;      ///< nodes with a contact this step, in the order first touched
    std::vector<std::uint32_t> previous_of;  ///< per pending entry: the node's contact before it, or kNone
    float time_in_frame = 0.0f;      ///< s since the start of the current step
    std::vector<std::uint32_t> candidates;  ///< scratch: nodes near the collider at hand
    std::vector<unsigned char> near;        ///< scratch: 1 per node near it
    /// Per collider, per node: the triangle mesh's slot that the node found
    /// nearest last (a search hint only: results do not depend on it).
    std::vector<std::vector<std::uint32_t>> mesh_hints;
    static constexpr std::uint32_t kNone = 0xffffffffu;
};

}  // namespace springkit::detail
