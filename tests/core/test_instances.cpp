// Prepared bodies and their instances: ownership (a Simulation can no longer
// dangle: it owns its model or shares a body that does), independent instances
// of one body, and per-instance settings that equal a new simulation of the
// changed model carried from the same state, bit for bit.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "springkit/springkit.hpp"
#include "support/scattered.hpp"

using namespace springkit;

namespace {

Model cloth(int side = 24) {
    ClothSpec spec;
    spec.columns = side;
    spec.rows = side;
    return make_cloth(spec);
}

Model jelly() {
    JellySpec spec;
    spec.nx = spec.ny = spec.nz = 6;
    spec.bend = true;
    Parameters p;
    p.spring_damping = 0.5f;
    p.ground = Ground{};
    return make_jelly(spec, p);
}

// The cloth with its nodes in scattered order: most springs in no run (loose),
// as in a converted mesh; with `group`, every third spring in a group of its
// own stiffness and damping.
Model scattered_cloth(bool group) {
    Model m = cloth(16);
    test::scatter_nodes(m, 3);
    m.params.spring_damping = 0.3f;
    if (group) {
        SpringGroup g{.name = "every third", .stiffness_scale = 1.5f, .damping = 0.8f, .springs = {}};
        for (std::uint32_t i = 0; i < m.springs.size(); i += 3) g.springs.push_back(i);
        m.spring_groups.push_back(g);
    }
    return m;
}

std::vector<Vec3> state_of(const Simulation& sim) {
    std::vector<Vec3> s(sim.positions().begin(), sim.positions().end());
    s.insert(s.end(), sim.velocities().begin(), sim.velocities().end());
    s.insert(s.end(), sim.normals().begin(), sim.normals().end());
    return s;
}

bool same_bits(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::memcmp(&a[i], &b[i], sizeof(Vec3)) != 0) return false;
    return true;
}

void run(Simulation& sim, int frames) {
    for (int f = 0; f < frames; ++f) sim.step(1.0f / 60.0f);
}

}  // namespace

TEST(Instances, TemporaryModelIsOwned) {
    const Model named = cloth();
    Simulation reference(named);
    Simulation from_temporary(cloth());
    run(reference, 30);
    run(from_temporary, 30);
    EXPECT_TRUE(same_bits(state_of(reference), state_of(from_temporary)));
    EXPECT_EQ(from_temporary.model().node_count(), named.node_count());
}

TEST(Instances, TemporaryFromLoadModel) {
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("springkit_instances_" + std::to_string(std::random_device{}()) + ".json");
    save_model(cloth(), path);
    Simulation sim(load_model(path));  // the loaded Model is a temporary
    std::filesystem::remove(path);
    Simulation reference(cloth());
    run(sim, 20);
    run(reference, 20);
    EXPECT_TRUE(same_bits(state_of(sim), state_of(reference)));
}

TEST(Instances, ChangingTheModelAfterwardsDoesNotReachTheSimulation) {
    Model model = cloth();
    Simulation sim(model);
    Simulation reference(cloth());
    model.positions[5].y += 1.0f;
    model.params.gravity = {0, 0, 0};
    model.springs.clear();
    run(sim, 20);
    run(reference, 20);
    EXPECT_TRUE(same_bits(state_of(sim), state_of(reference)));
}

TEST(Instances, SimulationsInAGrowingVector) {
    struct Body {
        Model model;
        Simulation sim;
    };
    std::vector<Body> bodies;
    for (int i = 0; i < 20; ++i) {  // reallocates several times: models and simulations move
        Model m = cloth(8 + i % 3);
        Simulation s(m);
        bodies.push_back({std::move(m), std::move(s)});
        for (Body& b : bodies) b.sim.step(1.0f / 60.0f);
    }
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        Simulation fresh(cloth(8 + static_cast<int>(i) % 3));
        run(fresh, static_cast<int>(bodies.size() - i));
        EXPECT_TRUE(same_bits(state_of(bodies[i].sim), state_of(fresh))) << "body " << i;
        EXPECT_EQ(&bodies[i].sim.model() == &bodies[i].model, false);  // its own copy
    }
}

TEST(Instances, InstancesOfOneBodyAreIndependent) {
    for (int threads : {1, 3}) {
        const std::shared_ptr<const PreparedBody> body = prepare(jelly());
        Simulation a(body, {.threads = threads}), b(body, {.threads = threads});
        EXPECT_EQ(a.body(), b.body());
        Simulation fresh_a(jelly(), {.threads = 1}), fresh_b(jelly(), {.threads = 2});
        for (int f = 0; f < 40; ++f) {
            a.apply_force(3, {0, 50, 0});
            fresh_a.apply_force(3, {0, 50, 0});
            if (f == 10) {
                b.set_velocity(7, {1, 2, 3});
                fresh_b.set_velocity(7, {1, 2, 3});
            }
            a.step(1.0f / 60.0f);
            b.step(1.0f / 60.0f);
            fresh_a.step(1.0f / 60.0f);
            fresh_b.step(1.0f / 60.0f);
        }
        EXPECT_TRUE(same_bits(state_of(a), state_of(fresh_a))) << threads << " threads";
        EXPECT_TRUE(same_bits(state_of(b), state_of(fresh_b))) << threads << " threads";
        EXPECT_FALSE(same_bits(state_of(a), state_of(b)));
        Simulation copy = a;  // shares the body, owns its state
        EXPECT_EQ(copy.body(), body);
        copy.step(1.0f / 60.0f);
        a.step(1.0f / 60.0f);
        EXPECT_TRUE(same_bits(state_of(a), state_of(copy)));
    }
}

TEST(Instances, NullBodyIsRefused) {
    EXPECT_THROW(Simulation(std::shared_ptr<const PreparedBody>{}), Error);
}

namespace {

// Steps `model` a while, then changes its settings in place with `change`
// and, beside it, makes a new simulation of the changed model that carries the
// state over; both must step on alike, bit for bit.
void expect_setting_matches(const Model& model, const std::function<void(Parameters&)>& change,
                            const std::string& what, int threads = 1) {
    SCOPED_TRACE(what);
    Simulation sim(model, {.threads = threads});
    run(sim, 25);
    Model changed = model;
    change(changed.params);
    Simulation fresh(changed, {.threads = threads});
    fresh.carry_state_from(sim);
    sim.set_parameters(changed.params);
    EXPECT_EQ(sim.parameters(), changed.params) << what;
    run(sim, 25);
    run(fresh, 25);
    EXPECT_TRUE(same_bits(state_of(sim), state_of(fresh))) << what;
}

}  // namespace

TEST(Instances, EachSettingChangedMidRunEqualsANewSimulation) {
    for (const Model& model : {cloth(), jelly()}) {
        expect_setting_matches(model, [](Parameters& p) { p.gravity = {1.0f, -3.0f, 0.5f}; }, "gravity");
        expect_setting_matches(model, [](Parameters& p) { p.energy_loss = 0.9f; }, "energy_loss");
        expect_setting_matches(model, [](Parameters& p) { p.spring_damping = 2.0f; }, "spring_damping");
        expect_setting_matches(model, [](Parameters& p) { p.spring_damping = 0.0f; }, "no spring_damping");
        expect_setting_matches(model, [](Parameters& p) { p.air_friction = 0.3f; p.wind = {2, 0, 1}; },
                               "air and wind");
        expect_setting_matches(model, [](Parameters& p) {
            p.air_friction = 0.3f;
            p.gust = {.velocity = {0, 0, 4}, .period = 1.0f, .duration = 0.5f, .start = 0.1f};
        }, "gust");
        expect_setting_matches(model, [](Parameters& p) { p.ground = Ground{.height = 0.2f}; }, "ground");
        expect_setting_matches(model, [](Parameters& p) { p.ground.reset(); }, "no ground");
        expect_setting_matches(model, [](Parameters& p) { p.max_substep = 0.001f; }, "max_substep");
        expect_setting_matches(model, [](Parameters& p) { p.integrator = Integrator::verlet; }, "verlet");
        expect_setting_matches(model, [](Parameters& p) { p.integrator = Integrator::verlet; p.verlet_damping = 0.9f; },
                               "verlet_damping");
        expect_setting_matches(model, [](Parameters& p) { p.spring_damping = 1.0f; }, "damping, 3 threads", 3);
    }
    Model verlet_cloth = cloth();
    verlet_cloth.params.integrator = Integrator::verlet;
    expect_setting_matches(verlet_cloth, [](Parameters& p) { p.integrator = Integrator::symplectic_euler; },
                           "from verlet");
    for (const Model& model : {scattered_cloth(false), scattered_cloth(true)})
        for (int threads : {1, 2}) {
            expect_setting_matches(model, [](Parameters& p) { p.spring_damping = 1.0f; }, "loose, damping", threads);
            expect_setting_matches(model, [](Parameters& p) { p.spring_damping = 0.0f; }, "loose, undamped", threads);
        }
    const Model rope = make_source_rope();
    expect_setting_matches(rope, [](Parameters& p) { p.rope_iterations = 7; }, "rope_iterations");
    expect_setting_matches(rope, [](Parameters& p) { p.gravity = {0, -1, 0}; }, "rope gravity");
    const Model beads = make_bead_rope();
    expect_setting_matches(beads, [](Parameters& p) { p.gravity = {0, -2, 0}; }, "bead gravity");
}

TEST(Instances, SettingsRefuseBodyValues) {
    Simulation sim(cloth());
    Parameters p = sim.parameters();
    p.k *= 2.0f;
    EXPECT_THROW(sim.set_parameters(p), Error);
    p = sim.parameters();
    p.mass *= 2.0f;
    EXPECT_THROW(sim.set_parameters(p), Error);
    p = sim.parameters();
    p.max_substep = -1.0f;
    EXPECT_THROW(sim.set_parameters(p), Error);
    EXPECT_EQ(sim.parameters(), sim.model().params);
    EXPECT_THROW(sim.set_stiffness_scale(0.0f), Error);
}

TEST(Instances, StiffnessScaleEqualsAModelWithScaledK) {
    for (const Model& model : {cloth(), jelly(), scattered_cloth(false), scattered_cloth(true)}) {
        for (int threads : {1, 2}) {
            for (SpringKernel kernel : {SpringKernel::batched, SpringKernel::reference}) {
                Simulation sim(model, {.threads = kernel == SpringKernel::reference ? 1 : threads, .kernel = kernel});
                run(sim, 20);
                Model stiffer = model;
                stiffer.params.k *= 2.0f;
                for (Spring& s : stiffer.springs) s.k *= 2.0f;
                Simulation fresh(stiffer, {.threads = sim.threads(), .kernel = kernel});
                fresh.carry_state_from(sim);
                sim.set_stiffness_scale(2.0f);
                run(sim, 20);
                run(fresh, 20);
                EXPECT_TRUE(same_bits(state_of(sim), state_of(fresh)));
                EXPECT_DOUBLE_EQ(sim.potential_energy(), fresh.potential_energy());
                // Back to 1: the body's own values again.
                Simulation plain(model, {.threads = sim.threads(), .kernel = kernel});
                plain.carry_state_from(sim);
                sim.set_stiffness_scale(1.0f);
                run(sim, 10);
                run(plain, 10);
                EXPECT_TRUE(same_bits(state_of(sim), state_of(plain)));
            }
        }
    }
}
