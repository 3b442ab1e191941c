// The editor's editing logic, driven without a window: document edits and
// undo/redo, selection, unsaved-changes decisions, autosave and recovery, recent
// files, the live simulation, and the camera and picking math.
#include <array>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sys/stat.h>

#include "editing/autosave.hpp"
#include "editing/document.hpp"
#include "editing/live_simulation.hpp"
#include "editing/recent_files.hpp"
#include "editing/selection.hpp"
#include "editing/texture_image.hpp"
#include "editing/unsaved_changes.hpp"
#include "editor_models.hpp"
#include "springkit/builders.hpp"
#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "support/test_files.hpp"
#include "view/camera.hpp"
#include "view/picking.hpp"

namespace fs = std::filesystem;
using namespace springkit;
using namespace springkit::editor;
using springkit::test::TempDir;

using springkit::test::editor::small_cloth;

namespace {

// One random edit of any kind; returns whether the document took it.
bool random_edit(Document& doc, std::mt19937& rng) {
    const Model& m = doc.model();
    const auto n = static_cast<std::uint32_t>(m.node_count());
    auto node = [&] { return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng); };
    auto spring = [&] {
        return std::uniform_int_distribution<std::uint32_t>(0, static_cast<std::uint32_t>(m.springs.size()) - 1)(rng);
    };
    switch (std::uniform_int_distribution<int>(0, 10)(rng)) {
        case 0:
            return doc.add_spring(node(), node());
        case 1: {
            if (m.springs.empty()) return false;
            const std::uint32_t picked[] = {spring(), spring(), spring()};
            return doc.remove_springs(picked);
        }
        case 2:
            return doc.toggle_anchor(node());
        case 3: {
            const std::uint32_t nodes[] = {node(), node(), node(), node()};
            return doc.set_anchored(nodes, std::uniform_int_distribution<int>(0, 1)(rng) == 1);
        }
        case 4: {
            Parameters p = m.params;
            p.k *= std::uniform_real_distribution<float>(0.5f, 2.0f)(rng);
            p.energy_loss = std::uniform_real_distribution<float>(0.9f, 1.0f)(rng);
            p.spring_damping = std::uniform_real_distribution<float>(0.0f, 0.5f)(rng);
            const bool continuing = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
            return doc.set_parameters(p, continuing);
        }
        case 5: {
            if (m.springs.empty()) return false;
            const std::uint32_t picked[] = {spring(), spring()};
            return doc.set_spring_k(picked, std::uniform_real_distribution<float>(0.0f, 3000.0f)(rng),
                                    std::uniform_int_distribution<int>(0, 1)(rng) == 1);
        }
        case 6: {
            const std::uint32_t nodes[] = {node(), node()};
            return doc.set_node_mass(nodes, std::uniform_real_distribution<float>(0.01f, 1.0f)(rng),
                                     std::uniform_int_distribution<int>(0, 1)(rng) == 1);
        }
        case 7: {
            Collider c = sphere_collider(std::uniform_real_distribution<float>(0.1f, 1.0f)(rng));
            c.pose.position.y = std::uniform_real_distribution<float>(-2.0f, 0.0f)(rng);
            return doc.add_collider(c);
        }
        case 8: {
            if (doc.colliders().empty()) return false;
            const auto i = std::uniform_int_distribution<std::size_t>(0, doc.colliders().size() - 1)(rng);
            Collider c = doc.colliders()[i];
            c.pose.position.x += std::uniform_real_distribution<float>(-0.5f, 0.5f)(rng);
            c.restitution = std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);
            return doc.set_collider(i, c, std::uniform_int_distribution<int>(0, 1)(rng) == 1, "move collider");
        }
        case 9: {
            if (doc.colliders().empty()) return false;
            return doc.remove_collider(std::uniform_int_distribution<std::size_t>(0, doc.colliders().size() - 1)(rng));
        }
        default:
            doc.seal();
            return false;
    }
}

bool same_colliders(const std::vector<Collider>& a, const std::vector<Collider>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same_collider);
}

}  // namespace

TEST(Editing, anyEditSequenceUndoneGivesBackTheLoadedModelExactly) {
    for (std::uint32_t seed = 1; seed <= 20; ++seed) {
        Document doc(small_cloth(), {}, false);
        const Model loaded = doc.model();
        std::mt19937 rng(seed);
        for (int i = 0; i < 60; ++i) random_edit(doc, rng);
        const Model edited = doc.model();
        const std::vector<Collider> edited_colliders = doc.colliders();
        const std::size_t entries = doc.history_size();
        ASSERT_GT(entries, 10u) << "seed " << seed;
        for (std::size_t i = 0; i < entries; ++i) ASSERT_TRUE(doc.undo()) << "seed " << seed;
        EXPECT_FALSE(doc.undo());
        EXPECT_EQ(doc.model(), loaded) << "seed " << seed;
        EXPECT_TRUE(doc.colliders().empty()) << "seed " << seed;
        EXPECT_FALSE(doc.dirty());
        while (doc.redo()) {
        }
        EXPECT_EQ(doc.model(), edited) << "seed " << seed;
        EXPECT_TRUE(same_colliders(doc.colliders(), edited_colliders)) << "seed " << seed;
        EXPECT_NO_THROW(validate(doc.model()));
    }
}

TEST(Editing, addSpringUsesRestDistanceAndRefusesDuplicatesSelfAndRange) {
    Model m = make_string({.nodes = 4, .length = 3.0f});
    m.springs.clear();
    Document doc(m, {}, false);
    EXPECT_TRUE(doc.add_spring(0, 2));
    ASSERT_EQ(doc.model().springs.size(), 1u);
    EXPECT_FLOAT_EQ(doc.model().springs[0].rest, 2.0f);
    EXPECT_FALSE(doc.add_spring(2, 0));  // same pair
    EXPECT_FALSE(doc.add_spring(1, 1));
    EXPECT_FALSE(doc.add_spring(1, 4));
    EXPECT_EQ(doc.history_size(), 1u);
    EXPECT_STREQ(doc.undo_name(), "add spring");
}

TEST(Editing, addSpringRefusesCoincidentNodes) {
    Model m = make_string({.nodes = 3});
    m.positions[2] = m.positions[0];
    m.springs.clear();
    Document doc(m, {}, false);
    EXPECT_FALSE(doc.add_spring(0, 2));
    EXPECT_FALSE(doc.dirty());
}

TEST(Editing, removeSpringsThenUndoRestoresTheirOrder) {
    Document doc(small_cloth(), {}, false);
    const auto before = doc.model().springs;
    const std::uint32_t picked[] = {7, 2, 7, 11};
    ASSERT_TRUE(doc.remove_springs(picked));
    EXPECT_EQ(doc.model().springs.size(), before.size() - 3);
    EXPECT_EQ(doc.model().springs[2], before[3]);
    const std::uint32_t out_of_range[] = {static_cast<std::uint32_t>(before.size())};
    EXPECT_FALSE(doc.remove_springs(out_of_range));
    ASSERT_TRUE(doc.undo());
    EXPECT_EQ(doc.model().springs, before);
}

TEST(Editing, bulkAnchorSkipsAnchoredNodesAndUnanchorKeepsTheOthersInOrder) {
    Document doc(small_cloth(), {}, false);  // top corners: nodes 0 and 4
    ASSERT_EQ(doc.model().anchors.size(), 2u);
    const std::uint32_t box[] = {3, 4, 5, 3};
    ASSERT_TRUE(doc.set_anchored(box, true));
    ASSERT_EQ(doc.model().anchors.size(), 4u);
    EXPECT_EQ(doc.model().anchors[2].node, 3u);
    EXPECT_EQ(doc.model().anchors[3].node, 5u);
    EXPECT_EQ(doc.model().anchors[2].drive, AnchorDrive::fixed);
    EXPECT_FALSE(doc.set_anchored(box, true));  // nothing new
    const std::uint32_t drop[] = {4, 3};
    ASSERT_TRUE(doc.set_anchored(drop, false));
    ASSERT_EQ(doc.model().anchors.size(), 2u);
    EXPECT_EQ(doc.model().anchors[0].node, 0u);
    EXPECT_EQ(doc.model().anchors[1].node, 5u);
    EXPECT_TRUE(doc.toggle_anchor(0));
    EXPECT_EQ(doc.model().anchors.size(), 1u);
    EXPECT_STREQ(doc.undo_name(), "un-anchor");
}

TEST(Editing, oneSliderDragIsOneUndoEntry) {
    Document doc(small_cloth(), {}, false);
    const Parameters start = doc.model().params;
    Parameters p = start;
    for (float k : {1100.0f, 1200.0f, 1300.0f}) {
        p.k = k;
        ASSERT_TRUE(doc.set_parameters(p, true));
    }
    EXPECT_EQ(doc.history_size(), 1u);
    doc.seal();
    p.k = 1400.0f;
    ASSERT_TRUE(doc.set_parameters(p, true));
    EXPECT_EQ(doc.history_size(), 2u);
    doc.undo();
    EXPECT_EQ(doc.model().params.k, 1300.0f);
    doc.undo();
    EXPECT_EQ(doc.model().params, start);
}

TEST(Editing, invalidParametersAreRefused) {
    Document doc(small_cloth(), {}, false);
    Parameters p = doc.model().params;
    p.mass = 0.0f;
    EXPECT_FALSE(doc.set_parameters(p));
    p = doc.model().params;
    p.energy_loss = 1.5f;
    EXPECT_FALSE(doc.set_parameters(p));
    const std::uint32_t s[] = {0};
    EXPECT_FALSE(doc.set_spring_k(s, -1.0f));
    EXPECT_FALSE(doc.set_spring_k(s, NAN));
    EXPECT_EQ(doc.history_size(), 0u);
}

TEST(Editing, springKOfSelectedSpringsMergesWhileDraggingTheSameSprings) {
    Document doc(small_cloth(), {}, false);
    const std::uint32_t a[] = {1, 3};
    const std::uint32_t b[] = {4};
    ASSERT_TRUE(doc.set_spring_k(a, 500.0f, true));
    ASSERT_TRUE(doc.set_spring_k(a, 600.0f, true));
    ASSERT_TRUE(doc.set_spring_k(b, 600.0f, true));  // other springs: a new entry
    EXPECT_EQ(doc.history_size(), 2u);
    EXPECT_EQ(doc.model().springs[1].k, 600.0f);
    EXPECT_EQ(doc.model().springs[4].k, 600.0f);
    EXPECT_FLOAT_EQ(doc.model().spring_k(doc.model().springs[1]), 600.0f);
}

TEST(Editing, dirtyFollowsTheSavedStateThroughUndoAndRedo) {
    TempDir dir;
    const fs::path file = dir.path() / "cloth.json";
    save_model(small_cloth(), file);
    Document doc = Document::open(file);
    EXPECT_FALSE(doc.dirty());
    ASSERT_TRUE(doc.toggle_anchor(7));
    EXPECT_TRUE(doc.dirty());
    doc.undo();
    EXPECT_FALSE(doc.dirty());
    doc.redo();
    doc.save();
    EXPECT_FALSE(doc.dirty());
    EXPECT_EQ(load_model(file), doc.model());
    doc.undo();
    EXPECT_TRUE(doc.dirty());
    ASSERT_TRUE(doc.add_spring(0, 19));  // the saved state's branch is gone
    doc.undo();
    EXPECT_TRUE(doc.dirty());
}

TEST(Editing, importedModelIsUnsavedAndSaveNeedsAName) {
    Document doc(small_cloth(), "meshes/flag.json", true);
    EXPECT_TRUE(doc.dirty());
    EXPECT_TRUE(doc.path().empty());
    EXPECT_EQ(doc.display_name(), "flag.json (untitled)");
    EXPECT_THROW(doc.save(), Error);
    TempDir dir;
    doc.save_as(dir.path() / "flag.json");
    EXPECT_FALSE(doc.dirty());
    EXPECT_EQ(doc.path(), dir.path() / "flag.json");
}

TEST(Editing, saveAsRefusesANameForNoModelForm) {
    Document doc(small_cloth(), "meshes/flag.json", true);
    TempDir dir;
    for (const char* name : {"flag.txt", "flag"}) {
        const fs::path path = dir.path() / name;
        try {
            doc.save_as(path);
            ADD_FAILURE() << name << " was saved";
        } catch (const Error& e) {
            EXPECT_EQ(std::string(e.what()),
                      "Save As " + path.string() + ": a model is written as .json or .skb (the binary form), chosen by "
                      "the extension; " + (fs::path(name).has_extension() ? "not .txt" : "this name has none"));
        }
        EXPECT_FALSE(fs::exists(path));
    }
    EXPECT_TRUE(doc.dirty());
    doc.save_as(dir.path() / "flag.skb");
    EXPECT_EQ(load_model(dir.path() / "flag.skb").springs.size(), small_cloth().springs.size());
}

TEST(Editing, saveAsElsewhereKeepsARelativeTexturePointingAtTheImage) {
    TempDir dir;
    fs::create_directories(dir.path() / "meshes" / "textures");
    fs::create_directories(dir.path() / "models");
    Model m = small_cloth();
    m.texture = "textures/flag.png";
    Document doc(m, dir.path() / "meshes" / "flag.json", true);
    doc.save_as(dir.path() / "models" / "flag.json");
    EXPECT_EQ(doc.model().texture, "../meshes/textures/flag.png");
    EXPECT_EQ(load_model(dir.path() / "models" / "flag.json").texture, "../meshes/textures/flag.png");
    EXPECT_THROW(doc.save_as(dir.path() / "missing" / "flag.json"), Error);
    EXPECT_EQ(doc.model().texture, "../meshes/textures/flag.png");  // unchanged by the failed save
}

TEST(Editing, fileThatFailsToLoadIsNotTouched) {
    TempDir dir;
    const fs::path file = dir.path() / "broken.json";
    const std::string text = "{\"format\": \"springkit\", \"version\": 1, \"positions\": [1, 2";
    std::ofstream(file) << text;
    try {
        Document::open(file);
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("broken.json"), std::string::npos) << e.what();
    }
    EXPECT_EQ(read_file(file), text);
}

TEST(Editing, saveAsIntoAMissingFolderFailsAndKeepsTheDocument) {
    Document doc(small_cloth(), {}, true);
    TempDir dir;
    EXPECT_THROW(doc.save_as(dir.path() / "no" / "such" / "x.json"), Error);
    EXPECT_TRUE(doc.path().empty());
    EXPECT_TRUE(doc.dirty());
}

TEST(Editing, unsavedChangesGuardAsksOnlyWhenDirty) {
    Document doc(small_cloth(), {}, false);
    UnsavedChangesGuard guard;
    const CloseRequest quit{CloseRequest::Kind::quit, {}, {}};
    EXPECT_EQ(guard.request(doc, quit), quit);
    EXPECT_FALSE(guard.pending());

    doc.toggle_anchor(3);
    const CloseRequest open{CloseRequest::Kind::open, "other.json", {}};
    EXPECT_FALSE(guard.request(doc, open));
    EXPECT_EQ(guard.pending(), open);
    EXPECT_FALSE(guard.answer(CloseAnswer::cancel));
    EXPECT_FALSE(guard.pending());

    EXPECT_FALSE(guard.request(doc, open));
    EXPECT_EQ(guard.answer(CloseAnswer::discard), open);
    EXPECT_FALSE(guard.pending());
}

TEST(Editing, unsavedChangesGuardGoesAheadOnlyAfterASuccessfulSave) {
    TempDir dir;
    Document doc(small_cloth(), {}, true);
    UnsavedChangesGuard guard;
    const CloseRequest quit{CloseRequest::Kind::quit, {}, {}};
    EXPECT_FALSE(guard.request(doc, quit));
    EXPECT_FALSE(guard.answer(CloseAnswer::save));
    EXPECT_TRUE(guard.pending());
    // Save As was cancelled (or failed): the document is still dirty, nothing happens.
    EXPECT_FALSE(guard.saved(doc));
    EXPECT_FALSE(guard.request(doc, quit));
    guard.answer(CloseAnswer::save);
    doc.save_as(dir.path() / "m.json");
    EXPECT_EQ(guard.saved(doc), quit);
}

TEST(Editing, autosaveWritesAfterTheIntervalAndRecoversTheEdits) {
    TempDir dir;
    const fs::path file = dir.path() / "cloth.json";
    save_model(small_cloth(), file);
    Document doc = Document::open(file);
    Autosaver autosaver(dir.path() / "state", 30.0);
    const fs::path autosave = autosave_path(file, autosaver.state_dir());
    EXPECT_EQ(autosave, dir.path() / ".cloth.json.autosave");

    EXPECT_FALSE(autosaver.tick(doc, 0.0));  // clean: nothing to keep
    doc.toggle_anchor(9);
    EXPECT_FALSE(autosaver.tick(doc, 1.0));
    EXPECT_FALSE(autosaver.tick(doc, 20.0));
    EXPECT_FALSE(fs::exists(autosave));
    EXPECT_TRUE(autosaver.tick(doc, 31.5));
    ASSERT_TRUE(fs::exists(autosave));
    EXPECT_FALSE(autosaver.tick(doc, 100.0));  // unchanged since

    // A crash now: the next session finds the autosave newer than the file.
    fs::last_write_time(file, fs::last_write_time(autosave) - std::chrono::seconds(10));
    const auto found = find_recovery(file, autosaver.state_dir());
    ASSERT_TRUE(found);
    Document next = Document::open(file);
    next.recover(load_model(*found));
    EXPECT_EQ(next.model(), doc.model());
    EXPECT_TRUE(next.dirty());
    EXPECT_EQ(next.path(), file);

    // Undoing back to the saved state makes the autosave pointless.
    doc.undo();
    autosaver.tick(doc, 200.0);
    EXPECT_FALSE(fs::exists(autosave));
    EXPECT_FALSE(find_recovery(file, autosaver.state_dir()));
}

TEST(Editing, autosaveOfUntitledDocumentGoesToTheStateFolder) {
    TempDir dir;
    Document doc(small_cloth(), "x.obj", true);
    Autosaver autosaver(dir.path() / "state", 5.0);
    autosaver.tick(doc, 0.0);
    EXPECT_TRUE(autosaver.tick(doc, 5.0));
    EXPECT_TRUE(fs::exists(dir.path() / "state" / "untitled.autosave"));
    EXPECT_EQ(find_recovery({}, autosaver.state_dir()), dir.path() / "state" / "untitled.autosave");
    autosaver.discard(doc);
    EXPECT_FALSE(fs::exists(dir.path() / "state" / "untitled.autosave"));
}

TEST(Editing, recentFilesAreNewestFirstWithoutDuplicatesAndBounded) {
    TempDir dir;
    RecentFiles recent;
    for (int i = 0; i < 12; ++i) {
        char name[32];  // not "m" + std::to_string(i): GCC 12 reports a false -Wrestrict
        std::snprintf(name, sizeof name, "m%d.json", i);
        recent.add(dir.path() / name);
    }
    recent.add(dir.path() / "m5.json");
    ASSERT_EQ(recent.paths().size(), RecentFiles::kMax);
    EXPECT_EQ(recent.paths()[0], dir.path() / "m5.json");
    EXPECT_EQ(recent.paths()[1], dir.path() / "m11.json");
    EXPECT_EQ(std::count(recent.paths().begin(), recent.paths().end(), dir.path() / "m5.json"), 1);
    const fs::path list = dir.path() / "state" / "recent.txt";
    ASSERT_TRUE(recent.save(list));
    EXPECT_EQ(RecentFiles::load(list).paths(), recent.paths());
    EXPECT_TRUE(RecentFiles::load(dir.path() / "missing.txt").paths().empty());
}

TEST(Editing, selectionLoopsThroughNodesAndPicksSpringEnds) {
    Selection sel;
    sel.next_node(3);
    EXPECT_EQ(sel.active_node(), 0u);
    sel.next_node(3);
    sel.next_node(3);
    sel.next_node(3);
    EXPECT_EQ(sel.active_node(), 0u);
    sel.previous_node(3);
    EXPECT_EQ(sel.active_node(), 2u);
    sel.select_node(1, SelectMode::add);
    EXPECT_EQ(spring_candidate(sel), (std::pair<std::uint32_t, std::uint32_t>{2, 1}));
    sel.select_node(2, SelectMode::toggle);
    EXPECT_EQ(sel.nodes(), std::vector<std::uint32_t>{1});
    const std::uint32_t box[] = {4, 1, 5};
    sel.select_nodes(box, SelectMode::add);
    EXPECT_EQ(sel.nodes(), (std::vector<std::uint32_t>{4, 1, 5}));
    sel.select_nodes(std::vector<std::uint32_t>{1, 6}, SelectMode::subtract);
    EXPECT_EQ(sel.nodes(), (std::vector<std::uint32_t>{4, 5}));
}

TEST(Editing, selectionForgetsSpringsWhenTheSpringCountChanges) {
    Document doc(small_cloth(), {}, false);
    Selection sel;
    sel.fit(doc.model());
    sel.select_spring(3, SelectMode::replace);
    sel.select_node(19, SelectMode::add);
    sel.fit(doc.model());
    EXPECT_TRUE(sel.has_spring(3));
    const std::uint32_t gone[] = {3};
    doc.remove_springs(gone);
    sel.fit(doc.model());
    EXPECT_TRUE(sel.springs().empty());
    EXPECT_TRUE(sel.has_node(19));
}

TEST(Editing, liveSimulationKeepsTheMotionWhenParametersChange) {
    Document doc(small_cloth(), {}, false);
    LiveSimulation live;
    live.restart(doc.model());
    for (int i = 0; i < 20; ++i) live.step(1.0f / 60.0f);
    const std::vector<Vec3> moving(live.simulation().positions().begin(), live.simulation().positions().end());
    ASSERT_NE(moving, doc.model().positions);

    Parameters p = doc.model().params;
    p.k = 2000.0f;
    doc.set_parameters(p);
    live.update_model(doc.model());
    EXPECT_EQ(live.model().params.k, 2000.0f);
    const auto now = live.simulation().positions();
    EXPECT_EQ(std::vector<Vec3>(now.begin(), now.end()), moving);
    EXPECT_GT(live.simulation().kinetic_energy(), 0.0);
}

TEST(Editing, newAnchorHoldsItsNodeWhereItIsNow) {
    Document doc(small_cloth(), {}, false);
    LiveSimulation live;
    live.restart(doc.model());
    for (int i = 0; i < 30; ++i) live.step(1.0f / 60.0f);
    const Vec3 here = live.simulation().positions()[12];
    ASSERT_NE(here, doc.model().positions[12]);
    doc.toggle_anchor(12);
    live.update_model(doc.model());
    for (int i = 0; i < 10; ++i) live.step(1.0f / 60.0f);
    EXPECT_EQ(live.simulation().positions()[12], here);
}

TEST(Editing, explosionIsCaughtAndResetRecovers) {
    Model m = small_cloth();
    m.params.k = 1e7f;  // k dt^2 / m = 800: explodes at once
    LiveSimulation live;
    live.restart(m);
    for (int i = 0; i < 30 && live.error().empty(); ++i) live.step(1.0f / 60.0f);
    ASSERT_FALSE(live.error().empty());
    EXPECT_NE(live.error().find("exploded"), std::string::npos) << live.error();
    live.reset();
    EXPECT_TRUE(live.error().empty());
    EXPECT_EQ(live.energy_history().size(), 1u);
}

TEST(Editing, draggingAnAnchorMovesIt) {
    Model m = small_cloth();
    LiveSimulation live;
    live.restart(m);
    live.pull_node(0, {0, 3, 0}, {}, 1.0f / 60.0f);
    live.step(1.0f / 60.0f);
    EXPECT_EQ(live.simulation().positions()[0], (Vec3{0, 3, 0}));
    EXPECT_TRUE(live.move_anchor(0, {1, 0, 0}));
    live.step(1.0f / 60.0f);
    EXPECT_EQ(live.simulation().positions()[0], (Vec3{1, 3, 0}));
    EXPECT_FALSE(live.move_anchor(7, {1, 0, 0}));
}

namespace {

// One free node of 0.5 kg, no gravity, no losses: only the pull moves it.
Model lone_node() {
    Model m;
    m.positions = {{0, 0, 0}};
    m.params.gravity = {0, 0, 0};
    m.params.energy_loss = 1.0f;
    m.params.mass = 0.5f;
    return m;
}

}  // namespace

TEST(Editing, pullingAFreeNodeIsASoftSpringThatNeverOvershoots) {
    LiveSimulation live;
    live.restart(lone_node());
    const float dt = 1.0f / 60.0f;
    // 1 cm away: k = m / (2 dt^2) = 900 N/m gives 9 N, under the limit (9.8 N).
    // The pull is worked out before each of the frame's n = 9 substeps (h = dt / n)
    // with c = 1.5 m / dt; symplectic Euler (v += h F / m, then x += h v) maps
    // (x - target, h v) by [[1 - a, 1 - b], [-a, 1 - b]], a = 1 / (2 n^2), b = 1.5 / n.
    const float d = 0.01f;
    const int n = 9;
    const double a = 0.5 / (n * n), b = 1.5 / n;
    double e = -d, u = 0.0;  // x - target, h v
    for (int i = 0; i < n; ++i) {
        u = (1.0 - b) * u - a * e;
        e += u;
    }
    live.pull_node(0, {d, 0, 0}, {}, dt);
    live.step(dt);
    EXPECT_NEAR(live.simulation().positions()[0].x, d + e, 1e-7);
    EXPECT_NEAR(live.simulation().velocities()[0].x, u / (dt / n), 1e-5);
    float furthest = 0.0f;
    for (int frame = 0; frame < 120; ++frame) {
        live.pull_node(0, {d, 0, 0}, {}, dt);
        live.step(dt);
        furthest = std::max(furthest, live.simulation().positions()[0].x);
    }
    EXPECT_LE(furthest, d) << "the substep map's eigenvalues are real and positive: no overshoot";
    EXPECT_NEAR(live.simulation().positions()[0].x, d, 1e-6f) << "it settles on the target";
}

TEST(Editing, anAnchorMovedByTheKeysDuringAPullIsInPlaceFromTheFramesFirstSubstep) {
    // Node 0 anchored, node 1 free 1 m from it on a spring (k = 100 N/m), no gravity
    // or losses. In one frame the keys move the anchor 5 cm along the spring and the
    // mouse pulls node 1 towards (1.01, 0, 0). The pulled frame is stepped one
    // substep at a time (LiveSimulation::step); the anchor must stand at its new
    // place from the first of them, as in a frame without a pull: the same bits as a
    // Simulation with the anchor placed first and the pull's force
    // F = k (target - x) - c v (k = m / (2 dt^2), c = 1.5 m / dt) applied before
    // each substep. An anchor that reached its place only at the end of the first
    // substep (set_anchor_target over a one-substep step) gives other bits.
    Model m;
    m.positions = {{0, 0, 0}, {1, 0, 0}};
    m.springs = {Spring{0, 1, 1.0f}};
    m.anchors = {Anchor{.node = 0}};
    m.params.gravity = {0, 0, 0};
    m.params.energy_loss = 1.0f;
    m.params.mass = 0.5f;
    m.params.k = 100.0f;
    const float dt = 1.0f / 60.0f;
    const Vec3 delta{0.05f, 0, 0}, target{1.01f, 0, 0};

    LiveSimulation live;
    live.restart(m);
    ASSERT_TRUE(live.move_anchor(0, delta));
    live.pull_node(1, target, {}, dt);
    live.step(dt);

    const auto n = substeps_per_frame(dt, m.params.max_substep);
    ASSERT_GT(n, 1u);
    auto by_hand = [&](bool placed_first) {
        Simulation sim(m);
        if (placed_first)
            sim.set_anchor_position(0, m.positions[0] + delta);
        else
            sim.set_anchor_target(0, m.positions[0] + delta);
        const float k = 0.5f * m.params.mass / (dt * dt), c = 1.5f * m.params.mass / dt;
        for (std::uint64_t i = 0; i < n; ++i) {
            const Vec3 force = (target - sim.positions()[1]) * k + (Vec3{} - sim.velocities()[1]) * c;
            EXPECT_LT(length(force), 2.0 * 1.0 * 9.80665) << "under the pull's limit";
            sim.apply_force(1, force);
            sim.step(dt / static_cast<float>(n));
        }
        return std::array{sim.positions()[0], sim.positions()[1], sim.velocities()[1]};
    };
    const auto placed = by_hand(true), late = by_hand(false);
    EXPECT_EQ(live.simulation().positions()[0], m.positions[0] + delta);
    EXPECT_EQ(live.simulation().positions()[0], placed[0]);
    EXPECT_EQ(live.simulation().positions()[1], placed[1]);
    EXPECT_EQ(live.simulation().velocities()[1], placed[2]);
    EXPECT_NE(late[1], placed[1]) << "the test tells the two apart";
}

TEST(Editing, aClothCornerHeldStillAwayFromItsPlaceIsNotPumpedFullOfEnergy) {
    // The cloth sample (400 nodes of 0.05 kg, k = 1000 N/m) hangs for 2 s; its free
    // corner is flicked 1.2 m up and out in 4 frames and held there for a second,
    // then let go. Its nodes ring against their springs at w dt > pi (dt the
    // frame): a pull held for a whole frame pumped energy into those modes (1400 J,
    // springs 4x their rest length). Worked out every substep it is a damped spring
    // in the integration: the cloth is stretched, not torn, and hardly swings.
    const Model cloth = load_model(fs::path(SPRINGKIT_SOURCE_DIR) / "samples/models/cloth.json");
    LiveSimulation live;
    live.restart(cloth);
    const float dt = 1.0f / 60.0f;
    for (int frame = 0; frame < 120; ++frame) live.step(dt);
    const std::uint32_t corner = 399;
    ASSERT_FALSE(live.anchor_of(corner));
    const Vec3 from = live.simulation().positions()[corner], to = from + Vec3{0.85f, 0.85f, 0.0f};
    double peak = 0.0, strain = 0.0;
    for (int frame = 1; frame <= 184; ++frame) {
        const float s = std::min(frame / 4.0f, 1.0f);
        if (frame <= 64) live.pull_node(corner, from + (to - from) * s, frame <= 4 ? (to - from) * (1.0f / (4 * dt)) : Vec3{}, dt);
        live.step(dt);
        ASSERT_TRUE(live.error().empty()) << live.error();
        peak = std::max(peak, live.simulation().kinetic_energy());
        strain = std::max(strain, live.health().max_strain);
    }
    std::printf("peak kinetic energy %.2f J, energy scale %.1f J, largest stretch %.3f, %.3f at the end\n", peak,
                live.energy_scale(), strain, live.health().max_strain);
    EXPECT_LT(peak, 0.2 * live.energy_scale()) << "a calm run stays within one energy scale";
    EXPECT_LT(strain, 1.0) << "no spring stretched to twice its length";
    EXPECT_LT(live.health().max_strain, 0.2) << "two seconds after letting go it hangs again";
}

TEST(Editing, aPullIsLimitedToTwiceTheModelsWeightSoItsWorkIsBounded) {
    LiveSimulation live;
    live.restart(lone_node());
    const double limit = live.max_pull_force();
    EXPECT_DOUBLE_EQ(limit, 2.0 * 0.5 * LiveSimulation::kStandardGravity);
    // A target 100 m away, dragged a further 2 m: the force is the limit, and the
    // kinetic energy gained is at most the limit times the distance the node moved.
    const float dt = 1.0f / 60.0f;
    live.pull_node(0, {100, 0, 0}, {}, dt);
    live.step(dt);
    EXPECT_NEAR(live.simulation().velocities()[0].x, limit / 0.5 * dt, 1e-4);
    for (int frame = 0; frame < 30; ++frame) {
        live.pull_node(0, {100, 0, 0}, {}, dt);
        live.step(dt);
    }
    const double moved = live.simulation().positions()[0].x;
    EXPECT_LE(live.simulation().kinetic_energy(), limit * moved * (1 + 1e-4));
}

TEST(Editing, cameraRayPassesThroughTheProjectedPoint) {
    OrbitCamera cam;
    cam.target = {0.5f, 0.2f, -0.3f};
    cam.distance = 4.0f;
    const Viewport vp{10, 20, 800, 600};
    const Vec3 p{0.8f, 0.6f, 0.1f};
    const auto s = project(cam.view_projection(vp), vp, p);
    ASSERT_TRUE(s);
    const Ray ray = cam.ray(vp, s->x, s->y);
    const Vec3 to_p = p - ray.origin;
    const float along = dot(to_p, ray.direction);
    EXPECT_NEAR(length(to_p - ray.direction * along), 0.0f, 1e-4f);
    const auto centre = project(cam.view_projection(vp), vp, cam.target);
    ASSERT_TRUE(centre);
    EXPECT_NEAR(centre->x, 410.0f, 1e-3f);
    EXPECT_NEAR(centre->y, 320.0f, 1e-3f);
}

TEST(Editing, aTriangleMayCoverAPixelOnlyWhenItsBoxHoldsAPixelCentre) {
    // Pixel centres lie at (k + 0.5, l + 0.5) from the viewport's corner.
    auto covers = [](std::array<float, 6> c, float margin) {
        const float x[3] = {c[0], c[2], c[4]}, y[3] = {c[1], c[3], c[5]};
        return may_cover_pixel(x, y, margin);
    };
    EXPECT_FALSE(covers({0.1f, 0.1f, 0.4f, 0.1f, 0.1f, 0.4f}, 0.0f)) << "inside pixel (0, 0), short of its centre";
    EXPECT_TRUE(covers({0.4f, 0.4f, 0.6f, 0.4f, 0.5f, 0.6f}, 0.0f)) << "around the centre (0.5, 0.5)";
    EXPECT_FALSE(covers({0.2f, 0.6f, 5.0f, 0.7f, 0.2f, 0.7f}, 0.0f)) << "five pixels long, between two rows of centres";
    EXPECT_TRUE(covers({0.2f, 0.6f, 5.0f, 1.6f, 0.2f, 0.7f}, 0.0f)) << "the same sliver, reaching the row at y = 1.5";
    EXPECT_TRUE(covers({0.5f, 0.2f, 0.9f, 0.5f, 0.5f, 0.5f}, 0.0f)) << "a centre on the box's edge counts";
    EXPECT_FALSE(covers({0.52f, 0.1f, 0.9f, 0.45f, 0.6f, 0.3f}, 0.0f));
    EXPECT_TRUE(covers({0.52f, 0.1f, 0.9f, 0.45f, 0.6f, 0.3f}, 1.0f / 16.0f)) << "the margin widens the box";
    EXPECT_FALSE(covers({99.4f, 7.6f, 100.4f, 7.9f, 99.7f, 8.4f}, 0.0f)) << "x holds 99.5, y neither 7.5 nor 8.5";
    EXPECT_TRUE(covers({99.4f, 7.6f, 100.4f, 7.9f, 99.7f, 8.6f}, 0.0f)) << "and now y holds 8.5";
}

TEST(Editing, planarShadowPutsPointsOnTheGround) {
    const Mat4 shadow = planar_shadow({0, -1, 0}, {0, 1, 0}, normalized(Vec3{1, 2, 0}));
    float out[4];
    transform(shadow, {0, 3, 0}, out);
    EXPECT_NEAR(out[1] / out[3], -1.0f, 1e-5f);
    EXPECT_NEAR(out[0] / out[3], -2.0f, 1e-5f);  // 4 m above the plane, light 1 across per 2 up
}

TEST(Editing, pickingFindsTheNearestNodeSpringAndBoxContents) {
    OrbitCamera cam;
    cam.yaw = 0;
    cam.pitch = 0;
    cam.distance = 5;
    const Viewport vp{0, 0, 400, 400};
    const Mat4 vp_matrix = cam.view_projection(vp);
    const std::vector<Vec3> nodes{{-1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, -3}};
    const auto a = project(vp_matrix, vp, nodes[1]);
    ASSERT_TRUE(a);
    EXPECT_EQ(pick_node(nodes, vp_matrix, vp, a->x + 2, a->y - 1, 8), 1u);
    EXPECT_FALSE(pick_node(nodes, vp_matrix, vp, 200, 300, 8));
    const std::vector<Spring> springs{{0, 2, 1}, {0, 1, 2}};
    EXPECT_EQ(pick_spring(springs, nodes, vp_matrix, vp, 200, 200, 4), 1u);  // through the middle
    const auto in = nodes_in_rect(nodes, vp_matrix, vp, 190, 400, 0, 0);
    EXPECT_EQ(in, std::vector<std::uint32_t>{0});
}

TEST(Editing, floorIsTheGroundOrBelowWhatTheAnchorsLetTheModelReach) {
    Model rope = make_tunca_rope();  // ground at y = -1.5
    EXPECT_EQ(floor_height(rope), -1.5f);
    EXPECT_LE(framing_bounds(rope).min.y, -1.5f);

    Model cloth = small_cloth();  // anchored at y = 1, 2 m wide: hangs down to about y = -1
    const float diagonal = bounds(cloth).diagonal();
    EXPECT_NEAR(floor_height(cloth), 1.0f - 1.05f * diagonal, 1e-5f);
    EXPECT_LT(framing_bounds(cloth).min.y, bounds(cloth).min.y);
}

// ------------------------------------------------------------ texture files

namespace {

// A PNG whose header claims `width` x `height` pixels, with no pixel data: what a
// decoder reads before it allocates (stb_image does not check the CRCs).
std::string png_header_claiming(std::uint32_t width, std::uint32_t height) {
    auto big_endian = [](std::uint32_t v) {
        return std::string{static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
                           static_cast<char>(v)};
    };
    std::string png("\x89PNG\r\n\x1a\n", 8);
    png += big_endian(13) + "IHDR" + big_endian(width) + big_endian(height);
    png += std::string("\x08\x06\x00\x00\x00", 5);  // 8 bits, RGBA, deflate, no filter, no interlace
    png += big_endian(0);                                // CRC (not checked)
    png += big_endian(0) + "IEND" + big_endian(0);
    return png;
}

}  // namespace

TEST(TextureImage, ReadsTheSampleTextureBottomRowFirst) {
    const TextureImage image = read_texture_image(fs::path(SPRINGKIT_SOURCE_DIR) / "samples/models/cloth.png");
    ASSERT_GT(image.width, 0);
    ASSERT_GT(image.height, 0);
    EXPECT_EQ(image.rgba.size(), static_cast<std::size_t>(image.width) * image.height * 4);
}

TEST(TextureImage, AHugeImageIsRefusedFromItsHeaderBeforeDecoding) {
    const springkit::test::TempDir dir;
    const fs::path file = dir.path() / "huge.png";
    std::ofstream(file, std::ios::binary) << png_header_claiming(16384, 16384);
    try {
        read_texture_image(file);
        FAIL() << "a 16384 x 16384 texture was read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(file.string() + ": texture of 16384 x 16384 pixels is larger than"),
                  std::string::npos)
            << e.what();
    }
}

TEST(TextureImage, APipeOrFolderIsNotOpened) {
    const springkit::test::TempDir dir;
    const fs::path fifo = dir.path() / "pipe.png";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const fs::path& path : {fifo, dir.path()}) {
        try {
            read_texture_image(path);  // opening the FIFO would block here for ever
            FAIL() << path << " was read";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("is not a regular file"), std::string::npos) << e.what();
        }
    }
    try {
        read_texture_image(dir.path() / "missing.png");
        FAIL() << "a missing texture was read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("missing.png: texture not found"), std::string::npos) << e.what();
    }
}

TEST(Editing, motionBoundsHoldEverywhereTheModelHasBeenUntilReset) {
    Model m = small_cloth();
    m.anchors.clear();  // it falls freely
    LiveSimulation live;
    live.restart(m);
    const Bounds start = bounds(m);
    EXPECT_EQ(live.motion_bounds().min, start.min);
    EXPECT_EQ(live.motion_bounds().max, start.max);
    for (int i = 0; i < 60; ++i) live.step(1.0f / 60.0f);
    const Bounds now = live.simulation().bounds();
    EXPECT_LT(now.max.y, start.min.y) << "a second of free fall: below where it started";
    EXPECT_EQ(live.motion_bounds().max.y, start.max.y);
    EXPECT_EQ(live.motion_bounds().min.y, now.min.y);
    live.reset();
    EXPECT_EQ(live.motion_bounds().min, start.min);

    const std::vector<Vec3> points{{0, 0, 0}, {1, 2, 3}, {-1, 5, 0}};
    const std::uint32_t two[] = {0, 2};
    const Bounds some = bounds_of(points, two);
    EXPECT_EQ(some.min, (Vec3{-1, 0, 0}));
    EXPECT_EQ(some.max, (Vec3{0, 5, 0}));
    EXPECT_EQ(bounds_of(points, {}).max, (Vec3{1, 5, 3}));
}
