// Scene files: exact round trips of every collider kind, the file reaching the
// simulation, and one specific error per kind of bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>

#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
namespace fs = std::filesystem;
using springkit::test::error_of;

namespace {

std::string scene_error(const std::string& text) {
    return error_of([&] { scene_from_json(text, "bad.scene.json"); });
}

// One collider of every kind, with poses, names and surfaces that are not the defaults.
ColliderSet every_kind() {
    ColliderSet set;
    Collider floor = plane_collider({0.0f, 1.0f, 0.1f}, -0.25f);
    floor.name = "floor";
    set.add(floor);
    Collider ball = sphere_collider(0.3f);
    ball.name = "ball";
    ball.pose = {{0.1f, 0.7f, -0.2f}, quat_from_axis_angle({1.0f, 2.0f, 3.0f}, 0.7f)};
    ball.restitution = 0.35f;
    set.add(ball);
    Collider pole = capsule_collider(0.8f, 0.05f);
    pole.static_friction = 0.9f;
    pole.dynamic_friction = 0.6f;
    set.add(pole);
    Collider step = box_collider({1.0f, 0.1f, 0.4f});
    step.name = "stair \"one\"";
    step.pose.position = {0.0f, -1.0f, 2.0f};
    set.add(step);
    const Vec3 tetrahedron[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1.1f}};
    Collider rock = convex_hull_collider(tetrahedron);
    rock.name = "rock";
    set.add(rock);
    Collider ground = mesh_collider(make_triangle_mesh({{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0.3f, 1}},
                                                       {{{0, 2, 1}}, {{0, 3, 2}}}));
    ground.name = "ground";
    set.add(ground);
    return set;
}

void expect_same(const ColliderSet& a, const ColliderSet& b) {
    ASSERT_EQ(a.size(), b.size());
    for (ColliderId i = 0; i < a.size(); ++i) {
        SCOPED_TRACE(i);
        const Collider& x = a[i];
        const Collider& y = b[i];
        EXPECT_EQ(x.shape, y.shape);
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.radius, y.radius);
        EXPECT_EQ(x.half_height, y.half_height);
        EXPECT_EQ(x.half_extents, y.half_extents);
        EXPECT_EQ(x.points, y.points);
        EXPECT_EQ(x.planes, y.planes);
        EXPECT_EQ(x.pose, y.pose);
        EXPECT_EQ(x.static_friction, y.static_friction);
        EXPECT_EQ(x.dynamic_friction, y.dynamic_friction);
        EXPECT_EQ(x.restitution, y.restitution);
        EXPECT_EQ(x.mesh == nullptr, y.mesh == nullptr);
        if (x.mesh && y.mesh) {
            EXPECT_EQ(triangle_count(*x.mesh), triangle_count(*y.mesh));
        }
    }
    // The text holds every vertex and index (the shortest exact text of each
    // float: equal texts, equal bits).
    EXPECT_EQ(scene_to_json(a), scene_to_json(b));
}

// A valid scene with one collider whose JSON is `collider`.
std::string with_collider(const std::string& collider) {
    return R"({"format": "springkit-scene", "version": 1, "colliders": [)" + collider + "]}";
}
const std::string kPose = R"("pose": {"position": [0, 0, 0], "rotation": [1, 0, 0, 0]})";

}  // namespace

TEST(SceneFile, SaveThenLoadGivesTheIdenticalScene) {
    const ColliderSet original = every_kind();
    const fs::path file = springkit::test::scratch_dir("test-scene") / "world.scene.json";
    save_scene(original, file);
    const ColliderSet back = load_scene(file);
    expect_same(original, back);
    // The mesh came back as a mesh: a point 0.5 m above its flat triangle is 0.5 m away.
    EXPECT_NEAR(distance(back[5], {0.9f, 0.5f, 0.2f}).distance, 0.5f, 1e-6f);
    // An empty scene round-trips too.
    expect_same(ColliderSet{}, scene_from_json(scene_to_json(ColliderSet{})));
}

TEST(SceneFile, HandWrittenSceneKeepsItsValuesAndDefaults) {
    const ColliderSet set = scene_from_json(with_collider(
        R"({"kind": "sphere", "name": "paddle", "radius": 0.25,
            "pose": {"position": [1, 2, 3], "rotation": [0, 0, 1, 0]}})"));
    ASSERT_EQ(set.size(), 1u);
    EXPECT_EQ(set[0].shape, ColliderShape::sphere);
    EXPECT_EQ(set[0].name, "paddle");
    EXPECT_EQ(set[0].radius, 0.25f);
    EXPECT_EQ(set[0].pose.position, (Vec3{1, 2, 3}));
    EXPECT_EQ(set[0].pose.rotation, (Quat{0, 0, 1, 0}));
    EXPECT_EQ(set[0].static_friction, Collider{}.static_friction);
    EXPECT_EQ(set[0].dynamic_friction, Collider{}.dynamic_friction);
    EXPECT_EQ(set[0].restitution, 0.0f);
    // At (1, 2, 3.5) the point is 0.5 m from the centre: 0.25 m outside.
    EXPECT_FLOAT_EQ(distance(set[0], {1, 2, 3.5f}).distance, 0.25f);
}

TEST(SceneFile, ClothFromTheSceneRestsOnTheBoxAtItsTopPlusNodeRadius) {
    // A box whose top is at y = 0.5, from a file; a cloth falls onto it and
    // settles with its nodes node_radius above the top.
    const ColliderSet scene = scene_from_json(with_collider(
        R"({"kind": "box", "name": "table", "half_extents": [2, 0.25, 2],
            "pose": {"position": [0, 0.25, 0], "rotation": [1, 0, 0, 0]},
            "friction": {"static": 0.8, "dynamic": 0.6}})"));
    Model cloth = make_cloth({.columns = 6, .rows = 6, .anchors = ClothAnchors::none});
    for (Vec3& p : cloth.positions) p.y += 1.0f;
    cloth.params.node_radius = 0.02f;
    cloth.params.ground.reset();
    Simulation sim(cloth);
    sim.set_colliders(std::make_shared<const ColliderSet>(scene));
    for (int f = 0; f < 240; ++f) sim.step(1.0f / 60.0f);
    for (const Vec3& p : sim.positions()) EXPECT_NEAR(p.y, 0.5f + 0.02f, 1e-3f);
}

TEST(SceneFile, BadScenesGetOneSpecificError) {
    struct Case {
        std::string text, message;
    };
    const Case cases[] = {
        {"[1]", "bad.scene.json: /: expected a JSON object (a springkit scene)"},
        {R"({"format": "springkit", "version": 1, "colliders": []})",
         "bad.scene.json: /format: not a springkit scene (\"format\" must be \"springkit-scene\")"},
        {R"({"format": "springkit-scene", "version": 2, "colliders": []})",
         "bad.scene.json: /version: scene format version 2 is newer than this springkit reads (1); update springkit"},
        {R"({"format": "springkit-scene", "version": 0, "colliders": []})",
         "bad.scene.json: /version: invalid scene format version 0"},
        {R"({"format": "springkit-scene", "version": 1})", "bad.scene.json: /: missing field \"colliders\""},
        {with_collider(R"({"kind": "cone", )" + kPose + "}"),
         "bad.scene.json: /colliders/0/kind: unknown collider kind \"cone\" (expected plane, sphere, capsule, box, "
         "convex_hull or triangle_mesh)"},
        {with_collider(R"({"kind": "sphere", "name": "paddle", "radius": 0, )" + kPose + "}"),
         "bad.scene.json: /colliders/0 (\"paddle\"): radius must be a finite number > 0 (got 0)"},
        {with_collider(R"({"kind": "sphere", "name": "paddle", "radius": null, )" + kPose + "}"),
         "bad.scene.json: /colliders/0/radius: expected a number, found null (NaN and infinity are not allowed) "
         "(collider \"paddle\")"},
        {with_collider(R"({"kind": "capsule", "radius": 0.1, )" + kPose + "}"),
         "bad.scene.json: /colliders/0: missing field \"half_height\""},
        {with_collider(R"({"kind": "box", "half_extents": [1, -1, 1], )" + kPose + "}"),
         "bad.scene.json: /colliders/0: half_extents y must be a finite number > 0 (got -1)"},
        {with_collider(R"({"kind": "box", "half_extents": [1, 1e39, 1], )" + kPose + "}"),
         "bad.scene.json: /colliders/0/half_extents/1: number 1e+39 is too large for a 32-bit float"},
        {with_collider(R"({"kind": "sphere", "radius": 1, "pose": {"position": [0, 0, 0], "rotation": [1, 1, 0, 0]}})"),
         "bad.scene.json: /colliders/0/pose/rotation: expected a unit quaternion [w, x, y, z] (its length is "
         "1.414214)"},
        {with_collider(R"({"kind": "sphere", "radius": 1, "pose": {"position": [0, 0], "rotation": [1, 0, 0, 0]}})"),
         "bad.scene.json: /colliders/0/pose/position: expected 3 numbers, found 2"},
        {with_collider(R"({"kind": "convex_hull", "name": "rock", "points": [], )" + kPose + "}"),
         "bad.scene.json: /colliders/0 (\"rock\"): a hull needs at least 4 points (got 0)"},
        {with_collider(R"({"kind": "convex_hull", "points": [[0,0,0],[1,0,0],[0,1,0],[1,1,0]], )" + kPose + "}"),
         "bad.scene.json: /colliders/0: the points are flat: the hull has no volume"},
        {with_collider(R"({"kind": "triangle_mesh", "vertices": [0,0,0, 1,0,0, 0,0,1], "triangles": [0, 1, 3], )" +
                       kPose + "}"),
         "bad.scene.json: /colliders/0/triangles/2: expected a vertex index below 3, found 3"},
        {with_collider(R"({"kind": "triangle_mesh", "vertices": [0,0,0, 1,0], "triangles": [], )" + kPose + "}"),
         "bad.scene.json: /colliders/0/vertices: length 5 is not a multiple of 3"},
        {with_collider(R"({"kind": "sphere", "radius": 1, "restitution": 1.5, )" + kPose + "}"),
         "bad.scene.json: /colliders/0: restitution must be in [0, 1] (got 1.5)"},
        {with_collider(R"({"kind": "sphere", "radius": 1, "friction": {"static": 0.2, "dynamic": 0.3}, )" + kPose + "}"),
         "bad.scene.json: /colliders/0: dynamic_friction must be in [0, 0.2] (got 0.3)"},
        {R"({"format": "springkit-scene", "version": 1, "colliders": [)", "bad.scene.json: line 1, column 59: invalid JSON:"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.text);
        const std::string message = scene_error(c.text);
        EXPECT_EQ(message.substr(0, c.message.size()), c.message);
        EXPECT_EQ(message.find('\n'), std::string::npos);
    }
}

TEST(SceneFile, TooManyHullPointsAreRefusedBeforeTheHullIsBuilt) {
    std::string points;
    for (std::size_t i = 0; i <= kMaxHullPoints; ++i) points += (i ? ", [" : "[") + std::to_string(i) + ", 0, 0]";
    EXPECT_EQ(scene_error(with_collider(R"({"kind": "convex_hull", "points": [)" + points + "], " + kPose + "}")),
              "bad.scene.json: /colliders/0/points: 65 points are more than a hull takes (64)");
}

TEST(SceneFile, OnlyRegularFilesAreRead) {
    const fs::path dir = springkit::test::scratch_dir("test-scene");
    EXPECT_EQ(error_of([&] { load_scene(dir); }),
              dir.string() + ": not a regular file (a scene file is read whole)");
    const fs::path fifo = dir / "scene.fifo";
    fs::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(error_of([&] { load_scene(fifo); }),
              fifo.string() + ": not a regular file (a scene file is read whole)");
    EXPECT_NE(error_of([&] { load_scene(dir / "missing.json"); }).find("missing.json: cannot open for reading"),
              std::string::npos);
    const fs::path zeros = springkit::test::scratch_file("test-scene", "zeros.json", std::string(100, '\0'));
    EXPECT_EQ(error_of([&] { load_scene(zeros); }),
              zeros.string() + ": not a springkit scene (a scene file is a JSON object)");
}

TEST(SceneFile, SampleScenesLoadAndWriteBackByteForByte) {
    const fs::path dir = fs::path(SPRINGKIT_SOURCE_DIR) / "samples/scenes";
    const ColliderSet playground = load_scene(dir / "playground.scene.json");
    ASSERT_EQ(playground.size(), 6u);
    for (ColliderId i = 0; i < playground.size(); ++i)
        EXPECT_EQ(playground[i].shape, static_cast<ColliderShape>(i)) << "one collider of every kind, in order";
    EXPECT_EQ(scene_to_json(playground), read_file(dir / "playground.scene.json"));
    const ColliderSet table = load_scene(dir / "table.scene.json");
    ASSERT_EQ(table.size(), 1u);
    EXPECT_EQ(table[0].name, "table");
    // The table's top is at y = 0.5.
    EXPECT_FLOAT_EQ(distance(table[0], {0.3f, 0.75f, -0.4f}).distance, 0.25f);
    EXPECT_EQ(scene_to_json(table), read_file(dir / "table.scene.json"));
}

namespace {

// A loader standing in for springkit::import: one triangle at y = 0 for any
// file, and the paths it was asked for.
struct FakeMeshes {
    std::vector<fs::path> asked;
    SceneMeshLoader loader() {
        return [this](const fs::path& path) {
            asked.push_back(path);
            return make_triangle_mesh({{-1, 0, -1}, {1, 0, -1}, {0, 0, 1}}, {{{0, 1, 2}}});
        };
    }
};

std::string mesh_file_scene(const std::string& file_field) {
    return with_collider(R"({"kind": "triangle_mesh", "name": "floor", )" + file_field + ", " + kPose + "}");
}

}  // namespace

TEST(SceneFile, AMeshFileIsReadRelativeToTheSceneAndWrittenBackAsTheFile) {
    springkit::test::TempDir dir;
    fs::create_directories(dir.path() / "levels");
    std::ofstream(dir.path() / "levels" / "floor.obj") << "# read by the loader\n";
    const fs::path scene_file = dir.path() / "levels" / "level.scene.json";
    std::ofstream(scene_file) << mesh_file_scene(R"("file": "floor.obj")");
    FakeMeshes meshes;
    const ColliderSet scene = load_scene(scene_file, meshes.loader());
    const fs::path obj = (dir.path() / "levels" / "floor.obj").lexically_normal();
    ASSERT_EQ(meshes.asked, std::vector<fs::path>{obj}) << "relative to the scene file's folder";
    ASSERT_EQ(scene.size(), 1u);
    EXPECT_EQ(scene[0].mesh_file, obj);
    EXPECT_EQ(triangle_count(*scene[0].mesh), 1u);
    EXPECT_EQ(distance(scene[0], {0.0f, 0.5f, 0.0f}).distance, 0.5f);

    // Written elsewhere it names the same file from there, not its triangles.
    const fs::path beside = dir.path() / "levels" / "copy.scene.json", above = dir.path() / "top.scene.json";
    save_scene(scene, beside);
    save_scene(scene, above);
    EXPECT_NE(read_file(beside).find("\"file\": \"floor.obj\""), std::string::npos) << read_file(beside);
    EXPECT_NE(read_file(above).find("\"file\": \"levels/floor.obj\""), std::string::npos) << read_file(above);
    EXPECT_EQ(read_file(above).find("vertices"), std::string::npos);
    meshes.asked.clear();
    load_scene(above, meshes.loader());
    EXPECT_EQ(meshes.asked, std::vector<fs::path>{obj});
}

TEST(SceneFile, BadMeshFilesGetOneErrorNamingSceneFieldAndMesh) {
    springkit::test::TempDir dir;
    const fs::path folder = dir.path();
    std::ofstream(folder / "stairs.obj") << "v 0 0 0\n";
    const std::string obj = (folder / "stairs.obj").string();
    const std::string name = (folder / "level.scene.json").string();
    auto error = [&](const std::string& field, const SceneMeshLoader& loader) {
        return error_of([&] { scene_from_json(mesh_file_scene(field), name, loader, folder); });
    };
    FakeMeshes fake;
    const std::string at = name + ": /colliders/0/file: ";
    EXPECT_EQ(error(R"("file": "gone.obj")", fake.loader()),
              at + "mesh file " + (folder / "gone.obj").string() + " does not exist (collider \"floor\")");
    EXPECT_EQ(error(R"("file": ".")", fake.loader()),
              at + "mesh file " + (folder / ".").lexically_normal().string() + " is not a regular file (collider \"floor\")");
    EXPECT_EQ(error(R"("file": "stairs.obj")", {}),
              at + "mesh file " + obj +
                  ": nothing here reads mesh files (springkit::import's scene_mesh_loader() does; springkit "
                  "simulate --scene and the editor use it) (collider \"floor\")");
    const SceneMeshLoader unreadable = [](const fs::path& p) -> std::shared_ptr<const TriangleMesh> {
        throw Error(p.string() + ": no importer reads this");
    };
    EXPECT_EQ(error(R"("file": "stairs.obj")", unreadable),
              at + "mesh file " + obj + ": no importer reads this (collider \"floor\")");
    const SceneMeshLoader empty = [](const fs::path&) { return std::shared_ptr<const TriangleMesh>(); };
    EXPECT_EQ(error(R"("file": "stairs.obj")", empty), at + "mesh file " + obj + " has no triangles (collider \"floor\")");
    EXPECT_EQ(error(R"("file": "stairs.obj", "vertices": [0,0,0, 1,0,0, 0,0,1])", fake.loader()),
              at + "a triangle mesh has a file or vertices and triangles, not both (collider \"floor\")");
    EXPECT_EQ(error(R"("file": 3)", fake.loader()), at + "expected a mesh file name, found 3 (collider \"floor\")");
    EXPECT_TRUE(fake.asked.empty()) << "nothing is read for a bad field";
}
