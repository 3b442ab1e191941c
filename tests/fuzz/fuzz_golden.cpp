// Fuzz target: golden files as `springkit check` reads them (see fuzz_targets.hpp).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_checks.hpp"
#include "fuzz_targets.hpp"
#include "golden.hpp"
#include "springkit/springkit.hpp"

namespace springkit::fuzz {

namespace {

bool same(const cli::Golden& a, const cli::Golden& b) {
    return a.model == b.model && a.hash == b.hash && a.frame_dt == b.frame_dt && a.seconds == b.seconds &&
           a.nodes == b.nodes && a.frames == b.frames && a.positions == b.positions;
}

}  // namespace

void golden_file(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const std::string name = "fuzz.golden.json";
    cli::Golden g;
    try {
        g = cli::golden_from_json(bytes, name);
    } catch (const Error& e) {
        check_file_error(e.what(), name, bytes);
        return;
    }
    // Whatever loads is in range: check can replay it without looping or overflowing.
    if (g.frames.empty() || g.frames.size() != g.positions.size()) broken("one position set per sample");
    if (g.frames.front() < 1) broken("frames start at 1 or later");
    for (std::size_t k = 1; k < g.frames.size(); ++k)
        if (g.frames[k] <= g.frames[k - 1]) broken("frames increase");
    if (!(g.frame_dt >= cli::kMinGoldenFrameDt && g.frame_dt <= cli::kMaxGoldenFrameDt)) broken("frame_dt in range");
    if (!std::isfinite(g.seconds) || !(g.seconds > 0)) broken("seconds finite and positive");
    for (const auto& p : g.positions) {
        if (p.size() != g.nodes) broken("a position per node");
        for (const Vec3& v : p)
            if (!is_finite(v)) broken("finite positions");
    }
    // The work bound holds for any model, down to the shortest substep a model may have.
    for (const float max_substep : {kMinSubstep, 0.002f, kMaxSubstep}) {
        Model model;
        model.params.max_substep = max_substep;
        try {
            cli::check_golden_work(model, g.frame_dt, g.frames.back(), name);
        } catch (const Error& e) {
            if (std::string_view(e.what()).rfind(name + ": ", 0) != 0) broken("work error names the file", e.what());
            continue;
        }
        const double substeps = static_cast<double>(g.frames.back()) *
                                static_cast<double>(substeps_per_frame(g.frame_dt, max_substep));
        if (substeps > static_cast<double>(cli::kMaxGoldenSubsteps)) broken("work within the limit");
    }
    // What golden would write for it reads back the same.
    const std::string text = cli::golden_to_json(g);
    const cli::Golden back = cli::golden_from_json(text, "round-trip.golden.json");
    if (!same(back, g)) broken("write then read gives the same golden");
}

}  // namespace springkit::fuzz
