// libFuzzer entry point; SPRINGKIT_FUZZ_TARGET names the target function
// (fuzz_targets.hpp). Built only by tests/fuzz/CMakeLists.txt with clang.
#include <cstddef>
#include <cstdint>

#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    springkit::fuzz::SPRINGKIT_FUZZ_TARGET(data, size);
    return 0;
}
