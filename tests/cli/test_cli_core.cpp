// The CLI contract of new/info/simulate (converter/cli/cli.hpp): exit 0 ok, 1 failure, 2 usage;
// one "error:" line on stderr naming the file and the problem.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>

#include "springkit/springkit.hpp"
#include "support/run_command.hpp"
#include "support/test_files.hpp"

using springkit::test::line_count;
using springkit::test::run_command;
namespace fs = std::filesystem;

namespace {

const std::string kCli = SPRINGKIT_CLI;

fs::path work_dir() { return springkit::test::scratch_dir("cli-core"); }

}  // namespace

TEST(CliCore, NewWritesAModelThatLoadsWithTheRequestedSize) {
    const fs::path out = work_dir() / "cloth.json";
    const auto r = run_command(kCli + " new cloth --resolution 6 --k 321 -o " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const springkit::Model m = springkit::load_model(out);
    EXPECT_EQ(m.node_count(), 36u);
    EXPECT_FLOAT_EQ(m.params.k, 321.0f);
}

// Counts of one take the singular in what new, simulate and info print.
TEST(CliCore, CountsOfOneAreSingular) {
    const fs::path out = work_dir() / "two-nodes.json";
    auto r = run_command(kCli + " new string --resolution 2 -o " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, out.string() + ": string with 2 nodes, 1 spring, 1 anchor, 0 faces\n");
    r = run_command(kCli + " simulate " + out.string() + " --seconds 0.002 --dt 0.002");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(" in 1 frame, 1 substep, "), std::string::npos) << r.out;
    r = run_command(kCli + " info " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("  springs     1 (1 Hooke, 0 rope constraints)\n"), std::string::npos) << r.out;
}

TEST(CliCore, InfoJsonReportsCountsAndStability) {
    const fs::path out = work_dir() / "string.json";
    ASSERT_EQ(run_command(kCli + " new string --resolution 5 -o " + out.string()).exit_code, 0);
    const auto r = run_command(kCli + " info --json " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["nodes"], 5);
    EXPECT_EQ(j["springs"]["total"], 4);
    EXPECT_EQ(j["anchors"], 1);
    EXPECT_EQ(j["attachments"]["tethers"], 0);
    EXPECT_NEAR(j["stability"]["k_dt2_over_m"].get<double>(), 1000 * 0.002 * 0.002 / 0.05, 1e-6);
    // A hanging string of 4 free nodes below an anchor, springs at rest: a
    // fixed-free chain, highest mode omega = 2 sqrt(k/m) sin(7 pi / 18).
    EXPECT_NEAR(j["stability"]["omega_dt"].get<double>(), 2 * std::sqrt(1000 / 0.05) * std::sin(7 * std::numbers::pi / 18) * 0.002,
                1e-3);
    EXPECT_EQ(j["stability"]["omega_dt_limit"], 2.0);
    EXPECT_EQ(j["stability"]["above_limit"], false);
}

// info prints every row of the parameter table: JSON by key (ground and gust
// rows as ground_<key> and gust_<key>), text by label.
TEST(CliCore, InfoPrintsEveryParameterOfTheTable) {
    const std::string model = std::string(SPRINGKIT_SOURCE_DIR) + "/samples/models/tunca-rope.json";
    const springkit::Model m = springkit::load_model(model);
    const auto r = run_command(kCli + " info --json " + model);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto params = nlohmann::json::parse(r.out).at("parameters");
    EXPECT_EQ(params.at("ground"), true);
    const auto text = run_command(kCli + " info " + model);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    for (const springkit::ParameterInfo& row : springkit::parameter_table()) {
        std::string key(row.key);
        if (row.section == springkit::ParameterSection::ground) key.insert(0, "ground_");
        if (row.section == springkit::ParameterSection::gust) key.insert(0, "gust_");
        ASSERT_TRUE(params.contains(key)) << key;
        if (const float* x = springkit::parameter_number(row, m.params)) {
            EXPECT_EQ(params.at(key).get<float>(), *x) << key;
        }
        // The material has a line only when set (ConvertMaterial tests it).
        const bool material = row.key == "total_mass" || row.key == "density" || row.key == "area_density" ||
                              row.key == "stretch_stiffness";
        if (row.section != springkit::ParameterSection::gust && row.key != "k" && row.key != "max_substep" &&
            row.key != "integrator" && !material) {  // the first line has "substep" and the integrator's name
            EXPECT_NE(text.out.find(std::string(row.label)), std::string::npos) << row.label;  // gusts: "no gusts"
        }
    }
    EXPECT_NE(text.out.find("no gusts"), std::string::npos);
}

TEST(CliCore, InfoCountsTheAttachmentsOfASample) {
    const auto r = run_command(kCli + " info --json " + std::string(SPRINGKIT_SOURCE_DIR) +
                               "/samples/models/bead-rope.json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["attachments"]["beads"], 1);
}

TEST(CliCore, SimulateWritesSettledPositions) {
    const fs::path in = work_dir() / "rope.json", out = work_dir() / "rope-settled.json";
    ASSERT_EQ(run_command(kCli + " new source-rope -o " + in.string()).exit_code, 0);
    const auto r = run_command(kCli + " simulate " + in.string() + " --seconds 1 -o " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("simulated 1 s in 60 frames"), std::string::npos) << r.out;
    const springkit::Model before = springkit::load_model(in), after = springkit::load_model(out);
    EXPECT_EQ(after.springs, before.springs);  // rest lengths kept
}

TEST(CliCore, SimulateRunsWithTheParametersGiven) {
    // A cloth held at two corners: with its gravity, it falls and swings;
    // without (--gravity 0,0,0), flat with every spring at its rest length
    // (to float rounding), nothing moves it, and -o writes the parameters it
    // ran with. A value out of range is a usage error naming the option.
    const fs::path in = work_dir() / "cloth-params.json", out = work_dir() / "cloth-params-out.json";
    ASSERT_EQ(run_command(kCli + " new cloth -o " + in.string()).exit_code, 0);
    auto displacement = [](const std::string& printed) {
        const std::size_t at = printed.find("max displacement ");
        return at == std::string::npos ? -1.0 : std::stod(printed.substr(at + 17));
    };
    auto r = run_command(kCli + " simulate " + in.string() + " --seconds 1");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GT(displacement(r.out), 0.5) << r.out;
    r = run_command(kCli + " simulate " + in.string() + " --seconds 1 --gravity 0,0,0 -o " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GE(displacement(r.out), 0.0) << r.out;
    EXPECT_LT(displacement(r.out), 1e-5) << r.out;
    EXPECT_EQ(springkit::load_model(out).params.gravity, (springkit::Vec3{0, 0, 0}));
    EXPECT_EQ(springkit::load_model(out).params.k, springkit::load_model(in).params.k);
    r = run_command(kCli + " simulate " + in.string() + " --seconds 1 --k -5");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "error: --k: k must be >= 0 N/m (got -5) (see springkit --help)\n");
}

TEST(CliCore, InfoDescribesTheModelWithTheParametersGiven) {
    // The cloth sample at its own k is stable at its substep; at 625 times
    // that k, dt omega_max grows 25 times, past symplectic Euler's limit of 2.
    const std::string cloth = std::string(SPRINGKIT_SOURCE_DIR) + "/samples/models/cloth.json";
    const springkit::Model m = springkit::load_model(cloth);
    auto r = run_command(kCli + " info --json " + cloth);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const double own = nlohmann::json::parse(r.out)["stability"]["omega_dt"].get<double>();
    EXPECT_LT(own, 2.0);
    r = run_command(kCli + " info --json " + cloth + " --k " + std::to_string(625.0 * m.params.k));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_NEAR(j["stability"]["omega_dt"].get<double>(), 25.0 * own, 1e-3 * 25.0 * own);
    EXPECT_DOUBLE_EQ(j["parameters"]["k"].get<double>(), 625.0 * m.params.k);
    EXPECT_TRUE(j["stability"]["warning"].get<bool>()) << "dt * omega_max past 2";
    // The implicit integrator (one step a frame) has no such limit: no warning.
    const std::string stiff = " --k " + std::to_string(625.0 * m.params.k) + " --integrator implicit";
    r = run_command(kCli + " info --json " + cloth + stiff);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(nlohmann::json::parse(r.out)["stability"]["warning"].get<bool>());
    r = run_command(kCli + " info " + cloth + stiff);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(" (no limit: the implicit integrator is stable for any k)\n"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("WARNING"), std::string::npos) << r.out;
}

// new and simulate write a model as its name says (.json, .skb): another
// extension is a usage error, before the model is built or read.
TEST(CliCore, AnOutputNamedForNoModelFormIsAUsageError) {
    const fs::path txt = work_dir() / "model.txt";
    const std::string message = "error: --output " + txt.string() +
                                ": a model is written as .json or .skb (the binary form), chosen by the extension; "
                                "not .txt\n";
    auto r = run_command(kCli + " new string -o " + txt.string());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, message);
    r = run_command(kCli + " simulate /nonexistent/model.json --seconds 1 -o " + txt.string());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, message);
    // simulate prints its summary on stdout: "-" would have been a file named so.
    r = run_command("cd " + work_dir().string() + " && " + kCli + " simulate /nonexistent/model.json --seconds 1 -o -");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "error: --output -: this verb writes no model to standard output; give a file name ending in "
                     ".json or .skb\n");
    EXPECT_FALSE(fs::exists(work_dir() / "-"));
    EXPECT_FALSE(fs::exists(txt));
    r = run_command(kCli + " new string -o " + (work_dir() / "string.skb").string());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(springkit::load_model(work_dir() / "string.skb").node_count(), springkit::make_sample("string").node_count());
    r = run_command(kCli + " new string -o /dev/null");
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(CliCore, MissingFileIsOneErrorLineAndExitOne) {
    const auto r = run_command(kCli + " info /nonexistent/model.json");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: /nonexistent/model.json: cannot open for reading (No such file or directory)\n");
}

TEST(CliCore, InvalidModelIsOneErrorLineNamingTheLocation) {
    const fs::path bad = work_dir() / "bad.json";
    springkit::write_file_atomically(bad, R"({"format": "springkit", "version": 1, "positions": [0,0,0],
      "springs": {"pairs": [0, 3], "rest": [1]}})");
    const auto r = run_command(kCli + " simulate " + bad.string() + " --seconds 1");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(line_count(r.err), 1);
    EXPECT_EQ(r.err, "error: " + bad.string() + ": /springs/0: node index 3 out of range (model has 1 node)\n");
}

TEST(CliCore, UsageErrorsExitTwo) {
    for (const std::string args : {"", "bogus", "new", "new teapot -o x.json", "simulate x.json",
                                   "info --bogus x.json"}) {
        const auto r = run_command(kCli + " " + args);
        EXPECT_EQ(r.exit_code, 2) << args;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << args << ": " << r.err;
        EXPECT_EQ(line_count(r.err), 1) << args << ": " << r.err;
    }
}

// A number option out of its range names the option, the bound and the value
// (not CLI11's range that ends at DBL_MAX written out in full).
TEST(CliCore, ANumberOutOfRangeNamesItsBound) {
    const std::string model = (work_dir() / "bound.json").string();
    ASSERT_EQ(run_command(kCli + " new cloth --resolution 4 -o " + model).exit_code, 0);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {" check " + model + " --golden g.json --tolerance -1", "--tolerance: must be a finite number >= 0, not '-1'"},
        {" new cloth --size 0 -o " + model, "--size: must be a finite number > 0, not '0'"},
        {" new rope --slack nan -o " + model, "--slack: must be a finite number >= 0, not 'nan'"},
        {" golden " + model + " --seconds 1 --horizon inf -o g.json", "--horizon: must be a finite number >= 0, not 'inf'"}};
    for (const auto& [args, message] : cases) {
        const auto r = run_command(kCli + args);
        EXPECT_EQ(r.exit_code, 2) << args;
        EXPECT_EQ(r.err, "error: " + message + " (see springkit --help)\n") << args;
    }
}

// A missing model names what is missing as the usage line and the docs do.
TEST(CliCore, DiffNamesItsMissingModel) {
    const auto r = run_command(kCli + " diff x.json");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "error: new-model is required (see springkit --help)\n");
    EXPECT_NE(run_command(kCli + " help diff").out.find("Usage: springkit diff [OPTIONS] old-model new-model"),
              std::string::npos);
}

TEST(CliCore, HelpOnEveryVerbExitsZero) {
    for (const std::string verb : {"", "new ", "info ", "simulate "}) {
        const auto r = run_command(kCli + " " + verb + "--help");
        EXPECT_EQ(r.exit_code, 0) << verb;
        EXPECT_NE(r.out.find("Usage"), std::string::npos) << verb;
    }
}

TEST(CliCore, ExplodingModelFailsWithTheSimulationError) {
    const fs::path m = work_dir() / "stiff.json";
    ASSERT_EQ(run_command(kCli + " new string --k 10000000 -o " + m.string()).exit_code, 0);
    const auto r = run_command(kCli + " simulate " + m.string() + " --seconds 2");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("warning: " + m.string() + ": dt * omega_max = "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(": the model will explode; "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("error: " + m.string() + ": simulation exploded"), std::string::npos) << r.err;
}

// Tunca's rope (new rope) has k dt^2/m 0.8, past Garrido's 0.3, but its highest
// mode is 1.79 against symplectic Euler's 2 and it runs calm: no warning, and
// info says which reading counts.
TEST(CliCore, TheSeedRopeIsNotWarnedOf) {
    const fs::path rope = work_dir() / "seed-rope.json";
    auto r = run_command(kCli + " new rope -o " + rope.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    r = run_command(kCli + " simulate " + rope.string() + " --seconds 3");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    r = run_command(kCli + " info " + rope.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("  stability   k dt^2/m = 0.8 (above Garrido's 0.3 for one spring; the step's limit, below, "
                         "is what counts)\n              dt * omega_max = 1.79 (ok), below 2, the limit of "
                         "symplectic_euler\n"),
              std::string::npos)
        << r.out;
    EXPECT_FALSE(nlohmann::json::parse(run_command(kCli + " info --json " + rope.string()).out)["stability"]["warning"]);
}

// ------------------------------------------------------------------ new NAME

TEST(CliCore, NewWritesEveryRegistrySceneAsTheRegistryBuildsIt) {
    const springkit::test::TempDir dir;
    for (const springkit::Scene& scene : springkit::scenes()) {
        const fs::path out = dir.path() / (std::string(scene.name) + ".json");
        const auto r = run_command(kCli + " new " + scene.name + " -o " + out.string());
        ASSERT_EQ(r.exit_code, 0) << scene.name << ": " << r.err;
        const std::string bytes = springkit::read_file(out);
        EXPECT_EQ(bytes, springkit::model_to_json(springkit::build_scene(scene, {}))) << scene.name;
        // A scene without a template is the sample, byte for byte.
        if (!scene.parametric) {
            EXPECT_EQ(bytes, springkit::model_to_json(springkit::make_sample(scene.name))) << scene.name;
        }
    }
}

TEST(CliCore, NewRopeIsTuncaRope) {
    const springkit::test::TempDir dir;
    for (const std::string options : {"", " --resolution 12 --size 3 --k 5000 --energy-loss 0.9 --mass 0.1"}) {
        const fs::path rope = dir.path() / "rope.json", tunca = dir.path() / "tunca-rope.json";
        ASSERT_EQ(run_command(kCli + " new rope" + options + " -o " + rope.string()).exit_code, 0) << options;
        ASSERT_EQ(run_command(kCli + " new tunca-rope" + options + " -o " + tunca.string()).exit_code, 0) << options;
        EXPECT_EQ(springkit::read_file(rope), springkit::read_file(tunca)) << options;
        const springkit::Model m = springkit::load_model(rope);
        EXPECT_EQ(m.name, "tunca-rope");
        EXPECT_EQ(m.node_count(), options.empty() ? 80u : 12u);
    }
}

TEST(CliCore, NewUnknownSceneIsAUsageErrorListingTheKnownOnes) {
    const auto r = run_command(kCli + " new trampoline -o x.json");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("error: scene: unknown scene \"trampoline\" (known: " + springkit::scene_names() + ")", 0),
              0u)
        << r.err;
    for (const springkit::Scene& scene : springkit::scenes())
        EXPECT_NE(r.err.find(scene.name), std::string::npos) << scene.name;
}

// A scene without a template is built as catalogued: an option would be lost.
TEST(CliCore, NewSceneWithoutATemplateRefusesTemplateOptions) {
    const springkit::test::TempDir dir;
    const auto r = run_command(kCli + " new flag --resolution 5 -o " + (dir.path() / "flag.json").string());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("flag takes no template options"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir.path() / "flag.json"));
}

TEST(CliCore, NewHelpNamesEveryScene) {
    const auto r = run_command(kCli + " new --help");
    ASSERT_EQ(r.exit_code, 0);
    for (const springkit::Scene& scene : springkit::scenes())
        EXPECT_NE(r.out.find(scene.name), std::string::npos) << scene.name;
    EXPECT_NE(r.out.find("tunca-rope (alias rope)"), std::string::npos) << r.out;
}

// An output that cannot be written is refused before the work, not after it: the
// run below would take minutes if the check came at its end.
TEST(CliCore, SimulateAndGoldenRefuseAnUnwritableOutputBeforeRunning) {
    const fs::path model = work_dir() / "refuse-string.json";
    ASSERT_EQ(run_command(kCli + " new string -o " + model.string()).exit_code, 0);
    const fs::path folder = work_dir() / "refuse-folder";
    fs::create_directories(folder);
    for (const std::string verb : {"simulate", "golden"}) {
        SCOPED_TRACE(verb);
        const auto r = run_command(kCli + " " + verb + " " + model.string() + " --seconds 50000 -o " + folder.string());
        EXPECT_EQ(r.exit_code, 1);
        EXPECT_EQ(line_count(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(folder.string()), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("directory"), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "");
    }
    EXPECT_TRUE(fs::is_directory(folder));
}

// info states the work per frame and warns about a model that cannot keep up:
// 20,000 rope constraints relaxed 1000 times in each of 9 substeps.
TEST(CliCore, InfoStatesTheCostPerFrameAndWarnsBeyondRealTime) {
    springkit::Model m;
    for (std::uint32_t i = 0; i <= 20000; ++i) m.positions.push_back({0.01f * static_cast<float>(i), 0, 0});
    for (std::uint32_t i = 0; i < 20000; ++i)
        m.springs.push_back({.a = i, .b = i + 1, .rest = 0.01f, .k = 0.0f, .kind = springkit::SpringKind::rope});
    m.params.rope_iterations = 1000;
    const fs::path file = work_dir() / "slow-rope.json";
    springkit::save_model(m, file);
    const auto text = run_command(kCli + " info " + file.string());
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("  cost/frame  9 substeps x 0 springs + 9 x 1000 passes x 20000 rope constraints = "
                            "0 + 180000000 visits, about 1.44e+03 ms on one thread (WARNING: cannot run in real "
                            "time, 1/60 s = 16.7 ms)\n"),
              std::string::npos)
        << text.out;
    const auto j = nlohmann::json::parse(run_command(kCli + " info --json " + file.string()).out);
    EXPECT_EQ(j["cost_per_frame"]["substeps"], 9);
    EXPECT_EQ(j["cost_per_frame"]["rope_visits"], 180000000);
    EXPECT_EQ(j["cost_per_frame"]["real_time"], false);
}

// Self-collision costs far more a node than the springs do (each node searches for
// its neighbours every substep): info counts it and says so.
TEST(CliCore, InfoCountsSelfCollisionInTheCostPerFrame) {
    springkit::ClothSpec spec;
    spec.columns = spec.rows = 10;
    springkit::Model m = springkit::make_cloth(spec);
    m.params.self_collision_distance = 0.01f;
    const fs::path file = work_dir() / "self-colliding-cloth.json";
    springkit::save_model(m, file);
    const auto text = run_command(kCli + " info " + file.string());
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("              counted in it: 900 self-collision node searches\n"), std::string::npos)
        << text.out;
    const auto j = nlohmann::json::parse(run_command(kCli + " info --json " + file.string()).out);
    EXPECT_EQ(j["cost_per_frame"]["self_collision_node_visits"], 900);
    EXPECT_EQ(j["cost_per_frame"]["element_visits"], 0);
    const double springs = 9.0 * static_cast<double>(m.springs.size()) * springkit::kSecondsPerSpringVisit;
    EXPECT_DOUBLE_EQ(j["cost_per_frame"]["seconds_one_thread"].get<double>(),
                     springs + 900 * springkit::kSecondsPerSelfCollisionNodeVisit);
}

// ------------------------------------------------------------------ conventions

TEST(CliConventions, VersionNamesTheBuildKindTypeAndImporter) {
    const auto r = run_command(kCli + " --version");
    ASSERT_EQ(r.exit_code, 0) << r.err;
#ifdef SPRINGKIT_NATIVE_BUILD
    const std::string kind = "native build";
#else
    const std::string kind = "portable build";
#endif
    EXPECT_EQ(r.out.rfind("springkit 0.1.0 (" + kind + ", ", 0), 0u) << r.out;
    // Assimp's version when the importer is built, else says there is none.
    EXPECT_TRUE(r.out.find("; Assimp 5.") != std::string::npos ||
                r.out.find("; no mesh importer)") != std::string::npos)
        << r.out;
    EXPECT_TRUE(r.out.find(", Release;") != std::string::npos || r.out.find(", Debug;") != std::string::npos ||
                r.out.find(", RelWithDebInfo;") != std::string::npos)
        << r.out;
}

TEST(CliConventions, HelpVerbPrintsTheVerbsOptions) {
    const auto r = run_command(kCli + " help new");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Usage: springkit new"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--resolution"), std::string::npos) << r.out;
    const auto all = run_command(kCli + " help");
    ASSERT_EQ(all.exit_code, 0) << all.err;
    EXPECT_NE(all.out.find("simulate"), std::string::npos) << all.out;
    const auto bad = run_command(kCli + " help teapot");
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_EQ(bad.err.rfind("error: help: unknown verb 'teapot' (the verbs: convert, new, info", 0), 0u) << bad.err;
}

TEST(CliConventions, QuietPrintsNothingButErrorsAndVerboseIsRefusedWithIt) {
    const fs::path out = work_dir() / "quiet.json";
    for (const std::string where : {"-q new string", "new string --quiet", "new -q string"}) {
        const auto r = run_command(kCli + " " + where + " --k 1e7 -o " + out.string());
        ASSERT_EQ(r.exit_code, 0) << where << r.err;
        EXPECT_EQ(r.out, "") << where;
        EXPECT_EQ(r.err, "") << where;  // the stability warning is left out too
    }
    const auto loud = run_command(kCli + " new string --k 1e7 -o " + out.string());
    EXPECT_NE(loud.out.find("string with 20 nodes"), std::string::npos) << loud.out;
    EXPECT_NE(loud.err.find("warning: "), std::string::npos) << loud.err;
    const auto both = run_command(kCli + " -q -v new string -o " + out.string());
    EXPECT_EQ(both.exit_code, 2);
    EXPECT_EQ(both.err, "error: --quiet excludes --verbose (see springkit --help)\n");
}

TEST(CliConventions, DashOutputWritesTheModelToStandardOutput) {
    const fs::path file = work_dir() / "dash.json";
    ASSERT_EQ(run_command(kCli + " new cloth --resolution 5 -o " + file.string()).exit_code, 0);
    const auto r = run_command(kCli + " new cloth --resolution 5 -o -");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, springkit::read_file(file));  // the model alone: the summary went to stderr
    EXPECT_NE(r.err.find("-: cloth with 25 nodes"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists("-"));
}

namespace {

/// The long options `springkit help VERB` lists (from its option column).
std::vector<std::string> listed_options(const std::string& help) {
    std::vector<std::string> options;
    std::istringstream lines(help);
    for (std::string line; std::getline(lines, line);) {
        const auto first = line.find_first_not_of(' ');
        if (first == std::string::npos || first == 0 || line[first] != '-') continue;
        // "  -o,--output TEXT REQUIRED  help": the names end at the first space;
        // a negated flag is listed as "--no-unit-scale{false}".
        std::string names = line.substr(first, line.find(' ', first) - first);
        names = names.substr(0, names.find('{'));
        std::istringstream parts(names);
        for (std::string name; std::getline(parts, name, ',');)
            if (name.rfind("--", 0) == 0) options.push_back(name);
    }
    return options;
}

}  // namespace

// Every option of every verb is in docs/CONVERTER.md, but those from the
// parameter table: docs/FILE_FORMAT.md documents the table row by row.
TEST(CliConventions, EveryOptionIsDocumented) {
    const std::string doc = springkit::read_file(fs::path(SPRINGKIT_SOURCE_DIR) / "docs/CONVERTER.md");
    std::set<std::string> from_table;
    for (const springkit::ParameterInfo& row : springkit::parameter_table())
        if (!row.cli_option.empty()) from_table.emplace(row.cli_option);
    const auto top = run_command(kCli + " --help");
    std::size_t checked = 0;
    for (const std::string verb : {"", "convert", "new", "info", "simulate", "golden", "check", "diff"}) {
        const auto r = run_command(kCli + " help " + verb);
        ASSERT_EQ(r.exit_code, 0) << verb << r.err;
        for (const std::string& option : listed_options(r.out)) {
            if (option == "--help" || from_table.count(option)) continue;
            ++checked;
            EXPECT_NE(doc.find("`" + option), std::string::npos) << "springkit " << verb << " " << option
                                                                  << " is not in docs/CONVERTER.md";
        }
    }
    EXPECT_GT(checked, 20u);
}

TEST(CliCore, SimulateWithASceneRestsTheClothOnTheTableTopPlusNodeRadius) {
    // samples/scenes/table.scene.json: a box whose top is at y = 0.5. A free
    // cloth 1 m up falls onto it and settles node_radius above the top.
    springkit::Model cloth = springkit::make_cloth({.columns = 6, .rows = 6, .anchors = springkit::ClothAnchors::none});
    for (springkit::Vec3& p : cloth.positions) p.y += 1.0f;
    cloth.params.node_radius = 0.02f;
    cloth.params.ground.reset();
    const fs::path in = work_dir() / "free-cloth.json";
    const fs::path out = work_dir() / "free-cloth-settled.json";
    springkit::save_model(cloth, in);
    const std::string scene = std::string(SPRINGKIT_SOURCE_DIR) + "/samples/scenes/table.scene.json";
    const auto r = run_command(kCli + " simulate " + in.string() + " --seconds 4 --scene " + scene + " -o " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");  // it starts above the table: nothing to warn of
    EXPECT_NE(r.out.find("1 collider from " + scene + ", 36 contacts in the last frame"), std::string::npos) << r.out;
    const springkit::Model settled = springkit::load_model(out);
    ASSERT_EQ(settled.node_count(), 36u);
    for (const springkit::Vec3& p : settled.positions) EXPECT_NEAR(p.y, 0.5f + 0.02f, 1e-3f);
    // Without the scene nothing holds it: it falls far below the table.
    ASSERT_EQ(run_command(kCli + " simulate " + in.string() + " --seconds 4 -o " + out.string()).exit_code, 0);
    EXPECT_LT(springkit::load_model(out).positions[0].y, -10.0f);
}

// A model that starts inside a collider is pushed out through the nearest face
// and crushed: simulate says how many nodes start inside which collider.
TEST(CliCore, SimulateWarnsOfNodesThatStartInsideACollider) {
    // The table is the box |x| < 2, 0 < y < 0.5, |z| < 2; the flat cloth, at
    // y = 0.25 with its middle at x = 2.05, has some of its nodes inside it, the
    // rest beside it.
    springkit::Model cloth = springkit::make_cloth({.columns = 6, .rows = 6, .anchors = springkit::ClothAnchors::none});
    cloth.params.ground.reset();
    float low = cloth.positions[0].x, high = low;
    for (const springkit::Vec3& p : cloth.positions) low = std::min(low, p.x), high = std::max(high, p.x);
    for (springkit::Vec3& p : cloth.positions) p = {p.x + 2.05f - (low + high) / 2, 0.25f, p.z};
    std::size_t expected = 0;
    for (const springkit::Vec3& p : cloth.positions)
        expected += std::abs(p.x) < 2.0f && p.y > 0.0f && p.y < 0.5f && std::abs(p.z) < 2.0f;
    ASSERT_GT(expected, 0u);
    ASSERT_LT(expected, cloth.node_count());
    const fs::path in = work_dir() / "cloth-in-table.json";
    springkit::save_model(cloth, in);
    const std::string scene = std::string(SPRINGKIT_SOURCE_DIR) + "/samples/scenes/table.scene.json";
    const auto r = run_command(kCli + " simulate " + in.string() + " --seconds 0.1 --scene " + scene);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "warning: " + in.string() + ": " + std::to_string(expected) + " of its 36 nodes start inside "
                         "collider 0 (\"table\", box) of " + scene + ": the contacts push them out through the nearest "
                         "surface, which can crush the model flat; move the model or the collider\n");
}

// Spring groups: info lists them, diff names the groups that changed.
TEST(CliCore, InfoListsSpringGroupsAndDiffNamesTheChangedOnes) {
    springkit::Model m = springkit::make_cloth({.columns = 4, .rows = 4});
    springkit::SpringGroup stiff;
    stiff.name = "stiff";
    stiff.stiffness_scale = 2.0f;
    stiff.springs = {0, 1, 2};
    springkit::SpringGroup soft;
    soft.name = "soft";
    soft.stiffness_scale = 0.5f;
    soft.damping = 0.25f;
    soft.springs = {3};
    m.spring_groups = {stiff, soft};
    const fs::path a = work_dir() / "groups-a.json", b = work_dir() / "groups-b.json";
    springkit::save_model(m, a);
    auto r = run_command(kCli + " info " + a.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\n  group       \"stiff\": 3 springs, stiffness x 2, the model's damping\n"
                         "  group       \"soft\": 1 spring, stiffness x 0.5, damping 0.25 N s/m\n"),
              std::string::npos)
        << r.out;
    r = run_command(kCli + " info --json " + a.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["spring_groups"][1]["name"], "soft");
    EXPECT_EQ(j["spring_groups"][1]["springs"], 1);
    EXPECT_EQ(j["spring_groups"][0]["damping"], nullptr);

    m.spring_groups[0].stiffness_scale = 3.0f;
    m.spring_groups[0].springs = {0, 1, 4, 5};
    m.spring_groups[1].name = "softer";
    save_model(m, b);
    r = run_command(kCli + " diff " + a.string() + " " + b.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\nspring group \"stiff\": stiffness x 2 -> 3\n"
                         "spring group \"stiff\": springs 3 -> 4 (2 added, 1 removed)\n"
                         "spring group \"soft\": removed (1 spring)\n"
                         "spring group \"softer\": added (1 spring, stiffness x 0.5, damping 0.25 N s/m)\n"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("spring_groups"), std::string::npos) << r.out;
}
