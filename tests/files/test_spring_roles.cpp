// Spring roles (Spring::role): what each spring stands for, kept by both file forms
// only when some spring has one, checked like every other field, and ignored by
// the physics.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
namespace fs = std::filesystem;
using springkit::test::error_of;
using springkit::test::load_error;

namespace {

// A small cloth whose springs wear every role in turn (and one a rope kind), so
// the arrays hold every value next to kinds and own k.
Model cloth_with_roles() {
    Model m = make_cloth({.columns = 5, .rows = 4, .anchors = ClothAnchors::top_corners});
    for (std::size_t i = 0; i < m.springs.size(); ++i)
        m.springs[i].role = static_cast<SpringRole>(i % (kMaxSpringRole + 1));
    m.springs[2].kind = SpringKind::rope;
    m.springs[3].k = 2500.0f;
    return m;
}

const char* kTwoSprings =
    R"({"format": "springkit", "version": 1, "positions": [0,0,0, 1,0,0, 0,1,0],
  "springs": {"pairs": [0, 1, 1, 2], "rest": [1, 1.5], "role": ROLES}})";

std::string with_roles(const std::string& roles) {
    std::string text = kTwoSprings;
    text.replace(text.find("ROLES"), 5, roles);
    return text;
}

}  // namespace

TEST(SpringRoles, JsonRoundTripKeepsEveryRole) {
    const Model m = cloth_with_roles();
    const std::string text = model_to_json(m);
    ASSERT_NE(text.find("\"role\": [0, 1, 2, 3, 4, 5, 0"), std::string::npos)
        << text.substr(0, 400);
    const Model back = model_from_json(text);
    EXPECT_TRUE(back == m);
    for (std::size_t i = 0; i < m.springs.size(); ++i)
        ASSERT_EQ(back.springs[i].role, m.springs[i].role) << i;
    EXPECT_EQ(model_to_json(back), text);
}

TEST(SpringRoles, BinaryRoundTripKeepsEveryRole) {
    const Model m = cloth_with_roles();
    const test::TempDir dir;
    save_model(m, dir.path() / "roles.skb");
    const Model back = load_model(dir.path() / "roles.skb");
    EXPECT_TRUE(back == m);
    EXPECT_EQ(model_to_binary(back), model_to_binary(m));
    // JSON to binary and back: the same model.
    EXPECT_TRUE(model_from_binary(model_to_binary(model_from_json(model_to_json(m)))) == m);
}

TEST(SpringRoles, ModelsWithoutRolesKeepTheirBytes) {
    // No role: no "role" array and no binary flag or bytes, the layout the files
    // had before roles (the committed samples are checked byte for byte elsewhere).
    Model plain = make_cloth({.columns = 5, .rows = 4});
    EXPECT_EQ(model_to_json(plain).find("\"role\""), std::string::npos);
    Model tagged = plain;
    tagged.springs[0].role = SpringRole::edge;
    const std::string a = model_to_binary(plain), b = model_to_binary(tagged);
    // The roles add one byte per spring, padded to 4.
    EXPECT_EQ(b.size() - a.size(), (plain.springs.size() + 3) / 4 * 4);
    std::uint32_t header = 0;
    std::memcpy(&header, a.data() + 12, 4);
    const std::size_t flags_at = (16 + header + 7) / 8 * 8 + 3 * 8;
    std::uint64_t flags_a = 0, flags_b = 0;
    std::memcpy(&flags_a, a.data() + flags_at, 8);
    std::memcpy(&flags_b, b.data() + flags_at, 8);
    EXPECT_EQ(flags_a, 0u);
    EXPECT_EQ(flags_b, 4u);
}

TEST(SpringRoles, ThePhysicsIgnoresThem) {
    const Model plain = make_cloth({.columns = 5, .rows = 4, .anchors = ClothAnchors::top_corners});
    const Model tagged = cloth_with_roles();
    Model same_physics = tagged;
    for (std::size_t i = 0; i < plain.springs.size(); ++i)
        same_physics.springs[i].role = SpringRole::volume;
    EXPECT_EQ(model_hash(tagged, HashScope::physics), model_hash(same_physics, HashScope::physics));
    EXPECT_NE(model_hash(tagged), model_hash(same_physics));  // the whole model does see them
    // Two runs, with and without roles, step to the same bits.
    Model untagged = tagged;
    for (Spring& s : untagged.springs) s.role = SpringRole::unspecified;
    Simulation a(tagged), b(untagged);
    for (int i = 0; i < 30; ++i) {
        a.step(1.0f / 60.0f);
        b.step(1.0f / 60.0f);
    }
    ASSERT_EQ(a.positions().size(), b.positions().size());
    EXPECT_EQ(std::memcmp(a.positions().data(), b.positions().data(), a.positions().size_bytes()),
              0);
}

TEST(SpringRoles, BadRolesAreClearErrors) {
    EXPECT_TRUE(model_from_json(with_roles("[1, 5]")).springs[1].role == SpringRole::user);
    EXPECT_EQ(load_error(with_roles("[1, 6]")),
              "bad.json: /springs/role/1: expected 0 (unspecified), 1 (edge), 2 (shear), 3 (bend), "
              "4 (volume) or 5 "
              "(user)");
    EXPECT_EQ(load_error(with_roles("[1, -1]")),
              "bad.json: /springs/role/1: expected 0 (unspecified), 1 (edge), 2 (shear), 3 (bend), "
              "4 (volume) or 5 "
              "(user)");
    EXPECT_EQ(load_error(with_roles("[\"edge\", 1]")),
              "bad.json: /springs/role/0: expected 0 (unspecified), 1 (edge), 2 (shear), 3 (bend), "
              "4 (volume) or 5 "
              "(user)");
    EXPECT_EQ(load_error(with_roles("[1]")),
              "bad.json: /springs/role: must be an array with one role per spring (2)");
    EXPECT_EQ(load_error(with_roles("3")),
              "bad.json: /springs/role: must be an array with one role per spring (2)");
    // A model built in code with a role past the last is refused by validate().
    Model m = model_from_json(with_roles("[1, 2]"));
    m.springs[1].role = static_cast<SpringRole>(9);
    EXPECT_EQ(error_of([&] { validate(m, "m.json"); }),
              "m.json: /springs/1/role: unknown spring role 9 (expected 0 to 5)");
    // The binary form: a role byte past the last.
    m.springs[1].role = SpringRole::bend;
    std::string bytes = model_to_binary(m);
    // The roles are the last spring array: 2 bytes, 2 of padding, then the faces (none) and
    // texcoords (none).
    ASSERT_EQ(bytes[bytes.size() - 3], static_cast<char>(SpringRole::bend));
    bytes[bytes.size() - 3] = 7;
    EXPECT_EQ(error_of([&] { model_from_binary(bytes, "m.skb"); }),
              "m.skb: spring 1: role 7 (expected 0 to 5)");
}
