// Side by side with Bullet's btSoftBody on the identical topology: a 64 x 64
// patch from btSoftBodyHelpers::CreatePatch (with diagonals) plus
// generateBendingConstraints(2), held at two corners, piterations = 1. Its exact
// nodes, masses, links (rest lengths) and faces are copied into a springkit
// model; both step 1 ms per iteration (springkit: one substep, normals
// included). tests/bench/run prints the ratio of the two times.
#include <BulletSoftBody/btDefaultSoftBodySolver.h>
#include <BulletSoftBody/btSoftBodyHelpers.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <BulletSoftBody/btSoftRigidDynamicsWorld.h>
#include <benchmark/benchmark.h>
#include <btBulletDynamicsCommon.h>

#include <memory>

#include "springkit/springkit.hpp"

namespace {

constexpr int kResolution = 64;
constexpr float kStep = 0.001f;  // s, one step of each engine

// A Bullet world with the benchmark patch in it.
struct BulletPatch {
    btSoftBodyRigidBodyCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btSoftRigidDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    btSoftBody* body = nullptr;

    /// fixeds: CreatePatch's corner flags (1 + 2: the two corners of one edge).
    explicit BulletPatch(int fixeds = 1 + 2, float height = 1.0f) {
        btSoftBodyWorldInfo& info = world.getWorldInfo();
        info.m_gravity.setValue(0, -9.81f, 0);
        info.m_sparsesdf.Initialize();
        world.setGravity(info.m_gravity);
        const float h = 1.0f;
        body = btSoftBodyHelpers::CreatePatch(info, btVector3(-h, height, -h), btVector3(h, height, -h),
                                              btVector3(-h, height, h), btVector3(h, height, h), kResolution,
                                              kResolution, fixeds, true);
        body->m_cfg.piterations = 1;
        body->generateBendingConstraints(2);
        world.addSoftBody(body);
    }
    ~BulletPatch() {
        world.removeSoftBody(body);
        delete body;
    }
    void step() { world.stepSimulation(kStep, 0); }  // maxSubSteps = 0: exactly one step of kStep
};

// The same nodes, masses, links and faces as a springkit model.
springkit::Model copy_patch(const btSoftBody& body) {
    using namespace springkit;
    Model m;
    m.name = "bullet-patch";
    m.params.max_substep = kStep;
    m.params.k = 1000.0f;  // k dt^2 / m = 0.001 with Bullet's 1 kg nodes
    const btSoftBody::Node* first = &body.m_nodes[0];
    for (int i = 0; i < body.m_nodes.size(); ++i) {
        const btSoftBody::Node& n = body.m_nodes[i];
        m.positions.push_back({n.m_x.x(), n.m_x.y(), n.m_x.z()});
        m.masses.push_back(n.m_im > 0 ? 1.0f / n.m_im : 1.0f);
        if (n.m_im == 0) m.anchors.push_back({.node = static_cast<std::uint32_t>(i)});
    }
    for (int i = 0; i < body.m_links.size(); ++i) {
        const btSoftBody::Link& l = body.m_links[i];
        m.springs.push_back({static_cast<std::uint32_t>(l.m_n[0] - first),
                             static_cast<std::uint32_t>(l.m_n[1] - first), l.m_rl});
    }
    for (int i = 0; i < body.m_faces.size(); ++i) {
        const btSoftBody::Face& f = body.m_faces[i];
        m.faces.push_back({{static_cast<std::uint32_t>(f.m_n[0] - first), static_cast<std::uint32_t>(f.m_n[1] - first),
                            static_cast<std::uint32_t>(f.m_n[2] - first)},
                           {0, 0, 0}});
    }
    validate(m, "bullet patch");
    return m;
}

void report(benchmark::State& state, int nodes, int links) {
    state.counters["nodes"] = nodes;
    state.counters["links"] = links;
    state.counters["link_steps_per_s"] =
        benchmark::Counter(static_cast<double>(links) * static_cast<double>(state.iterations()),
                           benchmark::Counter::kIsRate);
}

void BM_BulletSoftBodyPatch(benchmark::State& state) {
    BulletPatch patch;
    patch.step();
    for (auto _ : state) {
        patch.step();
        benchmark::DoNotOptimize(&patch.body->m_nodes[0].m_x);
    }
    report(state, patch.body->m_nodes.size(), patch.body->m_links.size());
}

void BM_SpringkitSamePatch(benchmark::State& state) {
    BulletPatch patch;  // only to build the topology
    const springkit::Model model = copy_patch(*patch.body);
    springkit::Simulation sim(model, {.threads = static_cast<int>(state.range(0))});
    sim.step(kStep);
    for (auto _ : state) {
        sim.step(kStep);
        benchmark::DoNotOptimize(sim.positions().data());
    }
    report(state, static_cast<int>(model.node_count()), static_cast<int>(model.springs.size()));
}

// The same patch, free, draped over a sphere (radius 0.5 m at the origin,
// the patch dropped from 0.61 m) and timed once it rests on it: Bullet's
// default soft-rigid collision (SDF_RS) against a static btRigidBody sphere;
// springkit's contact stage against a sphere collider, node radius 1 cm.
constexpr float kDropHeight = 0.61f;
constexpr int kSettleSteps = 1000;  // 1 s: the cloth lies on the sphere

void BM_BulletClothOverSphere(benchmark::State& state) {
    BulletPatch patch(0, kDropHeight);
    btSphereShape sphere(0.5f);
    btRigidBody ball(btRigidBody::btRigidBodyConstructionInfo(0.0f, nullptr, &sphere));
    patch.world.addRigidBody(&ball);
    for (int i = 0; i < kSettleSteps; ++i) patch.step();
    for (auto _ : state) {
        patch.step();
        benchmark::DoNotOptimize(&patch.body->m_nodes[0].m_x);
    }
    report(state, patch.body->m_nodes.size(), patch.body->m_links.size());
    patch.world.removeRigidBody(&ball);
}

// Arg 0: threads; arg 1: 1 with the sphere collider, 0 without (the
// difference is the contact stage's share of a step).
void BM_SpringkitClothOverSphere(benchmark::State& state) {
    BulletPatch patch(0, kDropHeight);  // only to build the topology
    springkit::Model model = copy_patch(*patch.body);
    model.params.node_radius = 0.01f;
    springkit::Simulation sim(model, {.threads = static_cast<int>(state.range(0))});
    auto colliders = std::make_shared<springkit::ColliderSet>();
    colliders->add(springkit::sphere_collider(0.5f));
    sim.set_colliders(colliders);
    for (int i = 0; i < kSettleSteps; ++i) sim.step(kStep);
    if (state.range(1) == 0) sim.set_colliders(nullptr);
    for (auto _ : state) {
        sim.step(kStep);
        benchmark::DoNotOptimize(sim.positions().data());
    }
    report(state, static_cast<int>(model.node_count()), static_cast<int>(model.springs.size()));
    state.counters["contacts"] = static_cast<double>(sim.contacts().size());
}

}  // namespace

BENCHMARK(BM_BulletClothOverSphere)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SpringkitClothOverSphere)->Args({1, 1})->Args({1, 0})->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BulletSoftBodyPatch)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SpringkitSamePatch)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
