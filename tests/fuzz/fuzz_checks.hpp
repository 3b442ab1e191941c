// springkit fuzz targets: the invariant checks several targets share.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "springkit/error.hpp"
#include "springkit/simulation.hpp"

namespace springkit::fuzz {

/// Reports a broken invariant and aborts (libFuzzer keeps the input).
[[noreturn]] inline void broken(const char* invariant, const std::string& detail = {}) {
    std::fprintf(stderr, "fuzz invariant broken: %s %s\n", invariant, detail.c_str());
    std::abort();
}

/// A reader's error for the file `name` holding `input`: one line starting
/// with "name: ", without nlohmann/json's exception text (unless the input
/// itself holds those words: messages quote the input).
inline void check_file_error(std::string_view what, const std::string& name, std::string_view input) {
    if (what.rfind(name + ": ", 0) != 0) broken("error names the file", std::string(what));
    if (what.find('\n') != std::string_view::npos) broken("one-line error", std::string(what));
    if (what.find("json.exception") != std::string_view::npos && input.find("json.exception") == std::string_view::npos)
        broken("no library exception text", std::string(what));
}

/// Steps `sim` three 1/60 s frames: true when they ran (every position is then
/// finite, else the invariant breaks), false for a SimulationError, which is
/// how a diverging body must end.
inline bool three_frames_stay_finite(Simulation& sim) {
    try {
        for (int frame = 0; frame < 3; ++frame) sim.step(1.0f / 60.0f);
    } catch (const SimulationError&) {
        return false;
    }
    for (const Vec3& p : sim.positions())
        if (!is_finite(p)) broken("finite positions after steps without a SimulationError");
    return true;
}

}  // namespace springkit::fuzz
