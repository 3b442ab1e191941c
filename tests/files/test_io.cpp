// Model files: exact round trips and specific errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
namespace fs = std::filesystem;
using springkit::test::load_error;

namespace {

fs::path temp_dir() { return springkit::test::scratch_dir("test-io"); }

const char* kMinimal = R"({"format": "springkit", "version": 1, "positions": [0,0,0, 1,0,0],
  "springs": {"pairs": [0, 1], "rest": [1]}})";

}  // namespace

TEST(Io, SaveThenLoadGivesTheIdenticalModel) {
    for (const Model& original :
         {make_cloth({.columns = 7, .rows = 5, .anchors = ClothAnchors::center_square}),
          make_jelly({.nx = 3, .ny = 3, .nz = 3}), make_balloon(), make_tunca_rope(), make_source_rope()}) {
        Model m = original;
        m.springs[0].k = 1234.5678f;
        m.texture = "textures/cloth.png";
        m.masses.assign(m.node_count(), 0.125f);
        m.masses[0] = 0.1f;
        const fs::path file = temp_dir() / "roundtrip.json";
        save_model(m, file);
        const Model back = load_model(file);
        EXPECT_TRUE(back == m) << m.name;
        EXPECT_EQ(model_to_json(back), model_to_json(m));
    }
}

TEST(Io, MinimalFileLoadsWithDefaults) {
    const Model m = model_from_json(kMinimal);
    EXPECT_EQ(m.node_count(), 2u);
    EXPECT_EQ(m.params, Parameters{});
}

TEST(Io, RejectFutureVersion) {
    EXPECT_EQ(load_error(R"({"format": "springkit", "version": 99, "positions": []})"),
              "bad.json: /version: format version 99 is newer than this springkit reads (1); update springkit");
}

TEST(Io, RejectNotASpringkitFile) {
    EXPECT_EQ(load_error(R"({"format": "gltf", "version": 1})"),
              "bad.json: /format: not a springkit model (\"format\" must be \"springkit\")");
}

TEST(Io, RejectMalformedJsonWithLineAndColumn) {
    const std::string e = load_error("{\n  \"format\": \"springkit\",\n  \"version\": 1,,\n}");
    EXPECT_EQ(e.rfind("bad.json: line 3, column 16: invalid JSON", 0), 0u) << e;
}

TEST(Io, RejectWrongTypesWithTheirLocation) {
    EXPECT_EQ(load_error(R"({"format": "springkit", "version": 1, "positions": [0, "x", 0]})"),
              "bad.json: /positions/1: expected a number, found string");
    EXPECT_EQ(load_error(R"({"format": "springkit", "version": 1, "positions": [0, 0]})"),
              "bad.json: /positions: length 2 is not a multiple of 3");
    EXPECT_EQ(load_error(R"({"format": "springkit", "version": 1})"), "bad.json: /: missing field \"positions\"");
}

TEST(Io, RejectOutOfRangeIndexFromTheFile) {
    EXPECT_EQ(load_error(R"({"format": "springkit", "version": 1, "positions": [0,0,0, 1,0,0],
      "springs": {"pairs": [0, 2], "rest": [1]}})"),
              "bad.json: /springs/0: node index 2 out of range (model has 2 nodes)");
    EXPECT_EQ(load_error(R"({"format": "springkit", "version": 1, "positions": [0,0,0, 1,0,0],
      "springs": {"pairs": [0, -1], "rest": [1]}})"),
              "bad.json: /springs/pairs/1: index -1 is out of range");
}

TEST(Io, MissingFileAndDirectoryAreClearErrors) {
    try {
        load_model("/nonexistent/model.json");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "/nonexistent/model.json: cannot open for reading (No such file or directory)");
    }
    try {
        load_model(temp_dir());
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos);
    }
}

TEST(Io, FailedSaveLeavesTheOldFileIntact) {
    const fs::path file = temp_dir() / "keep.json";
    save_model(make_string(), file);
    const std::string before = read_file(file);
    Model bad = make_string();
    bad.springs[0].rest = -1.0f;
    EXPECT_THROW(save_model(bad, file), Error);
    EXPECT_EQ(read_file(file), before);
    for (const auto& entry : fs::directory_iterator(file.parent_path()))
        EXPECT_EQ(entry.path().filename().string().find(".springkit-tmp-"), std::string::npos);
}

TEST(Io, PendingFileReplacesTheTargetOnlyWhenCommitted) {
    const fs::path dir = temp_dir() / "pending";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path file = dir / "model.skb";
    write_file_atomically(file, "old");
    auto temp_files = [&] {
        int count = 0;
        for (const auto& entry : fs::directory_iterator(dir))
            count += entry.path().filename().string().rfind(".springkit-tmp-", 0) == 0;
        return count;
    };
    {
        PendingFile abandoned(file, "new, but invalid");
        EXPECT_EQ(temp_files(), 1);  // written and flushed beside the target
        EXPECT_EQ(read_file(file), "old");
    }
    EXPECT_EQ(temp_files(), 0);
    EXPECT_EQ(read_file(file), "old");
    PendingFile kept(file, "new");
    PendingFile moved(std::move(kept));
    moved.commit();
    EXPECT_EQ(read_file(file), "new");
    EXPECT_EQ(temp_files(), 0);
    EXPECT_THROW(moved.commit(), Error);
    try {
        PendingFile nowhere("/nonexistent-dir/model.skb", "x");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "/nonexistent-dir/model.skb: cannot write (No such file or directory)");
    }
}

TEST(Io, SaveToUnwritablePlaceIsAClearError) {
    try {
        save_model(make_string(), "/nonexistent-dir/model.json");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()).rfind("/nonexistent-dir/model.json: cannot write", 0), 0u) << e.what();
    }
}

// A big file that does not start as a model is refused from its first bytes:
// a sparse file of 3 GB of zeros would otherwise be read into memory whole.
TEST(Io, ABigFileThatIsNotAModelIsRefusedBeforeItIsRead) {
    const springkit::test::TempDir dir;
    for (const char* name : {"zeros.json", "zeros.skb"}) {
        const std::filesystem::path file = dir.path() / name;
        {
            std::ofstream out(file, std::ios::binary);
        }
        std::filesystem::resize_file(file, std::uintmax_t{3} << 30);  // sparse: costs no disk
        try {
            springkit::load_model(file);
            FAIL() << name << " loaded";
        } catch (const springkit::Error& e) {
            const std::string message = e.what();
            EXPECT_EQ(message.rfind(file.string() + ": not a springkit ", 0), 0u) << message;
            EXPECT_NE(message.find("not read"), std::string::npos) << message;
            if (std::string(name).ends_with(".json")) {
                EXPECT_NE(message.find("(3072 MiB) with byte 0x00"), std::string::npos) << message;
            }
        }
    }
}
