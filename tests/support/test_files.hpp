// Test support: scratch folders and files, and caught error messages.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "springkit/error.hpp"
#include "springkit/io.hpp"

namespace springkit::test {

/// A folder of this test process for `suite`'s files, created on first use:
/// $TMPDIR/springkit-<suite>-<pid>, so parallel test runs never share files.
inline std::filesystem::path scratch_dir(std::string_view suite) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("springkit-" + std::string(suite) + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}

/// Writes `text` as the file `name` in `suite`'s scratch folder; returns its path.
inline std::filesystem::path scratch_file(std::string_view suite, const std::string& name, std::string_view text) {
    const std::filesystem::path path = scratch_dir(suite) / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

/// A fresh, empty folder for the running test, removed with its contents when
/// the test ends: $TMPDIR/springkit-<test suite>-<pid>-<test name>.
class TempDir {
public:
    TempDir() {
        const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
        path_ = std::filesystem::temp_directory_path() / ("springkit-" + std::string(test->test_suite_name()) + "-" +
                                                          std::to_string(::getpid()) + "-" + test->name());
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~TempDir() { std::filesystem::remove_all(path_); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

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

/// The message of loading `text` as the JSON model file "bad.json"; empty if it loads.
inline std::string load_error(const std::string& text) {
    return error_of([&] { model_from_json(text, "bad.json"); });
}

}  // namespace springkit::test
