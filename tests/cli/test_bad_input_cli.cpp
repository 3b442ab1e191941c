// The bad-input table through the CLI (docs/RELIABILITY.md): exit 1 and exactly one
// "error:" line naming the file and the problem; no partial output file.
#include <gtest/gtest.h>

#include <filesystem>

#include "springkit/springkit.hpp"
#include "support/run_command.hpp"
#include "support/test_files.hpp"

using springkit::test::line_count;
using springkit::test::run_command;
namespace fs = std::filesystem;

namespace {

const std::string kCli = SPRINGKIT_CLI;

fs::path work_dir() { return springkit::test::scratch_dir("bad-input-cli"); }

}  // namespace

TEST(BadInputCli, DirectoryAsModel) {
    const auto r = run_command(kCli + " info " + work_dir().string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: " + work_dir().string() + ": is a directory, not a model file\n");
}

TEST(BadInputCli, BinaryGarbageGivesOnePrintableLine) {
    const fs::path file = work_dir() / "garbage.json";
    springkit::write_file_atomically(file, std::string("\x89PNG\r\n\x1a\n\xff\xfe\n\n", 12));
    const auto r = run_command(kCli + " info " + file.string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: " + file.string() +
                         ": line 1, column 1: invalid JSON: syntax error while parsing value - invalid literal; "
                         "last read: '\\x89'\n");
}

TEST(BadInputCli, OutputIntoAMissingFolder) {
    const auto r = run_command(kCli + " new string -o /nonexistent/string.json");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: /nonexistent/string.json: cannot write (No such file or directory)\n");
}

TEST(BadInputCli, OutputIsADirectory) {
    const auto r = run_command(kCli + " new string -o " + work_dir().string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: " + work_dir().string() + ": is a directory; give a file name to save to\n");
}

TEST(BadInputCli, ExplodingSimulationWritesNoOutput) {
    const fs::path in = work_dir() / "stiff.json", out = work_dir() / "stiff-out.json";
    ASSERT_EQ(run_command(kCli + " new string --k 10000000 -o " + in.string()).exit_code, 0);
    const auto r = run_command(kCli + " simulate " + in.string() + " --seconds 2 -o " + out.string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(line_count(r.err), 2) << r.err;  // the stability warning, then the error
    EXPECT_FALSE(fs::exists(out));
}

TEST(BadInputCli, NullNumberIsRefused) {
    const fs::path file = work_dir() / "null.json";
    springkit::write_file_atomically(
        file, R"({"format": "springkit", "version": 1, "parameters": {"k": null}, "positions": [0, 0, 0]})");
    const auto r = run_command(kCli + " info " + file.string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: " + file.string() +
                         ": /parameters/k: expected a number, found null (NaN and infinity are not allowed)\n");
}

TEST(BadInputCli, BadSceneFileGivesOneLineNamingTheColliderAndWritesNothing) {
    const fs::path model = work_dir() / "scene-model.json";
    ASSERT_EQ(run_command(kCli + " new string --resolution 4 -o " + model.string()).exit_code, 0);
    const fs::path out = work_dir() / "scene-out.json";
    fs::remove(out);
    const fs::path scene = springkit::test::scratch_file(
        "bad-input-cli", "paddle.scene.json",
        R"({"format": "springkit-scene", "version": 1, "colliders": [{"kind": "sphere", "name": "paddle",
            "radius": 0, "pose": {"position": [0, 0, 0], "rotation": [1, 0, 0, 0]}}]})");
    auto r = run_command(kCli + " simulate " + model.string() + " --seconds 1 --scene " + scene.string() + " -o " +
                         out.string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: " + scene.string() + ": /colliders/0 (\"paddle\"): radius must be a finite number > 0 (got 0)\n");
    EXPECT_FALSE(fs::exists(out));
    r = run_command(kCli + " simulate " + model.string() + " --seconds 1 --scene " + work_dir().string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: " + work_dir().string() + ": not a regular file (a scene file is read whole)\n");
    r = run_command(kCli + " simulate " + model.string() + " --seconds 1 --scene " + model.string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: " + model.string() +
                         ": /format: not a springkit scene (\"format\" must be \"springkit-scene\")\n");
}
