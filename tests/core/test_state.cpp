// Saved states (Simulation::save_state / restore_state): a restored instance
// steps on bit for bit as the saved one did, and every damaged buffer is refused
// with a message naming what is wrong, leaving the instance as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <utility>
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

TEST(SavedState, AnotherIntegratorsStateGoesOnAsItWould) {
    // Only Verlet keeps previous positions: a state saved under symplectic
    // Euler, restored into an instance of a Verlet model, steps on as symplectic
    // Euler (its settings come with it), and back under Verlet as Verlet.
    ClothSpec spec;
    spec.columns = spec.rows = 10;
    Model verlet = make_cloth(spec);
    verlet.params.integrator = Integrator::verlet;
    const auto verlet_body = prepare(verlet);
    const auto symplectic_body = prepare(make_cloth(spec));
    Simulation a(symplectic_body), b(verlet_body);
    run(a, 20);
    run(b, 20);
    const std::vector<std::byte> from_a = a.save_state(), from_b = b.save_state();
    Simulation a_in_verlet(verlet_body), b_in_symplectic(symplectic_body);
    a_in_verlet.restore_state(from_a);
    b_in_symplectic.restore_state(from_b);
    run(a, 30);
    run(b, 30);
    run(a_in_verlet, 30);
    run(b_in_symplectic, 30);
    EXPECT_TRUE(same_bits(a.positions(), a_in_verlet.positions()));
    EXPECT_TRUE(same_bits(b.positions(), b_in_symplectic.positions()));
    EXPECT_FALSE(same_bits(a.positions(), b.positions()));
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
    expect_refused(target, with(4, 4), "format version 4 is not supported (this library reads 1 to 3)");
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

namespace {

// The settings section of a version 3 state, entry by entry: key -> the bytes
// of its value. `begin` and `end` are where the section starts and ends.
struct KeyedSettings {
    std::vector<std::pair<std::string, std::vector<std::byte>>> entries;
    std::size_t begin = 0, end = 0;
};

constexpr std::size_t kSettingsAt = 56;  // magic, version, hash, 5 counts, flags, time, substeps

KeyedSettings keyed_settings(const std::vector<std::byte>& state) {
    KeyedSettings k;
    k.begin = kSettingsAt;
    std::uint32_t count = 0;
    std::memcpy(&count, state.data() + kSettingsAt, 4);
    std::size_t at = kSettingsAt + 4;
    for (std::uint32_t i = 0; i < count; ++i) {
        const auto length = static_cast<std::size_t>(state[at]);
        std::string key(reinterpret_cast<const char*>(state.data() + at + 1), length);
        const auto type = static_cast<ParameterType>(state[at + 1 + length]);
        const std::size_t size = type == ParameterType::vector ? 12 : type == ParameterType::integrator ? 1 : 4;
        at += 2 + length;
        k.entries.emplace_back(key, std::vector<std::byte>(state.begin() + static_cast<std::ptrdiff_t>(at),
                                                          state.begin() + static_cast<std::ptrdiff_t>(at + size)));
        at += size;
    }
    k.end = at;
    return k;
}

std::vector<std::byte> with_settings(const std::vector<std::byte>& state, const KeyedSettings& k,
                                     const std::vector<std::byte>& settings) {
    std::vector<std::byte> out(state.begin(), state.begin() + static_cast<std::ptrdiff_t>(k.begin));
    out.insert(out.end(), settings.begin(), settings.end());
    out.insert(out.end(), state.begin() + static_cast<std::ptrdiff_t>(k.end), state.end());
    return out;
}

std::vector<std::byte> keyed_bytes(const std::vector<std::pair<std::string, std::vector<std::byte>>>& entries,
                                   const KeyedSettings& types_from) {
    std::vector<std::byte> out(4);
    const auto count = static_cast<std::uint32_t>(entries.size());
    std::memcpy(out.data(), &count, 4);
    for (const auto& [key, value] : entries) {
        out.push_back(static_cast<std::byte>(key.size()));
        for (char c : key) out.push_back(static_cast<std::byte>(c));
        // The type as the saved state tagged it (unknown keys: a number).
        auto type = std::byte{static_cast<std::uint8_t>(ParameterType::number)};
        for (const auto& [k, v] : types_from.entries)
            if (k == key) type = static_cast<std::byte>(find_parameter(k)->type);
        out.push_back(type);
        out.insert(out.end(), value.begin(), value.end());
    }
    return out;
}

// Versions 1 and 2 wrote the values alone, in the order of the table as it was
// then (docs/FILE_FORMAT.md); version 1 lacked the rows written only when set.
const char* const kPositionalRows[] = {
    "k", "energy_loss", "mass", "gravity", "spring_damping", "air_friction",
    "ground/height", "ground/repulsion", "ground/friction", "ground/absorption",
    "wind", "max_substep", "integrator", "rope_iterations", "verlet_damping", "node_radius",
    "pressure", "gust/velocity", "gust/period", "gust/duration", "gust/start",
    "implicit_iterations", "strain_limit", "chebyshev_rho", "self_collision_distance",
    "self_friction", "long_range_attachments", "strain_limit_passes", "total_mass",
    "density", "area_density", "stretch_stiffness"};

std::vector<std::byte> positional_state(const std::vector<std::byte>& v3, std::uint8_t version) {
    const KeyedSettings k = keyed_settings(v3);
    std::vector<std::byte> settings;
    for (const char* key : kPositionalRows) {
        if (version == 1 && !find_parameter(key)->written_when_default) continue;
        for (const auto& [name, value] : k.entries)
            if (name == key) settings.insert(settings.end(), value.begin(), value.end());
    }
    std::vector<std::byte> out = with_settings(v3, k, settings);
    out[4] = std::byte{version};
    return out;
}

}  // namespace

// Versions 1 and 2 are still read: a state made from a version 3 one by writing
// its settings the old way restores to the same instance, which steps on bit for
// bit. Version 1's missing rows take their defaults (the jelly runs with them).
TEST(SavedState, VersionOneAndTwoStatesAreStillRead) {
    const auto body = prepare(make_jelly());
    Simulation saved(body);
    run(saved, 20);
    const std::vector<std::byte> v3 = saved.save_state();
    ASSERT_EQ(v3[4], std::byte{3});
    for (std::uint8_t version : {1, 2}) {
        SCOPED_TRACE(version);
        const std::vector<std::byte> old = positional_state(v3, version);
        ASSERT_LT(old.size(), v3.size());
        Simulation restored(body);
        restored.restore_state(old);
        EXPECT_EQ(restored.save_state(), v3);
        Simulation reference = saved;
        run(reference, 10);
        run(restored, 10);
        EXPECT_TRUE(same_bits(restored.positions(), reference.positions()));
    }
}

// Version 3 keys each setting: a setting the state does not name (one a later
// library added) restores at its default; unknown, repeated or mistyped keys
// are refused by name.
TEST(SavedState, KeyedSettingsTakeDefaultsAndNameBadKeys) {
    const auto body = prepare(make_jelly());
    Simulation saved(body);
    Parameters tuned = saved.parameters();
    tuned.strain_limit_passes = 9;
    tuned.energy_loss = 0.5f;
    saved.set_parameters(tuned);
    run(saved, 5);
    const std::vector<std::byte> state = saved.save_state();
    const KeyedSettings k = keyed_settings(state);
    ASSERT_EQ(k.entries.front().first, "k");

    auto without = k.entries;
    std::erase_if(without, [](const auto& e) { return e.first == "strain_limit_passes"; });
    ASSERT_EQ(without.size() + 1, k.entries.size());
    Simulation restored(body);
    restored.restore_state(with_settings(state, k, keyed_bytes(without, k)));
    EXPECT_EQ(restored.parameters().strain_limit_passes, parameter_defaults().strain_limit_passes);
    EXPECT_EQ(restored.parameters().energy_loss, 0.5f);

    // Reordered entries mean the same.
    auto reversed = k.entries;
    std::reverse(reversed.begin(), reversed.end());
    Simulation reordered(body);
    reordered.restore_state(with_settings(state, k, keyed_bytes(reversed, k)));
    EXPECT_EQ(reordered.save_state(), state);

    const auto refused = [&](const std::vector<std::pair<std::string, std::vector<std::byte>>>& entries,
                             const std::string& message) {
        Simulation target(body);
        try {
            target.restore_state(with_settings(state, k, keyed_bytes(entries, k)));
            ADD_FAILURE() << "accepted, expected: " << message;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
        }
    };
    auto unknown = k.entries;
    unknown.emplace_back("bogus", std::vector<std::byte>(4));
    refused(unknown, "unknown setting \"bogus\"");
    auto twice = k.entries;
    twice.push_back(k.entries.front());
    refused(twice, "the setting \"k\" appears twice");
    std::vector<std::byte> settings = keyed_bytes(k.entries, k);
    settings[4 + 1 + 1] = std::byte{static_cast<std::uint8_t>(ParameterType::vector)};  // "k" tagged a vector
    Simulation target(body);
    try {
        target.restore_state(with_settings(state, k, settings));
        ADD_FAILURE() << "a mistyped setting was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("the setting \"k\" has the wrong type"), std::string::npos) << e.what();
    }
}

// positions() and velocities() are copies of the node state that an instance
// makes when first asked and then keeps current. An instance that holds the
// spans from its first frame must show, after every call that moves nodes,
// bit for bit what an instance that never asked shows when first asked
// (filled from the state itself), and the spans must stay where they were.
TEST(SavedState, ShownPositionsAndVelocitiesFollowEveryCallThatMovesNodes) {
    for (const Case& c : cases()) {
        SCOPED_TRACE(c.name);
        const auto body = prepare(c.model);
        Simulation reader(body);
        Simulation silent(body);
        const std::span<const Vec3> positions = reader.positions();
        const std::span<const Vec3> velocities = reader.velocities();
        ASSERT_EQ(positions.size(), c.model.node_count());
        const auto expect_shown = [&](const char* after) {
            SCOPED_TRACE(after);
            Simulation fresh = silent;  // a copy that has never been asked either
            EXPECT_TRUE(same_bits(positions, fresh.positions()));
            EXPECT_TRUE(same_bits(velocities, fresh.velocities()));
            EXPECT_EQ(reader.positions().data(), positions.data());
            EXPECT_EQ(reader.velocities().data(), velocities.data());
        };
        const auto both = [&](auto&& call) {
            call(reader);
            call(silent);
        };
        both([](Simulation& s) { run(s, 20); });
        expect_shown("steps");
        const std::uint32_t last = c.model.node_count() - 1;
        both([&](Simulation& s) { s.set_position(last, {0.1f, 0.2f, 0.3f}); });
        expect_shown("set_position");
        both([&](Simulation& s) { s.set_velocity(0, {1.0f, -2.0f, 0.5f}); });
        expect_shown("set_velocity");
        if (!c.model.anchors.empty()) {
            both([&](Simulation& s) { s.set_anchor_position(0, {0.5f, 1.5f, -0.5f}); });
            expect_shown("set_anchor_position");
        }
        both([](Simulation& s) { s.add_velocity({0.0f, 0.5f, 0.0f}); });
        expect_shown("add_velocity");
        both([](Simulation& s) { s.teleport({{1.0f, 0.0f, 2.0f}, quat_from_axis_angle({0, 1, 0}, 0.4f)}, true); });
        expect_shown("teleport");
        both([](Simulation& s) { run(s, 10); });
        const std::vector<std::byte> saved = silent.save_state();
        both([](Simulation& s) { run(s, 10); });
        both([&](Simulation& s) { s.restore_state(saved); });
        expect_shown("restore_state");
        Simulation next(body);
        both([&](Simulation& s) {
            next.carry_state_from(s);
            run(next, 5);
            s.carry_state_from(next);
        });
        expect_shown("carry_state_from");
        both([](Simulation& s) { s.reset(); });
        expect_shown("reset");
    }
}
