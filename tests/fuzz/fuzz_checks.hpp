// springkit fuzz targets: the invariant checks several targets share.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace springkit::fuzz {

/// Reports a broken invariant and aborts (libFuzzer keeps the input).
[[noreturn]] inline void broken(const char* invariant, const std::string& detail = {}) {
    std::fprintf(stderr, "fuzz invariant broken: %s %s\n", invariant, detail.c_str());
    std::abort();
}

/// A reader's error for the file `name`: one line starting with "name: ",
/// without nlohmann/json's exception text.
inline void check_file_error(std::string_view what, const std::string& name) {
    if (what.rfind(name + ": ", 0) != 0) broken("error names the file", std::string(what));
    if (what.find('\n') != std::string_view::npos) broken("one-line error", std::string(what));
    if (what.find("json.exception") != std::string_view::npos) broken("no library exception text", std::string(what));
}

}  // namespace springkit::fuzz
