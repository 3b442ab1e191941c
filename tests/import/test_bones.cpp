// Bones that drive anchors (issue 17, item 6) on Assimp's glTF simple_skin test
// model (the glTF tutorial's skin: a 1 x 2 m strip of 10 vertices, joint 0 at
// (0, 1, 0), joint 1 its child turning about +z: 0, 45, 90, 90, 45, 0, 0, -45,
// -90, -90, -45, 0 degrees at 0, 0.5, ..., 5.5 s; both inverse bind matrices
// translate by (-0.5, -1, 0); the rows of vertices at y = 0, 0.5, 1, 1.5, 2 are
// weighted to joint 1 by 0, 0.25, 0.5, 0.75, 1). The known answer, from glTF's
// skinning: a vertex v on joint 0 is drawn at v + (-0.5, 0, 0) at every time; one
// on joint 1 at R(t) (v - (0.5, 1, 0)) + (0, 1, 0), R(t) the joint's rotation.
// The model's rest pose is the mesh as its joints draw it with the nodes' own
// transforms (R = identity): every vertex at v + (-0.5, 0, 0).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>

#include "springkit/import.hpp"
#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
using springkit::test::error_of;
namespace fs = std::filesystem;

namespace {

const fs::path kSimpleSkin = "/usr/share/assimp/models/glTF2/simple_skin/simple_skin.gltf";

#define SKIP_WITHOUT_TEST_MODELS()                                                         \
    if (!fs::exists(kSimpleSkin)) GTEST_SKIP() << "assimp-testmodels is not installed"

/// Where glTF's skinning draws the vertex at rest position r (the file's
/// vertex v = r + (0.5, 0, 0)), weighted fully to `joint`, at a time the joint
/// is turned by `angle` rad.
Vec3 skinned(Vec3 r, int joint, double angle) {
    const Vec3 v{r.x + 0.5f, r.y, r.z};
    if (joint == 0) return {v.x - 0.5f, v.y, v.z};
    const double x = v.x - 0.5, y = v.y - 1.0;
    return {static_cast<float>(std::cos(angle) * x - std::sin(angle) * y),
            static_cast<float>(std::sin(angle) * x + std::cos(angle) * y + 1.0), v.z};
}

Model skin(double threshold, ImportReport& report) {
    ImportOptions options;
    options.bone_anchors = threshold;
    return import_mesh(kSimpleSkin, options, report);
}

}  // namespace

TEST(BoneAnchors, AnchoredNodesFollowTheirJointsAsGltfSkinningDrawsThem) {
    SKIP_WITHOUT_TEST_MODELS();
    ImportReport report;
    const Model m = skin(0.75, report);
    // Rows y = 0 and 0.5 on joint 0, y = 1.5 and 2 on joint 1; y = 1 (0.5 each) soft.
    ASSERT_EQ(m.anchors.size(), 8u);
    ASSERT_EQ(m.anchor_tracks.size(), 2u);
    EXPECT_EQ(m.positions.size(), 10u);
    for (const Vec3& r : m.positions) EXPECT_TRUE(r.x == -0.5f || r.x == 0.5f) << r.x;  // the file's x = 0 or 1
    EXPECT_EQ(report.bone_anchors, 8u);
    EXPECT_EQ(report.bone_tracks, 2u);
    EXPECT_EQ(report.animation, "#0");
    EXPECT_DOUBLE_EQ(report.animation_seconds, 5.5);
    // Sampled at 30 keys per second: 165 intervals and the end key.
    EXPECT_EQ(m.anchor_tracks[0].keys.size(), 166u);
    EXPECT_FLOAT_EQ(m.anchor_tracks[0].keys.back().time, 5.5f);
    // At the file's keys, to 0.1 mm: its "45 degree" key is the quaternion
    // (w, z) = (0.924, 0.383) as stored, 2 atan2(0.383, 0.924) = 45.028 degrees.
    // Between keys, to 1 mm, at the angle slerp gives at constant speed (22.514
    // degrees at 0.25 s, -67.514 at 3.75 s): that key is not a unit quaternion
    // (|q|^2 = 1.00047), so interpolations of it differ by tenths of a mm.
    const double a45 = 2.0 * std::atan2(double(0.383f), double(0.924f)) * 180.0 / std::numbers::pi;
    const double times[] = {0.5, 1.0, 2.0, 3.5, 0.25, 3.75};
    const double angles[] = {a45, 90.0, a45, -a45, a45 / 2, -(a45 + 90.0) / 2};
    for (int k = 0; k < 6; ++k) {
        const float tolerance = k < 4 ? 1e-4f : 1e-3f;
        for (const Anchor& a : m.anchors) {
            ASSERT_EQ(a.drive, AnchorDrive::track);
            const Vec3 rest = m.positions[a.node];
            const int joint = rest.y < 1.0f ? 0 : 1;
            EXPECT_EQ(m.anchor_tracks[a.track].name, joint == 0 ? "nodes[1]" : "nodes[2]");
            const Vec3 expected = skinned(rest, joint, angles[k] * std::numbers::pi / 180.0);
            const Vec3 got = apply(track_frame(m.anchor_tracks[a.track], times[k]), rest);
            EXPECT_LT(length(got - expected), tolerance) << "t = " << times[k] << " node at y = " << rest.y;
        }
    }
    for (std::size_t i = 0; i < m.node_count(); ++i) {
        const bool anchored =
            std::any_of(m.anchors.begin(), m.anchors.end(), [&](const Anchor& a) { return a.node == i; });
        EXPECT_EQ(anchored, m.positions[i].y != 1.0f) << i;
    }
}

TEST(BoneAnchors, TheSimulationMovesAnchorsWithTheClipAndTheSoftRowFollows) {
    SKIP_WITHOUT_TEST_MODELS();
    ImportReport report;
    Simulation sim(skin(0.75, report));
    const Model& m = sim.model();
    for (int frame = 0; frame < 60; ++frame) ASSERT_TRUE(sim.step(1.0f / 60.0f).ok());
    ASSERT_NEAR(sim.time(), 1.0, 1e-5);  // the joint is at 90 degrees from 1 s to 1.5 s
    for (const Anchor& a : m.anchors) {
        const Vec3 rest = m.positions[a.node];
        const Vec3 expected = skinned(rest, rest.y < 1.0f ? 0 : 1, std::numbers::pi / 2);
        EXPECT_LT(length(sim.positions()[a.node] - expected), 1e-4f) << rest.y;
    }
    // The soft row (y = 1, on the joint's axis of turning) is pulled along.
    for (std::size_t i = 0; i < m.node_count(); ++i)
        if (m.positions[i].y == 1.0f) {
            EXPECT_GT(length(sim.positions()[i] - m.positions[i]), 0.1f) << i;
        }
}

TEST(BoneAnchors, ATieGoesToTheFirstBone) {
    SKIP_WITHOUT_TEST_MODELS();
    ImportReport report;
    const Model m = skin(0.5, report);
    ASSERT_EQ(m.anchors.size(), 10u);
    for (const Anchor& a : m.anchors)
        if (m.positions[a.node].y == 1.0f) {
            EXPECT_EQ(m.anchor_tracks[a.track].name, "nodes[1]");
        }
}

TEST(BoneAnchors, WithoutThemBonesAndAnimationsAreSaidToBeDropped) {
    SKIP_WITHOUT_TEST_MODELS();
    ImportReport report;
    const Model m = import_mesh(kSimpleSkin, {}, report);
    EXPECT_TRUE(m.anchors.empty());
    EXPECT_TRUE(m.anchor_tracks.empty());
    EXPECT_EQ(report.bones, 2u);
    EXPECT_EQ(report.animations, 1u);
    ASSERT_FALSE(report.warnings.empty());
    EXPECT_EQ(report.warnings[0], "2 bones and 1 animation were dropped (use --bone-anchors): the model is its rest "
                                  "pose, without skinning");
}

TEST(BoneAnchors, BadThresholdsAndUnknownClipsAreRefused) {
    SKIP_WITHOUT_TEST_MODELS();
    ImportOptions options;
    options.bone_anchors = 1.5;
    EXPECT_EQ(error_of([&] { import_mesh(kSimpleSkin, options); }),
              kSimpleSkin.string() + ": the bone weight threshold must be in (0, 1] (0 = no bone anchors), not 1.500000");
    options.bone_anchors = 0.5;
    options.animation = "walk";
    EXPECT_EQ(error_of([&] { import_mesh(kSimpleSkin, options); }),
              kSimpleSkin.string() + ": --animation walk: no such animation (the file has 1: 0 \"\")");
    options.animation = "1";
    EXPECT_EQ(error_of([&] { import_mesh(kSimpleSkin, options); }),
              kSimpleSkin.string() + ": --animation 1: no such animation (the file has 1: 0 \"\")");
    options.animation = "0";
    EXPECT_EQ(import_mesh(kSimpleSkin, options).anchors.size(), 10u);
}

TEST(BoneAnchors, TheIsolatedImporterHandsBackTracksAndReport) {
    SKIP_WITHOUT_TEST_MODELS();
    ImportOptions options;
    options.bone_anchors = 0.75;
    ImportReport isolated_report, report;
    const Model isolated = import_mesh_isolated(kSimpleSkin, options, isolated_report);
    EXPECT_EQ(isolated, import_mesh(kSimpleSkin, options, report));
    EXPECT_EQ(isolated_report.bone_anchors, 8u);
    EXPECT_EQ(isolated_report.animation, "#0");
}

// The sample tail (samples/meshes/tail.gltf, made by make_meshes.py): the clip
// "wag" turns the hip bone about +y by 30 degrees at 0.5 s and back to 0 at 1 s.
// Its root ring follows the hip exactly; the soft rest swings after it, so at
// 1 s, with the root back at rest, the tip still lags on the side it came from
// (a rigid tail's tip would be back at z = 0).
TEST(BoneAnchors, TheSampleTailSwingsAfterItsRoot) {
    ImportOptions options;
    options.bone_anchors = 0.9;
    options.volume_elements = false;  // as the sample: soft, see samples/meshes/convert_models.sh
    ImportReport report;
    Simulation sim(import_mesh(fs::path(SPRINGKIT_SOURCE_DIR) / "samples/meshes/tail.gltf", options, report));
    const Model& m = sim.model();
    ASSERT_EQ(m.anchors.size(), 8u);  // the rings at x = 0 and 0.2
    EXPECT_EQ(report.animation, "\"wag\"");
    const double turn = std::numbers::pi / 6;
    for (int frame = 0; frame < 30; ++frame) ASSERT_TRUE(sim.step(1.0f / 60.0f).ok());
    for (const Anchor& a : m.anchors) {
        const Vec3 r = m.positions[a.node];
        const Vec3 turned{static_cast<float>(std::cos(turn) * r.x + std::sin(turn) * r.z), r.y,
                          static_cast<float>(-std::sin(turn) * r.x + std::cos(turn) * r.z)};
        EXPECT_LT(length(sim.positions()[a.node] - turned), 1e-4f);
    }
    for (int frame = 0; frame < 30; ++frame) ASSERT_TRUE(sim.step(1.0f / 60.0f).ok());
    float tip_z = 0.0f;
    for (std::size_t i = 0; i < m.node_count(); ++i)
        if (std::abs(m.positions[i].x - 1.2f) < 1e-6f) tip_z += sim.positions()[i].z / 4.0f;
    for (const Anchor& a : m.anchors) EXPECT_LT(length(sim.positions()[a.node] - m.positions[a.node]), 1e-4f);
    EXPECT_LT(tip_z, -0.03f);
}

// An FBX file in centimetres (huesitos.fbx: UnitScaleFactor 1, 8 bones, its
// clip "Armature|Action" starting at the rest pose): the tracks are scaled to
// metres with the vertices, so at t = 0 every anchor is where it rests (a
// track left in centimetres would put them 100 times too far), and the clip
// moves them.
TEST(BoneAnchors, TracksOfAnFbxInCentimetresAreInMetres) {
    const fs::path fbx = "/usr/share/assimp/models/FBX/huesitos.fbx";
    if (!fs::exists(fbx)) GTEST_SKIP() << "assimp-testmodels is not installed";
    ImportOptions options;
    options.bone_anchors = 0.5;
    ImportReport report;
    const Model m = import_mesh(fbx, options, report);
    EXPECT_DOUBLE_EQ(report.unit_scale, 0.01);
    ASSERT_EQ(m.anchor_tracks.size(), 8u);
    const float size = bounds(m).diagonal();
    float moved = 0.0f;
    for (const Anchor& a : m.anchors) {
        const Vec3 rest = m.positions[a.node];
        EXPECT_LT(length(apply(track_frame(m.anchor_tracks[a.track], 0.0), rest) - rest), 1e-5f * size);
        for (const TrackKey& key : m.anchor_tracks[a.track].keys)
            moved = std::max(moved, length(apply(Transform{key.position, key.rotation}, rest) - rest));
    }
    EXPECT_GT(moved, 0.1f * size);
}
