// Heap bytes per node and per spring of a model as loaded, its prepared body and
// a running instance, against the bytes the data needs (the definition is in
// tests/support/memory_use.hpp and docs/PERFORMANCE.md):
//
//   springkit_memory_probe [--cloth N]... [model file]...
//
// --cloth N measures make_cloth (structural, shear and bend springs, two corners
// held) as saved to a temporary .json and loaded again; a file is loaded as
// load_model() reads it. One thread, nothing else allocating meanwhile.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "springkit/springkit.hpp"
#include "support/memory_use.hpp"

using namespace springkit;

namespace {

void report(const std::string& name, const std::function<Model()>& load) {
    const test::MemoryUse use = test::measure_memory(load);
    const Model model = load();
    const double n = static_cast<double>(model.node_count());
    const double s = static_cast<double>(model.springs.size());
    const test::DataBytes data = test::model_data_bytes(model);
    const double model_data = static_cast<double>(data.total());
    const double instance_data = static_cast<double>(test::instance_data_bytes(model));
    const double body_own = static_cast<double>(use.body - use.body_model);
    const double sim = body_own + static_cast<double>(use.instance);
    const double all = static_cast<double>(use.body + use.instance);
    std::printf("%s: %.0f nodes, %.0f springs (%.2f a node), %zu faces\n", name.c_str(), n, s, s / n,
                model.faces.size());
    std::printf("  %-38s %9s %9s %7s\n", "", "B/node", "B/spring", "x data");
    auto row = [&](const char* what, double bytes, double against) {
        if (against > 0.0)
            std::printf("  %-38s %9.1f %9.1f %7.2f\n", what, bytes / n, bytes / s, bytes / against);
        else
            std::printf("  %-38s %9.1f %9.1f\n", what, bytes / n, bytes / s);
    };
    row("model data (D_model)", model_data, 0.0);
    row("instance data (D_instance)", instance_data, 0.0);
    row("model as loaded", static_cast<double>(use.model), model_data);
    row("body: its model copy", static_cast<double>(use.body_model), model_data);
    row("body: derived arrays", body_own, 0.0);
    row("instance after one step", static_cast<double>(use.instance), instance_data);
    row("  and positions() read", static_cast<double>(use.instance_drawn), instance_data);
    row("  and velocities() read too", static_cast<double>(use.instance_read), instance_data);
    row("simulation = derived + instance", sim, instance_data);
    row("body + instance, all held", all, model_data + instance_data);
}

}  // namespace

int main(int argc, char** argv) {
    if (!test::heap_is_measurable()) {
        std::fprintf(stderr, "error: this build's allocator does not report heap use (mallinfo2)\n");
        return 1;
    }
    if (argc < 2) {
        std::fprintf(stderr, "usage: springkit_memory_probe [--cloth N]... [model file]...\n");
        return 2;
    }
    const std::filesystem::path scratch =
        std::filesystem::temp_directory_path() / ("springkit_memory_probe_" + std::to_string(::getpid()));
    std::filesystem::create_directories(scratch);
    int status = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        try {
            if (arg == "--cloth" && i + 1 < argc) {
                const int side = std::atoi(argv[++i]);
                const std::filesystem::path file = scratch / ("cloth" + std::to_string(side) + ".json");
                save_model(make_cloth({.columns = side, .rows = side, .anchors = ClothAnchors::top_corners}), file);
                report("cloth " + std::to_string(side) + " x " + std::to_string(side) + " (loaded from .json)",
                       [&] { return load_model(file); });
            } else {
                report(arg, [&] { return load_model(arg); });
            }
        } catch (const std::exception& e) {
            std::fprintf(stderr, "error: %s: %s\n", arg.c_str(), e.what());
            status = 1;
        }
    }
    std::filesystem::remove_all(scratch);
    return status;
}
