// Test support: whether this build steps to the bits a portable build writes.
#pragma once

namespace springkit::test {

/// False for a build for a given CPU: SPRINGKIT_NATIVE, or flags such as
/// -march=native given to the whole build (the tests share them). Such a build
/// fuses multiply-adds and estimates 1/sqrt where the CPU has them
/// (lib/src/simulation/spring_force.hpp), so what it steps comes out a few ulp off the
/// committed files and recorded bits, which a portable build wrote.
#if defined(SPRINGKIT_NATIVE_BUILD) || defined(__AVX__) || defined(__FMA__)
inline constexpr bool kStepsToPortableBits = false;
#else
inline constexpr bool kStepsToPortableBits = true;
#endif

}  // namespace springkit::test
