// The converter's CLI verbs: convert (batch and one by one), golden, check, diff;
// FBX node transforms and units through a file exported by Assimp itself.
#include <gtest/gtest.h>

#include <assimp/Exporter.hpp>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>

#include "springkit/import.hpp"
#include "springkit/springkit.hpp"
#include "support/parameter_values.hpp"
#include "support/run_command.hpp"
#include "support/test_files.hpp"

using namespace springkit;
using springkit::test::line_count;
using springkit::test::run_command;
using springkit::test::slurp;
namespace fs = std::filesystem;

namespace {

const std::string kCli = SPRINGKIT_CLI;

fs::path work_dir() { return springkit::test::scratch_dir("converter-cli"); }

fs::path sample_mesh(const std::string& name) { return fs::path(SPRINGKIT_SOURCE_DIR) / "samples/meshes" / name; }

/// The path quoted for /bin/sh (test paths hold no quotes).
std::string q(const fs::path& p) {
    std::string quoted = p.string();
    quoted.insert(quoted.begin(), '\'');
    quoted.push_back('\'');
    return quoted;
}

/// A scene whose root has one child node per transform, each showing the same
/// triangle mesh (vertices (0,0,0), (1,0,0), (0,1,0)), exported by Assimp's
/// ASCII FBX exporter (its binary FBX does not read back in Assimp 5.2.5:
/// "FBX-Tokenize ... block offset is out of range").
fs::path export_fbx(const std::string& name, const std::vector<aiMatrix4x4>& transforms) {
    aiScene scene;
    scene.mRootNode = new aiNode("root");
    std::vector<aiNode*> children;
    for (std::size_t i = 0; i < transforms.size(); ++i) {
        aiNode* child = new aiNode("instance" + std::to_string(i));
        child->mTransformation = transforms[i];
        child->mParent = scene.mRootNode;
        child->mNumMeshes = 1;
        child->mMeshes = new unsigned[1]{0};
        children.push_back(child);
    }
    scene.mRootNode->addChildren(static_cast<unsigned>(children.size()), children.data());
    scene.mNumMaterials = 1;
    scene.mMaterials = new aiMaterial*[1]{new aiMaterial()};
    aiMesh* mesh = new aiMesh();
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = 3;
    mesh->mVertices = new aiVector3D[3]{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh->mNumFaces = 1;
    mesh->mFaces = new aiFace[1];
    mesh->mFaces[0].mNumIndices = 3;
    mesh->mFaces[0].mIndices = new unsigned[3]{0, 1, 2};
    scene.mNumMeshes = 1;
    scene.mMeshes = new aiMesh*[1]{mesh};
    const fs::path out = work_dir() / name;
    Assimp::Exporter exporter;
    if (exporter.Export(&scene, "fbxa", out.string()) != aiReturn_SUCCESS)
        ADD_FAILURE() << "FBX export failed: " << exporter.GetErrorString();
    return out;
}

aiMatrix4x4 translate_scale(aiVector3D t, float s) {
    aiMatrix4x4 scale, translate;
    aiMatrix4x4::Scaling(aiVector3D(s, s, s), scale);
    aiMatrix4x4::Translation(t, translate);
    return translate * scale;
}

fs::path export_transformed_fbx() { return export_fbx("moved.fbx", {translate_scale({10, 0, 0}, 2)}); }

}  // namespace

TEST(Convert, FbxNodeTransformsAreBakedAndCentimetresBecomeMetres) {
    const fs::path fbx = export_transformed_fbx();
    ImportReport report;
    const Model m = import_mesh(fbx, {}, report);
    ASSERT_EQ(m.node_count(), 3u);
    // FBX units are centimetres (UnitScaleFactor 1): 2 * v + (10, 0, 0) cm.
    EXPECT_DOUBLE_EQ(report.unit_scale, 0.01);
    std::vector<Vec3> expected{{0.10f, 0, 0}, {0.12f, 0, 0}, {0.10f, 0.02f, 0}};
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_NEAR(m.positions[i].x, expected[i].x, 1e-6) << i;
        EXPECT_NEAR(m.positions[i].y, expected[i].y, 1e-6) << i;
        EXPECT_NEAR(m.positions[i].z, expected[i].z, 1e-6) << i;
    }
    // --scale 100 gives the file's numbers back; --no-unit-scale takes them as metres.
    const fs::path out = work_dir() / "moved.json";
    ASSERT_EQ(run_command(kCli + " convert " + q(fbx) + " --scale 100 -o " + q(out)).exit_code, 0);
    EXPECT_NEAR(bounds(load_model(out)).max.x, 12.0f, 1e-4);
    ASSERT_EQ(run_command(kCli + " convert " + q(fbx) + " --no-unit-scale -o " + q(out)).exit_code, 0);
    EXPECT_NEAR(bounds(load_model(out)).max.x, 12.0f, 1e-4);
}

TEST(Convert, EveryInstanceOfAMeshIsTakenWithItsOwnTransform) {
    // One mesh shown by two nodes, 50 cm apart: two triangles, six nodes.
    const fs::path fbx = export_fbx("twice.fbx", {translate_scale({0, 0, 0}, 1), translate_scale({0, 0, 50}, 1)});
    ImportReport report;
    ImportOptions bare;
    bare.structure = ImportOptions::Structure::edges;
    const Model m = import_mesh(fbx, bare, report);
    EXPECT_EQ(report.meshes, 2u);
    ASSERT_EQ(m.node_count(), 6u);
    EXPECT_EQ(m.faces.size(), 2u);
    EXPECT_EQ(m.springs.size(), 6u);
    EXPECT_NEAR(bounds(m).max.z, 0.5f, 1e-6);
    EXPECT_NEAR(bounds(m).min.z, 0.0f, 1e-6);
}

TEST(Convert, BatchOutputIsIdenticalToOneByOne) {
    const fs::path batch = work_dir() / "batch", single = work_dir() / "single";
    fs::remove_all(batch);
    fs::remove_all(single);
    fs::create_directories(single);
    const std::vector<std::string> meshes = {"cloth.obj", "cube.obj", "uv_sphere.obj", "flag.obj"};
    std::string inputs;
    for (const auto& m : meshes) inputs.append(" ").append(q(sample_mesh(m)));
    const auto r = run_command(kCli + " convert" + inputs + " --volume --bend -j 2 -o " + q(batch));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(line_count(r.out), 5) << r.out;  // one summary line per file and the totals
    EXPECT_NE(r.out.find("converted 4 of 4 files (0 failed): "), std::string::npos) << r.out;
    EXPECT_EQ(r.err, "");  // no progress when stderr is not a terminal
    for (const auto& m : meshes) {
        const std::string stem = fs::path(m).stem().string();
        const fs::path one = single / (stem + ".json");
        ASSERT_EQ(run_command(kCli + " convert " + q(sample_mesh(m)) + " --volume --bend -o " + q(one)).exit_code, 0);
        EXPECT_EQ(slurp(batch / (stem + ".json")), slurp(one)) << m;
    }
}

TEST(Convert, SeveralInputsToOneFileAreAUsageError) {
    const fs::path dir = work_dir() / "several";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string inputs = " " + q(sample_mesh("cube.obj")) + " " + q(sample_mesh("cloth.obj"));
    for (const std::string out : {"single.json", "single.skb", "-"}) {
        const auto r = run_command("cd " + q(dir) + " && " + kCli + " convert" + inputs + " -o " + out);
        EXPECT_EQ(r.exit_code, 2) << out;
        EXPECT_EQ(r.err, "error: 2 inputs cannot all be written to " +
                             std::string(out == "-" ? "standard output" : "one file, " + out) +
                             ": give a folder (an existing one, or a path ending in /), or convert them one at a "
                             "time\n");
        EXPECT_TRUE(fs::is_empty(dir)) << out;  // no folder named single.json
    }
}

TEST(Convert, DashOutputWritesTheModelToStandardOutput) {
    const fs::path file = work_dir() / "dash-cube.json";
    ASSERT_EQ(run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " -o " + q(file)).exit_code, 0);
    const auto r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " -o -");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, slurp(file));
    EXPECT_NE(r.err.find("-> (standard output): 98 nodes"), std::string::npos) << r.err;
    // -v adds how the file was read; -q leaves the model alone.
    const auto verbose = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " -v -o -");
    EXPECT_NE(verbose.err.find("read by obj: 1 mesh, 384 vertices, 192 triangles"), std::string::npos)
        << verbose.err;
    const auto quiet = run_command(kCli + " -q convert " + q(sample_mesh("cube.obj")) + " -o -");
    EXPECT_EQ(quiet.out, slurp(file));
    EXPECT_EQ(quiet.err, "");
}

// Units and size: the summary gives the size and the unit; --units and --size
// rescale; a model outside 1 cm to 100 m is warned about.
TEST(Convert, SummaryReportsSizeAndUnitAndUnitsAndSizeRescale) {
    const fs::path out = work_dir() / "units.json";
    auto r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("; 1 x 1 x 1 m (unit: metres (the file declares none))"), std::string::npos) << r.out;
    EXPECT_EQ(r.err, "");
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --units cm -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("; 0.01 x 0.01 x 0.01 m (unit: given: 0.01 m per unit)"), std::string::npos) << r.out;
    EXPECT_FLOAT_EQ(bounds(load_model(out)).max.x, 0.005f);
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --scale 257 -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "warning: " + sample_mesh("cube.obj").string() +
                         ": the model is 257 m across (unit: metres (the file declares none)), outside 1 cm to 100 m: "
                         "if its unit is another, give --units mm|cm|in|ft|m, or --size METRES\n");
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --scale 257 --size 3 -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const Bounds box = bounds(load_model(out));
    EXPECT_FLOAT_EQ(box.max.y - box.min.y, 3.0f);
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --units furlong -o " + q(out));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown unit 'furlong'"), std::string::npos) << r.err;
}

// --ground bottom: a ground just under the model, its repulsion raised so that
// the model resting on it sinks at most the stated depth; simulated to rest, no
// node is deeper than the depth the summary prints.
double printed_sink(const std::string& summary) {
    const std::size_t at = summary.find(" N/m: sinks ");
    return at == std::string::npos ? -1.0 : std::stod(summary.substr(at + 12));
}

double deepest_after(const fs::path& model, const fs::path& settled, double seconds) {
    const auto r = run_command(kCli + " simulate " + q(model) + " --seconds " + std::to_string(seconds) + " -o " +
                               q(settled));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const Model m = load_model(settled);
    return m.params.ground->height - bounds(m).min.y;
}

TEST(Convert, GroundBottomHoldsTheModelWithinTheStatedDepth) {
    const fs::path out = work_dir() / "grounded.json", settled = work_dir() / "grounded-settled.json";
    // 98 nodes of 2 kg, 1923 N, on the 25 nodes of the cube's floor, whose rim
    // also carries the walls; 1% of the 1 m side is 0.01 m.
    auto r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --mass 2 --ground bottom -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Model m = load_model(out);
    ASSERT_TRUE(m.params.ground.has_value());
    EXPECT_FLOAT_EQ(m.params.ground->height, -0.5f);
    EXPECT_NE(r.out.find("; ground at y = -0.5, repulsion "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("m at rest (its weight on its 25 lowest nodes)"), std::string::npos) << r.out;
    EXPECT_NEAR(printed_sink(r.out), 0.01, 1e-4) << r.out;
    EXPECT_GT(deepest_after(out, settled, 3.0), 0.005);
    EXPECT_LE(deepest_after(out, settled, 3.0), printed_sink(r.out));
    // A heavy sphere (146 nodes of 5 kg) stands on its pole: 1% of its size would
    // need a repulsion no node keeps stable (0.3 x 5 kg / (0.002 s)^2 = 375000 N/m),
    // so the summary says how deep it sinks and what substep would allow 1%.
    r = run_command(kCli + " convert " + q(sample_mesh("uv_sphere.obj")) + " --mass 5 --ground bottom -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FLOAT_EQ(load_model(out).params.ground->repulsion, 375000.0f);
    EXPECT_NE(r.out.find("more than asked: a stiffer ground needs --max-substep "), std::string::npos) << r.out;
    EXPECT_GT(printed_sink(r.out), 0.01);
    EXPECT_LE(deepest_after(out, settled, 3.0), printed_sink(r.out));
    // A lighter one (98 nodes of 0.05 kg: 48 N) with its depth given.
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --ground bottom --ground-depth 0.02 -o " +
                    q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NEAR(printed_sink(r.out), 0.02, 1e-4) << r.out;
    EXPECT_NEAR(load_model(out).params.ground->repulsion, 98 * 0.05 * 9.81 / (25 * 0.02 / kGroundUnevenLoad), 0.01);
    EXPECT_LE(deepest_after(out, settled, 3.0), printed_sink(r.out));
    // The heavy sphere with the implicit integrator: its ground is a constraint,
    // so nothing sinks and no substep is asked for; the repulsion written is the
    // explicit one's at the default substep.
    r = run_command(kCli + " convert " + q(sample_mesh("uv_sphere.obj")) +
                    " --mass 5 --ground bottom --integrator implicit -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("; ground at y = "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" (a constraint of the implicit integrator: nothing sinks)"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("sinks "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("--max-substep"), std::string::npos) << r.out;
    EXPECT_FLOAT_EQ(load_model(out).params.ground->repulsion, 375000.0f);
    EXPECT_LE(deepest_after(out, settled, 1.0), 1e-6) << "no node below the ground";
}

// Islands: a quad and a triangle 2 m apart, which no spring joins.
TEST(Convert, IslandsAreReportedKeptDroppedOrConnected) {
    const fs::path mesh = work_dir() / "two-parts.obj", out = work_dir() / "two-parts.json";
    {
        std::ofstream f(mesh);
        f << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 3 0 0\nv 4 0 0\nv 3 1 0\nf 1 2 3 4\nf 5 6 7\n";
    }
    // Bare meshes: chosen volume springs would join the parts.
    auto r = run_command(kCli + " convert " + q(mesh) + " --springs edges --keep-order -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "warning: " + mesh.string() +
                         ": 2 islands (parts no spring joins; nodes: 4, 3): each moves on its own; --islands largest "
                         "keeps the largest, --islands connect joins them with springs\n");
    EXPECT_NE(r.out.find("; 2 islands"), std::string::npos) << r.out;
    const Model kept = load_model(out);
    EXPECT_EQ(kept.node_count(), 7u);
    EXPECT_EQ(kept.springs.size(), 5u + 3u);

    r = run_command(kCli + " convert " + q(mesh) + " --springs edges --keep-order --islands largest -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("; 2 islands, the largest kept (3 nodes dropped)"), std::string::npos) << r.out;
    const Model largest = load_model(out);
    EXPECT_EQ(largest.node_count(), 4u);
    EXPECT_EQ(largest.springs.size(), 5u);
    EXPECT_EQ(largest.faces.size(), 2u);

    r = run_command(kCli + " convert " + q(mesh) + " --springs edges --keep-order --islands connect -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("; 2 islands, joined by 3 springs"), std::string::npos) << r.out;
    const Model joined = load_model(out);
    ASSERT_EQ(joined.springs.size(), 11u);
    // The triangle's nodes nearest the quad first, each to its nearest quad node
    // not taken yet: (3,0,0) to (1,0,0) and (3,1,0) to (1,1,0), 2 m; then (4,0,0)
    // to the nearest left, (0,0,0) at 4 m.
    const std::array<std::array<float, 3>, 3> expected = {{{4, 1, 2}, {6, 2, 2}, {5, 0, 4}}};
    for (std::size_t i = 0; i < 3; ++i) {
        const Spring& s = joined.springs[8 + i];
        EXPECT_EQ(s.a, static_cast<std::uint32_t>(expected[i][0])) << i;
        EXPECT_EQ(s.b, static_cast<std::uint32_t>(expected[i][1])) << i;
        EXPECT_FLOAT_EQ(s.rest, expected[i][2]) << i;
    }
}

// What a model cannot carry is said: bones and animations, a missing texture.
TEST(Convert, DroppedBonesAndAMissingTextureAreWarnedAbout) {
    const fs::path animated = "/usr/share/assimp/models/Collada/box_nested_animation.dae";
    if (fs::exists(animated)) {  // assimp-testmodels (scripts/setup)
        const auto r = run_command(kCli + " convert " + q(animated) + " -o " + q(work_dir() / "animated.json"));
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(r.err, "warning: " + animated.string() +
                             ": 1 bone and 1 animation were dropped (use --bone-anchors): the model is its rest "
                             "pose, without skinning\n");
    }
    const fs::path dir = work_dir() / "no-texture";
    fs::create_directories(dir);
    {
        std::ofstream(dir / "quad.mtl") << "newmtl skin\nmap_Kd textures\\\\skin.png\n";
        std::ofstream(dir / "quad.obj") << "mtllib quad.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 1 1\n"
                                           "vt 0 1\nusemtl skin\nf 1/1 2/2 3/3 4/4\n";
    }
    const auto r = run_command(kCli + " convert " + q(dir / "quad.obj") + " -o " + q(dir / "quad.json"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "warning: " + (dir / "quad.obj").string() + ": the texture " +
                         (dir / "textures/skin.png").generic_string() +
                         " was not found (nor skin.png next to the mesh or in its textures folder); the model "
                         "names it all the same\n");
}

// --bone-anchors: the summary says how many anchors follow how many bones
// through which clip; a threshold outside (0, 1] and --animation without it are
// usage errors.
TEST(Convert, BoneAnchorsAreSummarisedAndBadThresholdsRefused) {
    const fs::path skinned = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";
    if (!fs::exists(skinned)) GTEST_SKIP() << "assimp-testmodels is not installed";
    const fs::path out = work_dir() / "skin.json";
    auto r = run_command(kCli + " convert " + q(skinned) + " -o " + q(out) + " --bone-anchors 0.75");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("; 8 anchors follow 2 bones through animation #0 (5.5 s, looped);"), std::string::npos)
        << r.out;
    EXPECT_EQ(load_model(out).anchor_tracks.size(), 2u);
    r = run_command(kCli + " info " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\n  tracks      2, driving 8 anchors; the longest 5.5 s\n"), std::string::npos) << r.out;
    for (const char* bad : {"0", "1.5", "-0.5", "half"}) {
        r = run_command(kCli + " convert " + q(skinned) + " -o " + q(out) + " --bone-anchors " + bad);
        EXPECT_EQ(r.exit_code, 2) << bad;
        EXPECT_EQ(r.err, std::string("error: --bone-anchors: a bone weight threshold must be a number in (0, 1], not '") +
                             bad + "' (see springkit --help)\n");
    }
    r = run_command(kCli + " convert " + q(skinned) + " -o " + q(out) + " --animation 0");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "error: --animation requires --bone-anchors (see springkit --help)\n");
    r = run_command(kCli + " convert " + q(skinned) + " -o " + q(work_dir() / "walk.json") +
                    " --bone-anchors 0.5 --animation walk");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: " + skinned.string() + ": --animation walk: no such animation (the file has 1: 0 \"\")\n");
    EXPECT_FALSE(fs::exists(work_dir() / "walk.json"));
}

// A texture named by another machine's absolute path is found next to the mesh,
// written relative to the model file, and the summary says how it was found.
TEST(Convert, ATextureFromAnotherMachineIsFoundByNameAndTheSummarySaysSo) {
    const fs::path dir = work_dir() / "foreign-texture";
    fs::create_directories(dir / "out");
    fs::copy_file(sample_mesh("cloth.png"), dir / "skin.png", fs::copy_options::overwrite_existing);
    std::ofstream(dir / "quad.mtl") << "newmtl skin\nmap_Kd D:\\art\\skin.png\n";
    std::ofstream(dir / "quad.obj") << "mtllib quad.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 1 1\n"
                                       "vt 0 1\nusemtl skin\nf 1/1 2/2 3/3 4/4\n";
    const auto r = run_command(kCli + " convert " + q(dir / "quad.obj") + " -o " + q(dir / "out/quad.json"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("\n  texture ../skin.png: found next to the mesh by name\n"), std::string::npos) << r.out;
    EXPECT_EQ(load_model(dir / "out/quad.json").texture, "../skin.png");
}

// Embedded textures (GLB, FBX) go next to the output as <output stem>.<ext>, the
// bytes the file holds; a different file of that name is never overwritten.
TEST(Convert, EmbeddedTexturesAreExtractedNextToTheOutput) {
    const fs::path models = "/usr/share/assimp/models";
    if (!fs::exists(models / "glTF2/BoxTextured-glTF-Binary/BoxTextured.glb")) GTEST_SKIP() << "assimp-testmodels";
    const fs::path dir = work_dir() / "embedded";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string glb = q(models / "glTF2/BoxTextured-glTF-Binary/BoxTextured.glb");
    auto r = run_command(kCli + " convert " + glb + " -o " + q(dir / "box.skb"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("\n  texture box.png: extracted from the file\n"), std::string::npos) << r.out;
    EXPECT_EQ(load_model(dir / "box.skb").texture, "box.png");
    // The GLB embeds the image the glTF version of the same box keeps beside it.
    EXPECT_EQ(slurp(dir / "box.png"), slurp(models / "glTF2/BoxTextured-glTF/CesiumLogoFlat.png"));
    // Converting again finds its own texture there and keeps it.
    EXPECT_EQ(run_command(kCli + " convert " + glb + " -o " + q(dir / "box.skb")).exit_code, 0);

    std::ofstream(dir / "mine.png") << "the user's own file";
    r = run_command(kCli + " convert " + glb + " -o " + q(dir / "mine.json"));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: " + (dir / "mine.png").string() +
                         ": exists and is not the texture embedded in the mesh; not overwritten (move it away or "
                         "choose another output name)\n");
    EXPECT_EQ(slurp(dir / "mine.png"), "the user's own file");
    EXPECT_FALSE(fs::exists(dir / "mine.json"));

    r = run_command(kCli + " convert " + q(models / "FBX/embedded_ascii/box.FBX") + " -o " + q(dir / "fbx.json"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(load_model(dir / "fbx.json").texture, "fbx.png");
    EXPECT_EQ(slurp(dir / "fbx.png").substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(Convert, ConvertingTheSameFileTwiceGivesIdenticalFiles) {
    // The flag: quads, UVs, seams to weld; both forms, with every kind of extra spring.
    for (const char* extension : {".skb", ".json"}) {
        const fs::path a = work_dir() / (std::string("twice-a") + extension),
                       b = work_dir() / (std::string("twice-b") + extension);
        for (const fs::path& out : {a, b})
            ASSERT_EQ(run_command(kCli + " convert " + q(sample_mesh("flag.obj")) +
                                  " --shear --bend --volume --weld 1e-3 -o " + q(out))
                          .exit_code,
                      0);
        EXPECT_EQ(slurp(a), slurp(b)) << extension;
    }
    EXPECT_EQ(load_model(work_dir() / "twice-a.skb"), load_model(work_dir() / "twice-a.json"));
}

// Counts of one take the singular: "1 face", "1 anchor", "1 volume element".
TEST(Convert, SummaryCountsOfOneAreSingular) {
    const fs::path dir = work_dir() / "singular";
    fs::create_directories(dir);
    std::ofstream(dir / "triangle.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    const auto r = run_command(kCli + " convert " + q(dir / "triangle.obj") + " --springs edges --anchor nodes:0 -o " +
                               q(dir / "triangle.json"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find(": 3 nodes, 3 springs (3 edge, 0 line, 0 bend, 0 shear, 0 volume), 1 face, 0 welded vertices, "
                         "1 anchor, "),
              (dir / "triangle.obj").string().size() + 4 + (dir / "triangle.json").string().size())
        << r.out;
    // A flat sheet of two triangles gets one flat volume element.
    std::ofstream(dir / "quad.obj") << "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n";
    const auto quad = run_command(kCli + " convert " + q(dir / "quad.obj") + " -o " + q(dir / "quad.json"));
    ASSERT_EQ(quad.exit_code, 0) << quad.err;
    EXPECT_NE(quad.out.find("; 1 volume element (of rest volume 0"), std::string::npos) << quad.out;
}

TEST(Convert, SummaryLineCountsSpringsByKind) {
    const fs::path out = work_dir() / "sphere.json";
    const auto r = run_command(kCli + " convert " + q(sample_mesh("uv_sphere.obj")) + " --volume -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("146 nodes"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("432 edge"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("288 faces"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("462 welded vertices"), std::string::npos) << r.out;
}

TEST(Convert, TexturePathIsRelativeToTheWrittenModel) {
    std::vector<std::string> textures;
    for (const char* name : {"deep/er/cloth.json", "deep/er/cloth.skb"}) {
        const fs::path out = work_dir() / name;
        fs::create_directories(out.parent_path());
        ASSERT_EQ(run_command(kCli + " convert " + q(sample_mesh("cloth.obj")) + " -o " + q(out)).exit_code, 0);
        const Model m = load_model(out);
        EXPECT_EQ(fs::weakly_canonical(out.parent_path() / m.texture), fs::weakly_canonical(sample_mesh("cloth.png")))
            << name;
        EXPECT_TRUE(fs::path(m.texture).is_relative()) << m.texture;
        textures.push_back(m.texture);
    }
    EXPECT_EQ(textures[0], textures[1]);
}

TEST(Convert, AFailingFileGivesOneErrorLineAndNoOutputWhileOthersConvert) {
    const fs::path dir = work_dir() / "mixed";
    fs::remove_all(dir);
    const fs::path bad = work_dir() / "broken.obj";
    std::ofstream(bad) << "v 0 0 0\nv 1 0 0\nf 1 2 9\n";
    const auto r = run_command(kCli + " convert " + q(bad) + " " + q(sample_mesh("cube.obj")) + " -o " + q(dir));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("error: " + bad.string() + ": ", 0), 0u) << r.err;
    EXPECT_FALSE(fs::exists(dir / "broken.json"));
    EXPECT_TRUE(fs::exists(dir / "cube.json"));
    for (const auto& e : fs::directory_iterator(dir)) EXPECT_EQ(e.path().extension(), ".json") << e.path();
}

TEST(Convert, AnInvalidModelIsNamedByFileAndPlaceAndNothingIsWritten) {
    // Unwelded, two corners of the triangle coincide: its edge 1-2 has no length.
    const fs::path mesh = work_dir() / "pinched.obj";
    std::ofstream(mesh) << "v 0 0 0\nv 1 0 0\nv 1 0 0\nf 1 2 3\n";
    for (const char* extension : {".skb", ".json"}) {
        const fs::path dir = work_dir() / (std::string("pinched") + (extension + 1));
        fs::remove_all(dir);
        fs::create_directories(dir);
        const auto r = run_command(kCli + " convert " + q(mesh) + " --weld -1 -o " + q(dir / (std::string("m") + extension)));
        EXPECT_EQ(r.exit_code, 1);
        EXPECT_EQ(r.err, "error: " + mesh.string() + ": /springs/1/rest: rest length must be > 0 m (got 0)\n");
        EXPECT_TRUE(fs::is_empty(dir)) << extension;  // no model, no temp file
        // A bad parameter is named the same way (out-of-range options are usage
        // errors; a gust longer than its period is found by validation).
        const auto p = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) +
                                   " --gust-period 1 --gust-duration 2 -o " + q(dir / (std::string("m") + extension)));
        EXPECT_EQ(p.exit_code, 1);
        EXPECT_EQ(p.err.rfind("error: " + sample_mesh("cube.obj").string() + ": /parameters/gust/duration: ", 0), 0u)
            << p.err;
        EXPECT_TRUE(fs::is_empty(dir)) << extension;
    }
}

TEST(Convert, UsageErrorsExitTwo) {
    EXPECT_EQ(run_command(kCli + " convert " + q(sample_mesh("cube.obj"))).exit_code, 2);  // no -o
    // Number options out of range are usage errors naming the option and the value.
    for (const auto& [option, message] : std::vector<std::pair<std::string, std::string>>{
             {"--weld nan", "--weld: the weld tolerance must be a finite number below 1 (a share of the bounding-box "
                            "diagonal; negative: no welding), not 'nan'"},
             {"--weld 1", "--weld: the weld tolerance must be a finite number below 1 (a share of the bounding-box "
                          "diagonal; negative: no welding), not '1'"},
             {"--scale 0", "--scale: must be a finite number > 0, not '0'"},
             {"--size inf", "--size: must be a finite number > 0, not 'inf'"}}) {
        const auto usage = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " " + option + " -o " +
                                       q(work_dir() / "usage.json"));
        EXPECT_EQ(usage.exit_code, 2) << option;
        EXPECT_EQ(usage.err, "error: " + message + " (see springkit --help)\n");
    }
    const auto r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " " + q(sample_mesh("cube.obj")) +
                               " -o " + q(work_dir() / "twice"));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("would both be written to"), std::string::npos) << r.err;
}

TEST(Convert, AnchorOptionAnchorsThePole) {
    const fs::path out = work_dir() / "flag.json";
    const auto r = run_command(kCli + " convert " + q(sample_mesh("flag.obj")) + " --anchor -x:0.1% -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Model m = load_model(out);
    // Every node at x = 0 is on the pole: 21 pole vertices (2.5 m / 0.125 m + 1).
    EXPECT_EQ(m.anchors.size(), 21u);
    for (const Anchor& a : m.anchors) EXPECT_EQ(m.positions[a.node].x, 0.0f);
}

// A selector malformed whatever the mesh is a usage error, refused before any
// import and without naming an input; one that the mesh decides (an index out of
// range) fails the file.
TEST(Convert, AMalformedAnchorSelectorIsAUsageError) {
    const fs::path out = work_dir() / "anchor-usage.json";
    fs::remove(out);
    const std::string expected = " (expected +y:10%, top:10%, nodes:0,5,17 or near:X,Y,Z) (see springkit --help)\n";
    for (const auto& [selector, problem] :
         std::vector<std::pair<std::string, std::string>>{{"top", "missing ':'"},
                                                          {"left:10%", "unknown selector 'left'"},
                                                          {"top:200%", "the share must be in (0, 100]%"},
                                                          {"nodes:", "no node indices"},
                                                          {"nodes:1.5", "node indices must be whole numbers >= 0"},
                                                          {"near:1,2", "near needs three coordinates"}}) {
        const auto r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --anchor " + q(selector) +
                                   " -o " + q(out));
        EXPECT_EQ(r.exit_code, 2) << selector << ": " << r.err;
        EXPECT_EQ(r.err, "error: --anchor: anchor selector '" + selector + "': " + problem + expected);
        EXPECT_FALSE(fs::exists(out)) << selector;
    }
    const auto r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --anchor nodes:98 -o " + q(out));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: " + sample_mesh("cube.obj").string() +
                         ": anchor selector 'nodes:98': node 98 out of range (model has 98 nodes) (expected +y:10%, "
                         "top:10%, nodes:0,5,17 or near:X,Y,Z)\n");
    EXPECT_FALSE(fs::exists(out));
}

TEST(InfoShapeError, ReportsShapeErrorInJson) {
    const fs::path plain = work_dir() / "cube-plain.json", volume = work_dir() / "cube-volume.json";
    ASSERT_EQ(run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --springs edges -o " + q(plain)).exit_code, 0);
    ASSERT_EQ(run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --volume -o " + q(volume)).exit_code, 0);
    auto shape = [](const fs::path& p) {
        const auto r = run_command(kCli + " info --json --shape-error " + q(p));
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return nlohmann::json::parse(r.out).at("shape_error").get<double>();
    };
    EXPECT_LT(shape(volume), 0.02);
    EXPECT_GT(shape(plain), 0.1);
}

TEST(ConvertStructure, TheSummarySaysWhatWasChosenAndWhy) {
    const fs::path out = work_dir() / "structure-cube.json";
    auto r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(" 0 bend, 0 shear, "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("; structural springs: volume (a closed surface: each of its 288 edges joins two faces or "
                         "more)"),
              std::string::npos)
        << r.out;
    r = run_command(kCli + " convert " + q(sample_mesh("cloth.obj")) + " -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("; structural springs: bend + shear + volume (an open flat sheet: 64 edges on its rim"),
              std::string::npos)
        << r.out;
    // Asked for: no words, the counts say it.
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --springs edges -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("springs (288 edge, 0 line, 0 bend, 0 shear, 0 volume)"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("structural springs"), std::string::npos) << r.out;
    // --springs and the flags choose the same thing: one of them.
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --springs edges --volume -o " + q(out));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--springs excludes --volume"), std::string::npos) << r.err;
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --springs jelly -o " + q(out));
    EXPECT_EQ(r.exit_code, 2);
}

// Where the converter chooses volume springs it adds volume elements unless
// told not to, and the summary counts them and says why, or why none.
TEST(ConvertStructure, VolumeElementsByDefaultAndTheSummarySaysWhy) {
    const fs::path out = work_dir() / "elements-cube.json";
    auto r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Model with = load_model(out);
    ASSERT_FALSE(with.volume_elements.empty());
    EXPECT_GT(with.params.volume_stiffness, 0.0f);
    EXPECT_NE(r.out.find("; " + std::to_string(with.volume_elements.size()) +
                         " volume elements (signed volumes: springs alone cannot tell the shape from its mirror "
                         "image)"),
              std::string::npos)
        << r.out;
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --no-volume-elements -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(load_model(out).volume_elements.empty());
    EXPECT_NE(r.out.find("; no volume elements (left out: --no-volume-elements)"), std::string::npos) << r.out;
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --integrator implicit -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(load_model(out).volume_elements.empty());
    // One implicit step a frame, and the summary says so.
    EXPECT_EQ(load_model(out).params.max_substep, 1.0f / 60.0f);
    EXPECT_NE(r.out.find("; substep 1/60 s (one step a frame: the implicit integrator is stable for any k)"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("; no volume elements (their force is explicit, too stiff for the implicit integrator's "
                         "substeps)"),
              std::string::npos)
        << r.out;
    // A flat sheet (the cloth: bend, shear and volume springs) gets flat ones.
    r = run_command(kCli + " convert " + q(sample_mesh("cloth.obj")) + " -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Model cloth = load_model(out);
    ASSERT_FALSE(cloth.volume_elements.empty());
    EXPECT_NE(r.out.find("; " + std::to_string(cloth.volume_elements.size()) +
                         " volume elements (of rest volume 0: they keep the sheet flat, which springs in its plane do "
                         "only at second order)"),
              std::string::npos)
        << r.out;
    // --volume adds exactly the volume springs, and the summary says nothing of elements.
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --volume -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(load_model(out).volume_elements.empty());
    EXPECT_EQ(r.out.find("volume elements"), std::string::npos) << r.out;
}

TEST(ConvertMaterial, TheModelKeepsTheMaterialAndInfoShowsIt) {
    const fs::path out = work_dir() / "material-cloth.json";
    auto r = run_command(kCli + " convert " + q(sample_mesh("cloth.obj")) +
                         " --total-mass 0.3 --stretch-stiffness 200 -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Model m = load_model(out);
    EXPECT_EQ(m.params.total_mass, 0.3f);
    EXPECT_EQ(m.params.stretch_stiffness, 200.0f);
    double total = 0.0;
    for (float mass : m.masses) total += mass;
    EXPECT_NEAR(total, 0.3, 1e-5);
    r = run_command(kCli + " info " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("total mass 0.3 kg"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("stretch stiffness 200 N/m"), std::string::npos) << r.out;
    r = run_command(kCli + " convert " + q(sample_mesh("cloth.obj")) + " --total-mass 1 --area-density 2 -o " + q(out));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "error: --total-mass, --density and --area-density each give the mass: give one of them\n");
    // A density needs a volume: the open cloth has none.
    r = run_command(kCli + " convert " + q(sample_mesh("cloth.obj")) + " --density 1000 -o " + q(out));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("cloth.obj: /parameters/density: density needs a closed face mesh (a volume): face "),
              std::string::npos)
        << r.err;
}

TEST(ConvertMaterial, ALightModelOnStiffSpringsIsToldItsSubstepsAFrame) {
    // The cube's 98 nodes at 1 g in all on springs of the default k: the
    // substep the explicit step needs is tens of microseconds, hundreds a
    // frame, which the conversion says, with the way out; the default mass
    // (0.05 kg a node) needs no such warning.
    const fs::path out = work_dir() / "light-cube.json";
    auto r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --total-mass 0.001 -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const double substep = load_model(out).params.max_substep;
    const long per_frame = std::lround(std::ceil((1.0 / 60.0) / substep - 1e-9));
    EXPECT_GT(per_frame, 100);
    char substep_text[32];
    std::snprintf(substep_text, sizeof substep_text, "%.2g", substep);
    EXPECT_EQ(r.err, "warning: " + sample_mesh("cube.obj").string() + ": the explicit step of this mesh needs " +
                         std::to_string(per_frame) + " substeps a 1/60 s frame (substep " + substep_text +
                         " s), too many for real time: its lightest nodes hang on its stiffest or most damped "
                         "springs; --integrator implicit is stable at one substep a frame, or lower --damping\n");
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
}

TEST(ConvertMaterial, TheSubstepKeepsTheSpringDampingOfLightNodesStable) {
    // The cube at 0.1 g in all: its nodes of about 1 mg on springs of the
    // converter's damping 0.02 N s/m. dt omega_max alone asked for 9.1e-6 s, at
    // which 2 dt c / m per spring is far past symplectic Euler's limit, and the
    // model exploded in its first frame; the substep now keeps the damping's
    // share too, and the model runs.
    const fs::path out = work_dir() / "lighter-cube.json";
    auto r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --total-mass 0.0001 -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("and (dt omega_max)^2 + 2 dt damping rate "), std::string::npos) << r.out;
    const Model m = load_model(out);
    const FrequencyStability f = frequency_stability(m);
    EXPECT_LE(f.damped, kSubstepDampedTarget * 1.01);
    EXPECT_FALSE(f.above_limit());
    r = run_command(kCli + " simulate " + q(out) + " --seconds 0.1");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    // At 1 mg in all not even the shortest substep the file allows is stable: said so.
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --total-mass 0.000001 -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find(": the explicit step of this mesh is unstable even at the shortest substep, 1e-06 s "),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("it will explode;"), std::string::npos) << r.err;
    r = run_command(kCli + " info " + q(out));
    EXPECT_NE(r.out.find("with spring damping, (dt * omega_max)^2 + 2 dt * damping rate = "), std::string::npos);
    EXPECT_NE(r.out.find(" (WARNING: it will explode), at or above 4\n"), std::string::npos) << r.out;
}

TEST(GoldenCheck, RetunedModelFailsTheOldGoldenAndPassesItsOwn) {
    const fs::path a = work_dir() / "cloth-a.json", b = work_dir() / "cloth-b.json";
    const fs::path ga = work_dir() / "cloth-a.golden.json", gb = work_dir() / "cloth-b.golden.json";
    const std::string mesh = q(sample_mesh("cloth.obj"));
    ASSERT_EQ(run_command(kCli + " convert " + mesh + " --shear --bend --anchor top:0.1% -o " + q(a)).exit_code, 0);
    ASSERT_EQ(run_command(kCli + " convert " + mesh + " --shear --bend --anchor top:0.1% --k 400 -o " + q(b)).exit_code, 0);
    for (const auto& [model, golden] : {std::pair{a, ga}, std::pair{b, gb}}) {
        const auto r = run_command(kCli + " golden " + q(model) + " --seconds 2 -o " + q(golden));
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    const auto own = run_command(kCli + " check " + q(b) + " --golden " + q(gb));
    EXPECT_EQ(own.exit_code, 0) << own.err;
    EXPECT_NE(own.out.find("model hash matches"), std::string::npos) << own.out;

    const auto old = run_command(kCli + " check " + q(b) + " --golden " + q(ga));
    EXPECT_EQ(old.exit_code, 1);
    EXPECT_EQ(old.err, "error: " + b.string() + ": does not match " + ga.string() +
                           ": the model changed: parameter k: 1000 -> 400\n");
    EXPECT_NE(old.out.find("\nparameter k: 1000 -> 400\n"), std::string::npos) << old.out;
}

namespace {

/// Records a golden of the sample cloth converted with an anchored top, edits
/// the model with `edit` and checks it against that golden.
test::CommandResult check_edited(const std::string& name, const std::function<void(Model&)>& edit) {
    const fs::path m = work_dir() / (name + ".json"), g = work_dir() / (name + ".golden.json");
    EXPECT_EQ(run_command(kCli + " convert -q " + q(sample_mesh("cloth.obj")) + " --anchor top:0.1% -o " + q(m)).exit_code, 0);
    EXPECT_EQ(run_command(kCli + " golden -q " + q(m) + " --seconds 1 -o " + q(g)).exit_code, 0);
    Model model = load_model(m);
    edit(model);
    save_model(model, m);
    return run_command(kCli + " check " + q(m) + " --golden " + q(g));
}

}  // namespace

// Any edit of the model fails check, named: the structural fingerprint is exact
// (a doubled k moves the cloth by only 3e-5 m in 2 s: positions alone passed it).
TEST(GoldenCheck, AnEditedModelFailsNamingTheEdit) {
    Spring doubled;
    auto r = check_edited("edit-k", [&](Model& m) {
        doubled = m.springs[17];
        m.springs[17].k = 2 * m.params.k;
    });
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find(": the model changed: spring 17 (nodes " + std::to_string(doubled.a) + "-" +
                         std::to_string(doubled.b) + "): k 1000 -> 2000 N/m\n"),
              std::string::npos)
        << r.err;
    r = check_edited("edit-uv", [](Model& m) { m.texcoords[7].u += 0.125f; });
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find(": the model changed: texcoord 7: ("), std::string::npos) << r.err;
    r = check_edited("edit-k1", [](Model& m) { m.params.k *= 1.01f; });
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find(": the model changed: parameter k: 1000 -> 1010"), std::string::npos) << r.err;
    r = check_edited("edit-none", [](Model&) {});
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Results are bit-identical for any thread count: a golden recorded on one
// thread passes on four, and the other way round, to the bit.
TEST(GoldenCheck, AGoldenPassesWithAnotherThreadCount) {
    const fs::path m = work_dir() / "threads.json", g1 = work_dir() / "threads-1.golden.json",
                   g4 = work_dir() / "threads-4.golden.json";
    ASSERT_EQ(run_command(kCli + " new cloth --resolution 24 -o " + q(m)).exit_code, 0);
    ASSERT_EQ(run_command(kCli + " golden " + q(m) + " --seconds 1 --threads 1 -o " + q(g1)).exit_code, 0);
    ASSERT_EQ(run_command(kCli + " golden " + q(m) + " --seconds 1 --threads 4 -o " + q(g4)).exit_code, 0);
    EXPECT_EQ(slurp(g1), slurp(g4));
    const auto r = run_command(kCli + " check " + q(m) + " --golden " + q(g1) + " --threads 4");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(" 0 m (tolerance"), std::string::npos) << r.out;
}

// Beyond the horizon the dynamic measures still decide: a golden whose recorded
// energies or positions are off fails, naming the quantity.
TEST(GoldenCheck, TheMotionIsComparedUpToTheHorizonAndByEnergyAfter) {
    const fs::path m = work_dir() / "motion.json", g = work_dir() / "motion.golden.json",
                   bad = work_dir() / "motion-bad.golden.json";
    ASSERT_EQ(run_command(kCli + " new cloth --resolution 12 -o " + q(m)).exit_code, 0);
    auto r = run_command(kCli + " golden " + q(m) + " --seconds 3 -o " + q(g));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto golden = nlohmann::json::parse(slurp(g));
    const double horizon = golden.at("horizon").get<double>();
    EXPECT_GT(horizon, 0.0);
    EXPECT_LT(horizon, 3.0);  // a swinging cloth is chaotic: the twin run leaves it early
    // The recorded energy at the end raised by half the run's energy: the envelope fails.
    auto& last = golden.at("samples").back();
    double top = 0;
    for (const auto& s : golden.at("samples")) top = std::max(top, s.at("kinetic").get<double>());
    last.at("kinetic") = last.at("kinetic").get<double>() + 0.5 * top;
    springkit::write_file_atomically(bad, golden.dump());
    r = run_command(kCli + " check " + q(m) + " --golden " + q(bad));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find(": energy envelope at t = 3 s is "), std::string::npos) << r.err;
    // A node moved by 1 mm at the horizon's sample: positions fail there.
    golden = nlohmann::json::parse(slurp(g));
    for (auto& s : golden.at("samples"))
        if (std::fabs(s.at("time").get<double>() - horizon) < 1e-6) s.at("positions")[3] = s.at("positions")[3].get<double>() + 1e-3;
    springkit::write_file_atomically(bad, golden.dump());
    r = run_command(kCli + " check " + q(m) + " --golden " + q(bad));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find(": node 1 at t = "), std::string::npos) << r.err;
}

TEST(GoldenCheck, GoldenRecordsTheRequestedTimes) {
    const fs::path m = work_dir() / "string.json", g = work_dir() / "string.golden.json";
    ASSERT_EQ(run_command(kCli + " new string --resolution 5 -o " + q(m)).exit_code, 0);
    ASSERT_EQ(run_command(kCli + " golden " + q(m) + " --seconds 1 --samples 4 -o " + q(g)).exit_code, 0);
    const auto j = nlohmann::json::parse(slurp(g));
    ASSERT_EQ(j.at("samples").size(), 4u);
    EXPECT_EQ(j.at("samples").back().at("frame").get<int>(), 60);
    EXPECT_EQ(j.at("samples").front().at("frame").get<int>(), 15);
    EXPECT_EQ(j.at("samples")[0].at("positions").size(), 15u);
    // Its positions are a Simulation's after those frames.
    const Model model = load_model(m);
    Simulation sim(model);
    for (int f = 0; f < 15; ++f) sim.step(1.0f / 60.0f);
    EXPECT_EQ(j.at("samples")[0].at("positions")[13].get<float>(), sim.positions()[4].y);
}

TEST(GoldenCheck, NodeCountMismatchAndBadGoldenAreErrors) {
    const fs::path m = work_dir() / "s5.json", n = work_dir() / "s6.json", g = work_dir() / "s5.golden.json";
    ASSERT_EQ(run_command(kCli + " new string --resolution 5 -o " + q(m)).exit_code, 0);
    ASSERT_EQ(run_command(kCli + " new string --resolution 6 -o " + q(n)).exit_code, 0);
    ASSERT_EQ(run_command(kCli + " golden " + q(m) + " --seconds 0.5 -o " + q(g)).exit_code, 0);
    auto r = run_command(kCli + " check " + q(n) + " --golden " + q(g));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err.rfind("error: " + n.string() + ": does not match " + g.string() + ": the model changed: nodes: 5 -> 6 (and ", 0), 0u) << r.err;
    r = run_command(kCli + " check " + q(m) + " --golden " + q(m));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "error: " + m.string() + ": not a springkit golden file (no \"format\": \"springkit-golden\")\n");
}

TEST(Diff, ListsParametersAndSpringsThatChanged) {
    const fs::path a = work_dir() / "d-a.json", b = work_dir() / "d-b.json";
    const std::string mesh = q(sample_mesh("cube.obj"));
    // The bare mesh against one with shear springs asked for (--shear alone: no
    // structural springs chosen by the converter besides).
    ASSERT_EQ(run_command(kCli + " convert " + mesh + " --springs edges -o " + q(a)).exit_code, 0);
    ASSERT_EQ(run_command(kCli + " convert " + mesh + " --shear --k 2000 --anchor nodes:3 -o " + q(b)).exit_code, 0);
    auto r = run_command(kCli + " diff " + q(a) + " " + q(b));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("parameter k: 1000 -> 2000"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("springs: 288 -> 384"), std::string::npos) << r.out;  // 96 quads, one more diagonal each
    EXPECT_NE(r.out.find("springs added: 96"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("springs removed"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("anchors added: 1 (nodes 3)"), std::string::npos) << r.out;
    EXPECT_EQ(run_command(kCli + " diff --exit-code " + q(a) + " " + q(b)).exit_code, 1);
    r = run_command(kCli + " diff --exit-code " + q(a) + " " + q(a));
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.out.find("identical models"), std::string::npos) << r.out;
}

// A ground added or removed is one line with the whole ground, not a line per
// field and "(unset) -> null"; a changed ground is a line per changed field.
TEST(Diff, AGroundAddedOrRemovedIsOneLine) {
    const fs::path a = work_dir() / "g-a.json", b = work_dir() / "g-b.json", c = work_dir() / "g-c.json";
    const std::string mesh = q(sample_mesh("cube.obj"));
    ASSERT_EQ(run_command(kCli + " convert " + mesh + " -o " + q(a)).exit_code, 0);
    ASSERT_EQ(run_command(kCli + " convert " + mesh + " --ground -1 -o " + q(b)).exit_code, 0);
    ASSERT_EQ(run_command(kCli + " convert " + mesh + " --ground -2 -o " + q(c)).exit_code, 0);
    const std::string ground = R"({"absorption":2,"friction":0.2,"height":-1,"repulsion":100})";
    auto r = run_command(kCli + " diff " + q(a) + " " + q(b));
    EXPECT_EQ(r.out, "--- " + a.string() + "\n+++ " + b.string() + "\nparameter ground: null -> " + ground + "\n");
    r = run_command(kCli + " diff " + q(b) + " " + q(a));
    EXPECT_EQ(r.out, "--- " + b.string() + "\n+++ " + a.string() + "\nparameter ground: " + ground + " -> null\n");
    r = run_command(kCli + " diff " + q(b) + " " + q(c));
    EXPECT_EQ(r.out, "--- " + b.string() + "\n+++ " + c.string() + "\nparameter ground/height: -1 -> -2\n");
}

// diff names what changed: the spring by index and node pair, the texcoord, the
// face; a global change is one line, not one per spring.
TEST(Diff, NamesTheSpringTexcoordAndFaceThatChanged) {
    const fs::path a = work_dir() / "n-a.json", b = work_dir() / "n-b.json";
    ASSERT_EQ(run_command(kCli + " convert " + q(sample_mesh("cloth.obj")) + " -o " + q(a)).exit_code, 0);
    Model m = load_model(a);
    const Spring s = m.springs[17];
    m.springs[17].k = 2 * m.params.k;
    m.texcoords[7].v += 0.25f;
    std::swap(m.faces[3].node[0], m.faces[3].node[1]);
    save_model(m, b);
    const auto r = run_command(kCli + " diff " + q(a) + " " + q(b));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string pair = std::to_string(s.a) + "-" + std::to_string(s.b);
    EXPECT_NE(r.out.find("\nspring 17 (nodes " + pair + "): k 1000 -> 2000 N/m\n"), std::string::npos) << r.out;
    char uv[160];
    std::snprintf(uv, sizeof uv, "\ntexcoord 7: (%.6g, %.6g) -> (%.6g, %.6g)\n", m.texcoords[7].u,
                  m.texcoords[7].v - 0.25f, m.texcoords[7].u, m.texcoords[7].v);
    EXPECT_NE(r.out.find(uv), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nface 3: nodes "), std::string::npos) << r.out;
    EXPECT_EQ(line_count(r.out), 5) << r.out;  // the two file names and the three changes
}

TEST(Diff, AGlobalChangeIsOneLine) {
    const fs::path a = work_dir() / "g-a.json", b = work_dir() / "g-b.json", c = work_dir() / "g-c.json";
    const std::string mesh = q(sample_mesh("cloth.obj"));
    // The bare mesh's 800 edge springs (volume springs, chosen by distance, may
    // pair other nodes in a rescaled copy where two are equally near).
    ASSERT_EQ(run_command(kCli + " convert " + mesh + " --springs edges -o " + q(a)).exit_code, 0);
    ASSERT_EQ(run_command(kCli + " convert " + mesh + " --springs edges --k 1010 -o " + q(b)).exit_code, 0);
    auto r = run_command(kCli + " diff " + q(a) + " " + q(b));
    EXPECT_EQ(r.out, "--- " + a.string() + "\n+++ " + b.string() + "\nparameter k: 1000 -> 1010\n");
    // Every spring with its own k, all changed alike: one line for the 800.
    ASSERT_EQ(run_command(kCli + " convert " + mesh + " --springs edges --scale 3 -o " + q(c)).exit_code, 0);
    r = run_command(kCli + " diff " + q(a) + " " + q(c));
    EXPECT_NE(r.out.find("\nnodes: all 289 scaled by 3 about the origin\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nrest length of all 800 springs: scaled by 3 (spring 0 (nodes 0-1): "), std::string::npos)
        << r.out;
    EXPECT_EQ(line_count(r.out), 4) << r.out;
}

// The same shape with its nodes renumbered is recognised as such.
TEST(Diff, RenumberedNodesAreRecognised) {
    const fs::path a = work_dir() / "r-a.json", b = work_dir() / "r-b.json";
    ASSERT_EQ(run_command(kCli + " convert " + q(sample_mesh("uv_sphere.obj")) + " --keep-order -o " + q(a)).exit_code,
              0);
    Model m = load_model(a);
    ASSERT_FALSE(m.volume_elements.empty()) << "a closed mesh gets volume elements by default";
    std::vector<std::uint32_t> reversed(m.node_count());
    for (std::size_t i = 0; i < reversed.size(); ++i) reversed[i] = static_cast<std::uint32_t>(reversed.size() - 1 - i);
    renumber_nodes(m, reversed);
    save_model(m, b);
    auto r = run_command(kCli + " diff " + q(a) + " " + q(b));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\nnodes: the same 146 positions in another order ("), std::string::npos) << r.out;
    // Nothing else: springs, faces and volume elements all follow the renumbering.
    EXPECT_EQ(line_count(r.out), 3) << r.out;
    // A real change on top of the renumbering is still named.
    m.params.mass = 0.5f;
    save_model(m, b);
    r = run_command(kCli + " diff " + q(a) + " " + q(b));
    EXPECT_NE(r.out.find("\nparameter mass: "), std::string::npos) << r.out;
}

// A volume element with two corners swapped (its handedness turned) is named
// with its corners before and after.
TEST(Diff, AChangedVolumeElementIsNamed) {
    const fs::path a = work_dir() / "ve-a.json", b = work_dir() / "ve-b.json";
    ASSERT_EQ(run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " -o " + q(a)).exit_code, 0);
    Model m = load_model(a);
    ASSERT_GT(m.volume_elements.size(), 3u);
    VolumeElement& e = m.volume_elements[2];
    const VolumeElement before = e;
    std::swap(e.node[1], e.node[2]);
    e.rest = -e.rest;
    save_model(m, b);
    const auto r = run_command(kCli + " diff " + q(a) + " " + q(b));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto n = [](std::uint32_t x) { return std::to_string(x); };
    EXPECT_NE(r.out.find("\nvolume element 2: nodes " + n(before.node[0]) + " " + n(before.node[1]) + " " +
                         n(before.node[2]) + " " + n(before.node[3]) + " (rest "),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(" -> " + n(before.node[0]) + " " + n(before.node[2]) + " " + n(before.node[1]) + " " +
                         n(before.node[3]) + " (rest " + (e.rest < 0.0f ? "-" : "")),
              std::string::npos)
        << r.out;
    EXPECT_EQ(line_count(r.out), 3) << r.out;
}

TEST(SampleMeshes, CommittedMeshesAreWhatTheScriptWrites) {
    const fs::path out = work_dir() / "meshes";
    fs::remove_all(out);
    const fs::path script = sample_mesh("make_meshes.py");
    const auto r = run_command("/usr/bin/python3 " + q(script) + " " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::size_t files = 0;
    for (const auto& e : fs::directory_iterator(out)) {
        ++files;
        EXPECT_TRUE(slurp(e.path()) == slurp(sample_mesh(e.path().filename().string())))
            << "samples/meshes/" << e.path().filename().string()
            << " differs from what make_meshes.py writes; run it and commit";
    }
    EXPECT_EQ(files, 9u);  // 5 meshes, 2 materials, 2 textures
}

TEST(SampleMeshes, ConvertedModelsAreUpToDate) {
    const fs::path out = work_dir() / "converted";
    fs::remove_all(out);
    const auto r = run_command("/bin/bash " + q(sample_mesh("convert_models.sh")) + " " + kCli + " " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const fs::path committed = fs::path(SPRINGKIT_SOURCE_DIR) / "samples/models";
    std::size_t models = 0;
    for (const auto& e : fs::directory_iterator(out)) {
        ++models;
        Model fresh = load_model(e.path());
        Model kept = load_model(committed / e.path().filename());
        // Texture paths are relative to each model file, so they differ by folder.
        EXPECT_EQ(kept.texture.empty(), fresh.texture.empty());
        if (!kept.texture.empty()) {
            EXPECT_TRUE(fs::exists(committed / kept.texture)) << kept.texture;
            EXPECT_EQ(fs::weakly_canonical(committed / kept.texture), fs::weakly_canonical(out / fresh.texture));
        }
        fresh.texture = kept.texture = "";
        EXPECT_TRUE(fresh == kept) << "samples/models/" << e.path().filename().string()
                                   << " is stale; run samples/meshes/convert_models.sh build/converter/springkit";
    }
    EXPECT_EQ(models, 6u);
}

TEST(ConvertCli, ScatteredMeshesAreRenumberedUnlessKeepOrderIsGiven) {
    // A 30 x 30 grid whose triangles come in random order: the weld numbers the
    // nodes as the faces first use them, so springs join nodes far apart.
    const int n = 30;
    std::vector<std::string> faces;
    for (int r = 0; r + 1 < n; ++r)
        for (int c = 0; c + 1 < n; ++c) {
            const int a = r * n + c + 1, b = a + 1, d = a + n, e = d + 1;
            faces.push_back("f " + std::to_string(a) + " " + std::to_string(d) + " " + std::to_string(b) + "\n");
            faces.push_back("f " + std::to_string(b) + " " + std::to_string(d) + " " + std::to_string(e) + "\n");
        }
    std::shuffle(faces.begin(), faces.end(), std::mt19937(5));
    const fs::path obj = work_dir() / "scattered-grid.obj";
    {
        std::ofstream out(obj);
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c) out << "v " << c * 0.1 << " 0 " << r * 0.1 << "\n";
        for (const std::string& f : faces) out << f;
    }
    auto mean_distance = [](const Model& m) {
        double sum = 0.0;
        for (const Spring& s : m.springs) sum += std::max(s.a, s.b) - std::min(s.a, s.b);
        return sum / static_cast<double>(m.springs.size());
    };
    const fs::path kept = work_dir() / "scattered-kept.json", renumbered = work_dir() / "scattered-renumbered.json";
    ASSERT_EQ(run_command(kCli + " convert " + q(obj) + " --springs edges --keep-order -o " + q(kept)).exit_code, 0);
    ASSERT_EQ(run_command(kCli + " convert " + q(obj) + " --springs edges -o " + q(renumbered)).exit_code, 0);
    const Model a = load_model(kept), b = load_model(renumbered);
    ASSERT_EQ(a.node_count(), 900u);
    ASSERT_EQ(b.springs.size(), a.springs.size());
    EXPECT_GT(mean_distance(a), 4.0 * std::sqrt(900.0) + 16.0);  // scattered, as written
    EXPECT_LT(mean_distance(b), 45.0);                          // within about a row and a half
    // The same mesh: the same set of positions, the same spring lengths.
    auto sorted_positions = [](const Model& m) {
        std::vector<std::array<float, 3>> p;
        for (const Vec3& v : m.positions) p.push_back({v.x, v.y, v.z});
        std::sort(p.begin(), p.end());
        return p;
    };
    EXPECT_EQ(sorted_positions(a), sorted_positions(b));
    double rest_a = 0.0, rest_b = 0.0;
    for (const Spring& s : a.springs) rest_a += s.rest;
    for (const Spring& s : b.springs) rest_b += s.rest;
    EXPECT_NEAR(rest_a, rest_b, 1e-3);
}

// Every row of the parameter table with an option: listed by convert and new,
// refused just outside its range as a usage error naming the option, and set
// in the written model (where the table and the options could disagree).
TEST(ParameterOptions, ConvertAndNewListEveryRowsOption) {
    for (const char* verb : {"convert", "new"}) {
        const auto r = run_command(kCli + " " + verb + " --help");
        EXPECT_EQ(r.exit_code, 0);
        for (const springkit::ParameterInfo& row : springkit::parameter_table()) {
            if (row.cli_option.empty()) continue;
            std::string option(row.cli_option);  // " --k " (built in steps: GCC 12 warns on " " + s + " ")
            option.insert(option.begin(), ' ');
            option.push_back(' ');
            EXPECT_NE(r.out.find(option), std::string::npos) << verb << option;
            EXPECT_NE(r.out.find(row.range_text()), std::string::npos) << verb << " " << row.cli_option;
        }
    }
}

TEST(ParameterOptions, ValuesJustOutsideARowsRangeAreUsageErrors) {
    const fs::path out = work_dir() / "outside.json";
    int refused = 0;
    for (const springkit::ParameterInfo& row : springkit::parameter_table()) {
        if (row.cli_option.empty()) continue;
        for (const std::string& text : springkit::test::outside_texts(row)) {
            const std::string option = std::string(row.cli_option) + "=" + text;
            for (const std::string& command : {kCli + " convert " + q(sample_mesh("cube.obj")) + " --ground=0 " + option,
                                               kCli + " new cloth --ground=0 " + option}) {
                const auto r = run_command(command + " -o " + q(out));
                EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.err;
                EXPECT_EQ(r.err.rfind("error: " + std::string(row.cli_option) + ": " + std::string(row.label) + " must be ", 0), 0u)
                    << r.err;
                EXPECT_EQ(line_count(r.err), 1) << r.err;
                ++refused;
            }
        }
    }
    EXPECT_FALSE(fs::exists(out));
    EXPECT_GE(refused, 28);
}

TEST(ParameterOptions, EveryOptionSetsItsParameterInTheWrittenModel) {
    std::string args;
    // convert's model: the table's defaults with the converter's spring damping.
    springkit::Parameters convert_base;
    convert_base.spring_damping = 0.02f;
    const springkit::Parameters expected = springkit::test::parameters_from_options(convert_base, args);
    ASSERT_TRUE(expected.ground.has_value());
    for (const char* extension : {".json", ".skb"}) {
        const fs::path out = work_dir() / (std::string("every-option") + extension);
        const auto r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + args + " -o " + q(out));
        ASSERT_EQ(r.exit_code, 0) << args << "\n" << r.err;
        EXPECT_EQ(springkit::load_model(out).params, expected) << extension;
    }
    // A jelly: its faces close a volume, as --pressure needs.
    const fs::path out = work_dir() / "every-option-new.json";
    const auto r = run_command(kCli + " new jelly --resolution 3" + args + " -o " + q(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string unused;
    EXPECT_EQ(springkit::load_model(out).params, springkit::test::parameters_from_options({}, unused));
}

TEST(ParameterOptions, GroundConstantsNeedAGround) {
    const fs::path out = work_dir() / "no-ground.json";
    const auto r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --ground-friction 1 -o " + q(out));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "error: --ground-friction: the model has no ground; add one with --ground HEIGHT\n");
    EXPECT_FALSE(fs::exists(out));
    // Tunca's rope has its own ground: its constants can be changed without --ground.
    const auto rope = run_command(kCli + " new rope --ground-friction 0.5 -o " + q(out));
    ASSERT_EQ(rope.exit_code, 0) << rope.err;
    EXPECT_EQ(springkit::load_model(out).params.ground->friction, 0.5f);
    // --ground-depth sets the repulsion of --ground bottom alone; without it, it would do nothing.
    for (const std::string ground : {"", " --ground -1"}) {
        const auto depth = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + ground +
                                       " --ground-depth 0.1 -o " + q(out));
        EXPECT_EQ(depth.exit_code, 2) << ground;
        EXPECT_EQ(depth.err, "error: --ground-depth needs --ground bottom (a ground at a given height takes "
                             "--ground-repulsion)\n");
    }
    const fs::path bottom = work_dir() / "ground-depth.json";
    EXPECT_EQ(run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " --ground bottom --ground-depth 0.1 -o " +
                          q(bottom)).exit_code,
              0);
}

// `-o` naming the input mesh would replace the artist's source with a model.
// A model is written as .json or .skb, as its name says: another extension
// (which used to get JSON without a word) is a usage error before any mesh is
// read (the input does not even exist), naming the option and what it takes.
TEST(Convert, AnOutputNamedForNoModelFormIsAUsageErrorBeforeAnyImport) {
    const fs::path dir = work_dir() / "extensions";
    fs::create_directories(dir);
    auto r = run_command(kCli + " convert /nonexistent/mesh.obj -o " + q(dir / "x.txt"));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "error: --output " + (dir / "x.txt").string() +
                         ": a model is written as .json or .skb (the binary form), chosen by the extension; not .txt\n");
    r = run_command(kCli + " convert /nonexistent/mesh.obj -o " + q(dir / "model"));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "error: --output " + (dir / "model").string() +
                         ": a model is written as .json or .skb (the binary form), chosen by the extension; this "
                         "name has none\n");
    r = run_command(kCli + " convert /nonexistent/a.obj /nonexistent/b.obj --extension txt -o " + q(dir / "out/"));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "error: --extension txt: a model is written as .json or .skb (the binary form), chosen by the "
                     "extension; not .txt\n");
    EXPECT_FALSE(fs::exists(dir / "x.txt"));
    EXPECT_FALSE(fs::exists(dir / "out"));
    // The forms it writes, with or without the dot, and a device written through.
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " " + q(sample_mesh("uv_sphere.obj")) +
                    " --extension skb -o " + q(dir / "out/"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NO_THROW(load_model(dir / "out/cube.skb"));
    r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " -o /dev/null");
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Assimp's pond.0.ply is cut short: Assimp reads garbage floats for most of its
// vertices. The error names the first one and calls the file corrupt rather than
// asking for a --scale that could not help.
TEST(Convert, ATruncatedFileIsCalledCorruptNamingAVertex) {
    const fs::path pond = "/usr/share/assimp/models/PLY/pond.0.ply";
    if (!fs::exists(pond)) GTEST_SKIP() << "assimp-testmodels is not installed (scripts/setup installs it)";
    const auto r = run_command(kCli + " convert " + q(pond) + " -o " + q(work_dir() / "pond.json"));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("error: " + pond.string() + ": vertex 612 (counted from 0 as read, each position once) is at (-9.65e-27, "
                          "-1.38e+19, -3.24e-19), beyond +-1e+09 m, ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(": the file looks corrupt or truncated\n"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("--scale"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(work_dir() / "pond.json"));
}

TEST(Convert, RefusesToWriteOverItsOwnInput) {
    const fs::path mesh = work_dir() / "own-input.obj";
    fs::copy_file(sample_mesh("cube.obj"), mesh, fs::copy_options::overwrite_existing);
    const std::string before = springkit::read_file(mesh);
    // Named as a mesh, it is no model file's name (a usage error); a link named
    // as a model file that leads to the mesh is the mesh all the same.
    EXPECT_EQ(run_command(kCli + " convert " + q(mesh) + " -o " + q(mesh)).exit_code, 2);
    const fs::path link = work_dir() / "own-input.json";
    fs::remove(link);
    fs::create_symlink(mesh, link);
    const auto r = run_command(kCli + " convert " + q(mesh) + " -o " + q(link));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(line_count(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("is the input mesh itself"), std::string::npos) << r.err;
    EXPECT_EQ(springkit::read_file(mesh), before);
}

// An output that cannot be written is refused before any mesh is imported.
TEST(Convert, RefusesAnUnwritableOutputBeforeImporting) {
    const fs::path target = work_dir() / "refused-target";
    fs::create_directories(target / "cube.json");  // a folder where the model would go
    const auto r = run_command(kCli + " convert " + q(sample_mesh("cube.obj")) + " " + q(sample_mesh("uv_sphere.obj")) +
                               " -o " + q(target));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("directory"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(target / "uv_sphere.json")) << "nothing converted before the refusal";
}

// Scene files naming mesh files: read through springkit::import.
TEST(ConverterCli, SimulateWithASceneNamingAnObjRestsTheClothOnTheMesh) {
    // A scene naming a mesh file (an OBJ floor, 4 m square, at y = 0.3 in its
    // own frame) beside it, placed 0.2 m up: its top is at y = 0.5. The file is
    // found relative to the scene, whatever the working folder.
    Model cloth = make_cloth({.columns = 6, .rows = 6, .anchors = ClothAnchors::none});
    for (Vec3& p : cloth.positions) p.y += 1.0f;
    cloth.params.node_radius = 0.02f;
    cloth.params.ground.reset();
    const fs::path folder = work_dir() / "obj-scene";
    fs::create_directories(folder / "meshes");
    const fs::path in = work_dir() / "obj-scene-cloth.json", out = work_dir() / "obj-scene-settled.json";
    save_model(cloth, in);
    std::ofstream(folder / "meshes" / "floor.obj") << "v -2 0.3 -2\nv 2 0.3 -2\nv 2 0.3 2\nv -2 0.3 2\nf 1 3 2\nf 1 4 3\n";
    const fs::path scene = folder / "floor.scene.json";
    std::ofstream(scene) << R"({"format": "springkit-scene", "version": 1, "colliders": [{"kind": "triangle_mesh",
        "name": "floor", "file": "meshes/floor.obj", "pose": {"position": [0, 0.2, 0], "rotation": [1, 0, 0, 0]}}]})";
    const auto r = run_command(kCli + " simulate " + in.string() + " --seconds 4 --scene " + scene.string() + " -o " +
                               out.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("1 collider from " + scene.string() + ", 36 contacts in the last frame"), std::string::npos)
        << r.out;
    const Model settled = load_model(out);
    ASSERT_EQ(settled.node_count(), 36u);
    for (const Vec3& p : settled.positions) EXPECT_NEAR(p.y, 0.5f + 0.02f, 1e-3f);
}

TEST(ConverterCli, BadMeshFileOfASceneGivesOneLineNamingSceneFieldAndMesh) {
    const fs::path model = work_dir() / "mesh-scene-model.json";
    ASSERT_EQ(run_command(kCli + " new string --resolution 4 -o " + model.string()).exit_code, 0);
    const fs::path folder = work_dir() / "mesh-scene";
    fs::create_directories(folder);
    const fs::path scene = folder / "level.scene.json";
    std::ofstream(scene) << R"({"format": "springkit-scene", "version": 1, "colliders": [{"kind": "triangle_mesh",
        "name": "stairs", "file": "stairs.obj", "pose": {"position": [0, 0, 0], "rotation": [1, 0, 0, 0]}}]})";
    const fs::path obj = folder / "stairs.obj";
    const std::string at = "error: " + scene.string() + ": /colliders/0/file: mesh file " + obj.string();
    auto simulate = [&] { return run_command(kCli + " simulate " + model.string() + " --seconds 1 --scene " + scene.string()); };
    fs::remove(obj);
    auto r = simulate();
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, at + " does not exist (collider \"stairs\")\n");
    // Points but no faces: nothing to collide with.
    std::ofstream(obj) << "v 0 0 0\nv 1 0 0\nv 0 0 1\n";
    r = simulate();
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, at + ": the mesh has no faces to collide with (collider \"stairs\")\n");
    // Not a mesh at all.
    std::ofstream(obj) << "\x01\x02 this is no mesh\n";
    r = simulate();
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err.rfind(at + ": ", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
}
