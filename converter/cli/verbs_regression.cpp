// springkit CLI — regression verbs: golden, check, diff.
//
// A studio's CI keeps a golden file next to each model: positions of every node
// at a few times of a headless run plus a hash of the model. `check` re-runs
// the model and fails when a node ends up elsewhere, so a re-converted or
// re-tuned model that behaves differently breaks the build.
#include <algorithm>
#include <cinttypes>
#include <limits>
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

/// The measures of a pose that converge across builds (GoldenMeasures).
GoldenMeasures measure(const Model& model, const Simulation& sim) {
    GoldenMeasures m;
    m.kinetic = sim.kinetic_energy();
    m.potential = sim.potential_energy();
    const auto p = sim.positions();
    m.min = m.max = p.empty() ? Vec3{} : p[0];
    for (const Vec3& x : p) {
        m.min = {std::min(m.min.x, x.x), std::min(m.min.y, x.y), std::min(m.min.z, x.z)};
        m.max = {std::max(m.max.x, x.x), std::max(m.max.y, x.y), std::max(m.max.z, x.z)};
    }
    for (const Spring& s : model.springs)
        if (s.kind == SpringKind::hooke && s.rest > 0.0f)
            m.max_strain = std::max(m.max_strain, std::fabs(static_cast<double>(length(p[s.b] - p[s.a])) / s.rest - 1.0));
    return m;
}

/// Runs `model` for `frames` frames of `dt` on `threads` threads, calling
/// `at(sample, simulation)` after each listed frame.
template <class F>
void run(const Model& model, const std::string& name, float dt, const std::vector<std::uint64_t>& frames, int threads,
         F&& at) {
    Simulation sim(model, SimulationOptions{.threads = threads});
    std::size_t next = 0;
    const std::uint64_t last = frames.empty() ? 0 : frames.back();
    const bool progress = stderr_is_terminal() && verbosity() != Verbosity::quiet && last > 600;
    try {
        for (std::uint64_t f = 1; f <= last && next < frames.size(); ++f) {
            sim.step(dt);
            if (f == frames[next]) {
                at(next, static_cast<const Simulation&>(sim));
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

/// What check allows beyond the horizon, as shares of a scale of the model or
/// the recorded run. Measured between the portable and the native build
/// (-march=native: FMA contraction and wider vectors change the last bits) on
/// the sample models over 10 s, the worst of them at 40% of these
/// (docs/CONVERTER.md, "What check guarantees", has the figures).
constexpr double kEnergyShare = 0.15;    ///< of the run's energy scale (peak kinetic + potential range)
constexpr double kBoundsShare = 0.10;    ///< of the rest diagonal
constexpr double kStrainShare = 0.10;    ///< of the run's peak strain, plus kStrainFloor
constexpr double kStrainFloor = 1e-3;
constexpr double kSettledShare = 0.05;   ///< of the rest diagonal
/// The horizon: positions are compared up to the last frame at which a twin run,
/// its free nodes moved by kTwinNudge x the diagonal (about 10 float ulps of a
/// node's coordinate: more than a build's rounding differences), is still
/// within kTwinShare of check's default tolerance of the recorded run. Beyond,
/// the motion is chaotic enough that another build may end up elsewhere.
constexpr double kTwinNudge = 1e-6;
constexpr double kTwinShare = 0.1;
constexpr double kDefaultToleranceShare = 1e-4;  ///< check's default position tolerance, of the diagonal

/// The frames up to which a run of `model` and a nudged twin of it agree
/// (see kTwinNudge), at most `last`.
std::uint64_t agreeing_frames(const Model& model, const std::string& name, float dt, std::uint64_t last, int threads) {
    const SimulationOptions options{.threads = threads};
    Simulation sim(model, options), twin(model, options);
    const double diagonal = bounds(model).diagonal();
    const auto nudge = static_cast<float>(kTwinNudge * diagonal);
    std::vector<bool> anchored(model.node_count(), false);
    for (const Anchor& a : model.anchors) anchored[a.node] = true;
    for (std::uint32_t i = 0; i < model.node_count(); ++i) {
        if (anchored[i]) continue;
        Vec3 d{};
        (i % 3 == 0 ? d.x : i % 3 == 1 ? d.y : d.z) = (i / 3) % 2 ? nudge : -nudge;
        twin.set_position(i, model.positions[i] + d);
    }
    const double limit = kTwinShare * kDefaultToleranceShare * diagonal;
    try {
        for (std::uint64_t f = 1; f <= last; ++f) {
            sim.step(dt);
            twin.step(dt);
            const auto p = sim.positions(), q = twin.positions();
            for (std::size_t i = 0; i < p.size(); ++i)
                if (!(length(p[i] - q[i]) <= limit)) return f - 1;
        }
    } catch (const SimulationError& e) {
        throw Error(name + ": " + e.what());
    }
    return last;
}

/// One quantity compared: its worst distance from the golden and where.
struct Finding {
    Finding(std::string unit_, double tolerance_, bool values_ = false)
        : unit(std::move(unit_)), tolerance(tolerance_), values(values_) {}
    std::string what;       ///< "node 47", "kinetic energy"
    std::string unit;       ///< " m", " J", ""
    double found = 0.0, recorded = 0.0;  ///< the values, for energies and strain
    double distance = -1.0, tolerance = 0.0;
    std::size_t sample = 0;
    bool values = false;    ///< print found/recorded (a value), not a distance
    void consider(double d, std::size_t k, const std::string& name, double f = 0.0, double r = 0.0) {
        if (!(d <= distance)) distance = d, sample = k, what = name, found = f, recorded = r;  // NaN too
    }
    bool failed() const { return !(distance <= tolerance); }
    double ratio() const { return tolerance > 0.0 ? distance / tolerance : (distance > 0.0 ? 1e300 : 0.0); }
};

}  // namespace

VerbRun register_golden(CLI::App& app) {
    struct Options {
        std::string model, out;
        double seconds = 0.0;
        float dt = 1.0f / 60.0f;
        int samples = 10;
        std::optional<double> horizon;
        int threads = 1;
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand(
        "golden", "Record a model's motion (the model, positions at several times, energies, bounds, strain)");
    sub->add_option("model", o->model, "Model file")->required();
    sub->add_option("--seconds", o->seconds, "Simulated time, s")->required()->check(CLI::Range(1e-6, 1e5));
    sub->add_option("-o,--output", o->out, "Golden file to write (.json)")->required();
    sub->add_option("--dt", o->dt, "Frame time, s (default 1/60)")->check(CLI::Range(1e-6, 1.0));
    sub->add_option("--samples", o->samples, "Times at which the motion is recorded (default 10)")
        ->check(CLI::Range(1, 1000));
    sub->add_option("--horizon", o->horizon,
                    "Longest time up to which check compares node positions, s (default: as long as a run nudged by "
                    "1e-6 x the diagonal stays within 1e-5 x the diagonal of this one; beyond, check compares "
                    "energies, bounds, strain and the settled shape)")
        ->check(finite_number_above(0.0, true));
    sub->add_option("--threads", o->threads, "Threads that step the model (default 1; results do not depend on it)")
        ->check(CLI::Range(1, 256));
    return [o]() {
        const Model model = load_model(o->model);
        const auto frames = static_cast<std::uint64_t>(std::ceil(o->seconds / o->dt - 1e-6));
        std::vector<std::uint64_t> at = sample_frames(std::max<std::uint64_t>(frames, 1), o->samples);
        check_golden_work(model, o->dt, at.back(), o->model);
        check_writable(o->out);
        // The horizon: where builds still agree (a nudged twin run), at most --horizon.
        std::uint64_t horizon_frame = at.back();
        if (o->horizon)
            horizon_frame = std::min<std::uint64_t>(horizon_frame,
                                                    static_cast<std::uint64_t>(std::floor(*o->horizon / o->dt + 1e-6)));
        horizon_frame = agreeing_frames(model, o->model, o->dt, horizon_frame, o->threads);
        // A sample at the horizon, so that positions are compared as late as they can be.
        if (horizon_frame >= 1 && !std::binary_search(at.begin(), at.end(), horizon_frame))
            at.insert(std::lower_bound(at.begin(), at.end(), horizon_frame), horizon_frame);
        Golden golden;
        golden.model = o->model;
        golden.hash = hex(model_hash(model));
        golden.frame_dt = o->dt;
        golden.seconds = o->seconds;
        golden.nodes = model.node_count();
        golden.frames = at;
        golden.structure = model_to_json(model);
        golden.horizon = static_cast<double>(horizon_frame) * o->dt;
        run(model, o->model, o->dt, at, o->threads, [&](std::size_t, const Simulation& sim) {
            golden.positions.emplace_back(sim.positions().begin(), sim.positions().end());
            golden.measures.push_back(measure(model, sim));
        });
        write_file_atomically(o->out, golden_to_json(golden));
        print_note(o->model + ": recorded " + counted(model.node_count(), "node") + " at " +
                   counted(at.size(), "time") + " over " + num(o->seconds) + " s (positions up to " +
                   num(golden.horizon) + " s) into " + o->out + " (model hash " + hex(model_hash(model)) + ")");
        return kExitOk;
    };
}

VerbRun register_check(CLI::App& app) {
    struct Options {
        std::string model, golden;
        std::optional<double> tolerance;
        int threads = 1;
    };
    auto o = std::make_shared<Options>();
    CLI::App* sub = app.add_subcommand("check", "Re-simulate a model and compare it with a golden file (exit 1 on a mismatch)");
    sub->add_option("model", o->model, "Model file")->required();
    sub->add_option("--golden", o->golden, "Golden file written by `springkit golden`")->required();
    sub->add_option("--tolerance", o->tolerance,
                    "Largest allowed distance of a node from its golden position up to the horizon, m "
                    "(default 1e-4 x the model's bounding-box diagonal)")
        ->check(finite_number_above(0.0, true));
    sub->add_option("--threads", o->threads, "Threads that step the model (default 1; results do not depend on it)")
        ->check(CLI::Range(1, 256));
    return [o]() {
        const Model model = load_model(o->model);
        const Golden golden = golden_from_json(read_file(o->golden), o->golden);
        const std::string hash = hex(model_hash(model));
        // The exact structural fingerprint first: any edit of the model is named.
        if (golden.version >= 2) {
            const Model recorded = model_from_json(golden.structure, o->golden + ": /structure");
            const std::vector<std::string> changes = model_differences(recorded, model, 10);
            if (!changes.empty()) {
                print_note("--- the model " + o->golden + " recorded");
                print_note("+++ " + o->model);
                for (const std::string& line : changes) print_note(line);
                print_error(o->model + ": does not match " + o->golden + ": the model changed: " + changes.front() +
                            (changes.size() > 1 ? " (and " + std::to_string(changes.size() - 1) + " more lines)" : ""));
                return kExitFailure;
            }
        }
        if (golden.nodes != model.node_count()) {
            print_error(o->model + ": has " + counted(model.node_count(), "node") + " but " + o->golden +
                        " recorded " + std::to_string(golden.nodes));
            return kExitFailure;
        }
        check_golden_work(model, golden.frame_dt, golden.frames.back(), o->golden);
        const double diagonal = bounds(model).diagonal();
        const bool v2 = golden.version >= 2;
        const double horizon = v2 ? golden.horizon : std::numeric_limits<double>::infinity();
        const auto time_of = [&](std::size_t k) { return static_cast<double>(golden.frames[k]) * golden.frame_dt; };

        // The energy scale of the recorded run: its largest kinetic energy plus
        // the range its potential energy spans.
        double energy_scale = 0.0, strain_peak = 0.0;
        if (v2) {
            double low = golden.measures[0].potential, high = low, peak = 0.0;
            for (const GoldenMeasures& m : golden.measures) {
                low = std::min(low, m.potential), high = std::max(high, m.potential);
                peak = std::max(peak, m.kinetic);
                strain_peak = std::max(strain_peak, m.max_strain);
            }
            energy_scale = peak + (high - low);
        }
        Finding position(" m", o->tolerance.value_or(kDefaultToleranceShare * diagonal));
        Finding energy(" J", kEnergyShare * energy_scale, true);
        Finding box(" m", kBoundsShare * diagonal);
        Finding strain("", kStrainShare * strain_peak + kStrainFloor, true);
        Finding settled(" m", kSettledShare * diagonal);
        std::vector<GoldenMeasures> measures;
        run(model, o->model, golden.frame_dt, golden.frames, o->threads, [&](std::size_t k, const Simulation& sim) {
            const auto p = sim.positions();
            if (time_of(k) <= horizon + 1e-9)
                for (std::size_t i = 0; i < p.size(); ++i)
                    position.consider(length(p[i] - golden.positions[k][i]), k, "node " + std::to_string(i));
            if (!v2) return;
            measures.push_back(measure(model, sim));
            const GoldenMeasures &m = measures.back(), &g = golden.measures[k];
            const double low = length(m.min - g.min), high = length(m.max - g.max);
            box.consider(std::max(low, high), k, low >= high ? "bounds minimum" : "bounds maximum");
            if (k + 1 == golden.frames.size())
                settled.consider(aligned_rms_distance(p, golden.positions[k]), k, "settled shape (aligned RMS)");
        });
        if (v2) {
            // The energy envelope: the most total energy left from each sample on
            // (chaotic motion trades kinetic and potential energy differently,
            // the damping drains the total alike); and the run's peak strain.
            double left = -std::numeric_limits<double>::infinity(), recorded_left = left, peak = 0.0;
            for (std::size_t k = measures.size(); k-- > 0;) {
                left = std::max(left, measures[k].kinetic + measures[k].potential);
                recorded_left = std::max(recorded_left, golden.measures[k].kinetic + golden.measures[k].potential);
                energy.consider(std::fabs(left - recorded_left), k, "energy envelope", left, recorded_left);
                peak = std::max(peak, measures[k].max_strain);
            }
            strain.consider(std::fabs(peak - strain_peak), measures.size() - 1, "peak strain", peak, strain_peak);
        }
        std::vector<Finding*> findings = {&position};
        if (v2) findings.insert(findings.end(), {&energy, &box, &strain, &settled});
        const std::string hash_note = hash == golden.hash ? "model hash matches"
                                                          : "model hash " + hash + " differs from the golden's " +
                                                                golden.hash + ": the model changed";
        auto describe = [&](const Finding& f) {
            std::string text = f.what + " at t = " + num(time_of(f.sample)) + " s ";
            if (f.values)
                text += "is " + num(f.found) + f.unit + ", the golden's " + num(f.recorded) + f.unit;
            else
                text += "is " + num(f.distance) + f.unit + " away";
            return text + " (tolerance " + num(f.tolerance) + f.unit + ")";
        };
        for (const Finding* f : findings)
            if (f->distance >= 0.0) print_detail("  " + describe(*f) + ", " + num(f->ratio() * 100.0) + "% of it");
        const Finding* worst = nullptr;
        for (const Finding* f : findings)
            if (f->failed() && (!worst || f->ratio() > worst->ratio())) worst = f;
        if (worst) {
            print_note(o->model + ": " + describe(*worst) + "; " + hash_note);
            print_error(o->model + ": does not match " + o->golden + ": " + describe(*worst));
            return kExitFailure;
        }
        std::string compared = position.distance < 0.0 ? "no positions (none recorded up to the horizon)"
                                                        : "worst node " + position.what.substr(5) + " at t = " +
                                                              num(time_of(position.sample)) + " s, " +
                                                              num(position.distance) + " m (tolerance " +
                                                              num(position.tolerance) + " m)";
        if (v2) compared += "; positions up to " + num(horizon) + " s, then energy, bounds, strain and settled shape";
        print_note(o->model + ": matches " + o->golden + " at " + std::to_string(golden.frames.size()) +
                   " times over " + num(golden.seconds) + " s; " + compared + "; " + hash_note);
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
    sub->add_option("old-model", o->a, "Old model")->required();
    sub->add_option("new-model", o->b, "New model")->required();
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
