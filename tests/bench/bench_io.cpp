// Model files: save and load of a model with about 1M springs (a 409 x 409
// cloth with shear and bend springs: 999,598 springs, 167,281 nodes, 333,624
// faces) as JSON and as the binary form, plus nlohmann's DOM parse of the same
// JSON text for scale. Counters: file bytes per second.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "springkit/springkit.hpp"

namespace fs = std::filesystem;
using namespace springkit;

namespace {

const Model& big_model() {
    static const Model model = make_cloth({.columns = 409, .rows = 409});
    return model;
}

fs::path bench_file(const char* name) {
    const fs::path dir = fs::temp_directory_path() / ("springkit-bench-io-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return dir / name;
}

void count(benchmark::State& state, const fs::path& file) {
    const auto bytes = static_cast<double>(fs::file_size(file));
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
    state.counters["file_MB"] = bytes / 1e6;
    state.counters["springs"] = static_cast<double>(big_model().springs.size());
}

void BM_Save(benchmark::State& state, const char* name) {
    const fs::path file = bench_file(name);
    for (auto _ : state) save_model(big_model(), file);
    count(state, file);
}

void BM_Load(benchmark::State& state, const char* name) {
    const fs::path file = bench_file(name);
    save_model(big_model(), file);
    for (auto _ : state) {
        Model m = load_model(file);
        benchmark::DoNotOptimize(m.springs.data());
    }
    count(state, file);
}

// nlohmann::json::parse of the same text into its DOM (without even converting
// to a Model): the cost the fast parser (lib/src/files/json_fast_parser.cpp) avoids.
void BM_JsonDomParseOnly(benchmark::State& state) {
    const fs::path file = bench_file("dom.json");
    save_model(big_model(), file);
    const std::string text = read_file(file);
    for (auto _ : state) {
        nlohmann::json j = nlohmann::json::parse(text);
        benchmark::DoNotOptimize(j.size());
    }
    count(state, file);
}

}  // namespace

BENCHMARK_CAPTURE(BM_Save, json, "model.json")->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(BM_Load, json, "model.json")->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(BM_Save, binary, "model.skb")->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK_CAPTURE(BM_Load, binary, "model.skb")->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(BM_JsonDomParseOnly)->Unit(benchmark::kMillisecond)->Iterations(2);

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::error_code ec;
    fs::remove_all(bench_file("x").parent_path(), ec);
    return 0;
}
