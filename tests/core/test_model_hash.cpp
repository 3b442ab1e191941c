// model_hash (springkit/model_hash.hpp): the whole model for goldens, the
// physics only for saved states; both values are stored in files, so they are
// pinned here.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>

#include "springkit/springkit.hpp"

using namespace springkit;

namespace {

Model sample(const char* name) {
    return load_model(std::filesystem::path(SPRINGKIT_SOURCE_DIR) / "samples/models" / name);
}

/// The body hash a saved state carries: bytes 8-15, little-endian (docs/FILE_FORMAT.md).
std::uint64_t hash_in_state(const Model& m) {
    const std::vector<std::byte> state = Simulation(m).save_state();
    std::uint64_t h = 0;
    for (int i = 0; i < 8; ++i) h |= std::uint64_t{std::to_integer<std::uint8_t>(state[8 + i])} << (8 * i);
    return h;
}

}  // namespace

TEST(ModelHash, WholeModelSeesPhysicsButNotNames) {
    const Model a = make_jelly();
    Model b = a;
    b.name = "renamed";
    b.texture = "other.png";
    EXPECT_EQ(model_hash(a), model_hash(b));
    b.springs[3].k = 5.0f;
    EXPECT_NE(model_hash(a), model_hash(b));
    Model c = a;
    c.params.k *= 2;
    EXPECT_NE(model_hash(a), model_hash(c));
    Model d = a;
    d.texcoords.push_back({0.5f, 0.5f});
    EXPECT_NE(model_hash(a), model_hash(d)) << "texcoords are part of the whole model";
}

TEST(ModelHash, PhysicsLeavesOutWhatTheBodyDoesNotRead) {
    const Model a = sample("cloth.json");
    Model b = a;
    b.name = "renamed";
    b.texture = "other.png";
    b.texcoords.push_back({0.5f, 0.5f});
    b.params.wind = {3, 0, 0};  // a setting: a saved state carries its own
    b.params.max_substep /= 2;
    EXPECT_EQ(model_hash(a, HashScope::physics), model_hash(b, HashScope::physics));
    EXPECT_NE(model_hash(a), model_hash(b));
    Model c = a;
    c.positions[7].y += 1e-3f;
    EXPECT_NE(model_hash(a, HashScope::physics), model_hash(c, HashScope::physics));
    Model d = a;
    d.params.mass *= 2;
    EXPECT_NE(model_hash(a, HashScope::physics), model_hash(d, HashScope::physics));
}

// Values from before the two hashes became one function: goldens and saved
// states written then still match.
TEST(ModelHash, ValuesStoredInFilesAreUnchanged) {
    EXPECT_EQ(model_hash(sample("balloon.json")), 0x7be8be7f2f8dc398u);
    EXPECT_EQ(model_hash(sample("bead-rope.json")), 0xfe1c0a01eb5339afu);
    EXPECT_EQ(model_hash(sample("cloth.json")), 0xc730c09ab841372au);
    EXPECT_EQ(model_hash(sample("balloon.json"), HashScope::physics), 0x9d4b0b30f1a8d604u);
    EXPECT_EQ(model_hash(sample("bead-rope.json"), HashScope::physics), 0x41b8970ad3a895e8u);
    EXPECT_EQ(model_hash(sample("cloth.json"), HashScope::physics), 0x1f8975a1ce66479eu);
    for (const char* name : {"balloon.json", "bead-rope.json", "cloth.json"})
        EXPECT_EQ(hash_in_state(sample(name)), model_hash(sample(name), HashScope::physics)) << name;
}
