// springkit — what the batched stages of the runtime share (simulation.cpp,
// simulation_normals.cpp): their block and window sizes and the range loops
// that add a buffer of per-item values into node arrays.
#pragma once

#include <cstddef>
#include <cstdint>

#include "springkit/simulation.hpp"

namespace springkit::detail {

// Items (springs, faces) are computed in blocks of kBlock, one vector register
// of floats with AVX-512 (two with AVX2), so that no run ends in a slow scalar
// remainder; node arrays have a block of padding past their end for it.
inline constexpr std::size_t kBlock = Simulation::kBlock;
// Runs are cut at windows of kWindow nodes: a window's node state and a run's
// buffered values (3 x 4 x kWindow bytes) stay in L1.
inline constexpr std::uint32_t kWindow = 256;
// Runs shorter than this are not worth a loop: their items are handled one by one.
inline constexpr std::size_t kMinRun = 8;
// A run may step over up to two missing items (filled with items of no effect),
// so that patterns such as Bullet's patch, whose cells alternate their diagonal
// from cell to cell and row to row, stream as runs at least a third full.
inline constexpr std::uint32_t kMaxStep = 3;

// A thread's scratch for the values of one run (forces of springs, normals of
// faces): x, y, z, each with kWindow readable floats before the run's first item
// (loops that add shifted copies read there), room for two windows after it and
// a block of padding (whole-block loops read past the end).
inline constexpr std::size_t kScratchLead = kWindow;
inline constexpr std::size_t kScratchStride = kScratchLead + 2 * kWindow + kBlock;

// target[i] += values[i] (or -=) for i in [begin, end), the three coordinates in
// one loop: runs are short (a window at most), so fewer loops matter.
template <bool kSubtract>
inline void add_ranges(float* __restrict tx, float* __restrict ty, float* __restrict tz,
                       const float* __restrict vx, const float* __restrict vy, const float* __restrict vz,
                       std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        tx[i] = kSubtract ? tx[i] - vx[i] : tx[i] + vx[i];
        ty[i] = kSubtract ? ty[i] - vy[i] : ty[i] + vy[i];
        tz[i] = kSubtract ? tz[i] - vz[i] : tz[i] + vz[i];
    }
}

}  // namespace springkit::detail
