// Collision cost against a static triangle mesh of 1k, 10k and 100k
// triangles: a 16 x 16 x 4 jelly resting on a flat floor mesh 4 m square
// (one grid, triangulated as finely as asked). The bounding volume hierarchy
// keeps the cost with the nodes near the mesh, not the mesh's size. Timed per
// 2 ms substep once the jelly rests on the floor; the Arg is the triangle count.
//
// Self-collision: a towel of n x n nodes over a rail (make_towel, 2 m square,
// d = the spacing 2 / (n - 1) m) 1 s after it was let go, when its halves have
// met below the rail; timed per 2 ms substep with the stage on and, from the
// same state, off: the difference is the stage's cost.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>

#include "floor_mesh.hpp"
#include "springkit/springkit.hpp"

namespace {

using namespace springkit;

std::shared_ptr<const TriangleMesh> floor_mesh(int triangles) {
    bench::FloorMesh f = bench::floor_mesh(triangles);
    return make_triangle_mesh(std::move(f.vertices), std::move(f.triangles));
}

void BM_JellyOnMesh(benchmark::State& state) {
    Parameters p;
    p.node_radius = 0.005f;
    const Model jelly = make_jelly({.nx = 16, .ny = 4, .nz = 16, .size = 0.6f, .origin = {-0.3f, 0.01f, -0.3f}}, p);
    Simulation sim(jelly);
    auto colliders = std::make_shared<ColliderSet>();
    const auto mesh = floor_mesh(static_cast<int>(state.range(0)));
    colliders->add(mesh_collider(mesh));
    sim.set_colliders(colliders);
    for (int i = 0; i < 250; ++i) sim.step(0.002f);  // 0.5 s: resting
    if (state.range(1) == 0) sim.set_colliders(nullptr);
    for (auto _ : state) {
        sim.step(0.002f);
        benchmark::DoNotOptimize(sim.positions().data());
    }
    state.counters["triangles"] = static_cast<double>(triangle_count(*mesh));
    state.counters["nodes"] = static_cast<double>(jelly.node_count());
    state.counters["contacts"] = static_cast<double>(sim.contacts().size());
}

void BM_FoldingTowel(benchmark::State& state) {
    const auto n = static_cast<int>(state.range(0));
    Parameters p;
    p.mass = 0.01f;
    p.k = 500.0f;  // k dt^2 / m = 0.2
    p.energy_loss = 0.98f;
    p.self_collision_distance = 2.0f / static_cast<float>(n - 1);
    const Model towel = make_towel({.columns = n, .rows = n, .width = 2.0f, .length = 2.0f}, p);
    Simulation sim(towel);
    for (int i = 0; i < 500; ++i) sim.step(0.002f);
    if (state.range(1) == 0) {
        p.self_collision_distance = 0.0f;
        sim.set_parameters(p);
    }
    for (auto _ : state) {
        sim.step(0.002f);
        benchmark::DoNotOptimize(sim.positions().data());
    }
    state.counters["nodes"] = static_cast<double>(towel.node_count());
}

}  // namespace

// Arg 1: 1 with the mesh, 0 without it (the step alone).
BENCHMARK(BM_JellyOnMesh)
    ->Args({1000, 1})
    ->Args({10000, 1})
    ->Args({100000, 1})
    ->Args({1000, 0})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// Args: nodes per side, 1 with self-collision and 0 without it (the step alone).
BENCHMARK(BM_FoldingTowel)
    ->Args({32, 1})
    ->Args({32, 0})
    ->Args({64, 1})
    ->Args({64, 0})
    ->Args({128, 1})
    ->Args({128, 0})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
