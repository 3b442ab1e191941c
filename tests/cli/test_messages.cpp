// What the CLI prints is safe on a terminal: names from files and the command
// line cannot start a line of their own, move the cursor, ring the bell or send
// bytes that are not UTF-8; every message is one line of bounded length without
// the JSON library's exception tags (converter/cli/output.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "springkit/springkit.hpp"
#include "support/run_command.hpp"
#include "support/test_files.hpp"

using springkit::cli::printable;
using springkit::test::line_count;
using springkit::test::run_command;
namespace fs = std::filesystem;

namespace {

const std::string kCli = SPRINGKIT_CLI;

fs::path work_dir() { return springkit::test::scratch_dir("cli-messages"); }

/// A small model named `name`, saved as `file` in the scratch folder.
fs::path model_named(const std::string& file, const std::string& name) {
    springkit::Model m = springkit::load_model(fs::path(SPRINGKIT_SOURCE_DIR) / "samples/models/string.json");
    m.name = name;
    const fs::path out = work_dir() / file;
    springkit::save_model(m, out);
    return out;
}

const std::string kHostile = "evil\n error: fake\x1b[31m\a\r\xc2\x9b";
const std::string kHostileShown = "evil\\n error: fake\\x1b[31m\\x07\\r\\xc2\\x9b";

}  // namespace

TEST(CliMessages, ControlCharactersAndBadBytesAreEscaped) {
    EXPECT_EQ(printable("a\nb\tc\x1b[2Jd\a\r"), "a\\nb\\tc\\x1b[2Jd\\x07\\r");
    EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x99\x82");
    EXPECT_EQ(printable("\xff\xc3(\xe2\x82 \xed\xa0\x80 \xc0\xaf"), "\\xff\\xc3(\\xe2\\x82 \\xed\\xa0\\x80 \\xc0\\xaf");
    EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
    EXPECT_EQ(printable(kHostile), kHostileShown);
    EXPECT_EQ(printable(printable(kHostile)), kHostileShown) << "escaping twice changes nothing";
}

TEST(CliMessages, LongTextIsCutWithTheRestCounted) {
    const std::string big(1'000'000, 'x');
    EXPECT_EQ(printable(big), std::string(1000, 'x') + "... (999000 bytes more)");
    // An escape or a UTF-8 character is never cut in half.
    const std::string shown = printable(std::string(999, 'a') + "\n" + "b");
    EXPECT_EQ(shown, std::string(999, 'a') + "... (2 bytes more)");
}

TEST(CliMessages, ErrorsLoseTheJsonLibraryTagsAndStayOneLine) {
    testing::internal::CaptureStderr();
    springkit::cli::print_error("m.json: unexpected value: [json.exception.type_error.302] type must be number\n");
    springkit::cli::print_warning("w\x1b]0;title\a");
    EXPECT_EQ(testing::internal::GetCapturedStderr(),
              "error: m.json: unexpected value: type must be number\nwarning: w\\x1b]0;title\\x07\n");
}

TEST(CliMessages, HostileModelNameIsOneEscapedLineInInfoAndDiff) {
    const fs::path m = model_named("hostile.json", kHostile);
    const auto info = run_command(kCli + " info " + m.string());
    ASSERT_EQ(info.exit_code, 0) << info.err;
    const std::string first = info.out.substr(0, info.out.find('\n'));
    EXPECT_EQ(first, m.string() + ": " + kHostileShown);
    EXPECT_EQ(info.out.find("\n error"), std::string::npos) << info.out;
    for (const char c : info.out) EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << int(c);

    const fs::path plain = model_named("plain.json", "plain");
    const auto diff = run_command(kCli + " diff " + m.string() + " " + plain.string());
    ASSERT_EQ(diff.exit_code, 0) << diff.err;
    EXPECT_NE(diff.out.find("name: \"" + kHostileShown + "\" -> \"plain\"\n"), std::string::npos) << diff.out;
}

TEST(CliMessages, HostileFileNameIsOneEscapedErrorLine) {
    const std::string name = (work_dir() / "no\n error: fake\x1b\a\r\xff.json").string();
    const auto r = run_command(kCli + " info '" + name + "'");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("no\\n error: fake\\x1b\\x07\\r\\xff.json: cannot open"), std::string::npos) << r.err;
}

TEST(CliMessages, MegabyteNameIsCut) {
    const fs::path m = model_named("long-name.json", std::string(1'000'000, 'n'));
    const auto r = run_command(kCli + " info " + m.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string first = r.out.substr(0, r.out.find('\n'));
    EXPECT_LE(first.size(), springkit::cli::kMaxLineBytes + 40);
    EXPECT_NE(first.find("bytes more)"), std::string::npos) << first.substr(0, 80);
}

TEST(CliMessages, VersionBeyond64BitsIsNotShownWrapped) {
    const fs::path m = model_named("v.json", "v");
    std::string text = springkit::read_file(m);
    const auto at = text.find("\"version\": 1");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 12, "\"version\": 1180591620717411303424");  // 2^70
    const fs::path big = springkit::test::scratch_file("cli-messages", "v70.json", text);
    const auto r = run_command(kCli + " info " + big.string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("/version"), std::string::npos) << r.err;
    // A wrapped 2^70 is 0 as a 64-bit integer, and -2^63 or so as a converted double.
    EXPECT_EQ(r.err.find("version 0"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("-9223372036854775808"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
}
