// springkit CLI — regression verbs: golden, check, diff.
//
// A studio's CI keeps a golden file next to each model: positions of every node
// at a few times of a headless run plus a hash of the model. `check` re-runs
// the model and fails when a node ends up elsewhere, so a re-converted or
// re-tuned model that behaves differently breaks the build.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "cli.hpp"
#include "golden.hpp"
#include "model_compare.hpp"
#include "springkit/springkit.hpp"

namespace springkit::cli {

namespace {

std::string hex(std::uint64_t h) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016" PRIx64, h);
    return buf;
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

/// Frames after which positions are recorded: `samples` evenly spread, the last one at the end.
std::vector<std::uint64_t> sample_frames(std::uint64_t frames, int samples) {
    std::vector<std::uint64_t> out;
    for (int k = 1; k <= samples; ++k) {
        const std::uint64_t f = (frames * static_cast<std::uint64_t>(k) + static_cast<std::uint64_t>(samples) - 1) /
                                static_cast<std::uint64_t>(samples);
        if (f > 0 && (out.empty() || f > out.back())) out.push_back(f);
    }
    return out;
}

/// Runs `model` for `frames` frames of `dt`, calling `at(frame, positions)` after each listed frame.
template <class F>
void run(const Model& model, const std::string& name, float dt, const std::vector<std::uint64_t>& frames, F&& at) {
    Simulation sim(model);
    std::size_t next = 0;
    const std::uint64_t last = frames.empty() ? 0 : frames.back();
    const bool progress = stderr_is_terminal() && last > 600;  // long work shows progress on a terminal
    try {
        for (std::uint64_t f = 1; f <= last && next < frames.size(); ++f) {
            sim.step(dt);
            if (f == frames[next]) {
                at(next, sim.positions());
                ++next;
            }
            if (progress && f % 60 == 0)
                std::fprintf(stderr, "\rsimulating %s: %.1f / %.1f s", printable(name, 200).c_str(), sim.time(),
                             static_cast<double>(last) * dt);
        }
    } catch (const SimulationError& e) {
        if (progress) std::fprintf(stderr, "\n");
        throw Error(name + ": " + e.what());
    }
    if (progress) std::fprintf(stderr, "\r\033[K");
}

}  // namespace

VerbRun register_golden(CLI::App& app) {
    struct Options {
        std::string model, out;
        double seconds = 0.0;
        float dt = 1.0f / 60.0f;
        int samples = 10;
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand("golden", "Record a model's motion (positions at several times + model hash)");
    sub->add_option("model", o->model, "Model file")->required();
    sub->add_option("--seconds", o->seconds, "Simulated time, s")->required()->check(CLI::Range(1e-6, 1e5));
    sub->add_option("-o,--output", o->out, "Golden file to write (.json)")->required();
    sub->add_option("--dt", o->dt, "Frame time, s (default 1/60)")->check(CLI::Range(1e-6, 1.0));
    sub->add_option("--samples", o->samples, "Times at which positions are recorded (default 10)")
        ->check(CLI::Range(1, 1000));
    return [o]() {
        const Model model = load_model(o->model);
        const auto frames = static_cast<std::uint64_t>(std::ceil(o->seconds / o->dt - 1e-6));
        const std::vector<std::uint64_t> at = sample_frames(std::max<std::uint64_t>(frames, 1), o->samples);
        check_golden_work(model, o->dt, at.back(), o->model);  // check would refuse to replay more
        check_writable(o->out);                                  // before the run, not after it
        Golden golden;
        golden.model = o->model;
        golden.hash = hex(model_hash(model));
        golden.frame_dt = o->dt;
        golden.seconds = o->seconds;
        golden.nodes = model.node_count();
        golden.frames = at;
        run(model, o->model, o->dt, at, [&](std::size_t, std::span<const Vec3> p) {
            golden.positions.emplace_back(p.begin(), p.end());
        });
        write_file_atomically(o->out, golden_to_json(golden));
        print_note(o->model + ": recorded " + std::to_string(model.node_count()) + " nodes at " +
                   std::to_string(at.size()) + " times over " + num(o->seconds) + " s into " + o->out +
                   " (model hash " + hex(model_hash(model)) + ")");
        return kExitOk;
    };
}

VerbRun register_check(CLI::App& app) {
    struct Options {
        std::string model, golden;
        std::optional<double> tolerance;
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand("check", "Re-simulate a model and compare it with a golden file (exit 1 on a mismatch)");
    sub->add_option("model", o->model, "Model file")->required();
    sub->add_option("--golden", o->golden, "Golden file written by `springkit golden`")->required();
    sub->add_option("--tolerance", o->tolerance,
                    "Largest allowed distance of a node from its golden position, m "
                    "(default 1e-4 x the model's bounding-box diagonal)")
        ->check(CLI::NonNegativeNumber);
    return [o]() {
        const Model model = load_model(o->model);
        const Golden golden = golden_from_json(read_file(o->golden), o->golden);
        const std::string hash = hex(model_hash(model));
        if (golden.nodes != model.node_count()) {
            print_error(o->model + ": has " + std::to_string(model.node_count()) + " nodes but " + o->golden +
                        " recorded " + std::to_string(golden.nodes));
            return kExitFailure;
        }
        check_golden_work(model, golden.frame_dt, golden.frames.back(), o->golden);
        const double tolerance = o->tolerance.value_or(1e-4 * bounds(model).diagonal());
        double worst = -1.0;
        std::size_t worst_node = 0, worst_sample = 0;
        run(model, o->model, golden.frame_dt, golden.frames, [&](std::size_t k, std::span<const Vec3> p) {
            for (std::size_t i = 0; i < p.size(); ++i) {
                const double d = length(p[i] - golden.positions[k][i]);
                if (!(d <= worst)) {  // also catches NaN
                    worst = d;
                    worst_node = i;
                    worst_sample = k;
                }
            }
        });
        const double when = static_cast<double>(golden.frames[worst_sample]) * golden.frame_dt;
        const std::string hash_note = hash == golden.hash ? "model hash matches"
                                                          : "model hash " + hash + " differs from the golden's " +
                                                                golden.hash + ": the model changed";
        if (!(worst <= tolerance)) {
            print_line(o->model + ": worst node " + std::to_string(worst_node) + " at t = " + num(when) + " s is " +
                       num(worst) + " m from its golden position (tolerance " + num(tolerance) + " m); " + hash_note);
            print_error(o->model + ": does not match " + o->golden + ": node " + std::to_string(worst_node) +
                        " at t = " + num(when) + " s is " + num(worst) + " m away (tolerance " + num(tolerance) +
                        " m)");
            return kExitFailure;
        }
        print_note(o->model + ": matches " + o->golden + " at " + std::to_string(golden.frames.size()) +
                   " times over " + num(golden.seconds) + " s; worst node " + std::to_string(worst_node) + " at t = " +
                   num(when) + " s, " + num(worst) + " m (tolerance " + num(tolerance) + " m); " + hash_note);
        return kExitOk;
    };
}

VerbRun register_diff(CLI::App& app) {
    struct Options {
        std::string a, b;
        bool exit_code = false;
        std::size_t limit = 10;
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand("diff", "List what changed between two models");
    sub->add_option("a", o->a, "Old model")->required();
    sub->add_option("b", o->b, "New model")->required();
    sub->add_flag("--exit-code", o->exit_code, "Exit 1 when the models differ (as git diff --exit-code)");
    sub->add_option("--limit", o->limit,
                    "Changes of one kind (springs, nodes, faces, ...) listed one by one at most (default 10)");
    return [o]() {
        const Model a = load_model(o->a), b = load_model(o->b);
        const std::vector<std::string> lines = model_differences(a, b, o->limit);
        if (lines.empty()) {
            print_line(o->a + " and " + o->b + ": identical models");
            return kExitOk;
        }
        print_line("--- " + o->a);
        print_line("+++ " + o->b);
        for (const std::string& l : lines) print_line(l);
        return o->exit_code ? kExitFailure : kExitOk;
    };
}

}  // namespace springkit::cli
