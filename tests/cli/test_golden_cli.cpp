// `springkit check` on goldens that are broken or hostile (tests/fuzz/regressions/golden):
// each is refused quickly with one error line naming the golden, the JSON pointer
// and the problem; none loops, runs unbounded work or shows a wrapped number.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "springkit/springkit.hpp"
#include "support/run_command.hpp"
#include "support/test_files.hpp"

using springkit::test::line_count;
using springkit::test::run_command;
namespace fs = std::filesystem;

namespace {

const std::string kCli = SPRINGKIT_CLI;
const fs::path kGoldens = fs::path(SPRINGKIT_SOURCE_DIR) / "tests/fuzz/regressions/golden";

fs::path work_dir() { return springkit::test::scratch_dir("golden-cli"); }

/// A one-node model: the regression goldens record one node.
fs::path one_node_model() {
    springkit::Model m;
    m.name = "one node";
    m.positions = {{0.0f, 0.0f, 0.0f}};
    const fs::path out = work_dir() / "one-node.json";
    springkit::save_model(m, out);
    return out;
}

void expect_refused(const std::string& golden, const std::string& reason) {
    SCOPED_TRACE(golden);
    const auto start = std::chrono::steady_clock::now();
    const auto r = run_command(kCli + " check " + one_node_model().string() + " --golden " + (kGoldens / golden).string());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_EQ(r.err, "error: " + (kGoldens / golden).string() + ": " + reason + "\n");
    EXPECT_EQ(r.out, "");
    EXPECT_LT(seconds, 5.0);
}

}  // namespace

TEST(GoldenCli, OddFramesAreRefusedBeforeAnyWork) {
    expect_refused("first-frame-zero.json", "/samples/0/frame: must be at least 1, not 0");
    expect_refused("frames-not-increasing.json", "/samples/1/frame: frames must increase: 1 follows 1");
    expect_refused("non-integer-frame.json", "/samples/1/frame: must be an integer, not 2.5");
    expect_refused("integral-float-frame.json", "/samples/1/frame: must be an integer, not 3.0");
    expect_refused("frame-2-pow-70.json", "/samples/1/frame: too large a number (at most 18446744073709551615)");
    expect_refused("huge-last-frame.json",
                   "18446744073709551615 frames of 9 substeps each (frame time 0.0166667 s with max_substep 0.002 s) "
                   "are more than 2^64 substeps to simulate, more than the limit of 100000000");
    expect_refused("no-samples.json", "/samples: is empty: a golden records at least one time");
}

TEST(GoldenCli, FrameTimeOutsideTheRecordedRangeIsRefused) {
    expect_refused("huge-frame-dt.json", "/frame_dt: 1e+30 s is outside the frame times golden records (1e-06 to 1 s)");
    expect_refused("tiny-frame-dt.json", "/frame_dt: 1e-30 s is outside the frame times golden records (1e-06 to 1 s)");
}

TEST(GoldenCli, VersionsBeyond64BitsAreCalledTooLarge) {
    expect_refused("version-2-pow-70.json", "/version: too large a number for a golden version (this springkit reads versions 1 to 2)");
    expect_refused("version-1e30.json", "/version: too large a number for a golden version (this springkit reads versions 1 to 2)");
}

TEST(GoldenCli, CountsAndNumbersAreChecked) {
    expect_refused("positions-count-mismatch.json", "/samples/0/positions: has 3 numbers, expected 6 (3 for each of /nodes 2)");
    expect_refused("nodes-beyond-32-bits.json", "/nodes: 6148914691236517206 is too large (at most 4294967295)");
    expect_refused("position-beyond-float.json",
                   "/samples/0/positions/1: 1e+300 is beyond single precision (at most 3.4e38 in size)");
    expect_refused("position-null.json", "/samples/0/positions/2: must be a number, not null");
    expect_refused("number-overflow.json", "line 7, column 13: invalid JSON: number 1e999 is out of range");
}

TEST(GoldenCli, GoldenRefusesToRecordMoreThanCheckReplays) {
    const fs::path m = one_node_model(), g = work_dir() / "long.golden.json";
    const auto r = run_command(kCli + " golden " + m.string() + " --seconds 100000 --dt 1e-5 -o " + g.string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("substeps to simulate, more than the limit of 100000000"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(g));
}

TEST(GoldenCli, RecordedGoldenChecksAgainstItsModel) {
    const fs::path m = work_dir() / "string.json", g = work_dir() / "string.golden.json";
    ASSERT_EQ(run_command(kCli + " new string -o " + m.string()).exit_code, 0);
    ASSERT_EQ(run_command(kCli + " golden " + m.string() + " --seconds 0.5 --samples 3 -o " + g.string()).exit_code, 0);
    const auto r = run_command(kCli + " check " + m.string() + " --golden " + g.string());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("matches"), std::string::npos) << r.out;
}
