// Side by side with Bullet's btSoftBody on the identical topology: a 64 x 64
// patch from btSoftBodyHelpers::CreatePatch (with diagonals) plus
// generateBendingConstraints(2), held at two corners, piterations = 1. Its exact
// nodes, masses, links (rest lengths) and faces are copied into a springkit
// model; both step 1 ms per iteration (springkit: one substep, normals
// included). tests/bench/run prints the ratio of the two times. The
// EqualQuality benchmarks below compare them at equal strain and shape.
#include <BulletSoftBody/btDefaultSoftBodySolver.h>
#include <BulletSoftBody/btSoftBodyHelpers.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <BulletSoftBody/btSoftRigidDynamicsWorld.h>
#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleMesh.h>
#include <benchmark/benchmark.h>
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include "floor_mesh.hpp"
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

// Equal quality (issue #21): the same patch made the cloth (2 m, 1 kg,
// held at two corners), one step of each engine per 1/60 s frame, let to
// settle for kSettleFrames with the same damping (velocity times 0.95 a frame:
// Bullet's kDP, springkit's energy_loss), then timed frame by frame. Each
// engine's stiffness settings are chosen to reach the same maximum edge strain
// (|x_a - x_b| / rest - 1 over all links, bending links included) at rest:
// Bullet by piterations, kLST and substeps (its links are position-based
// constraints, Mueller et al. 2007: at one substep a frame even 150 iterations
// leave 27% strain, so substeps are its cheaper knob), springkit's explicit
// integrator by k (with the fewest stable substeps), its implicit one by
// iterations, strain_limit and k. Counters: max_strain at rest, peak_strain
// over the fall, max_speed at the end (m/s, 0 when settled) and for springkit
// rms_to_bullet, the RMS distance (m) between its nodes and Bullet's at rest.
constexpr float kFrame = 1.0f / 60.0f;
constexpr int kSettleFrames = 300;   // 5 s
constexpr float kVelocityKept = 0.95f;  // per frame

// Bullet's settings per strain level: piterations and kLST in percent.
struct BulletQuality {
    int piterations;
    int klst_percent;
    int substeps;  // per frame
};
constexpr BulletQuality kBulletLevels[] = {{1, 100, 22}, {1, 100, 41}, {2, 100, 48}};  // about 10%, 3%, 1%

struct Settled {
    std::vector<btVector3> shape;
    double max_strain = 0.0, peak_strain = 0.0, max_speed = 0.0;
};

template <class Position>
double link_strain(const std::vector<springkit::Spring>& springs, Position position) {
    double worst = 0.0;
    for (const springkit::Spring& s : springs)
        worst = std::max(worst, static_cast<double>((position(s.a) - position(s.b)).length()) / s.rest - 1.0);
    return worst;
}

struct ClothPatch : BulletPatch {
    std::vector<springkit::Spring> links;
    int substeps = 1;
    void frame() { world.stepSimulation(kFrame, substeps, kFrame / static_cast<float>(substeps)); }
    explicit ClothPatch(BulletQuality q) {
        body->setTotalMass(1.0f);
        body->m_cfg.piterations = q.piterations;
        substeps = q.substeps;
        // v = (x - x_n) / h (1 - kDP) each substep
        body->m_cfg.kDP = 1.0f - std::pow(kVelocityKept, 1.0f / static_cast<float>(substeps));
        body->m_materials[0]->m_kLST = static_cast<float>(q.klst_percent) / 100.0f;
        links = copy_patch(*body).springs;
    }
    double strain() const {
        return link_strain(links, [&](std::uint32_t i) { return body->m_nodes[static_cast<int>(i)].m_x; });
    }
    Settled settle() {
        Settled out;
        for (int f = 0; f < kSettleFrames; ++f) {
            out.shape.clear();
            for (int i = 0; i < body->m_nodes.size(); ++i) out.shape.push_back(body->m_nodes[i].m_x);
            frame();
            out.peak_strain = std::max(out.peak_strain, strain());
        }
        out.max_strain = strain();
        for (int i = 0; i < body->m_nodes.size(); ++i) {  // the last frame's displacement / frame
            out.max_speed = std::max(out.max_speed, static_cast<double>((body->m_nodes[i].m_x - out.shape[static_cast<std::size_t>(i)]).length()) / kFrame);
            out.shape[static_cast<std::size_t>(i)] = body->m_nodes[i].m_x;
        }
        return out;
    }
};

const Settled& bullet_settled(int level) {
    static std::map<int, Settled> cache;
    auto found = cache.find(level);
    if (found == cache.end()) {
        ClothPatch patch(kBulletLevels[level]);
        found = cache.emplace(level, patch.settle()).first;
    }
    return found->second;
}

void report_quality(benchmark::State& state, const Settled& s) {
    state.counters["max_strain"] = s.max_strain;
    state.counters["peak_strain"] = s.peak_strain;
    state.counters["max_speed"] = s.max_speed;
}

// Arg: the strain level (index into kBulletLevels).
void BM_BulletEqualQuality(benchmark::State& state) {
    ClothPatch patch(kBulletLevels[state.range(0)]);
    const Settled settled = patch.settle();
    for (auto _ : state) {
        patch.frame();
        benchmark::DoNotOptimize(&patch.body->m_nodes[0].m_x);
    }
    report_quality(state, settled);
    state.counters["substeps"] = patch.substeps;
    state.counters["piterations"] = patch.body->m_cfg.piterations;
}

void run_springkit_equal_quality(benchmark::State& state, springkit::Parameters params) {
    BulletPatch patch;  // only to build the topology
    patch.body->setTotalMass(1.0f);
    springkit::Model model = copy_patch(*patch.body);
    params.energy_loss = kVelocityKept;
    model.params = params;
    if (params.integrator != springkit::Integrator::implicit) {
        // The fewest substeps a frame that keep dt times the highest natural
        // frequency 10% under the integrator's bound (frequency_stability()).
        model.params.max_substep = kFrame;
        const springkit::FrequencyStability f = springkit::frequency_stability(model);
        const double substeps = std::ceil(f.omega_dt / (0.9 * f.limit));
        model.params.max_substep = kFrame / static_cast<float>(substeps);
        state.counters["substeps"] = substeps;
    }
    springkit::Simulation sim(model, {.threads = 1});
    const auto at = [&](std::uint32_t i) {
        const springkit::Vec3 x = sim.positions()[i];
        return btVector3(x.x, x.y, x.z);
    };
    Settled s;
    for (int f = 0; f < kSettleFrames; ++f) {
        const std::vector<springkit::Vec3> before(sim.positions().begin(), sim.positions().end());
        sim.step(kFrame);
        s.peak_strain = std::max(s.peak_strain, link_strain(model.springs, at));
        if (f == kSettleFrames - 1)
            for (std::size_t i = 0; i < before.size(); ++i)
                s.max_speed = std::max(s.max_speed, static_cast<double>(length(sim.positions()[i] - before[i])) / kFrame);
    }
    s.max_strain = link_strain(model.springs, at);
    const Settled& bullet = bullet_settled(static_cast<int>(state.range(0)));
    double sum = 0.0;
    for (std::size_t i = 0; i < bullet.shape.size(); ++i)
        sum += static_cast<double>((at(static_cast<std::uint32_t>(i)) - bullet.shape[i]).length2());
    for (auto _ : state) {
        sim.step(kFrame);
        benchmark::DoNotOptimize(sim.positions().data());
    }
    report_quality(state, s);
    state.counters["rms_to_bullet"] = std::sqrt(sum / static_cast<double>(bullet.shape.size()));
}

// Args: level, k in N/m (symplectic Euler, the fewest stable substeps).
void BM_SpringkitExplicitEqualQuality(benchmark::State& state) {
    springkit::Parameters p;
    p.k = static_cast<float>(state.range(1));
    run_springkit_equal_quality(state, p);
}

// Args: level, iterations, strain_limit in 1/1000, k in N/m (one step a
// frame), long_range_attachments, strain_limit_passes.
springkit::Parameters implicit_equal_quality(const benchmark::State& state) {
    springkit::Parameters p;
    p.integrator = springkit::Integrator::implicit;
    p.max_substep = kFrame;
    p.implicit_iterations = static_cast<int>(state.range(1));
    p.strain_limit = static_cast<float>(state.range(2)) / 1000.0f;
    p.k = static_cast<float>(state.range(3));
    p.long_range_attachments = static_cast<int>(state.range(4));
    p.strain_limit_passes = static_cast<int>(state.range(5));
    return p;
}

void BM_SpringkitImplicitEqualQuality(benchmark::State& state) {
    run_springkit_equal_quality(state, implicit_equal_quality(state));
}

// The same with the strain limit's options that hold the fall too: args as
// above, then strain_limit_every_spring and strain_limit_global_steps.
void BM_SpringkitImplicitEqualQualityFall(benchmark::State& state) {
    springkit::Parameters p = implicit_equal_quality(state);
    p.strain_limit_every_spring = static_cast<int>(state.range(6));
    p.strain_limit_global_steps = static_cast<int>(state.range(7));
    run_springkit_equal_quality(state, p);
}

// A jelly on a static 10k-triangle mesh: BM_JellyOnMesh's 16 x 4 x 16 jelly
// (1024 nodes, 0.6 m wide, springkit's default jelly parameters, node radius
// 5 mm) dropped 1 cm onto the 4 m floor of 10082 triangles, timed per 2 ms
// step after kJellySettleSteps. Bullet: a btSoftBody built node by node and
// link by link from the same model (same positions, masses, links and rest
// lengths; CreateFromTriMesh is not used: it allocates (max index)^2),
// piterations 1, collision margin the node radius, against a static
// btRigidBody with a btBvhTriangleMeshShape of the same triangles, default
// soft-rigid collision (SDF_RS, through btSoftBodyConcaveCollisionAlgorithm:
// each triangle near the body as a convex hull, the triangle extruded
// BT_SOFTBODY_TRIANGLE_EXTRUSION = 0.06 m to each side). SDF_RS reads the
// distance to that hull from btSparseSdf, which samples each shape on a grid
// of voxelsz and interpolates: at Bullet's default 0.25 m the 0.12 m slab
// falls between the samples and the jelly falls through. Bullet's mesh is
// lowered by the extrusion, so that the top of its slabs is springkit's floor
// at y = 0. Args: voxelsz in mm (250 the default; 40 and 20 hold the jelly
// above the floor), and a mode: 0 SDF_RS, > 0 cluster collision (CL_RS) with
// that many clusters, -1 SDF_RS against a box floor (top at y = 0) instead of
// the mesh, Bullet's own best case. Counters: max_strain (over
// the springs, at the end of settling), lowest (m, the lowest node's height)
// and for springkit rms_to_bullet (m, the RMS distance between the two
// settled shapes), centre_y (m, the mean node height), strained_share (the
// share of springs stretched or squeezed by more than 10%).
constexpr float kJellyStep = 0.002f;
constexpr int kJellySettleSteps = 500;  // 1 s
constexpr int kJellyTriangles = 10000;

springkit::Model bench_jelly() {
    springkit::Parameters p;
    p.node_radius = 0.005f;
    return springkit::make_jelly({.nx = 16, .ny = 4, .nz = 16, .size = 0.6f, .origin = {-0.3f, 0.01f, -0.3f}}, p);
}

// btSoftBodyConcaveCollisionAlgorithm.cpp's BT_SOFTBODY_TRIANGLE_EXTRUSION (m;
// not in Bullet's installed headers).
constexpr float kBulletTriangleExtrusion = 0.06f;

// The voxel size the springkit benchmark compares its settled shape with.
constexpr float kJellyVoxel = 0.02f;

struct BulletJelly {
    btSoftBodyRigidBodyCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btSoftRigidDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    btTriangleMesh triangles;
    std::unique_ptr<btBvhTriangleMeshShape> shape;
    std::unique_ptr<btBoxShape> box;
    std::unique_ptr<btRigidBody> floor;
    btSoftBody* body = nullptr;

    /// clusters > 0: cluster collision (CL_RS) with that many clusters
    /// (generateClusters) instead of SDF_RS; clusters < 0: a box floor (top at
    /// y = 0) instead of the mesh, for comparison.
    BulletJelly(const springkit::Model& m, float voxel, int clusters = 0) {
        btSoftBodyWorldInfo& info = world.getWorldInfo();
        info.m_gravity.setValue(0, -9.81f, 0);
        info.m_sparsesdf.Initialize();
        info.m_sparsesdf.setDefaultVoxelsz(voxel);
        info.m_sparsesdf.Reset();
        world.setGravity(info.m_gravity);
        const springkit::bench::FloorMesh f = springkit::bench::floor_mesh(kJellyTriangles);
        const auto bt = [](springkit::Vec3 v) { return btVector3(v.x, v.y, v.z); };
        // Bullet's surface is the top of the extruded slab: the mesh goes down by
        // the extrusion so that both engines' floors are at y = 0.
        const btVector3 down(0, -kBulletTriangleExtrusion, 0);
        for (const auto& t : f.triangles)
            triangles.addTriangle(bt(f.vertices[t[0]]) + down, bt(f.vertices[t[1]]) + down,
                                  bt(f.vertices[t[2]]) + down);
        shape = std::make_unique<btBvhTriangleMeshShape>(&triangles, true);
        box = std::make_unique<btBoxShape>(btVector3(2.0f, 0.5f, 2.0f));
        floor = std::make_unique<btRigidBody>(btRigidBody::btRigidBodyConstructionInfo(
            0.0f, nullptr, clusters < 0 ? static_cast<btCollisionShape*>(box.get()) : shape.get()));
        if (clusters < 0) floor->getWorldTransform().setOrigin(btVector3(0, -0.5f, 0));
        world.addRigidBody(floor.get());
        std::vector<btVector3> x;
        std::vector<btScalar> mass;
        for (std::size_t i = 0; i < m.node_count(); ++i) {
            x.push_back(bt(m.positions[i]));
            mass.push_back(m.node_mass(i));
        }
        body = new btSoftBody(&info, static_cast<int>(x.size()), x.data(), mass.data());
        for (const springkit::Spring& s : m.springs) {
            body->appendLink(static_cast<int>(s.a), static_cast<int>(s.b));
            body->m_links[body->m_links.size() - 1].m_rl = s.rest;
        }
        body->m_cfg.piterations = 1;
        body->getCollisionShape()->setMargin(m.params.node_radius);
        if (clusters > 0) {  // cluster collision
            body->m_cfg.collisions = btSoftBody::fCollision::CL_RS;
            body->generateClusters(clusters);
        }
        world.addSoftBody(body);
    }
    ~BulletJelly() {
        world.removeSoftBody(body);
        delete body;
        world.removeRigidBody(floor.get());
    }
    void step() { world.stepSimulation(kJellyStep, 0); }
    springkit::Vec3 at(std::uint32_t i) const {
        const btVector3& x = body->m_nodes[static_cast<int>(i)].m_x;
        return {x.x(), x.y(), x.z()};
    }
};

template <class At>
void report_jelly(benchmark::State& state, const springkit::Model& m, At at) {
    double strain = 0.0;
    std::size_t strained = 0;
    for (const springkit::Spring& s : m.springs) {
        const double e = static_cast<double>(length(at(s.a) - at(s.b)) / s.rest) - 1.0;
        strain = std::max(strain, e);
        strained += std::abs(e) > 0.1 ? 1 : 0;
    }
    state.counters["strained_share"] = static_cast<double>(strained) / static_cast<double>(m.springs.size());
    float lowest = at(0).y;
    double centre = 0.0;
    for (std::uint32_t i = 0; i < m.node_count(); ++i) {
        lowest = std::min(lowest, at(i).y);
        centre += static_cast<double>(at(i).y);
    }
    state.counters["max_strain"] = strain;
    state.counters["lowest"] = lowest;
    state.counters["centre_y"] = centre / static_cast<double>(m.node_count());
    state.counters["nodes"] = static_cast<double>(m.node_count());
}

const std::vector<springkit::Vec3>& bullet_jelly_settled() {
    static const std::vector<springkit::Vec3> shape = [] {
        const springkit::Model m = bench_jelly();
        BulletJelly jelly(m, kJellyVoxel);
        for (int i = 0; i < kJellySettleSteps; ++i) jelly.step();
        std::vector<springkit::Vec3> out;
        for (std::uint32_t i = 0; i < m.node_count(); ++i) out.push_back(jelly.at(i));
        return out;
    }();
    return shape;
}

void BM_BulletJellyOnMesh(benchmark::State& state) {
    const springkit::Model m = bench_jelly();
    BulletJelly jelly(m, static_cast<float>(state.range(0)) / 1000.0f, static_cast<int>(state.range(1)));
    for (int i = 0; i < kJellySettleSteps; ++i) jelly.step();
    report_jelly(state, m, [&](std::uint32_t i) { return jelly.at(i); });
    for (auto _ : state) {
        jelly.step();
        benchmark::DoNotOptimize(&jelly.body->m_nodes[0].m_x);
    }
}

// Arg: threads.
void BM_SpringkitJellyOnMesh(benchmark::State& state) {
    const springkit::Model m = bench_jelly();
    springkit::Simulation sim(m, {.threads = static_cast<int>(state.range(0))});
    springkit::bench::FloorMesh f = springkit::bench::floor_mesh(kJellyTriangles);
    auto colliders = std::make_shared<springkit::ColliderSet>();
    colliders->add(springkit::mesh_collider(springkit::make_triangle_mesh(std::move(f.vertices), std::move(f.triangles))));
    sim.set_colliders(colliders);
    for (int i = 0; i < kJellySettleSteps; ++i) sim.step(kJellyStep);
    const auto at = [&](std::uint32_t i) { return sim.positions()[i]; };
    report_jelly(state, m, at);
    const std::vector<springkit::Vec3>& bullet = bullet_jelly_settled();
    double sum = 0.0;
    for (std::uint32_t i = 0; i < m.node_count(); ++i) {
        const springkit::Vec3 d = at(i) - bullet[i];
        sum += static_cast<double>(dot(d, d));
    }
    state.counters["rms_to_bullet"] = std::sqrt(sum / static_cast<double>(m.node_count()));
    for (auto _ : state) {
        sim.step(kJellyStep);
        benchmark::DoNotOptimize(sim.positions().data());
    }
    state.counters["contacts"] = static_cast<double>(sim.contacts().size());
}

}  // namespace

BENCHMARK(BM_BulletEqualQuality)->DenseRange(0, 2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SpringkitExplicitEqualQuality)
    ->Args({0, 350})->Args({1, 1150})->Args({2, 3500})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SpringkitImplicitEqualQuality)
    ->Args({0, 5, 100, 300, 0, 4})->Args({1, 5, 30, 300, 0, 4})
    ->Args({2, 5, 10, 300, 0, 4})->Args({2, 5, 7, 300, 0, 4})
    ->Args({0, 1, 100, 100, 2, 2})->Args({1, 1, 30, 100, 2, 4})
    ->Args({2, 1, 10, 100, 2, 4})->Args({2, 1, 10, 100, 2, 6})->Args({2, 2, 10, 300, 2, 4})
    ->Args({2, 1, 7, 100, 2, 8})->Args({2, 2, 7, 300, 2, 6})->Args({2, 2, 10, 300, 2, 8})
    ->Args({2, 1, 7, 100, 2, 6})->Args({2, 1, 5, 100, 2, 6})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SpringkitImplicitEqualQualityFall)
    ->Args({0, 1, 100, 100, 2, 2, 1, 1})->Args({1, 1, 30, 100, 2, 4, 1, 1})->Args({1, 1, 30, 100, 2, 8, 1, 1})
    ->Args({2, 1, 7, 100, 2, 8, 1, 1})->Args({2, 1, 7, 100, 2, 12, 1, 1})->Args({2, 1, 5, 100, 2, 12, 1, 1})
    ->Args({2, 1, 7, 100, 2, 24, 1, 1})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BulletClothOverSphere)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SpringkitClothOverSphere)->Args({1, 1})->Args({1, 0})->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BulletJellyOnMesh)->Args({250, 0})->Args({40, 0})->Args({20, 0})->Args({250, 64})->Args({250, 256})->Args({250, -1})->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SpringkitJellyOnMesh)->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BulletSoftBodyPatch)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SpringkitSamePatch)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
