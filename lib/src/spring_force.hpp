// springkit — the Hooke spring force as the batched kernel computes it, shared
// by its loops over runs and over loose springs (simulation.cpp).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace springkit::detail {

// Below this length a spring has no direction and exerts no force (Oliveira,
// listing 1: nulling the force keeps the model stable, a random kick does not).
inline constexpr float kSpringTolerance = 1e-9f;

/// a * b + c, rounded once where the build's CPU has fused multiply-add (with
/// -march=native on x86-64 since Haswell: one instruction instead of two, and a
/// shorter dependency chain in the Newton steps below; on the AVX2 machine of
/// docs/PERFORMANCE.md the spring loops ran 1.14-1.3x faster), a * b + c
/// otherwise. Written out rather than left to -ffp-contract, so that a loop's
/// vector body and its scalar remainder round the same way in every build: a
/// step's result never depends on the vector width or on the thread split.
/// Builds with and without FMA differ in the last bits; without, each use
/// below computes what the plain expression did before.
inline float mul_add(float a, float b, float c) {
#if defined(__FMA__)
    return std::fma(a, b, c);
#else
    return a * b + c;
#endif
}

/// 1 / sqrt(x) for x > 0, within 2.5 ulp (1.5e-7 relative; tests/test_kernels.cpp
/// measures it). A first guess from the float's bits (the Quake III trick with
/// Lomont's constant, "Fast inverse square root", 2003), then three Newton steps
/// y <- y (1.5 - x/2 y^2), each squaring the relative error: 3.4% -> 1.7e-3 ->
/// 4.6e-6 -> float rounding. Plain multiplies that vectorise: in the spring
/// loops this replaces a square root and a division, which share one slow
/// divider unit and bounded the loop (perf annotate: a third of its samples
/// waited on vdivps).
inline float inverse_sqrt(float x) {
    float y = std::bit_cast<float>(0x5f375a86u - (std::bit_cast<std::uint32_t>(x) >> 1));
    const float minus_half_x = -0.5f * x;
    y = y * mul_add(minus_half_x * y, y, 1.5f);
    y = y * mul_add(minus_half_x * y, y, 1.5f);
    y = y * mul_add(minus_half_x * y, y, 1.5f);
    return y;
}

/// The Hooke force of a spring from a to b, d = b - a, is d * s at a and -d * s
/// at b with s = k (|d| - rest) / |d| = k - k rest / |d|; k_rest = k * rest.
/// Zero for a spring shorter than kSpringTolerance. Written without branches so
/// that the loops calling it vectorise.
inline float hooke_scale(float dx, float dy, float dz, float k, float k_rest) {
    const float length_squared = mul_add(dz, dz, mul_add(dy, dy, dx * dx));
    const float s = mul_add(-k_rest, inverse_sqrt(length_squared), k);
    return length_squared > kSpringTolerance * kSpringTolerance ? s : 0.0f;
}

}  // namespace springkit::detail
