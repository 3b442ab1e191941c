// The timeline's recording (app/editing/run_recording.hpp) under the live
// simulation: going back to a recorded frame and on again gives exactly the
// recorded positions, also across mouse pulls and anchor moves; resuming from a
// frame goes on from it; the plots' series follow the frames.
#include <gtest/gtest.h>

#include <cstring>

#include "editing/live_simulation.hpp"
#include "editing/run_recording.hpp"
#include "springkit/builders.hpp"

using namespace springkit;
using namespace springkit::editor;

namespace {

constexpr float kDt = 1.0f / 60.0f;

Model hanging_cloth() {
    ClothSpec spec;
    spec.columns = 8;
    spec.rows = 8;
    spec.anchors = ClothAnchors::top_corners;
    return make_cloth(spec);
}

bool same_bits(std::span<const Vec3> a, std::span<const Vec3> b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

}  // namespace

TEST(RunRecording, GoingBackAndOnShowsExactlyTheRecordedPositions) {
    const Model model = hanging_cloth();
    LiveSimulation live;
    live.restart(model);
    // 100 frames: a pull on a free node for frames 20 to 49 (forces a replay must
    // apply again), an anchor moved by hand at frame 61 (which a replay cannot
    // repeat, so that frame saves its state).
    std::vector<std::vector<Vec3>> seen{
        {live.simulation().positions().begin(), live.simulation().positions().end()}};
    const std::uint32_t corner = model.anchors[0].node;
    for (int f = 1; f <= 100; ++f) {
        if (f >= 20 && f < 50) live.pull_node(40, {0.3f, 0.5f, 0.4f}, {}, kDt);
        if (f == 61) {
            ASSERT_TRUE(live.move_anchor(corner, {0.05f, 0.0f, 0.0f}));
        }
        live.step(kDt);
        seen.emplace_back(live.simulation().positions().begin(),
                          live.simulation().positions().end());
    }
    const RunRecording& rec = live.recording();
    ASSERT_EQ(rec.first_frame(), 0u);
    ASSERT_EQ(rec.last_frame(), 100u);
    for (std::uint64_t f = 0; f <= 100; ++f) ASSERT_TRUE(same_bits(rec.positions(f), seen[f])) << f;
    // Back to frames across both inputs, in both directions, jumping and stepping.
    for (std::uint64_t f :
         {35ull, 10ull, 11ull, 12ull, 62ull, 59ull, 60ull, 61ull, 99ull, 0ull, 100ull, 45ull}) {
        ASSERT_TRUE(live.show_frame(f));
        EXPECT_EQ(live.frame(), f);
        EXPECT_TRUE(same_bits(live.simulation().positions(), seen[f])) << "frame " << f;
        EXPECT_EQ(live.simulation().kinetic_energy(), rec.kinetic_energy(f)) << "frame " << f;
    }
    EXPECT_FALSE(live.show_frame(101));
    // The recording itself is untouched by going back.
    EXPECT_EQ(rec.last_frame(), 100u);
}

TEST(RunRecording, ResumingGoesOnFromTheFrameShown) {
    const Model model = hanging_cloth();
    LiveSimulation live;
    live.restart(model);
    for (int f = 0; f < 40; ++f) live.step(kDt);
    ASSERT_TRUE(live.show_frame(25));
    live.step(kDt);
    // Frames 26..40 went; the new 26 is the old 26 (nothing differs), and the run
    // is at the end of the recording again.
    EXPECT_EQ(live.recording().last_frame(), 26u);
    EXPECT_EQ(live.frame(), 26u);
    // The same as a run that never went back.
    LiveSimulation straight;
    straight.restart(model);
    for (int f = 0; f < 26; ++f) straight.step(kDt);
    EXPECT_TRUE(same_bits(live.simulation().positions(), straight.simulation().positions()));
    EXPECT_EQ(live.simulation().time(), straight.simulation().time());
}

TEST(RunRecording, AnEditOrAResetStartsANewRecording) {
    Model model = hanging_cloth();
    LiveSimulation live;
    live.restart(model);
    for (int f = 0; f < 10; ++f) live.step(kDt);
    EXPECT_EQ(live.recording().frame_count(), 11u);
    model.params.air_friction = 0.05f;  // changed in place
    live.update_model(model);
    EXPECT_EQ(live.recording().frame_count(), 1u);
    EXPECT_TRUE(same_bits(live.recording().positions(0), live.simulation().positions()));
    for (int f = 0; f < 5; ++f) live.step(kDt);
    live.reset();
    EXPECT_EQ(live.recording().frame_count(), 1u);
    EXPECT_TRUE(same_bits(live.recording().positions(0), model.positions));
}

TEST(RunRecording, TheRingDropsItsOldestFramesBackToASavedState) {
    // A 40 x 40 cloth: 19.2 kB of positions a frame, 1600 x 48 bytes and more a
    // saved state: 256 MiB holds some 13 000 frames; the 36 000 frame cap is not
    // reached. Fill past the memory cap by recording the same state many times.
    ClothSpec spec;
    spec.columns = 40;
    spec.rows = 40;
    const Model model = make_cloth(spec);
    Simulation sim(model);
    RunRecording rec;
    rec.start(sim);
    const std::size_t per_frame = 1600 * sizeof(Vec3);
    const std::size_t frames = RunRecording::kMemoryCap / per_frame + 200;
    for (std::size_t i = 0; i < frames; ++i) rec.record(sim, kDt, {}, false);
    EXPECT_LE(rec.bytes(), RunRecording::kMemoryCap + RunRecording::kSaveEvery * (per_frame + 512));
    EXPECT_GT(rec.first_frame(), 0u);
    EXPECT_EQ(rec.first_frame() % RunRecording::kSaveEvery, 0u);  // a saved frame leads
    EXPECT_EQ(rec.last_frame(), frames);
    EXPECT_LT(rec.frame_count(), frames);
}

TEST(RunRecording, PlotSeriesFollowTheFrames) {
    const Model model = hanging_cloth();
    LiveSimulation live;
    live.restart(model);
    for (int f = 0; f < 30; ++f) live.step(kDt);
    const RunRecording& rec = live.recording();
    const std::vector<float> energy = rec.kinetic_energies();
    ASSERT_EQ(energy.size(), 31u);
    EXPECT_EQ(energy[0], 0.0f);  // from rest
    for (std::uint64_t f = 0; f <= 30; ++f)
        EXPECT_EQ(energy[f], static_cast<float>(rec.kinetic_energy(f)));
    EXPECT_GT(energy[30], 0.0f);  // it falls and swings

    // Strain of two selected nodes' spring and of a selected spring, per frame,
    // as worked out from the recorded positions.
    const std::uint32_t nodes[] = {0, 1};
    const std::uint32_t springs[] = {5};
    const std::vector<std::uint32_t> chosen = springs_of_selection(model, nodes, springs);
    ASSERT_GE(chosen.size(), 2u);
    EXPECT_TRUE(std::find(chosen.begin(), chosen.end(), 5u) != chosen.end());
    StrainHistory history;
    history.update(rec, live.model(), chosen);
    ASSERT_EQ(history.values().size(), 31u);
    for (std::uint64_t f = 0; f <= 30; ++f) {
        float largest = -1.0f;
        for (std::uint32_t i : chosen) {
            const Spring& s = model.springs[i];
            const auto p = rec.positions(f);
            largest = std::max(largest, (length(p[s.b] - p[s.a]) - s.rest) / s.rest);
        }
        EXPECT_EQ(history.values()[f], largest) << f;
    }
    EXPECT_EQ(history.values()[0], 0.0f);  // at rest length
    // New frames are added; going back and resuming drops the later ones.
    for (int f = 0; f < 5; ++f) live.step(kDt);
    history.update(rec, live.model(), chosen);
    EXPECT_EQ(history.values().size(), 36u);
    ASSERT_TRUE(live.show_frame(20));
    live.step(kDt);
    history.update(rec, live.model(), chosen);
    EXPECT_EQ(history.values().size(), 22u);
}
