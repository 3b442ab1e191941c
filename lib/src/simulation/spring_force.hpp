// springkit — the Hooke spring force as the batched kernel computes it, shared
// by its loops over runs and over loose springs (simulation.cpp).
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#if defined(__AVX__)
#include <immintrin.h>
#endif

namespace springkit::detail {

// Below this length a spring has no direction and exerts no force (Oliveira,
// listing 1: nulling the force keeps the model stable, a random kick does not).
inline constexpr float kSpringTolerance = 1e-9f;

/// a * b + c, rounded once where the build's CPU has fused multiply-add (with
/// -march=native on x86-64 since Haswell: one instruction instead of two, and a
/// shorter dependency chain in the Newton steps below; docs/PERFORMANCE.md,
/// "The AMD EPYC", has the measurements), a * b + c
/// otherwise. Written out rather than left to -ffp-contract, so that a loop's
/// vector body and its scalar remainder round the same way in every build: a
/// step's result never depends on the vector width or on the thread split.
/// Builds with and without FMA differ in the last bits; without, each use
/// rounds the product and the sum separately, exactly as the plain expression.
inline float mul_add(float a, float b, float c) {
#if defined(__FMA__)
    return std::fma(a, b, c);
#else
    return a * b + c;
#endif
}

/// 1 / sqrt(x) for x > 0, within 2.5 ulp (1.5e-7 relative;
/// tests/core/test_kernels.cpp checks it). A first guess from the float's bits (the Quake III trick with
/// Lomont's constant, "Fast inverse square root", 2003), then three Newton steps
/// y <- y (1.5 - x/2 y^2), each squaring the relative error: 3.4% -> 1.7e-3 ->
/// 4.6e-6 -> float rounding. Plain multiplies that vectorise on any CPU: in the
/// normals (and, through inverse_sqrt_block(), in the spring loops of builds
/// without AVX) this replaces a square root and a division, which share one
/// slow, poorly pipelined divider unit: a loop that needs both per spring waits
/// on it (docs/PERFORMANCE.md, "1/length without the divider").
inline float inverse_sqrt(float x) {
    float y = std::bit_cast<float>(0x5f375a86u - (std::bit_cast<std::uint32_t>(x) >> 1));
    const float minus_half_x = -0.5f * x;
    y = y * mul_add(minus_half_x * y, y, 1.5f);
    y = y * mul_add(minus_half_x * y, y, 1.5f);
    y = y * mul_add(minus_half_x * y, y, 1.5f);
    return y;
}

#if defined(__AVX__) && !(defined(__AVX512F__) && defined(SPRINGKIT_512_BIT_LOOPS))
/// a + b c (kSubtract: a - b c) on 8 floats, rounded once where the CPU has FMA
/// (as mul_add()).
template <bool kSubtract = false>
inline __m256 add_product(__m256 a, __m256 b, __m256 c) {
#if defined(__FMA__)
    return kSubtract ? _mm256_fnmadd_ps(b, c, a) : _mm256_fmadd_ps(b, c, a);
#else
    return kSubtract ? _mm256_sub_ps(a, _mm256_mul_ps(b, c)) : _mm256_add_ps(a, _mm256_mul_ps(b, c));
#endif
}
#endif

/// 1 / sqrt(x[j]) for the N values of a block (x[j] > 0), within 2.5 ulp
/// everywhere, as tests/core/test_kernels.cpp checks. The spring loops compute
/// their lengths a block at a time so that this can use what the build's CPU
/// offers:
/// - AVX-512 with 512-bit loops (SPRINGKIT_NATIVE: -mprefer-vector-width=512,
///   lib/CMakeLists.txt; GCC's loops around a 512-bit block would otherwise be
///   256 bits wide, and reloading their halves as one register stalls):
///   vrsqrt14ps, a 14-bit estimate whose bits Intel specifies exactly (a
///   published reference implementation), and one Newton step as a correction
///   of the estimate, y + y/2 (1 - x y^2): 1.25 ulp.
/// - other AVX builds (vrsqrtps): a 12-bit estimate, whose bits differ between
///   Intel and AMD, and one step of the third-order (Halley-type) iteration
///   y + y (e/2 + 3e^2/8), e = 1 - x y^2, which cubes the error: 1.5 ulp.
/// - otherwise inverse_sqrt() above, element by element: the bit trick's own
///   bits, so portable builds step alike on every CPU.
/// Either estimate with its correction is 5-6 vector operations where the
/// bit trick's three Newton steps take 13, and the spring loops spend much of
/// their time on this arithmetic (measurements: docs/PERFORMANCE.md, "The CPU's
/// reciprocal square root estimate").
/// The vector code covers whole blocks only, so a step's bits never depend on
/// where a loop's remainder begins (nor on the thread split).
template <std::size_t N>
inline void inverse_sqrt_block(const float* __restrict x, float* __restrict y) {
#if defined(__AVX512F__) && defined(SPRINGKIT_512_BIT_LOOPS)
    static_assert(N % 16 == 0);
    for (std::size_t j = 0; j < N; j += 16) {
        const __m512 v = _mm512_loadu_ps(x + j);
        // (The masked form: GCC 12's unmasked one warns of an uninitialised
        // operand inside its own header.)
        const __m512 estimate = _mm512_maskz_rsqrt14_ps(0xffff, v);
        const __m512 residual = _mm512_fnmadd_ps(_mm512_mul_ps(v, estimate), estimate, _mm512_set1_ps(1.0f));
        _mm512_storeu_ps(y + j, _mm512_fmadd_ps(_mm512_mul_ps(estimate, _mm512_set1_ps(0.5f)), residual, estimate));
    }
#elif defined(__AVX__)
    static_assert(N % 8 == 0);
    for (std::size_t j = 0; j < N; j += 8) {
        const __m256 v = _mm256_loadu_ps(x + j);
        const __m256 estimate = _mm256_rsqrt_ps(v);
        const __m256 vy = _mm256_mul_ps(v, estimate);
        // e = 1 - x y^2; y + y (e/2 + 3e^2/8) = y + y e (1/2 + 3e/8)
        const __m256 e = add_product<true>(_mm256_set1_ps(1.0f), vy, estimate);
        const __m256 poly = add_product(_mm256_set1_ps(0.5f), _mm256_set1_ps(0.375f), e);
        _mm256_storeu_ps(y + j, add_product(estimate, estimate, _mm256_mul_ps(e, poly)));
    }
#else
    for (std::size_t j = 0; j < N; ++j) y[j] = inverse_sqrt(x[j]);
#endif
}

/// inverse_sqrt_block() for a block of Simulation::kBlock springs, as compiled
/// into springkit::core (simulation.cpp), which may be built for another CPU
/// than its callers (SPRINGKIT_NATIVE): what tests measure.
void inverse_spring_lengths(const float* length_squared, float* inverse_length);

/// |d|^2 for d = (dx, dy, dz).
inline float squared_length(float dx, float dy, float dz) { return mul_add(dz, dz, mul_add(dy, dy, dx * dx)); }

/// The Hooke force of a spring from a to b, d = b - a, is d * s at a and -d * s
/// at b with s = k (|d| - rest) / |d| = k - k rest / |d|; k_rest = k * rest,
/// inverse_length = 1 / |d| (from inverse_sqrt_block()). Zero for a spring
/// shorter than kSpringTolerance. Written without branches so that the loops
/// calling it vectorise.
inline float hooke_scale(float length_squared, float inverse_length, float k, float k_rest) {
    const float s = mul_add(-k_rest, inverse_length, k);
    return length_squared > kSpringTolerance * kSpringTolerance ? s : 0.0f;
}

/// Tunca's inner spring friction, along the spring only: the force at a is
/// c ((v_b - v_a) . u) u with u = d / |d|, that is d * c ((v_b - v_a) . d) / |d|^2,
/// and its opposite at b; closing = (v_b - v_a) . d. The tutorial's
/// F_a += c (v_b - v_a) acts across the spring too: it brakes any relative
/// motion of the ends, rigid rotation included, so a free body spinning in
/// vacuum would stop turning. Along d the pair of forces is central (equal,
/// opposite and on the line through both ends), so it exerts no torque and the
/// angular momentum sum m r x v is kept, while stretching and compressing are
/// still damped; a rigid rotation has closing = 0 and feels nothing. Zero for a
/// spring shorter than kSpringTolerance (no direction), as hooke_scale().
inline float damping_scale(float length_squared, float inverse_length, float c, float closing) {
    const float s = c * closing * (inverse_length * inverse_length);
    return length_squared > kSpringTolerance * kSpringTolerance ? s : 0.0f;
}

/// (v_b - v_a) . d for velocity difference (ux, uy, uz) and d = (dx, dy, dz).
inline float closing_speed(float ux, float uy, float uz, float dx, float dy, float dz) {
    return mul_add(uz, dz, mul_add(uy, dy, ux * dx));
}

}  // namespace springkit::detail
