// The fast model-file paths: the binary form (exact round trip, clear errors for
// any truncation or oversized count) and the direct JSON parser (the same model
// and the same messages as the DOM reader).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir() { return springkit::test::scratch_dir("test-io-fast"); }

// A model using every field the file holds: masses, own k, rope kinds, anchor
// drives, faces and texcoords, attachments, a texture and a name with escapes.
Model everything() {
    Model m = make_cloth({.columns = 6, .rows = 5, .anchors = ClothAnchors::top_corners});
    m.name = "cloth \"quoted\" \xC3\xA9t\xC3\xA9\n";
    m.texture = "textures/cloth.png";
    m.masses.assign(m.node_count(), 0.125f);
    m.masses[3] = 0.1f;
    m.springs[0].k = 1234.5678f;
    m.springs[1].kind = SpringKind::rope;
    m.anchors[1].drive = AnchorDrive::circle;
    m.anchors[1].center = {0.5f, 1.0f, -1.0f};
    m.anchors[1].angular_speed = 2.0f;
    m.anchors.push_back({.node = 7, .drive = AnchorDrive::velocity, .velocity = {1e-7f, -3.25f, 0}});
    m.constant_forces.push_back({12, {0, 1.5f, 0}});
    m.tethers.push_back({.node = 20, .point = {0, 2, 0}, .length = 1.5f});
    m.params.ground = Ground{.height = -0.5f};
    m.params.air_friction = 0.01f;
    return m;
}

std::string binary_error(std::string_view bytes) {
    return test::error_of([&] { model_from_binary(bytes, "m.skb"); });
}

}  // namespace

TEST(BinaryForm, SaveThenLoadGivesTheIdenticalModel) {
    for (const Model& m : {everything(), make_jelly({.nx = 3, .ny = 4, .nz = 3}), make_source_rope(), Model{}}) {
        const fs::path file = temp_dir() / "roundtrip.skb";
        save_model(m, file);
        const Model back = load_model(file);
        EXPECT_TRUE(back == m) << m.name;
        EXPECT_EQ(model_to_json(back), model_to_json(m));
        EXPECT_EQ(model_to_binary(back), model_to_binary(m));
    }
}

TEST(BinaryForm, IsChosenByTheFileExtension) {
    const Model m = everything();
    const fs::path binary = temp_dir() / "model.skb", text = temp_dir() / "model.json";
    save_model(m, binary);
    save_model(m, text);
    EXPECT_EQ(read_file(binary).substr(0, 8), "SPRINGKB");
    EXPECT_EQ(read_file(text).substr(0, 1), "{");
    EXPECT_TRUE(load_model(binary) == load_model(text));
    EXPECT_TRUE(is_binary_model_path("a/b.skb"));
    EXPECT_FALSE(is_binary_model_path("a/b.json"));
}

TEST(BinaryForm, TruncatedFileAtEveryOffsetIsAClearError) {
    const std::string bytes = model_to_binary(everything());
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        const std::string message = binary_error(std::string_view(bytes).substr(0, size));
        ASSERT_EQ(message.rfind("m.skb", 0), 0u) << "size " << size << ": " << message;
        ASSERT_EQ(message.find('\n'), std::string::npos) << message;
    }
    EXPECT_EQ(binary_error(std::string_view(bytes).substr(0, 5)),
              "m.skb: not a springkit binary model (it does not start with \"SPRINGKB\")");
    EXPECT_EQ(binary_error(bytes + "x"), "m.skb: 1 unexpected bytes after the arrays (at offset " +
                                             std::to_string(bytes.size()) + ")");
}

TEST(BinaryForm, CountsLargerThanTheFileAreRefusedBeforeAllocating) {
    const std::string bytes = model_to_binary(everything());
    std::uint32_t header = 0;
    std::memcpy(&header, bytes.data() + 12, 4);
    const std::size_t counts = (16 + header + 7) / 8 * 8;
    for (int field = 0; field < 6; ++field) {
        if (field == 3) continue;  // flags
        std::string bad = bytes;
        const std::uint64_t huge = std::uint64_t{1} << 61;
        std::memcpy(bad.data() + counts + 8 * field, &huge, 8);
        const std::string message = binary_error(bad);
        EXPECT_NE(message.find("m.skb: "), std::string::npos) << message;
        EXPECT_TRUE(message.find("truncated binary model") != std::string::npos ||
                    message.find("masses for") != std::string::npos)
            << message;
    }
}

TEST(BinaryForm, RejectsANewerLayoutAndInvalidContentLikeJson) {
    const std::string bytes = model_to_binary(everything());
    std::string newer = bytes;
    newer[8] = 9;
    EXPECT_EQ(binary_error(newer), "m.skb: binary layout version 9 is newer than this springkit reads (1); update springkit");
    // The same validation as JSON: a spring index past the nodes, with its location.
    const Model valid = everything();
    std::string binary = model_to_binary(valid);
    // Patch spring 5's b in the pairs array: right after the positions and masses.
    std::uint32_t header = 0;
    std::memcpy(&header, binary.data() + 12, 4);
    const std::size_t arrays = (16 + header + 7) / 8 * 8 + 48;
    const std::size_t pair_b = arrays + 12 * valid.node_count() + 4 * valid.masses.size() + 4 * (2 * 5 + 1);
    const std::uint32_t bad_node = 999;
    std::memcpy(binary.data() + pair_b, &bad_node, 4);
    EXPECT_EQ(binary_error(binary), "m.skb: /springs/5: node index 999 out of range (model has 30 nodes)");
}

TEST(JsonFastPath, ReadsNumbersAsTheDomReaderDoes) {
    // Integers in float arrays, -0 as an integer (0), exponents, and spacing.
    const Model m = model_from_json(R"({ "version":1,"format" : "springkit",
        "positions" : [ 1 , -0, 2.5e-1,  -0.0, 3E2, 16777217 ],
        "springs": {"pairs": [0,1], "rest": [0.1000000015]}, "name": "a\u00e9\"b" })");
    ASSERT_EQ(m.node_count(), 2u);
    EXPECT_EQ(m.positions[0].x, 1.0f);
    EXPECT_EQ(m.positions[0].y, 0.0f);
    EXPECT_FALSE(std::signbit(m.positions[0].y));
    EXPECT_EQ(m.positions[0].z, 0.25f);
    EXPECT_TRUE(std::signbit(m.positions[1].x));
    EXPECT_EQ(m.positions[1].y, 300.0f);
    EXPECT_EQ(m.positions[1].z, 16777216.0f);
    EXPECT_EQ(m.springs[0].rest, 0.1f);
    EXPECT_EQ(m.name, "a\xC3\xA9\"b");
}

TEST(JsonWriter, AModelBigEnoughForTheSecondWriterThreadComesOutInOnePiece) {
    // 2 x 399 x 399 faces: the anchors, faces and texcoords (some 20 MB of text)
    // are written on a second thread and joined to the rest.
    Model m = make_cloth({.columns = 400, .rows = 400, .anchors = ClothAnchors::top_edge});
    m.texture = "cloth.png";
    const std::string text = model_to_json(m);
    EXPECT_EQ(text.find("{\n  \"format\": \"springkit\""), 0u);
    EXPECT_EQ(text.substr(text.size() - 25), "\"texture\": \"cloth.png\"\n}\n");
    EXPECT_TRUE(model_from_json(text, "big.json") == m);
    EXPECT_EQ(model_to_json(model_from_json(text, "big.json")), text);
    // Saved, the two halves go to the file back to back.
    const fs::path file = temp_dir() / "big-cloth.json";
    save_model(m, file);
    EXPECT_EQ(read_file(file), text);
    // validate() checks the springs of a model this big on a second thread; a
    // problem in either half is still found and named.
    ASSERT_GE(m.springs.size(), 200000u);
    Model twice = m;
    twice.springs.push_back({m.springs[5].b, m.springs[5].a, 1.0f});
    EXPECT_EQ(test::error_of([&] { validate(twice, "big.json"); }),
              "big.json: /springs/" + std::to_string(m.springs.size()) + ": duplicate spring between nodes " +
                  std::to_string(m.springs[5].b) + " and " + std::to_string(m.springs[5].a) + " (same as spring 5)");
    Model far = m;
    far.faces.back().node[2] = static_cast<std::uint32_t>(m.node_count());
    EXPECT_NE(test::error_of([&] { validate(far, "big.json"); }).find("/faces/"), std::string::npos);
}

TEST(JsonFastPath, BigModelsRoundTripAndKeepExactMessages) {
    Model m = make_cloth({.columns = 120, .rows = 100});
    const std::string text = model_to_json(m);
    EXPECT_TRUE(model_from_json(text) == m);
    // A duplicate spring late in a big model: the same message as for a small one.
    m.springs.push_back({m.springs[3].b, m.springs[3].a, 0.5f});
    const std::size_t last = m.springs.size() - 1;
    try {
        validate(m, "big.json");
        FAIL() << "expected a duplicate spring error";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "big.json: /springs/" + std::to_string(last) + ": duplicate spring between nodes " +
                                             std::to_string(m.springs[3].b) + " and " + std::to_string(m.springs[3].a) +
                                             " (same as spring 3)");
    }
    // Every check of the detailed pass also stops the quick one: a huge coordinate.
    Model far = make_cloth({.columns = 120, .rows = 100});
    far.positions[7000].y = 2.0f * kMaxCoordinate;
    EXPECT_THROW(validate(far, "far.json"), Error);
    // A non-number in a big array falls back to the DOM reader and its message.
    std::string bad = text;
    bad.insert(bad.find("\"positions\": [") + 14, "\"x\", 0, 0, ");
    try {
        model_from_json(bad, "big.json");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "big.json: /positions/0: expected a number, found string");
    }
}
