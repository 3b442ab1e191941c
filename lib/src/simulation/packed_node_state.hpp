// springkit — the node state packed for gathers (Simulation::Impl::gather_state_),
// read by the loose springs (simulation.cpp) and the volume elements'
// corners (volume_elements.cpp).
#pragma once

#include <cstddef>

#include "simulation/batched_loops.hpp"

#if defined(SPRINGKIT_AVX2_INTRINSICS)
#include <immintrin.h>
#endif

namespace springkit::detail {

// Node state packed for gathers (Simulation::Impl::gather_state_): node i's
// position and velocity are p[6 i .. 6 i + 6), and kPackedTail floats of 0
// follow the last node. One spring's end is then one 32-byte load instead of
// six loads from six arrays (its last two lanes, the next node's x and y or
// the tail, are never used), and eight springs' differences b - a turn into
// six arrays (dx, dy, dz, dvx, dvy, dvz) by a transpose in registers: the
// same subtractions of the same floats as loose_forces() does, so the same
// bits. Six floats rather than eight a node: a quarter less to pack and to
// hold, at the price of loads that cross a cache line (3 nodes in 8).
constexpr std::size_t kPackedStride = 6;
constexpr std::size_t kPackedTail = 2;

#if defined(SPRINGKIT_AVX2_INTRINSICS)
// out[c] lane j = r[j] lane c: the eight-lane transpose (unpack, shuffle, swap
// halves) of Intel's optimisation manual.
__attribute__((target("avx2"))) inline void transpose8(const __m256 (&r)[8], __m256 (&out)[8]) {
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    out[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    out[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    out[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    out[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    out[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    out[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    out[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    out[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}
#endif

}  // namespace springkit::detail
