// Runtime throughput: spring-steps per second for cloths and a jelly on 1 and 2
// threads. One iteration is one 1/60 s frame: its substeps (max_substep 2 ms ->
// 9 substeps), anchors and the normals recomputation a game needs every frame.
#include <benchmark/benchmark.h>

#include "springkit/springkit.hpp"

using namespace springkit;

namespace {

// Cloth with structural, shear and bend springs, held at two corners.
Model cloth(int n) { return make_cloth({.columns = n, .rows = n, .anchors = ClothAnchors::top_corners}); }
Model jelly(int n) { return make_jelly({.nx = n, .ny = n, .nz = n, .anchor_bottom = true}); }

void run_frames(benchmark::State& state, const Model& model, SpringKernel kernel) {
    Simulation sim(model, {.threads = static_cast<int>(state.range(0)), .kernel = kernel});
    sim.step(1.0f / 60.0f);  // warm up: pages touched, threads started
    const std::uint64_t first = sim.substeps_taken();
    for (auto _ : state) {
        sim.step(1.0f / 60.0f);
        benchmark::DoNotOptimize(sim.positions().data());
    }
    const double substeps = static_cast<double>(sim.substeps_taken() - first);
    state.counters["springs"] = static_cast<double>(model.springs.size());
    state.counters["substeps_per_frame"] = substeps / static_cast<double>(state.iterations());
    state.counters["spring_steps_per_s"] =
        benchmark::Counter(substeps * static_cast<double>(model.springs.size()), benchmark::Counter::kIsRate);
}

template <int N>
void BM_Cloth(benchmark::State& state) {
    static const Model model = cloth(N);
    run_frames(state, model, SpringKernel::batched);
}

template <int N>
void BM_Jelly(benchmark::State& state) {
    static const Model model = jelly(N);
    run_frames(state, model, SpringKernel::batched);
}

// The seed-faithful kernel (one pass over the springs in file order), for scale.
template <int N>
void BM_ClothReference(benchmark::State& state) {
    static const Model model = cloth(N);
    run_frames(state, model, SpringKernel::reference);
}

}  // namespace

BENCHMARK(BM_Cloth<64>)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Cloth<256>)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Cloth<512>)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Jelly<32>)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ClothReference<256>)->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
