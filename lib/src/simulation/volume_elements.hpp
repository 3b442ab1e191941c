// springkit — volume elements as the step reads them (volume_elements.cpp):
// the elements' corners and constants in structure-of-arrays form, the pass
// that computes their corner forces into a buffer (corners gathered, then a
// loop over independent elements, vectorised) and the serial pass that adds
// them into the nodes.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "springkit/model.hpp"

namespace springkit::detail {

/// Model::volume_elements, one array per field: element i has corners
/// node[0][i] .. node[3][i], 6 V0 = rest6[i] (6.0f * VolumeElement::rest,
/// rounded as the formula rounds it) and 1 / sum_j |6 dV/dx_j|^2 at the
/// model's positions = scale[i], the element's 1 / (36 G).
/// The buffer of volume_element_forces(): for up to kVolumeElementBlock
/// elements, the forces on corners 1, 2, 3 and their sum (minus the force on
/// corner 0), each as x, y and z arrays: array a of element i at
/// a * kVolumeElementBlock + i. (A block's buffer, 12 KiB, stays in L1 between
/// the two passes.)
inline constexpr std::size_t kVolumeForceArrays = 12;
inline constexpr std::size_t kVolumeElementBlock = 256;
inline constexpr std::size_t kVolumeBlockFloats = kVolumeForceArrays * kVolumeElementBlock;

struct VolumeElementArrays {
    std::array<std::vector<std::uint32_t>, 4> node;
    std::vector<float> rest6;
    std::vector<float> scale;
    std::size_t size() const { return rest6.size(); }
    /// The stage's blocks: block b holds elements [begin(b), end(b)).
    std::size_t blocks() const { return (size() + kVolumeElementBlock - 1) / kVolumeElementBlock; }
    static std::size_t begin(std::size_t block) { return block * kVolumeElementBlock; }
    std::size_t end(std::size_t block) const { return std::min(size(), begin(block) + kVolumeElementBlock); }
};
VolumeElementArrays volume_element_arrays(const Model& model);

/// The forces of elements [begin, end) (end - begin <= kVolumeElementBlock)
/// at the positions x, y, z and stiffness k into `out` (element begin + i at
/// index i of each array): f_j = -k (6V - 6V0) s g_j with g_j = 6 dV/dx_j, s
/// the element's scale, or 1 / sum |g|^2 now where that is smaller
/// (volume_elements.cpp), and their sum f_1 + f_2 + f_3 (from left to right).
/// Every element is independent of the others: a vector loop whose lanes are
/// elements, with the operations of the scalar formula in its order, so each
/// lane rounds as the scalar formula does (the build's -ffp-contract=off; the
/// AVX-512, AVX2 and baseline clones give the same bits).
/// The positions the corners are gathered from: x, y, z arrays, and the
/// packed node state (packed_node_state.hpp) where the step keeps one for this
/// substep (nullptr otherwise), which the gather then prefers.
struct NodePositions {
    const float* x;
    const float* y;
    const float* z;
    const float* packed = nullptr;
};
void volume_element_forces(const VolumeElementArrays& elements, const NodePositions& at, float k, std::size_t begin,
                           std::size_t end, float* out);

/// Adds the forces that volume_element_forces() wrote for elements
/// [begin, end) into fx, fy, fz, element after element (corner 0 gets minus
/// the sum, then corners 1, 2, 3 theirs): the order of the sums is the
/// elements', whatever computed the buffer.
void add_volume_element_forces(const VolumeElementArrays& elements, const float* in, std::size_t begin,
                               std::size_t end, float* fx, float* fy, float* fz);

}  // namespace springkit::detail
