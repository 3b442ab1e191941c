// Saved states (Simulation::save_state / restore_state): a restored instance
// steps on bit for bit as the saved one did, and every damaged buffer is refused
// with a message naming what is wrong, leaving the instance as it was.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "springkit/springkit.hpp"

using namespace springkit;

namespace {

void run(Simulation& sim, int frames) {
    for (int f = 0; f < frames; ++f) sim.step(1.0f / 60.0f);
}

bool same_bits(std::span<const Vec3> a, std::span<const Vec3> b) {
    // memcmp of an empty span would be handed a null pointer.
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)) == 0);
}

struct Case {
    std::string name;
    Model model;
};

std::vector<Case> cases() {
    ClothSpec cloth;
    cloth.columns = cloth.rows = 16;
    return {{"cloth", make_cloth(cloth)},
            {"source rope (Verlet)", make_source_rope()},
            {"bead rope", make_bead_rope()},
            {"jump rope (circle drives)", make_jump_rope()},
            {"tethered bodies", make_tethered_bodies()},
            {"tunca rope (velocity drive)", make_tunca_rope()}};
}

// Steps A 1 s, saves, steps 1 s more; a fresh instance restored from the save
// and stepped 1 s must end bit for bit where A did.
void expect_restores(Simulation& a, const std::shared_ptr<const PreparedBody>& body, int threads) {
    run(a, 60);
    const std::vector<std::byte> saved = a.save_state();
    run(a, 60);
    Simulation b(body, SimulationOptions{.threads = threads});
    b.restore_state(saved);
    run(b, 60);
    EXPECT_TRUE(same_bits(a.positions(), b.positions()));
    EXPECT_TRUE(same_bits(a.velocities(), b.velocities()));
    EXPECT_TRUE(same_bits(a.normals(), b.normals()));
    EXPECT_TRUE(same_bits(a.bead_positions(), b.bead_positions()));
    EXPECT_EQ(a.time(), b.time());
    EXPECT_EQ(a.substeps_taken(), b.substeps_taken());
    EXPECT_EQ(a.parameters(), b.parameters());
    EXPECT_EQ(a.placement(), b.placement());
}

std::size_t find_float(const std::vector<std::byte>& bytes, float value) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    for (std::size_t i = 0; i + 4 <= bytes.size(); ++i) {
        std::uint32_t v;
        std::memcpy(&v, bytes.data() + i, 4);
        if (v == bits) return i;
    }
    return bytes.size();
}

// Restoring `bytes` must throw an Error containing `message` and change nothing.
void expect_refused(Simulation& sim, const std::vector<std::byte>& bytes, const std::string& message) {
    const std::vector<std::byte> before = sim.save_state();
    try {
        sim.restore_state(bytes);
        ADD_FAILURE() << "accepted; expected \"" << message << "\"";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
    EXPECT_EQ(sim.save_state(), before);
}

}  // namespace

TEST(SavedState, RestoredInstanceStepsOnBitForBit) {
    for (const Case& c : cases()) {
        for (int threads : {1, 2}) {
            SCOPED_TRACE(c.name + ", threads " + std::to_string(threads));
            const auto body = prepare(c.model);
            Simulation a(body, SimulationOptions{.threads = threads});
            expect_restores(a, body, 3 - threads);  // the other thread count restores
        }
    }
}

TEST(SavedState, SettingsPlacementAndPendingForcesAreSaved) {
    ClothSpec spec;
    spec.columns = spec.rows = 12;
    const auto body = prepare(make_cloth(spec));
    Simulation a(body, Transform{{1.0f, 2.0f, 3.0f}, quat_from_axis_angle({0.0f, 1.0f, 0.0f}, 0.3f)});
    Parameters p = a.parameters();
    p.wind = {2.0f, 0.0f, 1.0f};
    p.integrator = Integrator::verlet;
    p.ground.reset();
    a.set_parameters(p);
    a.set_stiffness_scale(1.5f);
    run(a, 30);
    a.apply_force(5, {0.0f, 40.0f, 0.0f});  // pending for the next step
    const std::vector<std::byte> saved = a.save_state();
    run(a, 60);
    Simulation b(body);
    b.restore_state(saved);
    EXPECT_EQ(b.stiffness_scale(), 1.5f);
    run(b, 60);
    EXPECT_TRUE(same_bits(a.positions(), b.positions()));
    EXPECT_EQ(a.parameters(), b.parameters());
}

TEST(SavedState, DamagedStatesAreRefusedChangingNothing) {
    StringSpec spec;
    spec.nodes = 4;
    const auto body = prepare(make_string(spec));
    Simulation sim(body);
    run(sim, 10);
    const std::vector<std::byte> good = sim.save_state();
    Simulation target(body);
    run(target, 3);

    auto with = [&](std::size_t at, std::uint8_t value) {
        std::vector<std::byte> bytes = good;
        bytes[at] = static_cast<std::byte>(value);
        return bytes;
    };
    expect_refused(target, with(0, 'X'), "not a springkit state");
    expect_refused(target, with(4, 3), "format version 3 is not supported (this library reads 1 to 2)");
    expect_refused(target, with(4, 0), "format version 0 is not supported");
    expect_refused(target, with(8, static_cast<std::uint8_t>(good[8]) ^ 1u), "another body");
    expect_refused(target, with(16, 5), "the state has 5 nodes, this body 4");
    expect_refused(target, with(20, 9), "springs");
    expect_refused(target, with(24, 7), "anchors");
    expect_refused(target, with(28, 1), "tethers");
    expect_refused(target, with(32, 1), "beads");
    expect_refused(target, with(36, 0x80), "unknown flags");
    for (std::size_t size = 0; size < good.size(); ++size)
        expect_refused(target, std::vector<std::byte>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size)),
                       size < 4 ? "truncated state: the magic" : "truncated state");
    std::vector<std::byte> longer = good;
    longer.push_back(std::byte{0});
    expect_refused(target, longer, "1 bytes past the end");

    // A NaN where a position is.
    Simulation marked(body);
    marked.set_position(2, {123.25f, 0.5f, 0.0f});
    std::vector<std::byte> nan = marked.save_state();
    const std::size_t at = find_float(nan, 123.25f);
    ASSERT_LT(at, nan.size());
    const float q = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(nan.data() + at, &q, 4);
    expect_refused(target, nan, "a position is not finite");

    // Another body with as many nodes.
    Model other = make_string(spec);
    other.params.k *= 2.0f;
    Simulation stranger(other);
    expect_refused(stranger, good, "another body");

    // A sound state still restores after all that.
    target.restore_state(good);
    EXPECT_TRUE(same_bits(target.positions(), sim.positions()));
}

TEST(SavedState, FailedSimulationIsNotSaved) {
    StringSpec spec;
    spec.nodes = 4;
    Simulation sim(make_string(spec));
    sim.set_velocity(3, {1e9f, 0.0f, 0.0f});
    EXPECT_THROW(sim.step(1.0f / 60.0f), SimulationError);
    EXPECT_THROW((void)sim.save_state(), Error);
}

// A version 1 state had no settings rows for the parameters written only when
// set (parameter_table()'s written_when_default = false); it is still read, those
// rows at their defaults. Made here from a version 2 state by taking the rows out.
TEST(SavedState, VersionOneStatesAreStillRead) {
    const auto body = prepare(make_jelly());
    Simulation saved(body);
    run(saved, 20);
    const std::vector<std::byte> v2 = saved.save_state();
    std::vector<std::byte> v1(v2.begin(), v2.begin() + 56);  // magic .. substeps
    v1[4] = std::byte{1};
    std::size_t at = 56;
    for (const ParameterInfo& row : parameter_table()) {
        if (row.section == ParameterSection::ground && !saved.parameters().ground) continue;  // not written
        const std::size_t size = row.type == ParameterType::vector ? 12 : row.type == ParameterType::integrator ? 1 : 4;
        if (row.written_when_default) v1.insert(v1.end(), v2.begin() + static_cast<std::ptrdiff_t>(at),
                                                v2.begin() + static_cast<std::ptrdiff_t>(at + size));
        at += size;
    }
    ASSERT_LT(v1.size(), at);  // some rows were taken out
    v1.insert(v1.end(), v2.begin() + static_cast<std::ptrdiff_t>(at), v2.end());

    Simulation restored(body);
    restored.restore_state(v1);
    EXPECT_EQ(restored.save_state(), v2);
    run(saved, 10);
    run(restored, 10);
    EXPECT_TRUE(same_bits(restored.positions(), saved.positions()));
}
