// The editor's colliders without a window: adding, changing and deleting them
// as edits of the document (undo, redo, what counts as unsaved), the scene file
// beside the model, per-node masses, the live simulation colliding with them,
// and the shapes that draw and pick them.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "editing/autosave.hpp"
#include "editing/collider_shapes.hpp"
#include "editing/document.hpp"
#include "editing/live_simulation.hpp"
#include "springkit/builders.hpp"
#include "springkit/collider_scenes.hpp"
#include "springkit/error.hpp"
#if SPRINGKIT_EDITOR_HAS_IMPORT
#include "springkit/import.hpp"
#endif
#include "springkit/io.hpp"
#include "springkit/scene_file.hpp"
#include "support/test_files.hpp"

namespace fs = std::filesystem;
using namespace springkit;
using namespace springkit::editor;
using springkit::test::TempDir;

namespace {

Collider sphere_at(Vec3 centre, float radius) {
    Collider c = sphere_collider(radius);
    c.pose.position = centre;
    c.name = "ball";
    return c;
}

}  // namespace

TEST(ColliderEdits, addMoveDeleteUndoRedoExactly) {
    Document doc(make_cloth({.columns = 5, .rows = 4}), "cloth.json", false);
    ASSERT_TRUE(doc.add_collider(sphere_at({0, -1, 0}, 0.5f)));
    EXPECT_STREQ(doc.undo_name(), "add collider");
    EXPECT_EQ(doc.revision(), 0u) << "the model did not change";
    EXPECT_EQ(doc.scene_revision(), 1u);

    Collider moved = doc.colliders()[0];
    moved.pose.position = {0.25f, -1, 0};
    ASSERT_TRUE(doc.set_collider(0, moved, false, "move collider"));
    EXPECT_FALSE(doc.set_collider(0, moved)) << "unchanged: nothing recorded";
    Collider bad = moved;
    bad.radius = -1.0f;
    EXPECT_FALSE(doc.set_collider(0, bad)) << "check_collider refuses it";
    bad = moved;
    bad.dynamic_friction = 2.0f;  // above the static friction
    EXPECT_FALSE(doc.set_collider(0, bad));
    ASSERT_TRUE(doc.remove_collider(0));
    EXPECT_TRUE(doc.colliders().empty());
    EXPECT_EQ(doc.history_size(), 3u);

    ASSERT_TRUE(doc.undo());
    ASSERT_EQ(doc.colliders().size(), 1u);
    EXPECT_EQ(doc.colliders()[0].pose.position.x, 0.25f);
    ASSERT_TRUE(doc.undo());
    EXPECT_EQ(doc.colliders()[0].pose.position.x, 0.0f);
    ASSERT_TRUE(doc.undo());
    EXPECT_TRUE(doc.colliders().empty());
    ASSERT_TRUE(doc.redo());
    ASSERT_TRUE(doc.redo());
    EXPECT_TRUE(same_collider(doc.colliders()[0], moved));
}

TEST(ColliderEdits, aDragIsOneUndoEntry) {
    Document doc(make_cloth({.columns = 5, .rows = 4}), "cloth.json", false);
    ASSERT_TRUE(doc.add_collider(sphere_at({0, -1, 0}, 0.5f)));
    Collider c = doc.colliders()[0];
    for (int i = 1; i <= 5; ++i) {
        c.pose.position.x = 0.1f * static_cast<float>(i);
        ASSERT_TRUE(doc.set_collider(0, c, true, "move collider"));
    }
    doc.seal();
    EXPECT_EQ(doc.history_size(), 2u);
    ASSERT_TRUE(doc.undo());
    EXPECT_EQ(doc.colliders()[0].pose.position.x, 0.0f);
}

TEST(ColliderEdits, modelAndSceneAreSavedApart) {
    TempDir dir;
    const fs::path model_file = dir.path() / "cloth.json";
    save_model(make_cloth({.columns = 5, .rows = 4}), model_file);
    Document doc = Document::open(model_file);
    EXPECT_EQ(doc.suggested_scene_path(), dir.path() / "cloth.scene.json");
    EXPECT_EQ(companion_scene_path("a/b/jelly.skb"), fs::path("a/b/jelly.scene.json"));

    ASSERT_TRUE(doc.add_collider(sphere_at({0, -1, 0}, 0.5f)));
    EXPECT_FALSE(doc.model_dirty()) << "a collider is not a change of the model";
    EXPECT_TRUE(doc.scene_dirty());
    EXPECT_TRUE(doc.dirty());

    // Save writes the model and the scene beside it.
    doc.save();
    EXPECT_FALSE(doc.dirty());
    EXPECT_EQ(doc.scene_path(), dir.path() / "cloth.scene.json");
    const ColliderSet loaded = load_scene(doc.scene_path());
    ASSERT_EQ(loaded.size(), 1u);
    EXPECT_TRUE(same_collider(loaded[0], doc.colliders()[0])) << "bit for bit";

    // An edit of the model leaves the scene clean, and undoing it makes all clean.
    ASSERT_TRUE(doc.toggle_anchor(7));
    EXPECT_TRUE(doc.model_dirty());
    EXPECT_FALSE(doc.scene_dirty());
    ASSERT_TRUE(doc.undo());
    EXPECT_FALSE(doc.dirty());

    // A scene edit undone, then a model edit: the scene file still matches.
    Collider c = doc.colliders()[0];
    c.restitution = 0.5f;
    ASSERT_TRUE(doc.set_collider(0, c, false, "collider restitution"));
    ASSERT_TRUE(doc.undo());
    ASSERT_TRUE(doc.toggle_anchor(7));
    EXPECT_FALSE(doc.scene_dirty());
    EXPECT_TRUE(doc.model_dirty());
}

TEST(ColliderEdits, saveAsTakesTheSceneBesideTheModelAlong) {
    TempDir dir;
    const fs::path model_file = dir.path() / "cloth.json";
    Document doc(make_cloth({.columns = 5, .rows = 4}), model_file, true);
    ASSERT_TRUE(doc.add_collider(sphere_at({0, -1, 0}, 0.5f)));
    doc.save_as(model_file);
    EXPECT_EQ(doc.scene_path(), dir.path() / "cloth.scene.json");
    doc.save_as(dir.path() / "drape.json");
    EXPECT_EQ(doc.scene_path(), dir.path() / "drape.scene.json") << "written beside the new name, though unchanged";
    ASSERT_EQ(load_scene(dir.path() / "drape.scene.json").size(), 1u);
    EXPECT_FALSE(doc.dirty());

    // A scene of its own name stays where it is.
    doc.save_scene_as(dir.path() / "world.scene.json");
    doc.save_as(dir.path() / "third.json");
    EXPECT_EQ(doc.scene_path(), dir.path() / "world.scene.json");
    EXPECT_FALSE(fs::exists(dir.path() / "third.scene.json"));
}

TEST(ColliderEdits, openSceneIsOneUndoEntryAndBadFilesChangeNothing) {
    TempDir dir;
    Document doc(make_cloth({.columns = 5, .rows = 4}), dir.path() / "cloth.json", false);
    ASSERT_TRUE(doc.add_collider(sphere_at({0, -1, 0}, 0.5f)));
    doc.open_scene(fs::path(SPRINGKIT_SOURCE_DIR) / "samples/scenes/playground.scene.json");
    ASSERT_EQ(doc.colliders().size(), 6u) << "one collider of every kind";
    EXPECT_EQ(doc.colliders()[5].shape, ColliderShape::triangle_mesh);
    EXPECT_FALSE(doc.scene_dirty()) << "it is what the file holds";
    EXPECT_STREQ(doc.undo_name(), "open scene");
    ASSERT_TRUE(doc.undo());
    EXPECT_EQ(doc.colliders().size(), 1u);

    const fs::path broken = dir.path() / "broken.scene.json";
    std::ofstream(broken) << R"({"format": "springkit-scene", "version": 1, "colliders": [{"kind": "sphere", "radius": 0}]})";
    const std::size_t history = doc.history_size();
    const std::string message = springkit::test::error_of([&] { doc.open_scene(broken); });
    EXPECT_NE(message.find("broken.scene.json: /colliders/0"), std::string::npos) << message;
    EXPECT_EQ(doc.history_size(), history);
    EXPECT_EQ(doc.colliders().size(), 1u);
}

TEST(NodeMassEdits, setsTheSelectedNodesAndUndoesToNoMasses) {
    Document doc(make_cloth({.columns = 5, .rows = 4}), "cloth.json", false);
    ASSERT_TRUE(doc.model().masses.empty());
    const float model_mass = doc.model().params.mass;
    const std::uint32_t nodes[] = {3, 7};
    ASSERT_TRUE(doc.set_node_mass(nodes, 0.25f));
    EXPECT_EQ(doc.model().node_mass(3), 0.25f);
    EXPECT_EQ(doc.model().node_mass(7), 0.25f);
    EXPECT_EQ(doc.model().node_mass(4), model_mass) << "the others keep the model's mass";
    EXPECT_NO_THROW(validate(doc.model()));
    EXPECT_FALSE(doc.set_node_mass(nodes, 0.0f)) << "a mass must be > 0";
    EXPECT_FALSE(doc.set_node_mass(nodes, 0.25f)) << "unchanged";
    EXPECT_STREQ(doc.undo_name(), "node mass");
    ASSERT_TRUE(doc.undo());
    EXPECT_TRUE(doc.model().masses.empty()) << "back to no per-node masses, exactly";
}

TEST(LiveColliders, theClothComesToRestOnTheSphere) {
    // cloth_over_sphere's answer: at rest the centre node lies on top of the
    // sphere (radius 0.5 m) at y = 0.5 + node radius 0.01 m.
    const ColliderScene scene = cloth_over_sphere(9);
    Document doc(scene.model, "cloth.json", false);
    ASSERT_TRUE(doc.add_collider((*scene.colliders)[0]));
    LiveSimulation live;
    live.restart(doc.model());
    live.set_colliders(doc.colliders(), 0.0f);
    const std::uint32_t centre = 4 * 9 + 4;
    for (int frame = 0; frame < 150; ++frame) live.step(1.0f / 60.0f);
    EXPECT_NEAR(live.simulation().positions()[centre].y, 0.51f, 0.005f);
    EXPECT_FALSE(live.simulation().contacts().empty());

    // A model edit rebuilds the simulation; the colliders stay.
    const std::uint32_t corner[] = {0};
    ASSERT_TRUE(doc.set_anchored(corner, true));
    live.update_model(doc.model());
    for (int frame = 0; frame < 10; ++frame) live.step(1.0f / 60.0f);
    EXPECT_NEAR(live.simulation().positions()[centre].y, 0.51f, 0.005f);

    // Without the collider (undone) it falls through where the sphere was.
    ASSERT_TRUE(doc.undo());
    ASSERT_TRUE(doc.undo());
    live.update_model(doc.model());
    live.set_colliders(doc.colliders(), 0.0f);
    for (int frame = 0; frame < 30; ++frame) live.step(1.0f / 60.0f);
    EXPECT_LT(live.simulation().positions()[centre].y, 0.3f);
}

TEST(LiveColliders, aMovedColliderSweepsForOneFrameThenStops) {
    LiveSimulation live;
    live.restart(make_cloth({.columns = 5, .rows = 4}));
    std::vector<Collider> colliders{sphere_at({0, -1, 0}, 0.5f)};
    live.set_colliders(colliders, 0.0f);
    const ColliderSet* set = live.colliders();
    ASSERT_NE(set, nullptr);
    colliders[0].pose.position.y = -0.9f;
    live.set_colliders(colliders, 0.1f);
    EXPECT_EQ(live.colliders(), set) << "the same set, moved";
    EXPECT_NEAR(set->linear_velocity(0).y, 1.0f, 1e-5f) << "0.1 m in 0.1 s";
    live.step(1.0f / 60.0f);
    EXPECT_EQ(set->motion(0).seconds, 0.0f) << "standing still after the step";
    EXPECT_EQ((*set)[0].pose.position.y, -0.9f);
    colliders[0].radius = 0.6f;  // resized: a new set
    live.set_colliders(colliders, 0.1f);
    EXPECT_EQ((*live.colliders())[0].radius, 0.6f);
}

TEST(ColliderShapes, defaultsSitUnderTheModelAndAreValid) {
    const Model cloth = make_cloth({.columns = 5, .rows = 4});
    const Bounds box = bounds(cloth);
    for (ColliderShape shape : {ColliderShape::plane, ColliderShape::sphere, ColliderShape::capsule, ColliderShape::box,
                                ColliderShape::convex_hull}) {
        const Collider c = default_collider(shape, box, 3);
        EXPECT_NO_THROW(check_collider(c, 3)) << collider_shape_name(shape);
        // The middle of the model's bottom is on or just above its surface.
        const Vec3 bottom{(box.min.x + box.max.x) * 0.5f, box.min.y, (box.min.z + box.max.z) * 0.5f};
        const float d = distance(c, bottom).distance;
        EXPECT_GE(d, -1e-5f) << collider_shape_name(shape);
        EXPECT_LE(d, 0.06f * std::max(box.max.x - box.min.x, box.max.z - box.min.z)) << collider_shape_name(shape);
    }
    EXPECT_EQ(default_collider(ColliderShape::sphere, box, 3).name, "sphere 3");
    EXPECT_THROW(default_collider(ColliderShape::triangle_mesh, box, 0), Error);
}

TEST(ColliderShapes, trianglesLieOnTheSurface) {
    Collider capsule = capsule_collider(0.4f, 0.2f);
    capsule.pose = {{1, 2, 3}, quat_from_axis_angle({1, 1, 0}, 0.7f)};
    Collider box = box_collider({0.1f, 0.2f, 0.3f});
    box.pose = capsule.pose;
    const Vec3 points[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.2f, 0.2f, 0.2f}};
    Collider hull = convex_hull_collider(points);
    hull.pose = capsule.pose;
    for (const Collider& c : {sphere_at({1, 2, 3}, 0.5f), capsule, box, hull}) {
        const ColliderMesh mesh = collider_mesh(c, {}, 1.0f);
        ASSERT_FALSE(mesh.indices.empty()) << collider_shape_name(c.shape);
        EXPECT_EQ(mesh.indices.size() % 3, 0u);
        for (const Vec3& p : mesh.positions)
            EXPECT_NEAR(distance(c, p).distance, 0.0f, 1e-5f) << collider_shape_name(c.shape);
    }
    // The hull's four faces of the tetrahedron, the inner point on none.
    EXPECT_EQ(collider_mesh(hull, {}, 1.0f).indices.size(), 4u * 3u * 3u);
    // A plane is a square of the given size around the point nearest the centre.
    Collider plane = plane_collider({0, 1, 0}, -1.0f);
    const ColliderMesh square = collider_mesh(plane, {5, 0, 0}, 4.0f);
    ASSERT_EQ(square.positions.size(), 4u);
    for (const Vec3& p : square.positions) {
        EXPECT_FLOAT_EQ(p.y, -1.0f);
        EXPECT_FLOAT_EQ(std::abs(p.x - 5.0f), 2.0f);
    }
}

TEST(ColliderShapes, rayPicksTheNearestSurface) {
    const Collider ball = sphere_at({0, 0, -5}, 1.0f);
    const auto t = ray_collider(ball, {0, 0, 0}, {0, 0, -1}, 100.0f);
    ASSERT_TRUE(t);
    EXPECT_NEAR(*t, 4.0f, 1e-3f);
    EXPECT_FALSE(ray_collider(ball, {0, 0, 0}, {0, 1, 0}, 100.0f)) << "passes beside it";
    EXPECT_FALSE(ray_collider(ball, {0, 0, 0}, {0, 0, -1}, 3.0f)) << "beyond the reach";
    Collider floor = plane_collider({0, 1, 0}, 0.0f);
    const auto down = ray_collider(floor, {0, 2, 0}, normalized(Vec3{1, -1, 0}), 100.0f);
    ASSERT_TRUE(down);
    EXPECT_NEAR(*down, 2.0f * std::sqrt(2.0f), 1e-5f);
}

TEST(ColliderShapes, eulerAnglesRoundTrip) {
    const Vec3 angles{30.0f, -45.0f, 60.0f};
    const Vec3 back = euler_degrees(quat_from_euler_degrees(angles));
    EXPECT_NEAR(back.x, angles.x, 1e-3f);
    EXPECT_NEAR(back.y, angles.y, 1e-3f);
    EXPECT_NEAR(back.z, angles.z, 1e-3f);
    // x first, then z: (0, 1, 0) turned 90 degrees about x is (0, 0, 1); then
    // 90 degrees about z leaves it.
    const Vec3 v = rotate(quat_from_euler_degrees({90, 0, 90}), {0, 1, 0});
    EXPECT_NEAR(v.z, 1.0f, 1e-6f);
}

TEST(ColliderShapes, hullPointsAsTextRoundTripExactly) {
    const std::vector<Vec3> points{{0.1f, -2.0f, 0.1f}, {1.0f / 3.0f, 0.0f, -0.0f}, {1e-7f, 5.0f, 3.25f}};
    const std::string text = points_text(points);
    EXPECT_EQ(text.substr(0, text.find('\n')), "0.1 -2 0.1");
    const std::vector<Vec3> back = parse_points(text);
    ASSERT_EQ(back.size(), points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        EXPECT_EQ(back[i].x, points[i].x);
        EXPECT_EQ(back[i].y, points[i].y);
        EXPECT_EQ(back[i].z, points[i].z);
    }
    EXPECT_EQ(parse_points("1, 2, 3\n\n  4 5 6  \n").size(), 2u) << "commas and blank lines";
    EXPECT_EQ(springkit::test::error_of([] { parse_points("0 0 0\n1 2\n"); }), "line 2: expected x y z, got \"1 2\"");
    EXPECT_EQ(springkit::test::error_of([] { parse_points("0 0 x"); }), "line 1: expected x y z, got \"0 0 x\"");
    EXPECT_EQ(springkit::test::error_of([] { parse_points("1e99 0 0"); }), "line 1: expected x y z, got \"1e99 0 0\"");
}

TEST(ColliderShapes, hullAroundSelectedNodesAndMeshFromFaces) {
    JellySpec spec;
    spec.nx = spec.ny = spec.nz = 5;  // 125 nodes: more than a hull takes
    const Model jelly = make_jelly(spec);
    std::vector<std::uint32_t> all(jelly.node_count());
    for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    const Collider hull = hull_around_nodes(jelly.positions, all);
    EXPECT_EQ(hull.points.size(), 8u) << "the cube's corners are the furthest out";
    for (const Vec3& p : jelly.positions) EXPECT_LE(distance(hull, p).distance, 1e-4f) << "every node inside";
    const std::uint32_t three[] = {0, 1, 2};
    EXPECT_THROW(hull_around_nodes(jelly.positions, three), Error);

    const Model cloth = make_cloth({.columns = 5, .rows = 4});
    const Collider mesh = mesh_collider_from_model(cloth);
    EXPECT_EQ(triangle_count(*mesh.mesh), cloth.faces.size());
    EXPECT_NEAR(distance(mesh, cloth.positions[7]).distance, 0.0f, 1e-6f);
    Model rope = cloth;
    rope.faces.clear();
    EXPECT_THROW(mesh_collider_from_model(rope), Error);
}

#if SPRINGKIT_EDITOR_HAS_IMPORT
TEST(ColliderEdits, aSceneNamingAMeshFileOpensSavesAndAutosavesTheFileNotItsTriangles) {
    TempDir dir;
    fs::create_directories(dir.path() / "meshes");
    fs::copy_file(fs::path(SPRINGKIT_SOURCE_DIR) / "samples/meshes/cube.obj", dir.path() / "meshes" / "cube.obj");
    const fs::path model_file = dir.path() / "cloth.json", scene_file = dir.path() / "cloth.scene.json";
    save_model(make_cloth({.columns = 5, .rows = 4}), model_file);
    std::ofstream(scene_file) << R"({"format": "springkit-scene", "version": 1, "colliders": [{"kind": "triangle_mesh",
        "name": "block", "file": "meshes/cube.obj", "pose": {"position": [0, -2, 0], "rotation": [1, 0, 0, 0]}}]})";
    Document doc = Document::open(model_file);
    doc.open_scene(scene_file);
    ASSERT_EQ(doc.colliders().size(), 1u);
    const fs::path cube = (dir.path() / "meshes" / "cube.obj").lexically_normal();
    EXPECT_EQ(doc.colliders()[0].mesh_file, cube);
    EXPECT_EQ(triangle_count(*doc.colliders()[0].mesh), import_mesh(cube).faces.size());
    // Moved and saved: the scene still names the file, and reads back the same.
    Collider moved = doc.colliders()[0];
    moved.pose.position.y = -1.5f;
    ASSERT_TRUE(doc.set_collider(0, moved));
    Autosaver autosaver(dir.path() / "state", 0.0);
    ASSERT_TRUE(autosaver.tick(doc, 1.0));
    const Recovered recovered = load_autosave(autosave_path(model_file, autosaver.state_dir()));
    ASSERT_TRUE(recovered.colliders);
    EXPECT_EQ((*recovered.colliders)[0].mesh_file, cube) << "the autosave names the same file";
    doc.save();
    const std::string text = read_file(scene_file);
    EXPECT_NE(text.find(R"("file": "meshes/cube.obj")"), std::string::npos) << text;
    EXPECT_EQ(text.find("vertices"), std::string::npos);
    // Saved as a model in another folder, the scene beside it still finds the mesh.
    fs::create_directories(dir.path() / "other");
    doc.save_as(dir.path() / "other" / "cloth.json");
    const std::string moved_text = read_file(dir.path() / "other" / "cloth.scene.json");
    EXPECT_NE(moved_text.find(R"("file": "../meshes/cube.obj")"), std::string::npos) << moved_text;
    const ColliderSet reread = load_scene(dir.path() / "other" / "cloth.scene.json", scene_mesh_files());
    EXPECT_EQ(reread[0].mesh_file, cube);
    EXPECT_EQ(reread[0].pose.position.y, -1.5f);
}

TEST(ColliderShapes, aMeshFileBecomesATriangleMeshCollider) {
    // What Colliders > Add mesh from file does with a mesh: springkit::import,
    // then its faces as a static triangle mesh around their centre.
    const fs::path cube = fs::path(SPRINGKIT_SOURCE_DIR) / "samples/meshes/cube.obj";
    const Model mesh = import_mesh(cube);
    const Collider c = mesh_collider_from_model(mesh);
    EXPECT_EQ(c.shape, ColliderShape::triangle_mesh);
    EXPECT_EQ(triangle_count(*c.mesh), mesh.faces.size());
    EXPECT_NO_THROW(check_collider(c, 0));
    for (const Vec3& p : mesh.positions) EXPECT_NEAR(distance(c, p).distance, 0.0f, 1e-5f) << "its corners";
    // It goes into a scene file and back bit for bit.
    ColliderSet set;
    set.add(c);
    const ColliderSet back = scene_from_json(scene_to_json(set));
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(triangle_count(*back[0].mesh), triangle_count(*c.mesh));
    EXPECT_EQ(back[0].pose, c.pose);
}
#endif

TEST(ColliderEdits, aColliderEditAloneIsAutosavedAndRecoveredBitForBit) {
    TempDir dir;
    const fs::path model_file = dir.path() / "cloth.json";
    const Model cloth = make_cloth({.columns = 5, .rows = 4});
    save_model(cloth, model_file);
    Document doc = Document::open(model_file);
    Autosaver autosaver(dir.path() / "state", 0.0);
    const fs::path autosave = autosave_path(model_file, autosaver.state_dir());
    const fs::path scene_autosave = scene_autosave_path(autosave);
    EXPECT_EQ(scene_autosave, dir.path() / ".cloth.json.scene.autosave");
    Collider ball = sphere_at({0.25f, -1.0f / 3.0f, 0.1f}, 0.3f);
    ball.restitution = 0.7f;
    ball.static_friction = 0.9f;
    ASSERT_TRUE(doc.add_collider(ball));
    ASSERT_FALSE(doc.model_dirty());
    EXPECT_TRUE(autosaver.tick(doc, 100.0)) << "the colliders alone are work to keep";
    ASSERT_TRUE(fs::exists(autosave));
    ASSERT_TRUE(fs::exists(scene_autosave));
    EXPECT_FALSE(autosaver.tick(doc, 200.0)) << "nothing changed since";

    // The next session, after a crash: the model as it was, the collider back.
    fs::last_write_time(model_file, fs::last_write_time(autosave) - std::chrono::seconds(10));
    const auto found = find_recovery(model_file, autosaver.state_dir());
    ASSERT_TRUE(found);
    Recovered recovered = load_autosave(*found);
    ASSERT_TRUE(recovered.colliders);
    Document next = Document::open(model_file);
    next.recover(std::move(recovered.model), std::move(recovered.colliders));
    EXPECT_EQ(next.model(), cloth);
    ASSERT_EQ(next.colliders().size(), 1u);
    EXPECT_TRUE(same_collider(next.colliders()[0], ball));
    EXPECT_TRUE(next.scene_dirty()) << "the recovered collider is in no scene file yet";

    // Undoing back to the saved state removes both files; a model edit then
    // autosaves the scene as it is (no colliders).
    ASSERT_TRUE(doc.undo());
    EXPECT_FALSE(autosaver.tick(doc, 300.0)) << "clean again: nothing to keep";
    EXPECT_FALSE(fs::exists(autosave));
    EXPECT_FALSE(fs::exists(scene_autosave));
    ASSERT_TRUE(doc.toggle_anchor(3));
    EXPECT_TRUE(autosaver.tick(doc, 400.0)) << "a model edit is autosaved";
    EXPECT_TRUE(load_autosave(autosave).colliders->empty());
    autosaver.discard(doc);
    EXPECT_FALSE(fs::exists(autosave));
    EXPECT_FALSE(fs::exists(scene_autosave));
}

TEST(ColliderEdits, anAutosaveWithoutASceneRecoversTheModelAndKeepsTheColliders) {
    // An autosave written before the colliders were autosaved: the colliders
    // loaded from the scene file stay, and the scene stays clean.
    TempDir dir;
    const fs::path model_file = dir.path() / "cloth.json";
    save_model(make_cloth({.columns = 5, .rows = 4}), model_file);
    Document doc = Document::open(model_file);
    ASSERT_TRUE(doc.add_collider(sphere_at({0, -1, 0}, 0.5f)));
    doc.save();
    Model edited = doc.model();
    edited.anchors.clear();
    const fs::path autosave = autosave_path(model_file, dir.path());
    save_model(edited, autosave);
    Recovered recovered = load_autosave(autosave);
    EXPECT_FALSE(recovered.colliders);
    doc.recover(std::move(recovered.model), std::move(recovered.colliders));
    EXPECT_EQ(doc.model(), edited);
    EXPECT_EQ(doc.colliders().size(), 1u);
    EXPECT_TRUE(doc.model_dirty());
    EXPECT_FALSE(doc.scene_dirty());
}
