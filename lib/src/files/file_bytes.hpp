// springkit — a file read whole into memory that is not zero-filled first (the
// binary model form is decoded from it straight away: lib/src/files/model_file.cpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <string_view>

namespace springkit::detail {

struct FileBytes {
    std::unique_ptr<char[]> data;
    std::size_t size = 0;
    std::string_view view() const { return {data.get(), size}; }
};

/// read_file() (springkit/io.hpp) with the same checks and errors, into a
/// buffer the read writes once: a string of the file's size would be
/// zero-filled first, another pass over as many bytes as the file holds.
FileBytes read_file_bytes(const std::filesystem::path& path,
                          const std::function<void(std::string_view start)>& check_start = {});

}  // namespace springkit::detail
