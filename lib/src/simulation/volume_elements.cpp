// springkit — volume elements: tetrahedra that keep their signed volume
// (Model::volume_elements, Parameters::volume_stiffness).
//
// A spring network keeps lengths, and a mirrored shape has every length of
// the shape, so a body pushed far enough (through its own thickness) can
// settle as its mirror image. The signed volume of a tetrahedron a, b, c, d,
// V = (b - a) . ((c - a) x (d - a)) / 6, changes sign in a mirror: it is the
// one quantity here with a handedness. Each element has the energy
//
//   E = k (V - V0)^2 / (2 G),   G = sum_i |dV/dx_i|^2 at the rest positions
//
// (Teschner, Heidelberger, Mueller, Gross 2004, "A versatile and robust model
// for geometrically complex deformable solids": their volume constraint
// C = V - V0 with E = k C^2 / 2; the division by G is how XPBD scales a
// constraint by its gradient, Macklin, Mueller, Chentanez 2016, and makes k
// the stiffness along the gradient, as a spring's k is along the spring).
// With 6 dV/db = (c - a) x (d - a) = g_b, and g_c, g_d in turn, and
// g_a = -(g_b + g_c + g_d) (V does not change when all four move alike), the
// force on corner i is -dE/dx_i = -k (6V - 6V0) / (36 G) g_i. The forces sum
// to zero and, V being invariant under rotation, so do their torques: the
// element moves no body as a whole. An inverted element (V = -V0) is pushed
// along its gradient until V = V0 again: V = 0 is no barrier.
//
// Pulled larger than at rest, the gradient grows with the faces' areas and
// with it the stiffness along it, k |g now|^2 / |g rest|^2: four times k for
// faces twice their rest area, which an explicit step tuned to the springs
// (the converter's substep) does not follow once a body is perturbed by a
// tenth of its size. So the sum is taken now where it is larger than at rest:
// the force stays along the gradient, towards V0, never stiffer than k (as
// XPBD, which divides by the gradient now); it is the exact gradient of E
// wherever the faces are no larger than at rest.
//
// The stage runs in passes over blocks of elements: the forces of a block
// (volume_element_forces(): its corners' positions gathered by index, with
// AVX2's gather instruction where the CPU has it, then a vector loop, each
// lane one element, with no sum shared between lanes), then their sums into
// the nodes in element order (add_volume_element_forces(), serial: two
// elements may share a corner). Each element's arithmetic is the scalar
// formula's, operation for operation, and each node receives its sums in the
// elements' order, so the split changes no bit.
#include "simulation/volume_elements.hpp"

#include <algorithm>
#include <bit>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif
#include <cmath>
#include <limits>
#include <utility>

#include "simulation/batched_loops.hpp"
#include "simulation/packed_node_state.hpp"
#include "simulation/simulation_impl.hpp"

namespace springkit {

namespace detail {

VolumeElementArrays volume_element_arrays(const Model& model) {
    VolumeElementArrays out;
    const std::size_t n = model.volume_elements.size();
    for (auto& corner : out.node) corner.resize(n);
    out.rest6.resize(n);
    out.scale.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const VolumeElement& e = model.volume_elements[i];
        for (std::size_t c = 0; c < 4; ++c) out.node[c][i] = e.node[c];
        out.rest6[i] = 6.0f * e.rest;
        const auto [g0, g1, g2, g3] = signed_volume_gradients(model.positions[e.node[0]], model.positions[e.node[1]],
                                                              model.positions[e.node[2]], model.positions[e.node[3]]);
        // 36 G = sum |g_i|^2 (validate() refuses four nodes on a line, where it is 0).
        const double sum = double(dot(g0, g0)) + double(dot(g1, g1)) + double(dot(g2, g2)) + double(dot(g3, g3));
        // (Held within float: an element a few nanometres across would overflow it.)
        out.scale[i] = sum > 0.0 ? static_cast<float>(std::min(1.0 / sum, double(std::numeric_limits<float>::max())))
                                 : 0.0f;
    }
    return out;
}

namespace {

// The corners' positions of elements [0, count) (corner c of element i is
// node n[c][i]) into pos[(3 c + axis) * kVolumeElementBlock + i]: the gathers
// apart from the arithmetic, which then streams contiguous arrays.
void gather_corners(const std::uint32_t* const* n, const float* __restrict x, const float* __restrict y,
                    const float* __restrict z, std::size_t count, float* __restrict pos) {
    constexpr std::size_t stride = kVolumeElementBlock;
    for (std::size_t c = 0; c < 4; ++c) {
        const std::uint32_t* __restrict node = n[c];
        float* __restrict px = pos + (3 * c) * stride;
        float* __restrict py = pos + (3 * c + 1) * stride;
        float* __restrict pz = pos + (3 * c + 2) * stride;
        for (std::size_t i = 0; i < count; ++i) {
            px[i] = x[node[i]];
            py[i] = y[node[i]];
            pz[i] = z[node[i]];
        }
    }
}

#if defined(SPRINGKIT_AVX2_INTRINSICS)
// gather_corners() by AVX2's gather instruction, eight elements at a time
// (GCC's vectoriser, tuned for any x86-64, loads lanes one by one instead):
// the same floats, moved. Node indices are below 2^31 (a float array of that
// many nodes would be 8 GiB), so the instruction's signed 32-bit indices hold them.
__attribute__((target("avx2"))) void gather_corners_avx2(const std::uint32_t* const* n, const float* x,
                                                         const float* y, const float* z, std::size_t count,
                                                         float* pos) {
    constexpr std::size_t stride = kVolumeElementBlock;
    for (std::size_t c = 0; c < 4; ++c) {
        const std::uint32_t* node = n[c];
        float* px = pos + (3 * c) * stride;
        float* py = pos + (3 * c + 1) * stride;
        float* pz = pos + (3 * c + 2) * stride;
        std::size_t i = 0;
        for (; i + 8 <= count; i += 8) {
            const __m256i index = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(node + i));
            _mm256_storeu_ps(px + i, _mm256_i32gather_ps(x, index, 4));
            _mm256_storeu_ps(py + i, _mm256_i32gather_ps(y, index, 4));
            _mm256_storeu_ps(pz + i, _mm256_i32gather_ps(z, index, 4));
        }
        for (; i < count; ++i) {
            px[i] = x[node[i]];
            py[i] = y[node[i]];
            pz[i] = z[node[i]];
        }
    }
}

// gather_corners() from the packed node state (packed_node_state.hpp), where
// the step keeps one: a corner is one 32-byte load (its x, y, z and what
// follows) instead of three from three arrays, so one cache line or two in
// place of three; eight corners at a time turn into x, y, z arrays by
// transpose8(). The same floats, moved.
__attribute__((target("avx2"))) void gather_packed_corners_avx2(const std::uint32_t* const* n, const float* p,
                                                                std::size_t count, float* pos) {
    constexpr std::size_t stride = kVolumeElementBlock;
    for (std::size_t c = 0; c < 4; ++c) {
        const std::uint32_t* node = n[c];
        float* px = pos + (3 * c) * stride;
        float* py = pos + (3 * c + 1) * stride;
        float* pz = pos + (3 * c + 2) * stride;
        std::size_t i = 0;
        for (; i + 8 <= count; i += 8) {
            __m256 record[8], column[8];
            for (std::size_t j = 0; j < 8; ++j)
                record[j] = _mm256_loadu_ps(p + std::size_t{node[i + j]} * kPackedStride);
            transpose8(record, column);
            _mm256_storeu_ps(px + i, column[0]);
            _mm256_storeu_ps(py + i, column[1]);
            _mm256_storeu_ps(pz + i, column[2]);
        }
        for (; i < count; ++i) {
            const float* q = p + std::size_t{node[i]} * kPackedStride;
            px[i] = q[0];
            py[i] = q[1];
            pz[i] = q[2];
        }
    }
}
#endif

using GatherCorners = void (*)(const std::uint32_t* const*, const float*, const float*, const float*, std::size_t,
                               float*);
GatherCorners corner_gatherer() {
#if defined(SPRINGKIT_AVX2_INTRINSICS)
    return has_avx2() ? &gather_corners_avx2 : &gather_corners;
#else
    return &gather_corners;
#endif
}

// The forces of elements [0, count) from their corners' positions `pos` (as
// gather_corners() writes them) into out[a * kVolumeElementBlock + i]. Written
// coordinate by coordinate in the order of the Vec3 formula (cross(), dot(),
// operator+), so that every lane rounds as it does. (The arrays' spacing is a
// constant: with a variable one GCC finds no vector type for them.)
SPRINGKIT_STAGE_CLONES
void element_forces(const float* __restrict pos, const float* __restrict rest6, const float* __restrict scales,
                    float k, std::size_t count, float* __restrict out) {
    constexpr std::size_t stride = kVolumeElementBlock;
    const float* __restrict p0x = pos;
    const float* __restrict p0y = pos + stride;
    const float* __restrict p0z = pos + 2 * stride;
    const float* __restrict p1x = pos + 3 * stride;
    const float* __restrict p1y = pos + 4 * stride;
    const float* __restrict p1z = pos + 5 * stride;
    const float* __restrict p2x = pos + 6 * stride;
    const float* __restrict p2y = pos + 7 * stride;
    const float* __restrict p2z = pos + 8 * stride;
    const float* __restrict p3x = pos + 9 * stride;
    const float* __restrict p3y = pos + 10 * stride;
    const float* __restrict p3z = pos + 11 * stride;
    float* __restrict f1x = out;
    float* __restrict f1y = out + stride;
    float* __restrict f1z = out + 2 * stride;
    float* __restrict f2x = out + 3 * stride;
    float* __restrict f2y = out + 4 * stride;
    float* __restrict f2z = out + 5 * stride;
    float* __restrict f3x = out + 6 * stride;
    float* __restrict f3y = out + 7 * stride;
    float* __restrict f3z = out + 8 * stride;
    float* __restrict sx = out + 9 * stride;
    float* __restrict sy = out + 10 * stride;
    float* __restrict sz = out + 11 * stride;
    for (std::size_t i = 0; i < count; ++i) {
        const float ax = p0x[i], ay = p0y[i], az = p0z[i];
        const float d1x = p1x[i] - ax, d1y = p1y[i] - ay, d1z = p1z[i] - az;
        const float d2x = p2x[i] - ax, d2y = p2y[i] - ay, d2z = p2z[i] - az;
        const float d3x = p3x[i] - ax, d3y = p3y[i] - ay, d3z = p3z[i] - az;
        // g1 = d2 x d3, g2 = d3 x d1, g3 = d1 x d2, g0 = -((g1 + g2) + g3).
        const float g1x = d2y * d3z - d2z * d3y, g1y = d2z * d3x - d2x * d3z, g1z = d2x * d3y - d2y * d3x;
        const float g2x = d3y * d1z - d3z * d1y, g2y = d3z * d1x - d3x * d1z, g2z = d3x * d1y - d3y * d1x;
        const float g3x = d1y * d2z - d1z * d2y, g3y = d1z * d2x - d1x * d2z, g3z = d1x * d2y - d1y * d2x;
        const float g0x = -((g1x + g2x) + g3x), g0y = -((g1y + g2y) + g3y), g0z = -((g1z + g2z) + g3z);
        const float six_v = d1x * g1x + d1y * g1y + d1z * g1z;
        const float now = (((g0x * g0x + g0y * g0y + g0z * g0z) + (g1x * g1x + g1y * g1y + g1z * g1z)) +
                           (g2x * g2x + g2y * g2y + g2z * g2z)) +
                          (g3x * g3x + g3y * g3y + g3z * g3z);
        // scale = now * scales[i] > 1 ? 1 / now : scales[i], as a select of
        // bits: written as a conditional, GCC moves the division (which may
        // trap) into the branch taken and then vectorises no branch.
        const float inverse_now = 1.0f / now;
        const std::uint32_t larger = now * scales[i] > 1.0f ? ~0u : 0u;
        const float scale = std::bit_cast<float>((std::bit_cast<std::uint32_t>(inverse_now) & larger) |
                                                 (std::bit_cast<std::uint32_t>(scales[i]) & ~larger));
        const float s = -k * (six_v - rest6[i]) * scale;
        const float a1x = g1x * s, a1y = g1y * s, a1z = g1z * s;
        const float a2x = g2x * s, a2y = g2y * s, a2z = g2z * s;
        const float a3x = g3x * s, a3y = g3y * s, a3z = g3z * s;
        f1x[i] = a1x;
        f1y[i] = a1y;
        f1z[i] = a1z;
        f2x[i] = a2x;
        f2y[i] = a2y;
        f2z[i] = a2z;
        f3x[i] = a3x;
        f3y[i] = a3y;
        f3z[i] = a3z;
        sx[i] = (a1x + a2x) + a3x;
        sy[i] = (a1y + a2y) + a3y;
        sz[i] = (a1z + a2z) + a3z;
    }
}

}  // namespace

void volume_element_forces(const VolumeElementArrays& e, const NodePositions& at, float k, std::size_t begin,
                           std::size_t end, float* out) {
    // The corners' positions, then the forces: two buffers of a block (24 KiB).
    alignas(64) float pos[kVolumeForceArrays * kVolumeElementBlock];
    const std::uint32_t* nodes[4] = {e.node[0].data() + begin, e.node[1].data() + begin,
                                     e.node[2].data() + begin, e.node[3].data() + begin};
#if defined(SPRINGKIT_AVX2_INTRINSICS)
    if (at.packed != nullptr) gather_packed_corners_avx2(nodes, at.packed, end - begin, pos);
    else
#endif
    {
        static const GatherCorners gather = corner_gatherer();
        gather(nodes, at.x, at.y, at.z, end - begin, pos);
    }
    element_forces(pos, e.rest6.data() + begin, e.scale.data() + begin, k, end - begin, out);
}

void add_volume_element_forces(const VolumeElementArrays& e, const float* in, std::size_t begin, std::size_t end,
                               float* fx, float* fy, float* fz) {
    constexpr std::size_t stride = kVolumeElementBlock;
    const std::uint32_t* n0 = e.node[0].data();
    const std::uint32_t* n1 = e.node[1].data();
    const std::uint32_t* n2 = e.node[2].data();
    const std::uint32_t* n3 = e.node[3].data();
    for (std::size_t i = begin; i < end; ++i) {
        const std::size_t j = i - begin;
        const std::uint32_t a = n0[i], b = n1[i], c = n2[i], d = n3[i];
        fx[a] -= in[9 * stride + j];
        fy[a] -= in[10 * stride + j];
        fz[a] -= in[11 * stride + j];
        fx[b] += in[j];
        fy[b] += in[stride + j];
        fz[b] += in[2 * stride + j];
        fx[c] += in[3 * stride + j];
        fy[c] += in[4 * stride + j];
        fz[c] += in[5 * stride + j];
        fx[d] += in[6 * stride + j];
        fy[d] += in[7 * stride + j];
        fz[d] += in[8 * stride + j];
    }
}

}  // namespace detail

bool Simulation::Impl::prepare_element_forces_ahead() {
    // Two blocks at least, so that a second thread has one; none while the
    // pool runs solo (one task).
    const detail::VolumeElementArrays& elements = b_->volume_elements;
    const bool ahead = team_.tasks() > 1 && params_.volume_stiffness * stiffness_scale_ > 0.0f && elements.blocks() > 1;
    if (ahead) element_forces_.resize(elements.blocks() * detail::kVolumeBlockFloats);
    return ahead;
}

void Simulation::Impl::compute_element_blocks(int task, int tasks) {
    const detail::VolumeElementArrays& elements = b_->volume_elements;
    const float k = params_.volume_stiffness * stiffness_scale_;
    // Every tasks-th block, so that each thread gets blocks of all parts of
    // the model, into the buffer prepare_element_forces_ahead() sized.
    for (std::size_t block = static_cast<std::size_t>(task); block < elements.blocks();
         block += static_cast<std::size_t>(tasks))
        detail::volume_element_forces(elements, element_corner_positions(), k, elements.begin(block),
                                      elements.end(block), element_forces_.data() + block * detail::kVolumeBlockFloats);
}

void Simulation::Impl::stage_volume_elements(const StageArgs&) {
    const float k = params_.volume_stiffness * stiffness_scale_;
    if (!(k > 0.0f)) return;
    const detail::VolumeElementArrays& elements = b_->volume_elements;
    // Computed by the forces stage's threads, or else here on one thread, a
    // block at a time small enough for its forces to stay in L1 between the
    // two passes; either way the sums into f_ go in the elements' order, which
    // does not depend on the threads.
    const bool ahead = std::exchange(element_forces_ready_, false);
    alignas(64) float buffer[detail::kVolumeBlockFloats];
    for (std::size_t block = 0; block < elements.blocks(); ++block) {
        const std::size_t begin = elements.begin(block), end = elements.end(block);
        float* forces = buffer;
        if (ahead) forces = element_forces_.data() + block * detail::kVolumeBlockFloats;
        else detail::volume_element_forces(elements, element_corner_positions(), k, begin, end, buffer);
        detail::add_volume_element_forces(elements, forces, begin, end, f_.x.data(), f_.y.data(), f_.z.data());
    }
}

}  // namespace springkit
