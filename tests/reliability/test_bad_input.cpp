// The bad-input table (docs/RELIABILITY.md): every row is one test. A model file
// that is broken in one way is refused with one specific line naming the file,
// the place and the problem, or has the documented outcome. Never a crash.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "springkit/springkit.hpp"
#include "support/child_process.hpp"
#include "support/test_files.hpp"

using namespace springkit;
namespace fs = std::filesystem;
using springkit::test::error_as_nobody;
using springkit::test::error_of;
using springkit::test::error_with_memory_left;

namespace {

// A valid model: three nodes in a line, two springs, node 0 anchored, one face.
// Each row replaces one part of it.
std::string model_text(const std::string& positions = "[0,0,0, 1,0,0, 0,1,0]",
                       const std::string& springs = R"({"pairs": [0,1, 1,2], "rest": [1, 1.4142135]})",
                       const std::string& extra = R"("anchors": [{"node": 0}], "faces": [0,1,2, 0,1,2],
                         "texcoords": [0,0, 1,0, 0,1])",
                       const std::string& head = R"("format": "springkit", "version": 1)") {
    return "{" + head + ", \"positions\": " + positions + ", \"springs\": " + springs +
           (extra.empty() ? "" : ", " + extra) + "}";
}

std::string with_parameters(const std::string& parameters) {
    return model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})",
                      "\"parameters\": " + parameters);
}

std::string with_groups(const std::string& groups) {
    return model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1, 1,2], "rest": [1, 1]})",
                      "\"spring_groups\": " + groups);
}

struct Row {
    const char* name;   ///< test name: what is wrong
    std::string text;   ///< the file
    std::string error;  ///< the whole message after "bad.json: "; empty = loads
};

std::string load_error(const std::string& text) {
    try {
        model_from_json(text, "bad.json");
    } catch (const Error& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("NOT A springkit::Error: ") + e.what();
    }
    return "";
}

// clang-format off
const std::vector<Row> kRows = {
    // ---- malformed JSON
    {"EmptyFile", "",
     "line 1, column 1: invalid JSON: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal"},
    {"TruncatedInTheMiddle", R"({"format": "springkit", "version": 1, "positions": [0, 0)",
     "line 1, column 57: invalid JSON: syntax error while parsing array - unexpected end of input; expected ']'"},
    {"TrailingGarbage", model_text() + "x",
     "line 2, column 55: invalid JSON: syntax error while parsing value - invalid literal; last read: '1]}x'; expected end of input"},
    {"DoubleComma", R"({"format": "springkit",, "version": 1})",
     "line 1, column 24: invalid JSON: syntax error while parsing object key - unexpected ','; expected string literal"},
    {"NotAnObject", "[1, 2, 3]", "/: expected a JSON object (a springkit model)"},
    {"NaNLiteral", R"({"format": "springkit", "version": 1, "positions": [NaN, 0, 0]})",
     "line 1, column 53: invalid JSON: syntax error while parsing value - invalid literal; last read: '\"positions\": [N'"},
    {"InvalidUtf8IsQuotedPrintably", "{\"format\": \"springkit\", \"version\": 1, \"name\": \"\xff\", \"positions\": []}",
     "line 1, column 48: invalid JSON: syntax error while parsing value - invalid string: ill-formed UTF-8 byte; last read: '\"\\xff'"},
    // Well-formed UTF-8 is quoted as it is, and only the bad byte escaped.
    {"InvalidUtf8AfterGoodUtf8", "{\"format\": \"springkit\", \"version\": 1, \"name\": \"caf\xc3\xa9\xff\", \"positions\": []}",
     "line 1, column 53: invalid JSON: syntax error while parsing value - invalid string: ill-formed UTF-8 byte; last read: '\"caf\xc3\xa9\\xff'"},
    // A quote from the parser is cut after 200 bytes (here 113 of the 300 a's) with
    // what was left out counted.
    {"LongQuoteIsCut", "{\"format\": \"springkit\", \"version\": 1, \"name\": \"" + std::string(300, 'a') + "\xff\"}",
     "line 1, column 348: invalid JSON: syntax error while parsing value - invalid string: ill-formed UTF-8 byte; last read: '\"" +
         std::string(113, 'a') + "... (189 bytes more)"},
    {"BinaryGarbage", "\x89PNG\r\n\x1a\n",
     "line 1, column 1: invalid JSON: syntax error while parsing value - invalid literal; last read: '\\x89'"},
    {"DeeplyNestedArrays", std::string(100000, '[') + std::string(100000, ']'),
     "/: expected a JSON object (a springkit model)"},
    {"NumberBeyondDouble", model_text("[0,0,0, 1e999,0,0, 0,1,0]"),
     "line 1, column 60: invalid JSON: number 1e999 is out of range"},

    // ---- wrong types
    {"FormatIsANumber", model_text("[]", "{\"pairs\": [], \"rest\": []}", "", R"("format": 1, "version": 1)"),
     "/format: not a springkit model (\"format\" must be \"springkit\")"},
    {"VersionIsAString", model_text("[]", "{\"pairs\": [], \"rest\": []}", "", R"("format": "springkit", "version": "1")"),
     "/version: expected an integer"},
    {"VersionIsAFraction", model_text("[]", "{\"pairs\": [], \"rest\": []}", "", R"("format": "springkit", "version": 1.5)"),
     "/version: expected an integer"},
    {"PositionsIsAnObject", model_text("{}"), "/positions: expected an array, found object"},
    {"PositionIsABoolean", model_text("[0,0,0, 1,true,0, 0,1,0]"), "/positions/4: expected a number, found boolean"},
    {"PositionIsAString", model_text("[0,0,0, 1,\"0\",0, 0,1,0]"), "/positions/4: expected a number, found string"},
    {"SpringsIsAnArray", model_text("[0,0,0, 1,0,0, 0,1,0]", "[0, 1]"),
     "/springs: expected an object with \"pairs\" and \"rest\""},
    {"SpringIndexIsAFraction", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1.5], "rest": [1]})"),
     "/springs/pairs/1: expected a node index (integer), found number"},
    {"SpringKindIsTwo", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1], "kind": [2]})"),
     "/springs/kind/0: expected 0 (Hooke spring) or 1 (rope constraint)"},
    {"AnchorIsANumber", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})", R"("anchors": [0])"),
     "/anchors/0: expected an object {\"node\": N, ...}"},
    {"AnchorDriveUnknown", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})",
                                      R"("anchors": [{"node": 0, "drive": "teleport"}])"),
     "/anchors/0/drive: unknown drive \"teleport\" (expected fixed, velocity, circle or track)"},
    {"ParametersIsAnArray", with_parameters("[]"), "/parameters: expected an object"},
    {"GravityHasTwoComponents", with_parameters(R"({"gravity": [0, -9.81]})"),
     "/parameters/gravity: expected [x, y, z], found an array of 2"},
    {"IntegratorUnknown", with_parameters(R"({"integrator": "rk4"})"),
     "/parameters/integrator: unknown integrator \"rk4\" (expected explicit_euler, symplectic_euler, verlet or implicit)"},
    {"RopeIterationsIsAFraction", with_parameters(R"({"rope_iterations": 2.5})"),
     "/parameters/rope_iterations: expected an integer"},
    {"NameIsANumber", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})", R"("name": 7)"),
     "/name: expected a string, found number"},

    // ---- missing fields
    {"MissingFormat", model_text("[]", "{\"pairs\": [], \"rest\": []}", "", R"("version": 1)"),
     "/: missing field \"format\""},
    {"MissingVersion", model_text("[]", "{\"pairs\": [], \"rest\": []}", "", R"("format": "springkit")"),
     "/: missing field \"version\""},
    {"MissingPositions", R"({"format": "springkit", "version": 1, "springs": {"pairs": [], "rest": []}})",
     "/: missing field \"positions\""},
    {"MissingRestLengths", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1]})"),
     "/springs: missing field \"rest\""},
    {"AnchorWithoutNode", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})",
                                     R"("anchors": [{"drive": "fixed"}])"),
     "/anchors/0: missing field \"node\""},

    // ---- versions
    {"VersionFromTheFuture", model_text("[]", "{\"pairs\": [], \"rest\": []}", "", R"("format": "springkit", "version": 2)"),
     "/version: format version 2 is newer than this springkit reads (1); update springkit"},
    {"VersionBeyondInt64", model_text("[]", "{\"pairs\": [], \"rest\": []}", "",
                                      R"("format": "springkit", "version": 99999999999999999999)"),
     "/version: expected an integer"},
    {"VersionZero", model_text("[]", "{\"pairs\": [], \"rest\": []}", "", R"("format": "springkit", "version": 0)"),
     "/version: invalid format version 0"},

    // ---- indices
    {"SpringIndexOutOfRange", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,3], "rest": [1]})"),
     "/springs/0: node index 3 out of range (model has 3 nodes)"},
    {"SpringIndexNegative", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [-1,0], "rest": [1]})"),
     "/springs/pairs/0: index -1 is out of range"},
    {"SpringIndexBeyond32Bits", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,4294967296], "rest": [1]})"),
     "/springs/pairs/1: index 4294967296 is out of range"},
    {"SpringIndexBeyond64Bits", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,18446744073709551616], "rest": [1]})"),
     "/springs/pairs/1: expected a node index (integer), found number"},
    {"FaceNodeOutOfRange", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})",
                                      R"("faces": [0,1,3, 0,0,0])"),
     "/faces/0: node index 3 out of range (model has 3 nodes)"},
    {"FaceTexcoordOutOfRange", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})",
                                          R"("faces": [0,1,2, 0,1,2], "texcoords": [0,0, 1,0])"),
     "/faces/0: texcoord index 2 out of range (model has 2 texcoords)"},
    {"FaceIndexNegative", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})",
                                     R"("faces": [0,1,2, 0,-5,0])"),
     "/faces/4: index -5 is out of range"},
    {"AnchorOutOfRange", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})", R"("anchors": [{"node": 3}])"),
     "/anchors/0: anchor node 3 out of range (model has 3 nodes)"},
    {"AnchorTwice", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})",
                               R"("anchors": [{"node": 1}, {"node": 1}])"),
     "/anchors/1: node 1 is anchored twice"},

    // ---- NaN, infinity, range
    {"NullPosition", model_text("[0,0,0, 1,null,0, 0,1,0]"),
     "/positions/4: expected a number, found null (NaN and infinity are not allowed)"},
    {"NullStiffnessIsNotTheDefault", with_parameters(R"({"k": null})"),
     "/parameters/k: expected a number, found null (NaN and infinity are not allowed)"},
    {"NullWind", with_parameters(R"({"wind": null})"),
     "/parameters/wind: expected [x, y, z], found null"},
    {"NullSpringStiffness", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1], "k": [null]})"),
     "/springs/k/0: expected a number, found null (NaN and infinity are not allowed)"},
    {"NumberBeyondFloat", model_text("[0,0,0, 1e39,0,0, 0,1,0]"),
     "/positions/3: number 1e+39 is too large for a 32-bit float"},
    {"HugeCoordinate", model_text("[0,0,0, 1e30,0,0, 0,1,0]"),
     "/positions/1: coordinate 1e+30 m is beyond +-1e+09 m; single-precision physics cannot work at that scale (scale the model down)"},
    {"NegativeStiffness", with_parameters(R"({"k": -5})"), "/parameters/k: k must be >= 0 N/m (got -5)"},
    {"ZeroMass", with_parameters(R"({"mass": 0})"), "/parameters/mass: mass must be > 0 kg (got 0)"},
    {"NegativeNodeMass", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})", R"("masses": [1, -1, 1])"),
     "/masses/1: node mass must be > 0 kg (got -1)"},
    {"EnergyLossAboveOne", with_parameters(R"({"energy_loss": 1.5})"),
     "/parameters/energy_loss: energy loss must be in (0, 1] (got 1.5)"},
    {"SubstepTooSmallWouldHang", with_parameters(R"({"max_substep": 1e-30})"),
     "/parameters/max_substep: max substep must be in [1e-06, 0.1] s (got 1e-30)"},
    {"SubstepTooLarge", with_parameters(R"({"max_substep": 1})"),
     "/parameters/max_substep: max substep must be in [1e-06, 0.1] s (got 1)"},
    {"RopeIterationsTooMany", with_parameters(R"({"rope_iterations": 1000000})"),
     "/parameters/rope_iterations: rope iterations must be in [0, 1000] (got 1000000)"},
    {"CircleAxisZero", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})",
                                  R"("anchors": [{"node": 0, "drive": "circle", "axis": [0,0,0]}])"),
     "/anchors/0/axis: circle axis must not be zero"},

    // ---- springs
    {"ZeroLengthSpring", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [0]})"),
     "/springs/0/rest: rest length must be > 0 m (got 0)"},
    {"NegativeRestLength", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [-1]})"),
     "/springs/0/rest: rest length must be > 0 m (got -1)"},
    {"SpringToItself", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [1,1], "rest": [1]})"),
     "/springs/0: spring connects node 1 to itself"},
    {"DuplicateSpring", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1, 1,2, 1,0], "rest": [1, 1, 1]})"),
     "/springs/2: duplicate spring between nodes 1 and 0 (same as spring 0)"},

    // ---- counts that do not match
    {"FewerRestLengthsThanPairs", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1, 1,2], "rest": [1]})"),
     "/springs/rest: has 1 entry for 2 springs"},
    {"StiffnessCountWrong", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1], "k": [1, 2]})"),
     "/springs/k: must be an array with one stiffness per spring (1)"},
    {"MassCountWrong", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})", R"("masses": [1, 1])"),
     "/masses: has 2 entries but the model has 3 nodes"},
    {"PositionsNotTriples", model_text("[0,0,0, 1,0]"), "/positions: length 5 is not a multiple of 3"},
    {"FacesNotSextuples", model_text("[0,0,0, 1,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [1]})", R"("faces": [0,1,2])"),
     "/faces: length 3 is not a multiple of 6"},

    // ---- spring groups
    {"GroupSpringOutOfRange", with_groups(R"([{"name": "a", "springs": [0, 2]}])"),
     "/spring_groups/0/springs/1: spring index 2 out of range (model has 2 springs)"},
    {"GroupSpringNegative", with_groups(R"([{"name": "a", "springs": [-1]}])"),
     "/spring_groups/0/springs/0: index -1 is out of range"},
    {"GroupSpringNotAnIndex", with_groups(R"([{"name": "a", "springs": ["0"]}])"),
     "/spring_groups/0/springs/0: expected a spring index (integer), found string"},
    {"GroupDuplicateName", with_groups(R"([{"name": "a", "springs": [0]}, {"name": "a", "springs": [1]}])"),
     "/spring_groups/1/name: duplicate group name \"a\" (same as spring group 0)"},
    {"GroupSpringInTwoGroups", with_groups(R"([{"name": "a", "springs": [0]}, {"name": "b", "springs": [1, 0]}])"),
     "/spring_groups/1/springs/1: spring 0 is already in spring group \"a\""},
    {"GroupWithoutName", with_groups(R"([{"springs": [0]}])"), "/spring_groups/0: missing field \"name\""},
    {"GroupEmptyName", with_groups(R"([{"name": "", "springs": [0]}])"),
     "/spring_groups/0/name: a spring group needs a name"},
    {"GroupZeroStiffnessScale", with_groups(R"([{"name": "a", "stiffness_scale": 0, "springs": [0]}])"),
     "/spring_groups/0/stiffness_scale: stiffness scale must be > 0 (got 0)"},
    {"GroupNegativeDamping", with_groups(R"([{"name": "a", "damping": -0.5, "springs": [0]}])"),
     "/spring_groups/0/damping: spring damping must be >= 0 N s/m (got -0.5)"},
    {"GroupNullDamping", with_groups(R"([{"name": "a", "damping": null, "springs": [0]}])"),
     "/spring_groups/0/damping: expected a number, found null (NaN and infinity are not allowed)"},
    {"GroupsNotAnArray", with_groups(R"({"name": "a"})"), "/spring_groups: expected an array, found object"},
    {"GroupNotAnObject", with_groups("[3]"), "/spring_groups/0: expected an object"},
};
// clang-format on

class BadJson : public testing::TestWithParam<Row> {};

}  // namespace

TEST_P(BadJson, IsRefusedWithASpecificMessage) {
    const Row& row = GetParam();
    EXPECT_EQ(load_error(row.text), row.error.empty() ? "" : "bad.json: " + row.error);
}

INSTANTIATE_TEST_SUITE_P(Table, BadJson, testing::ValuesIn(kRows),
                         [](const testing::TestParamInfo<Row>& row) { return std::string(row.param.name); });

// ---- rows with a documented outcome other than an error

TEST(BadInputOutcome, TheValidBaseModelOfTheTableLoads) {
    const Model m = model_from_json(model_text(), "base.json");
    EXPECT_EQ(m.node_count(), 3u);
    EXPECT_EQ(m.springs.size(), 2u);
}

TEST(BadInputOutcome, DuplicateKeysKeepTheLastValue) {
    // nlohmann/json keeps the last of duplicate keys; springkit documents that.
    const Model m = model_from_json(with_parameters(R"({"k": 5, "k": 7})"), "dup.json");
    EXPECT_EQ(m.params.k, 7.0f);
}

TEST(BadInputOutcome, TextAfterANulByteIsIgnored) {
    // nlohmann/json stops reading at a NUL byte, as at the end of the file.
    EXPECT_EQ(model_from_json(model_text() + std::string("\0garbage", 8)).node_count(), 3u);
    EXPECT_EQ(load_error(std::string("\0{}", 3)),
              "bad.json: line 1, column 1: invalid JSON: syntax error while parsing value - unexpected end of "
              "input; expected '[', '{', or a literal");
}

TEST(BadInputOutcome, GroundNullMeansNoGround) {
    EXPECT_FALSE(model_from_json(with_parameters(R"({"ground": null})")).params.ground.has_value());
}

TEST(BadInputOutcome, Utf8ByteOrderMarkIsAccepted) {
    EXPECT_EQ(model_from_json("\xEF\xBB\xBF" + model_text()).node_count(), 3u);
}

TEST(BadInputOutcome, TinyNumbersRoundToZeroOrDenormals) {
    // Underflow is harmless for coordinates: 1e-50 reads as 0.
    EXPECT_EQ(model_from_json(model_text("[0,0,0, 1,1e-50,0, 0,1,0]")).positions[1].y, 0.0f);
}

TEST(BadInputOutcome, EmptyModelLoadsAndSimulates) {
    const Model m = model_from_json(R"({"format": "springkit", "version": 1, "positions": []})");
    Simulation sim(m);
    sim.step(1.0f / 60.0f);
    EXPECT_TRUE(sim.positions().empty());
    EXPECT_EQ(sim.kinetic_energy(), 0.0);
}

TEST(BadInputOutcome, SpringBetweenCoincidentNodesExertsNoForceAndStaysFinite) {
    // Positive rest length but both nodes at one point: no direction, so no force
    // (Oliveira's tolerance), and nothing becomes NaN. (An unstable balance: the
    // least push, such as the rounding-level force of a neighbour spring at its
    // rest length, gives the spring a direction and it springs apart.)
    Model m = model_from_json(model_text("[0,0,0, 0,0,0, 0,1,0]", R"({"pairs": [0,1], "rest": [0.5]})"));
    m.params.gravity = {0, 0, 0};
    Simulation sim(m);
    for (int i = 0; i < 60; ++i) sim.step(1.0f / 60.0f);
    for (const Vec3& p : sim.positions()) EXPECT_TRUE(is_finite(p));
    EXPECT_EQ(sim.positions()[1], (Vec3{0, 0, 0}));
}

TEST(BadInputOutcome, DegenerateFaceGivesZeroNormalsNotNaN) {
    // A face whose three corners are on one line has no normal; its nodes get a zero
    // normal (normalized() of a zero sum) instead of NaN.
    Model m = model_from_json(model_text("[0,0,0, 1,0,0, 2,0,0]", R"({"pairs": [0,1, 1,2], "rest": [1, 1]})",
                                         R"("anchors": [{"node": 0}, {"node": 1}, {"node": 2}], "faces": [0,1,2, 0,0,0])"));
    Simulation sim(m);
    sim.step(1.0f / 60.0f);
    for (const Vec3& n : sim.normals()) EXPECT_EQ(n, (Vec3{0, 0, 0}));
}

TEST(BadInputOutcome, HugeFrameTimeIsRefusedInsteadOfHanging) {
    const Model m = make_string({.nodes = 3});
    Simulation sim(m);
    try {
        sim.step(1.0e30f);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("needs more than 10000000 substeps"), std::string::npos) << e.what();
    }
    EXPECT_THROW(sim.step(std::nanf("")), Error);
    EXPECT_THROW(sim.step(-1.0f), Error);
    sim.step(1.0f / 60.0f);  // still usable
    EXPECT_EQ(sim.substeps_taken(), 9u);
}

// ---- files

namespace {

fs::path work_dir() { return springkit::test::scratch_dir("bad-input"); }

}  // namespace

TEST(BadInputFiles, MissingFile) {
    EXPECT_EQ(error_of([] { load_model("/nonexistent/cloth.json"); }),
              "/nonexistent/cloth.json: cannot open for reading (No such file or directory)");
}

// A model takes several times its file's size in memory; running out names the
// file like any other reason it cannot be loaded.
TEST(BadInputFiles, OutOfMemoryNamesTheFile) {
    if (springkit::test::kSanitizerShadowMemory) GTEST_SKIP() << "the sanitizer needs terabytes of address space";
    const Model cloth = make_cloth({.columns = 300, .rows = 300});
    const fs::path file = work_dir() / "big-cloth.json";
    save_model(cloth, file);
    ASSERT_GT(fs::file_size(file), 8u << 20);
    EXPECT_EQ(error_with_memory_left(std::size_t{4} << 20, [&] { load_model(file); }),
              file.string() + ": out of memory while loading the model");
}

// Saving builds the file's text in memory first: running out names the file,
// and the file is not written (no partial output).
TEST(BadInputFiles, OutOfMemoryWhileSavingNamesTheFile) {
    if (springkit::test::kSanitizerShadowMemory) GTEST_SKIP() << "the sanitizer needs terabytes of address space";
    // Its text (about 100 MB) is larger than any block the tests before it freed.
    const Model cloth = make_cloth({.columns = 600, .rows = 600});
    const fs::path file = work_dir() / "big-cloth-not-saved.json";
    fs::remove(file);
    EXPECT_EQ(error_with_memory_left(std::size_t{4} << 20, [&] { save_model(cloth, file); }),
              file.string() + ": not saved: out of memory while writing the model");
    EXPECT_FALSE(fs::exists(file));
}

TEST(BadInputFiles, PathIsADirectory) {
    const fs::path dir = work_dir() / "model.json";
    fs::create_directories(dir);
    EXPECT_EQ(error_of([&] { load_model(dir); }), dir.string() + ": is a directory, not a model file");
}

TEST(BadInputFiles, UnreadableFile) {
    const fs::path file = work_dir() / "secret.json";
    save_model(make_string({.nodes = 3}), file);
    fs::permissions(file, fs::perms::owner_write);  // no read permission for anyone
    EXPECT_EQ(error_as_nobody([&] { load_model(file); }),
              file.string() + ": cannot open for reading (Permission denied)");
}

TEST(BadInputFiles, OutputIntoAMissingFolder) {
    EXPECT_EQ(error_of([] { save_model(make_string({.nodes = 3}), "/nonexistent/out.json"); }),
              "/nonexistent/out.json: cannot write (No such file or directory)");
}

TEST(BadInputFiles, OutputPathIsADirectory) {
    const fs::path dir = work_dir() / "out.json";
    fs::create_directories(dir);
    EXPECT_EQ(error_of([&] { save_model(make_string({.nodes = 3}), dir); }),
              dir.string() + ": is a directory; give a file name to save to");
}

TEST(BadInputFiles, OutputBelowAFile) {
    const fs::path file = work_dir() / "plain.json";
    save_model(make_string({.nodes = 3}), file);
    EXPECT_EQ(error_of([&] { save_model(make_string({.nodes = 3}), file / "out.json"); }),
              (file / "out.json").string() + ": cannot write (Not a directory)");
}

TEST(BadInputFiles, OutputIntoAReadOnlyFolderLeavesTheOldFile) {
    const fs::path dir = work_dir() / "read-only";
    fs::create_directories(dir);
    const fs::path file = dir / "model.json";
    save_model(make_string({.nodes = 3}), file);
    // The file itself writable by anyone: only the folder stands in the way (a file
    // the saver may not write is refused as read-only, tests/files/test_save_targets.cpp).
    fs::permissions(file, fs::perms::all & ~(fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec));
    const std::string before = read_file(file);
    fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                             fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
    EXPECT_EQ(error_as_nobody([&] { save_model(make_string({.nodes = 5}), file); }),
              file.string() + ": cannot write (Permission denied)");
    EXPECT_EQ(read_file(file), before);
    fs::permissions(dir, fs::perms::owner_all);
}

TEST(BadInputFiles, ModelThatCannotBeSavedIsRefusedBeforeTouchingTheFile) {
    const fs::path file = work_dir() / "nan.json";
    save_model(make_string({.nodes = 3}), file);
    const std::string before = read_file(file);
    Model bad = make_string({.nodes = 3});
    bad.positions[1].x = std::nanf("");
    EXPECT_EQ(error_of([&] { save_model(bad, file); }),
              file.string() + ": not saved: /positions/1: value is not a finite number");
    EXPECT_EQ(read_file(file), before);
}
