// Test support: scratch folders and caught error messages.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <string_view>

#include "springkit/error.hpp"

namespace springkit::test {

/// A folder of this test process for `suite`'s files, created on first use:
/// $TMPDIR/springkit-<suite>-<pid>, so parallel test runs never share files.
inline std::filesystem::path scratch_dir(std::string_view suite) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("springkit-" + std::string(suite) + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}

/// The message of the springkit::Error that `f` throws; empty if it throws none.
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace springkit::test
