// springkit — what the batched stages of the runtime share (simulation.cpp,
// simulation_normals.cpp): their block and window sizes and the range loops
// that add a buffer of per-item values into node arrays.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "springkit/simulation.hpp"

// Portable x86-64 builds (GCC on ELF systems) compile each loop of the step
// three times, for AVX-512 (x86-64-v4), AVX2 (x86-64-v3) and the x86-64
// baseline, and the dynamic loader picks the one the CPU runs (function
// multiversioning through an ifunc, resolved once), so that a binary shipped to
// every player still gets the widest vectors the CPU has (measurements:
// docs/PERFORMANCE.md, "Portable builds"). All three step to the
// same bits: the core library is built with -ffp-contract=off, and mul_add() and
// inverse_sqrt_block() (spring_force.hpp) choose fused or estimated forms by the
// build's flags, not the clone's, so the clones differ only in vector width,
// which loops over independent items and blocks of whole items do not see
// (tests/core/test_kernels.cpp holds every clone to bits recorded by a build
// whose loops had a single SSE2 version).
// Builds for a given CPU (SPRINGKIT_NATIVE, or any -mavx) compile one version.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__) && !defined(__AVX__)
#define SPRINGKIT_STAGE_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define SPRINGKIT_STAGE_CLONES
#endif

// Loops GCC's vectoriser does not write well for a portable build (gathers,
// register transposes) are written with AVX2 intrinsics in functions marked
// __attribute__((target("avx2"))), chosen at run time by has_avx2().
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SPRINGKIT_AVX2_INTRINSICS 1
#endif

namespace springkit::detail {

#if defined(SPRINGKIT_AVX2_INTRINSICS)
/// Whether this CPU runs the AVX2 functions (asked once).
inline bool has_avx2() {
    static const bool avx2 = __builtin_cpu_supports("avx2");
    return avx2;
}
#endif

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

// Items (springs, faces) sorted so that those of one shape follow each other by
// their first node: the end of the run that starts at items[i], that is the
// items after it of the same shape whose first node steps on by 1 to kMaxStep,
// within the window of the run's first.
template <class Item, class SameShape, class FirstNode>
std::size_t run_end(const std::vector<Item>& items, std::size_t i, SameShape same_shape, FirstNode first) {
    std::size_t j = i + 1;
    while (j < items.size() && same_shape(items[i], items[j]) && first(items[j]) > first(items[j - 1]) &&
           first(items[j]) <= first(items[j - 1]) + kMaxStep && first(items[j]) / kWindow == first(items[i]) / kWindow)
        ++j;
    return j;
}

// Of the items i in [0, count) of a run, those whose node first + i a thread
// owns (nodes [node_begin, node_end)), as [begin, end); 0, 0 when none.
struct ItemRange {
    std::uint32_t begin = 0, end = 0;
    bool empty() const { return begin >= end; }
};
inline ItemRange owned_items(std::uint32_t first, std::uint32_t count, std::uint32_t node_begin,
                             std::uint32_t node_end) {
    const std::uint32_t lo = std::max(node_begin, first), hi = std::min(node_end, first + count);
    return lo < hi ? ItemRange{lo - first, hi - first} : ItemRange{};
}

// A thread's scratch for the values of one run (forces of springs, normals of
// faces): x, y, z and a fourth array (the picks of a paired face run), each with
// kWindow readable floats before the run's first item (loops that add shifted
// copies read there), room for two windows after it and a block of padding
// (whole-block loops read past the end).
inline constexpr std::size_t kScratchLead = kWindow;
inline constexpr std::size_t kScratchStride = kScratchLead + 2 * kWindow + kBlock;
inline constexpr std::size_t kScratchArrays = 4;

// Calls f(std::bool_constant<flag>{}...) for the runtime flags, so that each
// combination gets its own loop, vectorised without tests of the flags inside.
template <class F>
inline void with_flags(F&& f) {
    f();
}
template <class F, class... Rest>
inline void with_flags(F&& f, bool flag, Rest... rest) {
    if (flag)
        with_flags([&](auto... done) { f(std::true_type{}, done...); }, rest...);
    else
        with_flags([&](auto... done) { f(std::false_type{}, done...); }, rest...);
}

// target[i] += values[i] (or -=) for i in [begin, end), the three coordinates in
// one loop: runs are short (a window at most), so fewer loops matter.
template <bool kSubtract>
SPRINGKIT_STAGE_CLONES
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
