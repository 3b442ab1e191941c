// Spring groups in model files: exact round trips of both forms, files without
// groups keeping their bytes, and the binary form naming a bad group.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
namespace fs = std::filesystem;

namespace {

Model grouped_cloth() {
    Model m = make_cloth({.columns = 9, .rows = 7});
    SpringGroup stiff;
    stiff.name = "edge \"stiff\" ü";  // quotes and UTF-8 survive
    stiff.stiffness_scale = 2.5f;
    stiff.springs = {0, 5, 3};       // in the order given
    SpringGroup damped;
    damped.name = "damped";
    damped.stiffness_scale = 0.1f;   // not exactly representable: the shortest round trip
    damped.damping = 0.3f;
    damped.springs = {1, 2, 40};
    SpringGroup empty;
    empty.name = "empty";
    empty.damping = 0.0f;            // zero damping is a value, not "the model's"
    m.spring_groups = {stiff, damped, empty};
    return m;
}

}  // namespace

TEST(SpringGroupFiles, RoundTripExactlyInBothForms) {
    const test::TempDir dir;
    const Model m = grouped_cloth();
    for (const char* name : {"m.json", "m.skb"}) {
        const fs::path file = dir.path() / name;
        save_model(m, file);
        const Model back = load_model(file);
        EXPECT_TRUE(back == m) << name;
        ASSERT_EQ(back.spring_groups.size(), 3u);
        EXPECT_FALSE(back.spring_groups[0].damping.has_value());
        EXPECT_EQ(back.spring_groups[2].damping, 0.0f);
        EXPECT_EQ(model_to_json(back), model_to_json(m)) << name;
    }
}

TEST(SpringGroupFiles, WrittenOnlyWhenPresentInTheirOwnShape) {
    const Model plain = make_cloth({.columns = 3, .rows = 3});
    EXPECT_EQ(model_to_json(plain).find("spring_groups"), std::string::npos);
    Model m = plain;
    SpringGroup g;
    g.name = "g";
    g.stiffness_scale = 2.0f;
    g.damping = 0.25f;
    g.springs = {1, 0};
    m.spring_groups = {g};
    const std::string text = model_to_json(m);
    EXPECT_NE(text.find(",\n  \"spring_groups\": [{\"name\": \"g\", \"stiffness_scale\": 2, \"damping\": 0.25, "
                        "\"springs\": [1, 0]}]\n}\n"),
              std::string::npos)
        << text;
    // The model without them is the text before them.
    EXPECT_EQ(text.substr(0, text.find(",\n  \"spring_groups\"")) + "\n}\n", model_to_json(plain));
}

TEST(SpringGroupFiles, HashesOfModelsWithoutGroupsAreUnchangedAndGroupsCount) {
    const Model plain = make_cloth({.columns = 4, .rows = 4});
    Model m = plain;
    SpringGroup g;
    g.name = "g";
    g.springs = {0};
    m.spring_groups = {g};
    EXPECT_NE(model_hash(m, HashScope::physics), model_hash(plain, HashScope::physics));
    Model scaled = m;
    scaled.spring_groups[0].stiffness_scale = 2.0f;
    EXPECT_NE(model_hash(scaled, HashScope::physics), model_hash(m, HashScope::physics));
    Model renamed = m;
    renamed.spring_groups[0].name = "other";  // a name is no physics
    EXPECT_EQ(model_hash(renamed, HashScope::physics), model_hash(m, HashScope::physics));
    EXPECT_NE(model_hash(renamed), model_hash(m));
}

TEST(SpringGroupFiles, BinaryFormNamesABadGroup) {
    const test::TempDir dir;
    Model m = make_cloth({.columns = 3, .rows = 3});
    SpringGroup g;
    g.name = "g";
    g.springs = {10};
    m.spring_groups = {g};
    const fs::path file = dir.path() / "m.skb";
    save_model(m, file);
    // Point the group past the springs in the file's JSON header: the same bytes' length.
    std::string bytes = read_file(file);
    const std::string from = "\"springs\": [10]}", to = "\"springs\": [99]}";
    const auto at = bytes.find(from);
    ASSERT_NE(at, std::string::npos);
    bytes.replace(at, from.size(), to);
    EXPECT_EQ(test::error_of([&] { model_from_binary(bytes, "m.skb"); }),
              "m.skb: /spring_groups/0/springs/0: spring index 99 out of range (model has " +
                  std::to_string(m.springs.size()) + " springs)");
}
