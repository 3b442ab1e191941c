// Anchor tracks (issue 17, item 6): keyframed rigid motions that anchors follow
// (a skinned mesh's bones). Known answers: a track translating linearly puts
// its anchor at the interpolated point exactly; a rotation of 90 degrees over a
// second is 45 degrees at half a second (slerp at constant angular speed); the
// simulation's track-driven anchor is where the track puts it at every frame
// end, with the track's velocity; files keep tracks exactly (JSON and .skb) and
// name what is wrong in them.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
using springkit::test::error_of;
using springkit::test::load_error;

namespace {

constexpr float kFrame = 1.0f / 60.0f;

/// From the origin at t = 0 to (2, -1, 0.5) m at t = 1 s, no rotation.
AnchorTrack straight_track(bool loop) {
    AnchorTrack t;
    t.name = "slide";
    t.loop = loop;
    t.keys = {{0.0f, {0, 0, 0}, {}}, {1.0f, {2.0f, -1.0f, 0.5f}, {}}};
    return t;
}

/// A quarter turn about +z over one second, about the origin.
AnchorTrack quarter_turn() {
    AnchorTrack t;
    t.name = "turn";
    t.loop = false;
    t.keys = {{0.0f, {}, {}}, {1.0f, {}, quat_from_axis_angle({0, 0, 1}, std::numbers::pi_v<float> / 2)}};
    return t;
}

/// A 10-node string from `start` whose first node follows `track`.
Model string_on(AnchorTrack track, Vec3 start = {}) {
    Model m = make_string({.nodes = 10, .start = start, .direction = {0, -1, 0}});
    m.anchor_tracks.push_back(std::move(track));
    m.anchors.at(0).drive = AnchorDrive::track;
    m.anchors.at(0).track = 0;
    return m;
}

}  // namespace

TEST(AnchorTracks, LinearKeysAreInterpolatedExactly) {
    const AnchorTrack t = straight_track(false);
    const Transform f = track_frame(t, 0.25);
    EXPECT_EQ(f.position, (Vec3{0.5f, -0.25f, 0.125f}));
    EXPECT_EQ(f.rotation, Quat{});
    // Before the first key and after the last the end keys hold.
    EXPECT_EQ(track_frame(t, -3.0).position, (Vec3{0, 0, 0}));
    EXPECT_EQ(track_frame(t, 7.0).position, (Vec3{2.0f, -1.0f, 0.5f}));
    // A looping track repeats with the last key's time as its period.
    EXPECT_EQ(track_frame(straight_track(true), 3.25).position, (Vec3{0.5f, -0.25f, 0.125f}));
}

TEST(AnchorTracks, QuarterTurnIsAnEighthTurnAtHalfTime) {
    const Transform f = track_frame(quarter_turn(), 0.5);
    const Quat eighth = quat_from_axis_angle({0, 0, 1}, std::numbers::pi_v<float> / 4);
    EXPECT_NEAR(f.rotation.w, eighth.w, 1e-6f);
    EXPECT_NEAR(f.rotation.z, eighth.z, 1e-6f);
    const Vec3 p = apply(f, {1, 0, 0});
    EXPECT_NEAR(p.x, std::sqrt(0.5), 1e-6);
    EXPECT_NEAR(p.y, std::sqrt(0.5), 1e-6);
    // At a quarter of the time, a quarter of the angle (constant angular speed).
    const Vec3 q = apply(track_frame(quarter_turn(), 0.25), {1, 0, 0});
    EXPECT_NEAR(std::atan2(q.y, q.x), std::numbers::pi / 8, 1e-6);
}

TEST(AnchorTracks, SpeedBoundCoversTheFastestPoint) {
    // A straight slide: 2.29 m/s (|(2, -1, 0.5)| per second), times pi/2.
    EXPECT_NEAR(track_speed_bound(straight_track(false), {3, 4, 5}), std::numbers::pi / 2 * std::sqrt(5.25), 1e-5);
    // A quarter turn of a unit arm in 1 s: pi/2 m/s along the arc, chord sqrt(2).
    const double bound = track_speed_bound(quarter_turn(), {1, 0, 0});
    EXPECT_GE(bound, std::numbers::pi / 2);
    EXPECT_NEAR(bound, std::numbers::pi / 2 * std::sqrt(2.0), 1e-5);
}

TEST(AnchorTracks, SimulatedAnchorFollowsItsTrackWithItsVelocity) {
    Simulation sim(string_on(straight_track(false)));
    const Vec3 rest = sim.model().positions[0];
    for (int frame = 1; frame <= 30; ++frame) {
        ASSERT_TRUE(sim.step(kFrame).ok());
        const Vec3 expected = rest + Vec3{2.0f, -1.0f, 0.5f} * static_cast<float>(sim.time());
        const Vec3 got = sim.positions()[0];
        EXPECT_NEAR(got.x, expected.x, 1e-5f) << frame;
        EXPECT_NEAR(got.y, expected.y, 1e-5f) << frame;
        EXPECT_NEAR(got.z, expected.z, 1e-5f) << frame;
        EXPECT_NEAR(sim.velocities()[0].x, 2.0f, 1e-2f) << frame;
        EXPECT_NEAR(sim.velocities()[0].y, -1.0f, 1e-2f) << frame;
    }
    // The free nodes are pulled along: the next node has moved towards +x.
    EXPECT_GT(sim.positions()[1].x, sim.model().positions[1].x + 0.1f);
    EXPECT_EQ(sim.model().positions[0], (Vec3{0, 0, 0}));
}

TEST(AnchorTracks, TurningTrackTurnsItsAnchorAboutTheTrackOrigin) {
    Simulation sim(string_on(quarter_turn(), {1, 0, 0}));  // a unit arm from the turn's axis
    for (int frame = 0; frame < 30; ++frame) ASSERT_TRUE(sim.step(kFrame).ok());
    const double angle = std::numbers::pi / 2 * sim.time();  // about pi/4
    ASSERT_NEAR(angle, std::numbers::pi / 4, 1e-6);
    EXPECT_NEAR(sim.positions()[0].x, std::cos(angle), 1e-5);
    EXPECT_NEAR(sim.positions()[0].y, std::sin(angle), 1e-5);
    // Speed of a unit arm at pi/2 rad/s, along the circle.
    EXPECT_NEAR(length(sim.velocities()[0]), std::numbers::pi / 2, 1e-3);
}

TEST(AnchorTracks, PlacedInstanceFollowsTheTrackWhereItStands) {
    const Model m = string_on(straight_track(false));
    const Transform placement{{10, 0, -4}, quat_from_axis_angle({0, 1, 0}, std::numbers::pi_v<float> / 2)};
    Simulation sim(prepare(m), placement);
    for (int frame = 0; frame < 15; ++frame) ASSERT_TRUE(sim.step(kFrame).ok());
    const Vec3 expected = apply(placement, apply(track_frame(m.anchor_tracks[0], sim.time()), m.positions[0]));
    EXPECT_NEAR(length(sim.positions()[0] - expected), 0.0, 1e-5);
}

TEST(AnchorTracks, AnchorsStartWhereTheTrackPutsThemAtTimeZero) {
    AnchorTrack t = straight_track(false);
    for (TrackKey& k : t.keys) k.position = k.position + Vec3{0, 3, 0};
    Simulation sim(string_on(t));
    const Vec3 expected = sim.model().positions[0] + Vec3{0, 3, 0};
    EXPECT_EQ(sim.positions()[0], expected);
}

TEST(AnchorTracks, LoopingTrackKeepsTheBodyAwake) {
    Simulation sim(string_on(straight_track(true)));
    sim.set_sleep({.enabled = true, .energy_per_kg = 1e9f, .quiet_time = 0.1f});
    for (int frame = 0; frame < 30; ++frame) ASSERT_TRUE(sim.step(kFrame).ok());
    EXPECT_FALSE(sim.asleep());
}

TEST(AnchorTracks, ARestoredStateGoesOnAlongTheTrackBitForBit) {
    const auto body = prepare(string_on(quarter_turn(), {1, 0, 0}));
    Simulation sim(body);
    for (int frame = 0; frame < 10; ++frame) ASSERT_TRUE(sim.step(kFrame).ok());
    const std::vector<std::byte> state = sim.save_state();
    for (int frame = 0; frame < 10; ++frame) ASSERT_TRUE(sim.step(kFrame).ok());
    Simulation other(body);
    other.restore_state(state);
    for (int frame = 0; frame < 10; ++frame) ASSERT_TRUE(other.step(kFrame).ok());
    ASSERT_EQ(other.positions().size(), sim.positions().size());
    for (std::size_t i = 0; i < sim.positions().size(); ++i) EXPECT_EQ(other.positions()[i], sim.positions()[i]) << i;
}

TEST(AnchorTracks, FilesKeepTracksExactly) {
    Model m = string_on(quarter_turn());
    m.anchor_tracks.push_back(straight_track(true));
    m.anchors.push_back({.node = 5, .drive = AnchorDrive::track, .track = 1});
    m.anchor_tracks[0].keys[1].position = {0.1f, 1.0f / 3.0f, -7.25f};
    EXPECT_EQ(model_from_json(model_to_json(m)), m);
    EXPECT_EQ(model_from_binary(model_to_binary(m)), m);
    // The physics hash (of saved states) sees a changed key.
    Model other = m;
    other.anchor_tracks[1].keys[1].time = 2.0f;
    EXPECT_NE(model_hash(m, HashScope::physics), model_hash(other, HashScope::physics));
}

TEST(AnchorTracks, ModelsWithoutTracksWriteNoTrackFields) {
    const std::string text = model_to_json(make_string({.nodes = 4}));
    EXPECT_EQ(text.find("track"), std::string::npos);
}

TEST(AnchorTracks, BadTracksAreNamed) {
    Model m = string_on(straight_track(false));
    m.anchor_tracks[0].keys[1].time = 0.0f;
    EXPECT_EQ(error_of([&] { validate(m, "m.json"); }),
              "m.json: /anchor_tracks/0/times/1: key times must increase (0 s after 0 s)");
    m = string_on(straight_track(false));
    m.anchor_tracks[0].keys[0].rotation = {1, 1, 0, 0};
    EXPECT_EQ(error_of([&] { validate(m, "m.json"); }),
              "m.json: /anchor_tracks/0/rotations/0: not a unit quaternion [w, x, y, z] (|q|^2 = 2)");
    m = string_on(straight_track(false));
    m.anchors[0].track = 3;
    EXPECT_EQ(error_of([&] { validate(m, "m.json"); }),
              "m.json: /anchors/0/track: track 3 out of range (model has 1 anchor track)");
    m = string_on(straight_track(false));
    m.anchor_tracks[0].keys.clear();
    EXPECT_EQ(error_of([&] { validate(m, "m.json"); }), "m.json: /anchor_tracks/0/times: a track needs at least one key");

    const std::string good = model_to_json(string_on(straight_track(false)));
    std::string text = good;
    const std::string full = "\"rotations\": [1, 0, 0, 0, ";
    text.replace(text.find(full), full.size(), "\"rotations\": [1, 0, 0, ");
    EXPECT_EQ(load_error(text), "bad.json: /anchor_tracks/0/rotations: length 7 is not a multiple of 4");
    text = good;
    text.replace(text.find("\"drive\": \"track\""), 16, "\"drive\": \"bone\"");
    EXPECT_EQ(load_error(text),
              "bad.json: /anchors/0/drive: unknown drive \"bone\" (expected fixed, velocity, circle or track)");
}
