// Importer fuzz findings inside Assimp (tests/fuzz/regressions/import-isolated):
// through `springkit convert` each one is one error line and exit 1 (or converts),
// never a crash, a hang or a partial output file.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "support/run_command.hpp"
#include "support/test_files.hpp"

using springkit::test::line_count;
using springkit::test::run_command;
namespace fs = std::filesystem;

namespace {

const std::string kCli = SPRINGKIT_CLI;
const fs::path kFindings = fs::path(SPRINGKIT_SOURCE_DIR) / "tests/fuzz/regressions/import-isolated";

struct Outcome {
    springkit::test::CommandResult result;
    fs::path output;
    double seconds = 0.0;
};

Outcome convert(const std::string& file) {
    const fs::path out = springkit::test::scratch_dir("import-findings") / (file + ".json");
    fs::remove(out);
    const auto start = std::chrono::steady_clock::now();
    Outcome o{run_command(kCli + " convert " + (kFindings / file).string() + " -o " + out.string() +
                          " --timeout 30"),
              out, 0.0};
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return o;
}

void expect_one_error_line(const Outcome& o, const std::string& file, const std::string& reason) {
    EXPECT_EQ(o.result.exit_code, 1) << o.result.err;
    EXPECT_EQ(line_count(o.result.err), 1) << o.result.err;
    EXPECT_EQ(o.result.err.rfind("error: ", 0), 0u) << o.result.err;
    EXPECT_NE(o.result.err.find(file), std::string::npos) << o.result.err;
    EXPECT_NE(o.result.err.find(reason), std::string::npos) << o.result.err;
    EXPECT_FALSE(fs::exists(o.output)) << "partial output left behind";
    EXPECT_LT(o.seconds, 30.0);
}

}  // namespace

TEST(ImportFindings, VertexCountAskingForTerabytesIsRefusedByTheMemoryLimit) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "AddressSanitizer needs more address space than the importer's memory limit allows";
#else
    expect_one_error_line(convert("huge-count.off"), "huge-count.off", "needs more than 4096 MiB");
#endif
}

TEST(ImportFindings, CrashInsideAssimpBecomesOneErrorLine) {
    const Outcome o = convert("crash.mdl");
#if defined(__SANITIZE_ADDRESS__)
    // The sanitizer runtime catches the fault in the child first and exits it;
    // the start of its report, captured from the child's stderr, is in the error.
    expect_one_error_line(o, "crash.mdl", "(the importer printed: ");
    EXPECT_NE(o.result.err.find("AddressSanitizer"), std::string::npos) << o.result.err;
#else
    expect_one_error_line(o, "crash.mdl", "the importer crashed (signal 11");
#endif
}

TEST(ImportFindings, SubdividedAc3dFileConvertsWithinTheTimeout) {
    const Outcome o = convert("subdivided.ac");
    ASSERT_EQ(o.result.exit_code, 0) << o.result.err;
    EXPECT_TRUE(fs::exists(o.output));
    EXPECT_NE(o.result.out.find("245760 faces"), std::string::npos) << o.result.out;
}
