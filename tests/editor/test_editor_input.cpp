// springkit-editor driven by recorded input (--input-script) under xvfb-run:
// clicks, box selection, keys, a typed value, undo and save go through the
// window's GLFW callbacks as a person's would, and the tests check the file the
// editor saved and the screenshots it took. Where a node is on screen is worked
// out with the editor's own camera and layout (app/view), as the editor frames a
// model on opening.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <fstream>
#include <sstream>
#include <string>

#include "editing/collider_shapes.hpp"
#include "editing/document.hpp"
#include "editor_process.hpp"
#include "editor_view.hpp"
#include "springkit/builders.hpp"
#if SPRINGKIT_EDITOR_HAS_IMPORT
#include "springkit/import.hpp"
#endif
#include "springkit/io.hpp"
#include "springkit/scene_file.hpp"
#include "springkit/simulation.hpp"
#include "support/test_files.hpp"
#include "ui/widgets.hpp"
#include "view/camera.hpp"
#include "view/picking.hpp"

namespace fs = std::filesystem;
using namespace springkit;
using namespace springkit::editor;
using springkit::test::TempDir;
using namespace springkit::test::editor;

namespace {

constexpr int kWidth = 960, kHeight = 600;
// The Physics panel's k field with nothing selected (its row in the tools panel).
constexpr float kFieldX = 83.0f, kFieldY = 231.0f;

std::string size_args() { return springkit::test::editor::size_args(kWidth, kHeight); }

// The view the editor opens a model with, in this file's window.
OpeningView opening_view(const Model& model) { return OpeningView(model, kWidth, kHeight); }

// A horizontal 5 x 5 cloth held at nodes 0 and 4.
Model small_cloth() {
    ClothSpec spec;
    spec.columns = 5;
    spec.rows = 5;
    return make_cloth(spec);
}

std::optional<std::size_t> spring_between(const Model& m, std::uint32_t a, std::uint32_t b) {
    for (std::size_t i = 0; i < m.springs.size(); ++i)
        if ((m.springs[i].a == a && m.springs[i].b == b) || (m.springs[i].a == b && m.springs[i].b == a)) return i;
    return std::nullopt;
}

std::vector<std::uint32_t> anchored_nodes(const Model& m) {
    std::vector<std::uint32_t> nodes;
    for (const Anchor& a : m.anchors) nodes.push_back(a.node);
    std::sort(nodes.begin(), nodes.end());
    return nodes;
}

// The share of the pixels within `radius` of (x, y) that `match` accepts.
template <class Match>
double share_near(const Image& image, ScreenPoint p, int radius, Match match) {
    int hits = 0, all = 0;
    for (int y = static_cast<int>(p.y) - radius; y <= static_cast<int>(p.y) + radius; ++y)
        for (int x = static_cast<int>(p.x) - radius; x <= static_cast<int>(p.x) + radius; ++x) {
            if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
            ++all;
            hits += match(image.at(x, y)) ? 1 : 0;
        }
    return all == 0 ? 0.0 : static_cast<double>(hits) / all;
}

// The selection's yellow (scene_renderer.cpp kSelectedColor 1, 0.9, 0.2) and the
// anchors' orange (kAnchorColor 1, 0.55, 0.1).
bool yellow(const unsigned char* p) { return p[0] > 220 && p[1] > 190 && p[2] < 110; }
bool orange(const unsigned char* p) { return p[0] > 220 && p[1] > 110 && p[1] < 170 && p[2] < 70; }

}  // namespace

TEST(EditorInput, clickBoxSelectAddDeleteAnchorTypeUndoSaveAndReopen) {
    TempDir dir;
    const Model original = small_cloth();
    const fs::path file = dir.path() / "cloth.json";
    save_model(original, file);
    const OpeningView view = opening_view(original);
    auto node = [&](std::uint32_t i) { return view.at(original.positions[i]); };

    // Preconditions of the script: each click lands where it means to.
    const auto edge = spring_between(original, 1, 2);
    ASSERT_TRUE(edge);
    ASSERT_FALSE(spring_between(original, 6, 18));
    const ScreenPoint a = node(1), b = node(2);
    const ScreenPoint middle{(a.x + b.x) / 2, (a.y + b.y) / 2, 0};
    const auto hit = pick(original.positions, original.springs, view.matrix, view.viewport, middle.x, middle.y);
    ASSERT_TRUE(hit);
    EXPECT_EQ(to_string(*hit), "spring " + std::to_string(*edge)) << "the edge, not the bend springs over it";
    // A box around nodes 23 and 24 (the far right corner of the last row), started
    // on empty space beyond the corner.
    const ScreenPoint n23 = node(23), n24 = node(24);
    const float left = std::min(n23.x, n24.x) - 8, right = std::max(n23.x, n24.x) + 8;
    const float top = std::min(n23.y, n24.y) - 8, bottom = std::max(n23.y, n24.y) + 8;
    const ScreenPoint from{n24.x > n23.x ? right : left, n24.y > n23.y ? bottom : top, 0};
    const ScreenPoint to{n24.x > n23.x ? left : right, n24.y > n23.y ? top : bottom, 0};
    ASSERT_FALSE(pick(original.positions, original.springs, view.matrix, view.viewport, from.x, from.y));
    ASSERT_EQ(nodes_in_rect(original.positions, view.matrix, view.viewport, from.x, from.y, to.x, to.y),
              (std::vector<std::uint32_t>{23, 24}));

    const fs::path boxed = dir.path() / "boxed.png", added = dir.path() / "added.png";
    const fs::path anchored = dir.path() / "anchored.png", help = dir.path() / "help.png";
    std::ostringstream script;
    script << "# select nodes 6 and 18 and join them with a spring\n"
           << "click left " << xy(node(6)) << "\n"
           << "keydown shift\nclick left " << xy(node(18)) << "\nkeyup shift\n"
           << "key f\n"
           << "screenshot " << added.string() << "\n"
           << "# anchor node 12\n"
           << "click left " << xy(node(12)) << "\nkey p\n"
           << "# box-select nodes 23 and 24 from empty space and anchor them\n"
           << "drag left " << xy(from) << " " << xy(to) << " 6\n"
           << "screenshot " << boxed.string() << "\n"
           << "key p\nwait 1\nscreenshot " << anchored.string() << "\n"
           << "key f1\nwait 1\nscreenshot " << help.string() << "\nkey f1\n"
           << "# click the spring 1-2 half way along and delete it\n"
           << "click left " << xy(middle) << "\nkey delete\nkey escape\n"
           << "# type k = 2500 into the Physics panel (Ctrl+click edits the number)\n"
           << "keydown ctrl\nclick left " << kFieldX << " " << kFieldY << "\nkeyup ctrl\n"
           << "type 2500\nkey enter\nwait 2\n"
           << "# anchor everything, then take it back with a Ctrl+Z pressed and let go\n"
           << "# between two frames (as at 3 frames a second)\n"
           << "key a\nkey p\nkeydown ctrl\nkeydown z\nkeyup z\nkeyup ctrl\nwait 1\n"
           << "key ctrl+s\nwait 2\n";
    const fs::path script_file = dir.path() / "edit.txt";
    std::ofstream(script_file) << script.str();

    const EditorRun run = run_editor("'" + file.string() + "' --paused --input-script '" + script_file.string() + "'" +
                                         size_args(),
                                     dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;

    const Model saved = load_model(file);
    EXPECT_EQ(saved.params.k, 2500.0f) << "the typed k";
    EXPECT_EQ(saved.springs.size(), original.springs.size()) << "one spring added, one deleted";
    EXPECT_TRUE(spring_between(saved, 6, 18));
    EXPECT_FALSE(spring_between(saved, 1, 2));
    EXPECT_EQ(anchored_nodes(saved), (std::vector<std::uint32_t>{0, 4, 12, 23, 24}))
        << "anchoring everything was undone";

    // While the box's nodes were selected, they were drawn yellow (the active one,
    // 24, with a white centre), their neighbour not.
    const Image box = load_png(boxed);
    ASSERT_EQ(box.width, kWidth);
    EXPECT_GT(share_near(box, n23, 4, yellow), 0.3);
    EXPECT_GT(share_near(box, n24, 4, yellow), 0.3);
    EXPECT_EQ(share_near(box, node(22), 4, yellow), 0.0);

    // The new spring 6-18 is selected and drawn yellow over the others: a quarter
    // of the way along it (on the shear spring 6-12 it crosses the cell with).
    const Image with_spring = load_png(added);
    const ScreenPoint n6 = node(6), n18 = node(18);
    const ScreenPoint quarter{n6.x + (n18.x - n6.x) * 0.25f, n6.y + (n18.y - n6.y) * 0.25f, 0};
    EXPECT_GT(share_near(with_spring, quarter, 1, yellow), 0.5) << "3 px wide";
    EXPECT_EQ(share_near(box, quarter, 1, yellow), 0.0) << "no longer selected once the box replaced the selection";
    // Node 12, an anchor not selected: orange with no ring.
    EXPECT_GT(share_near(box, node(12), 2, orange), 0.5);
    EXPECT_EQ(share_near(box, node(12), 5, yellow), 0.0);
    // Anchored while selected: an orange dot in a yellow ring.
    const Image ringed = load_png(anchored);
    EXPECT_GT(share_near(ringed, n23, 2, orange), 0.5);
    EXPECT_GT(share_near(ringed, n23, 5, yellow), 0.2);

    // The strain legend in the viewport's bottom left: from blue to red.
    auto legend_share = [&](const Image& image, bool red) {
        const ScreenPoint corner{view.viewport.x + 90, view.viewport.y + view.viewport.height - 15, 0};
        return share_near(image, corner, 80, [&](const unsigned char* p) {
            return red ? p[0] > 220 && p[1] < 90 && p[2] < 90 : p[2] > 220 && p[0] < 90 && p[1] < 90;
        });
    };
    EXPECT_GT(legend_share(box, true), 0.002);
    EXPECT_GT(legend_share(box, false), 0.002);

    // F1 opens the help: a window with ImGui's active title bar colour (41, 74, 122).
    auto title_bar = [](const unsigned char* p) { return p[0] == 41 && p[1] == 74 && p[2] == 122; };
    const ScreenPoint centre{kWidth / 2.0f, kHeight / 2.0f, 0};
    EXPECT_GT(share_near(load_png(help), centre, 299, title_bar), 0.02);
    EXPECT_EQ(share_near(box, centre, 299, title_bar), 0.0);

    // Reopened, the model shows its anchors where they were put.
    const fs::path reopened = dir.path() / "reopened.png";
    ASSERT_EQ(run_editor("'" + file.string() + "' --paused --frames 2 --screenshot '" + reopened.string() + "'" +
                             size_args(),
                         dir.path())
                  .exit_code,
              0);
    const Image again = load_png(reopened);
    for (std::uint32_t n : {12u, 23u, 24u}) EXPECT_GT(share_near(again, node(n), 2, orange), 0.5) << "node " << n;
    EXPECT_EQ(share_near(again, node(6), 2, orange), 0.0);
}

namespace {

struct EnergyReport {
    double peak = -1, last = -1, strain = -1;
};

// The line --stats prints: "kinetic energy J: peak P, last L; largest stretch last frame S".
EnergyReport energy_report(const std::string& out) {
    EnergyReport r;
    const std::size_t at = out.find("kinetic energy J:");
    if (at == std::string::npos ||
        std::sscanf(out.c_str() + at, "kinetic energy J: peak %lf, last %lf; largest stretch last frame %lf", &r.peak,
                    &r.last, &r.strain) != 3)
        ADD_FAILURE() << "no energy line in: " << out;
    return r;
}

// A 2 m cloth of 10 x 10 nodes (5 kg) hanging from its top corners, saved to `file`.
Model saved_hanging_cloth(const fs::path& file) {
    ClothSpec spec;
    spec.columns = 10;
    spec.rows = 10;
    spec.vertical = true;
    Model cloth = make_cloth(spec);
    save_model(cloth, file);
    return cloth;
}

// That cloth saved in a folder of the test's own, the view the editor opens it
// with, and its free bottom corner (node kCorner) on the screen.
struct HangingCloth {
    static constexpr std::uint32_t kCorner = 99;
    TempDir dir;
    fs::path file = dir.path() / "cloth.json";
    Model cloth = saved_hanging_cloth(file);
    OpeningView view = opening_view(cloth);
    ScreenPoint corner = view.at(cloth.positions[kCorner]);
};

}  // namespace

TEST(EditorInput, pullingAClothCorner150PixelsKeepsTheEnergyBoundedAndTheClothWhole) {
    // A 2 m cloth of 10 x 10 nodes (5 kg) hanging from its top corners; the mouse
    // grabs the free bottom corner, pulls it 150 px sideways in 10 frames and
    // lets go; two seconds later the cloth is looked at again. The pull is a soft spring limited to twice the
    // cloth's weight (LiveSimulation::pull_node), so the energy it puts in is at
    // most F_max times the distance the mouse's target travels.
    const HangingCloth scene;
    const auto& [dir, file, cloth, view, start] = scene;
    const std::uint32_t corner = HangingCloth::kCorner;
    ASSERT_EQ(pick(cloth.positions, cloth.springs, view.matrix, view.viewport, start.x, start.y),
              (std::optional<PickHit>{PickHit{PickHit::Kind::node, corner}}));
    const ScreenPoint end{start.x + 150.0f, start.y, 0};

    // The target's path: from the corner across the plane through it facing the camera.
    const OrbitCamera& camera = view.camera;
    const Vec3 facing = normalized(camera.eye() - camera.target);
    const auto far_end = intersect_plane(camera.ray(view.viewport, end.x, end.y), cloth.positions[corner], facing);
    ASSERT_TRUE(far_end);
    const double path = length(*far_end - cloth.positions[corner]);
    const double max_force = 2.0 * 5.0 * 9.80665;  // twice the weight of 100 nodes of 0.05 kg

    const fs::path pull = dir.path() / "pull.txt", rest = dir.path() / "rest.txt";
    std::ofstream(pull) << "drag left " << xy(start) << " " << xy(end) << " 10\nwait 120\n";
    std::ofstream(rest) << "wait 132\n";
    const std::string common = "'" + file.string() + "' --stats" + size_args() + " --input-script ";
    const EditorRun pulled = run_editor(common + "'" + pull.string() + "'", dir.path());
    const EditorRun hanging = run_editor(common + "'" + rest.string() + "'", dir.path());
    ASSERT_EQ(pulled.exit_code, 0) << pulled.err;
    ASSERT_EQ(hanging.exit_code, 0) << hanging.err;
    const EnergyReport with = energy_report(pulled.out), without = energy_report(hanging.out);
    std::printf("path %.3f m, bound %.1f J; peak kinetic energy %.3f J pulled, %.3f J hanging; strain %.4f / %.4f\n",
                path, max_force * path, with.peak, without.peak, with.strain, without.strain);
    EXPECT_GT(with.peak, without.peak + 0.5) << "the pull moved the cloth";
    EXPECT_LT(with.peak, without.peak + max_force * path) << "no more energy than the pull's work";
    // The last frame's largest stretch is one sample of a cloth still swinging: it
    // goes between 7% and 21% over the last half second (5% hanging still); a torn
    // or folded-over spring is well past 100%.
    EXPECT_LT(with.strain, 0.25) << "two seconds after letting go, no spring is torn or folded over";
}

TEST(EditorInput, aNodeGrabbedAndPulledWithinOneFrameIsPulled) {
    // At 10 frames a second a quick grab and pull moves the mouse on before the
    // next frame starts: the button goes down on the free corner of the hanging
    // cloth and the cursor is 120 px left of it when the frame looks. The press is
    // where the button went down, so the corner is pulled (not a selection box
    // from empty space) and the cloth's centre of mass leaves the middle it hangs
    // in by symmetry.
    const HangingCloth scene;
    const auto& [dir, file, cloth, view, start] = scene;
    ASSERT_EQ(pick(cloth.positions, cloth.springs, view.matrix, view.viewport, start.x, start.y),
              (std::optional<PickHit>{PickHit{PickHit::Kind::node, HangingCloth::kCorner}}));
    const ScreenPoint end{start.x - 120.0f, start.y, 0};
    ASSERT_FALSE(pick(cloth.positions, cloth.springs, view.matrix, view.viewport, end.x, end.y));
    ASSERT_GT(end.x, static_cast<float>(view.viewport.x)) << "in the scene, not over a panel";
    const fs::path script = dir.path() / "grab.txt";
    std::ofstream(script) << "wait 2\npress left " << xy(start) << "\nmove " << xy(end) << "\nwait 30\nrelease left\nwait 1\n";
    const EditorRun run = run_editor("'" + file.string() + "' --stats" + size_args() + " --input-script '" +
                                         script.string() + "'",
                                     dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    double middle = 0.0;
    for (const Vec3& p : cloth.positions) middle += p.x;
    middle /= static_cast<double>(cloth.positions.size());
    const std::size_t at = run.out.find("centre of mass m:");
    double x = 0, y = 0, z = 0;
    ASSERT_TRUE(at != std::string::npos && std::sscanf(run.out.c_str() + at, "centre of mass m: %lf %lf %lf", &x, &y, &z) == 3)
        << run.out;
    EXPECT_GT(std::abs(x - middle), 0.02) << "the corner was pulled sideways";
}

TEST(EditorInput, stepsRunWhileTheFrameDrawsGiveTheSameRunAsSteppingFirst) {
    // By default a frame's steps run on a worker while the frame draws the state
    // they start from (EditorApp::frame); --sequential steps first. A pull on the
    // free corner, a pause, two single steps and play again, with a screenshot in
    // the middle (a frame that steps first either way): the inputs must reach the
    // steps at the same frame boundaries, so the two runs end in the same state to
    // the last bit of what --stats prints (17 digits).
    const HangingCloth scene;
    const auto& [dir, file, cloth, view, start] = scene;
    const fs::path script = dir.path() / "pull.txt";
    std::ofstream(script) << "drag left " << xy(start) << " " << start.x + 120.0f << " " << start.y - 40.0f
                          << " 8\nwait 3\nscreenshot " << (dir.path() / "mid.png").string()
                          << "\nwait 5\nkey space\nkey period\nwait 2\nkey period\nkey space\nwait 12\n";
    const std::string common = "'" + file.string() + "' --stats" + size_args() + " --input-script '" +
                               script.string() + "'";
    const EditorRun overlapped = run_editor(common, dir.path());
    const EditorRun sequential = run_editor(common + " --sequential", dir.path());
    ASSERT_EQ(overlapped.exit_code, 0) << overlapped.err;
    ASSERT_EQ(sequential.exit_code, 0) << sequential.err;
    auto after_timing = [](const std::string& out) {
        const std::size_t at = out.find("kinetic energy J:");
        return at == std::string::npos ? std::string() : out.substr(at);
    };
    const std::string state = after_timing(overlapped.out);
    ASSERT_FALSE(state.empty()) << overlapped.out;
    EXPECT_EQ(state, after_timing(sequential.out));
    const EnergyReport moved = energy_report(overlapped.out);
    EXPECT_GT(moved.peak, 0.1) << "the pull and gravity moved the cloth";
}

namespace {

// `model` saved in `dir`, edited by the editor (paused, this file's window) as
// `script` says, and read back: the script ends with Ctrl+S.
Model edited_by_script(const Model& model, const std::string& script, const fs::path& dir) {
    const fs::path file = dir / "cloth.json", script_file = dir / "script.txt";
    save_model(model, file);
    std::ofstream(script_file) << script << "key ctrl+s\nwait 2\n";
    const EditorRun run = run_editor("'" + file.string() + "' --paused --input-script '" + script_file.string() +
                                         "'" + size_args(),
                                     dir);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return load_model(file);
}

// The script's lines that Ctrl+click the Physics panel's k field (a text field then).
std::string ctrl_click_k_field() {
    std::ostringstream lines;
    lines << "keydown ctrl\nclick left " << kFieldX << " " << kFieldY << "\nkeyup ctrl\n";
    return lines.str();
}

}  // namespace

TEST(EditorInput, anEnterPressedAndLetGoBetweenTwoFramesStillAppliesATypedValue) {
    // A brisk key press lasts less than a frame of a heavy model (at 10 frames a
    // second, 100 ms): Enter goes down and up before the next frame. Dear ImGui
    // 1.86 only looks at whether a key is down when a frame starts, so the text
    // field never saw the Enter and k stayed as it was until the field lost focus.
    TempDir dir;
    const Model saved = edited_by_script(
        small_cloth(), "wait 2\n" + ctrl_click_k_field() + "type 2500\nkeydown enter\nkeyup enter\nwait 2\n", dir.path());
    EXPECT_EQ(saved.params.k, 2500.0f) << "Enter applied the typed k, and Ctrl+S saved it";
}

TEST(EditorInput, aCtrlChordPressedAndLetGoBetweenTwoFramesWorksInATextField) {
    // In the k field, typing 2500, then Ctrl+A goes down and up between two frames
    // (a quick hand at a low frame rate), and the 3 of 3000 comes before the next
    // frame too. Dear ImGui 1.86 reads Ctrl (io.KeyCtrl) while the field runs and
    // checks it against the modifiers NewFrame saw (io.KeyMods): Ctrl must stay
    // down for the whole frame that sees A go down. Let go halfway, the field did
    // not select all, and Dear ImGui's check stopped the editor (an assertion);
    // held down, the field drops the 3 typed after it (a character typed with
    // Ctrl down is a shortcut), unless the 3 waits for the next frame.
    TempDir dir;
    const Model saved = edited_by_script(small_cloth(),
                                         "wait 2\n" + ctrl_click_k_field() +
                                             "type 2500\nkeydown ctrl\nkeydown a\nkeyup a\nkeyup ctrl\ntype 3000\n"
                                             "key enter\nwait 2\n",
                                         dir.path());
    EXPECT_EQ(saved.params.k, 3000.0f) << "Ctrl+A selected 2500, and 3000 replaced it";
}

TEST(EditorInput, quittingWithoutSavingLeavesNoAutosaveToRecover) {
    // Anchor everything, Ctrl+Q, "Don't Save" (the dialog's middle button, centred
    // in the window) with an autosave every frame: the autosave the answer deletes
    // must not be written again before the window closes, or the next opening
    // offers to recover the edits the person dropped.
    TempDir dir;
    const fs::path file = dir.path() / "cloth.json";
    const Model original = small_cloth();
    save_model(original, file);
    const fs::path script = dir.path() / "quit.txt";
    std::ofstream(script) << "wait 2\nkey a\nkey p\nwait 2\nkey ctrl+q\nwait 2\nclick left " << kWidth / 2 << " "
                          << kHeight / 2 + 27 << "\nwait 3\n";
    const EditorRun run = run_editor("'" + file.string() + "' --paused --autosave-seconds 0 --input-script '" +
                                         script.string() + "'" + size_args(),
                                     dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(load_model(file), original) << "nothing saved";
    EXPECT_FALSE(fs::exists(dir.path() / ".cloth.json.autosave"));
    EXPECT_FALSE(fs::exists(dir.path() / ".cloth.json.scene.autosave"));
}

TEST(EditorInput, aBadScriptStopsTheEditorWithFileLineAndProblem) {
    TempDir dir;
    const fs::path script = dir.path() / "bad.txt";
    std::ofstream(script) << "wait 2\nclick left 10\n";
    const EditorRun run = run_editor("--input-script '" + script.string() + "'" + size_args(), dir.path());
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(run.err, "error: " + script.string() + ":2: click: takes a button, optionally followed by X Y\n");
}

TEST(EditorInput, aShiftClickWhoseShiftComesUpBeforeTheNextFrameStillAdds) {
    // Node 6 is selected; Shift goes down, the button goes down on node 18, and
    // the button and Shift come up together before the next frame (a quick hand,
    // or 10 frames a second). The click is carried out on the frame that sees the
    // button up, when Shift is up too: its modifiers are the ones held when the
    // button went down (the mouse-button callback's), so node 18 joins the
    // selection and F joins 6 and 18 with a spring.
    TempDir dir;
    const Model original = small_cloth();
    const OpeningView view = opening_view(original);
    ASSERT_FALSE(spring_between(original, 6, 18));
    const Model saved = edited_by_script(original,
                                         "wait 2\nclick left " + xy(view.at(original.positions[6])) +
                                             "\nkeydown shift\npress left " + xy(view.at(original.positions[18])) +
                                             "\nwait 1\nrelease left\nkeyup shift\nwait 1\nkey f\n",
                                         dir.path());
    EXPECT_TRUE(spring_between(saved, 6, 18)) << "Shift+click added node 18 to the selection";
    EXPECT_EQ(saved.springs.size(), original.springs.size() + 1);
}

TEST(EditorInput, aScriptsFirstFrameClicksThePanels) {
    // The script's first line, on frame 0: Ctrl+click the Physics panel's k field
    // and type 2500. Dear ImGui hovers a window where the frame before laid it out;
    // the editor lays its panels out once before the first frame, so the click
    // finds the field instead of falling through to the scene.
    TempDir dir;
    const Model saved = edited_by_script(small_cloth(), ctrl_click_k_field() + "type 2500\nkey enter\nwait 2\n",
                                         dir.path());
    EXPECT_EQ(saved.params.k, 2500.0f);
}

TEST(EditorInput, clickingARunningNodeWithAShakyHandDoesNotMoveTheModel) {
    // A press on the free corner of the hanging cloth, the mouse moving 3 px (under
    // the 4 px drag threshold) before the release: a click. It selects the node and
    // leaves the run bit for bit as it would have been without it.
    const HangingCloth scene;
    const auto& [dir, file, cloth, view, corner] = scene;
    const fs::path click = dir.path() / "click.txt", none = dir.path() / "none.txt";
    std::ofstream(click) << "press left " << xy(corner) << "\nwait 2\nmove " << corner.x + 3.0f << " " << corner.y
                         << "\nwait 2\nrelease left\nwait 30\n";
    std::ofstream(none) << "wait 34\n";
    const std::string common = "'" + file.string() + "' --stats" + size_args() + " --input-script ";
    const EditorRun clicked = run_editor(common + "'" + click.string() + "'", dir.path());
    const EditorRun left_alone = run_editor(common + "'" + none.string() + "'", dir.path());
    ASSERT_EQ(clicked.exit_code, 0) << clicked.err;
    ASSERT_EQ(left_alone.exit_code, 0) << left_alone.err;
    const EnergyReport a = energy_report(clicked.out), b = energy_report(left_alone.out);
    EXPECT_EQ(a.peak, b.peak);
    EXPECT_EQ(a.last, b.last);
    EXPECT_EQ(a.strain, b.strain);
}

namespace {

// The menu bar's Colliders menu and its "Add sphere" entry (960 px wide window,
// Dear ImGui's default font: File, Edit, View, Colliders, ...).
constexpr float kCollidersMenuX = 190.0f, kCollidersMenuY = 9.0f;
constexpr float kAddSphereX = 175.0f, kAddSphereY = 50.0f;

// Opens the Colliders menu (it opens on the press) and adds a sphere.
std::string add_sphere_commands() {
    std::ostringstream s;
    s << "move " << kCollidersMenuX << " " << kCollidersMenuY << "\nwait 1\npress left\nwait 2\nrelease left\nwait 2\n"
      << "click left " << kAddSphereX << " " << kAddSphereY << "\nwait 2\n";
    return s.str();
}

// "centre of mass m: X Y Z; collider contacts last step N" of --stats.
struct CentreLine {
    Vec3 centre{};
    int contacts = -1;
};
CentreLine centre_line(const std::string& out) {
    CentreLine r;
    const std::size_t at = out.find("centre of mass m:");
    if (at == std::string::npos) return r;
    std::sscanf(out.c_str() + at, "centre of mass m: %f %f %f; collider contacts last step %d", &r.centre.x,
                &r.centre.y, &r.centre.z, &r.contacts);
    return r;
}

// The colliders' blue-grey (scene_renderer.cpp kColliderColor, lit): blue above red.
// Its green and blue stand to its red as 0.56 and 0.72 to 0.42 however it is lit; the
// springs' compression blue has green and red nearly equal.
bool collider_blue(const unsigned char* p) { return p[2] > 60 && p[1] * 4 > p[0] * 5 && p[2] * 2 > p[0] * 3; }

}  // namespace

TEST(EditorInput, aSphereUnderAHangingClothHoldsItUpIsUndoneSavedBesideTheModelAndReopened) {
    TempDir dir;
    // A 9 x 9 cloth, 2 m square, hanging from its four corners: it sags in the middle.
    ClothSpec spec;
    spec.columns = spec.rows = 9;
    spec.anchors = ClothAnchors::none;
    Model cloth = make_cloth(spec);
    for (std::uint32_t corner : {0u, 8u, 72u, 80u}) cloth.anchors.push_back(Anchor{.node = corner});
    const std::uint32_t middle = 40;
    const fs::path file = dir.path() / "cloth.json";
    save_model(cloth, file);
    const OpeningView view = opening_view(cloth);
    const fs::path added = dir.path() / "added.png", undone = dir.path() / "undone.png";
    // A screenshot shows its frame after the commands that start on it: each is
    // followed by a wait before the next key.
    std::ostringstream script;
    script << "# add two spheres from the Colliders menu, take the second back\n"
           << add_sphere_commands() << add_sphere_commands() << "key ctrl+z\nwait 1\n"
           << "screenshot " << added.string() << "\nwait 1\n"
           << "# run a second and a half, take the sphere back too: the cloth sags through\n"
           << "key space\nwait 90\nkey ctrl+z\nwait 30\nscreenshot " << undone.string() << "\nwait 1\n"
           << "# redo it, start over and save: the model and the scene beside it\n"
           << "key r\nkey ctrl+shift+z\nkey ctrl+s\nwait 2\n";
    const fs::path script_file = dir.path() / "colliders.txt";
    std::ofstream(script_file) << script.str();
    // The surface hidden: the sphere under the cloth shows between its nodes.
    const EditorRun run = run_editor("'" + file.string() + "' --paused --hide surface,springs --input-script '" +
                                         script_file.string() + "'" + size_args(),
                                     dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;

    // The scene file beside the model: one sphere (the second was undone), a
    // quarter of the cloth's side across, its top at the cloth.
    const fs::path scene_file = dir.path() / "cloth.scene.json";
    ASSERT_TRUE(fs::exists(scene_file));
    const ColliderSet scene = load_scene(scene_file);
    ASSERT_EQ(scene.size(), 1u);
    EXPECT_EQ(scene[0].shape, ColliderShape::sphere);
    EXPECT_FLOAT_EQ(scene[0].radius, 0.125f * spec.width);
    EXPECT_FLOAT_EQ(scene[0].pose.position.y + scene[0].radius, spec.origin.y);
    EXPECT_EQ(load_model(file), cloth) << "the model itself is unchanged";
    const std::string schema_check =
        "/usr/bin/python3 -c 'import json, sys; sys.path.insert(0, sys.argv[1]); import schema_checks; "
        "errors = list(schema_checks.load_validator(sys.argv[2]).iter_errors(json.load(open(sys.argv[3])))); "
        "print(*errors); sys.exit(1 if errors else 0)' '" SPRINGKIT_SOURCE_DIR "/tests/files' '" SPRINGKIT_SOURCE_DIR
        "/schema/springkit-scene.schema.json' '" +
        scene_file.string() + "'";
    EXPECT_EQ(std::system(schema_check.c_str()), 0) << "the scene schema accepts the saved scene";

    // Drawn: the sphere's blue-grey where it stands, between the cloth's nodes;
    // once undone, none anywhere near.
    const ScreenPoint sphere = view.at(scene[0].pose.position);
    EXPECT_GT(share_near(load_png(added), sphere, 6, collider_blue), 0.3);
    EXPECT_EQ(share_near(load_png(undone), sphere, 20, collider_blue), 0.0);

    // Reopened: the scene beside the model comes with it, and the editor runs
    // exactly what a game runs with load_scene and set_colliders.
    const EditorRun reopened = run_editor("'" + file.string() + "' --frames 90 --stats" + size_args(), dir.path());
    ASSERT_EQ(reopened.exit_code, 0) << reopened.err;
    const CentreLine with_sphere = centre_line(reopened.out);
    ASSERT_GE(with_sphere.contacts, 0) << reopened.out;
    Simulation sim(cloth);
    sim.set_colliders(std::make_shared<ColliderSet>(load_scene(scene_file)));
    Simulation hanging(cloth);
    for (int frame = 0; frame < 90; ++frame) {
        sim.step(1.0f / 60.0f);
        hanging.step(1.0f / 60.0f);
    }
    EXPECT_NEAR(with_sphere.centre.y, sim.center_of_mass().y, 1e-5f);
    EXPECT_EQ(with_sphere.contacts, static_cast<int>(sim.contacts().size()));
    EXPECT_GT(with_sphere.contacts, 0) << "the cloth rests on the sphere";
    // The middle node lies on top of the sphere (node radius 0); hanging free it sags below it.
    EXPECT_NEAR(sim.positions()[middle].y, spec.origin.y, 0.01f);
    EXPECT_LT(hanging.positions()[middle].y, spec.origin.y - 0.05f);
}

#if SPRINGKIT_EDITOR_HAS_IMPORT
namespace {

// The line --stats prints after a conversion, for a model converted in this process.
std::string converted_line(const Model& model, const ImportReport& report) {
    const auto& ground = model.params.ground;
    char line[512];
    std::snprintf(line, sizeof line,
                  "converted: unit %s; %zu nodes, %zu faces, %zu islands; springs %zu edge %zu bend %zu shear %zu "
                  "volume; %zu anchors; bottom y %.6g; ground %s",
                  report.unit.c_str(), model.node_count(), model.faces.size(), report.islands.size(),
                  report.edge_springs, report.bend_springs, report.shear_springs, report.volume_springs,
                  model.anchors.size(), static_cast<double>(bounds(model).min.y),
                  ground ? ("y " + std::to_string(ground->height)).c_str() : "none");
    return line;
}

// The model's surface colour (scene_renderer.cpp kSurfaceColor 0.82, 0.58, 0.38, lit).
bool surface_orange(const unsigned char* p) { return p[0] > 90 && p[0] > p[1] + 25 && p[1] > p[2] + 15; }

}  // namespace

TEST(EditorInput, aColliderAddedBeforeACrashIsRecoveredWithTheSameValues) {
    TempDir dir;
    const Model cloth = small_cloth();
    const fs::path file = dir.path() / "cloth.json";
    save_model(cloth, file);
    // A sphere from the Colliders menu (the model itself unchanged), an autosave
    // at the next frame, and then the editor killed as a crash ends it.
    const fs::path crash_script = dir.path() / "crash.txt", recover_script = dir.path() / "recover.txt";
    std::ofstream(crash_script) << add_sphere_commands() << "wait 20000\n";
    const fs::path autosave = dir.path() / ".cloth.json.autosave";
    ASSERT_TRUE(run_editor_until_killed("'" + file.string() + "' --paused --autosave-seconds 0 --input-script '" +
                                            crash_script.string() + "'" + size_args(),
                                        dir.path(), autosave));
    EXPECT_TRUE(fs::exists(dir.path() / ".cloth.json.scene.autosave"));
    EXPECT_FALSE(fs::exists(dir.path() / "cloth.scene.json")) << "nothing was saved";
    // Reopened: the recovery question comes up, Enter recovers, Ctrl+S saves.
    std::ofstream(recover_script) << "wait 3\nkey enter\nwait 2\nkey ctrl+s\nwait 2\n";
    const EditorRun run = run_editor(
        "'" + file.string() + "' --paused --input-script '" + recover_script.string() + "'" + size_args(), dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const fs::path scene_file = dir.path() / "cloth.scene.json";
    ASSERT_TRUE(fs::exists(scene_file)) << "the recovered collider was saved beside the model";
    const ColliderSet scene = load_scene(scene_file);
    ASSERT_EQ(scene.size(), 1u);
    EXPECT_TRUE(same_collider(scene[0], default_collider(ColliderShape::sphere, bounds(cloth), 0)))
        << "the sphere the menu adds under the model, bit for bit";
    EXPECT_EQ(load_model(file), cloth);
    EXPECT_FALSE(fs::exists(autosave)) << "saving deletes the autosave";
    EXPECT_FALSE(fs::exists(dir.path() / ".cloth.json.scene.autosave"));
}

TEST(EditorInput, aSceneNamingAnObjFloorRunsAsTheGameRunsIt) {
    // The scene names its floor by a mesh file beside it; the editor imports it
    // and steps exactly what a game steps with load_scene and the import loader.
    TempDir dir;
    ClothSpec spec;
    spec.columns = spec.rows = 6;
    spec.anchors = ClothAnchors::none;
    Model cloth = make_cloth(spec);
    cloth.params.node_radius = 0.02f;
    cloth.params.ground.reset();
    const fs::path file = dir.path() / "cloth.json", scene_file = dir.path() / "cloth.scene.json";
    save_model(cloth, file);
    std::ofstream(dir.path() / "floor.obj") << "v -3 0 -3\nv 3 0 -3\nv 3 0 3\nv -3 0 3\nf 1 3 2\nf 1 4 3\n";
    std::ofstream(scene_file) << R"({"format": "springkit-scene", "version": 1, "colliders": [{"kind": "triangle_mesh",
        "name": "floor", "file": "floor.obj", "pose": {"position": [0, 0.5, 0], "rotation": [1, 0, 0, 0]}}]})";
    const EditorRun run = run_editor("'" + file.string() + "' --frames 60 --stats" + size_args(), dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const CentreLine line = centre_line(run.out);
    Simulation sim(cloth);
    sim.set_colliders(std::make_shared<ColliderSet>(load_scene(scene_file, scene_mesh_loader())));
    for (int frame = 0; frame < 60; ++frame) sim.step(1.0f / 60.0f);
    EXPECT_GT(line.contacts, 0) << run.out;
    EXPECT_EQ(line.contacts, static_cast<int>(sim.contacts().size()));
    EXPECT_NEAR(line.centre.y, sim.center_of_mass().y, 1e-5f);
    EXPECT_GT(sim.center_of_mass().y, 0.5f) << "held up by the floor the scene names";
}

TEST(EditorInput, openingAMeshConvertsItAndReportsWhatTheImporterMade) {
    TempDir dir;
    const fs::path mesh = fs::path(SPRINGKIT_SOURCE_DIR) / "samples/meshes/uv_sphere.obj";
    const EditorRun run = run_editor("'" + mesh.string() + "' --paused --frames 2 --stats" + size_args(), dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    ImportReport report;
    const Model model = import_mesh(mesh, ImportOptions{}, report);
    EXPECT_NE(run.out.find(converted_line(model, report)), std::string::npos)
        << run.out << "\nexpected: " << converted_line(model, report);
}

TEST(EditorInput, theConversionDialogPreviewsTheGroundAndAnchorsThenConverts) {
    TempDir dir;
    const fs::path mesh = fs::path(SPRINGKIT_SOURCE_DIR) / "samples/meshes/uv_sphere.obj";
    const fs::path preview = dir.path() / "preview.png", springs = dir.path() / "springs.png";
    // Window pixels of a 1280 x 720 window: the "Convert mesh" dialog (centred),
    // its ground checkbox, anchors field and Preview button (the ground's
    // "sink at most" row moves the buttons down), then the preview window's
    // Convert (top right).
    std::ostringstream script;
    script << "wait 3\n# collide with the ground under the model, anchor the top 10%\n"
           << "click left 668 485\nclick left 375 390\ntype top:10%\nwait 1\n"
           << "click left 355 644\nwait 3\nscreenshot " << preview.string() << "\nwait 1\n"
           << "click left 929 256\nwait 2\n# the spring view\nkey v\nwait 1\nscreenshot " << springs.string()
           << "\nwait 1\n";
    const fs::path script_file = dir.path() / "convert.txt";
    std::ofstream(script_file) << script.str();
    const EditorRun run =
        run_editor("'" + mesh.string() + "' --paused --stats --input-script '" + script_file.string() + "'", dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;

    // What it converted is what springkit::import makes with those options.
    ImportOptions options;
    options.ground_at_bottom = true;
    options.anchors = {"top:10%"};
    ImportReport report;
    const Model model = import_mesh(mesh, options, report);
    ASSERT_TRUE(model.params.ground.has_value());
    EXPECT_EQ(model.params.ground->height, bounds(model).min.y);
    EXPECT_GT(model.anchors.size(), 0u);
    EXPECT_NE(run.out.find(converted_line(model, report)), std::string::npos)
        << run.out << "\nexpected: " << converted_line(model, report);

    // The preview drew the mesh with the anchors the selector picked (orange, at
    // the top); the spring view after converting hides the surface.
    const OpeningView view(model, 1280, 720);  // the editor's default window
    const Viewport& viewport = view.viewport;
    const Mat4& matrix = view.matrix;
    const auto centre = project(matrix, viewport, (bounds(model).min + bounds(model).max) * 0.5f);
    ASSERT_TRUE(centre);
    const Image shown = load_png(preview), after = load_png(springs);
    EXPECT_GT(share_near(shown, *centre, 30, surface_orange), 0.8) << "the mesh's surface";
    for (const Anchor& a : model.anchors) {
        const auto at = project(matrix, viewport, model.positions[a.node]);
        ASSERT_TRUE(at);
        EXPECT_GT(share_near(shown, *at, 1, orange), 0.5) << "anchor on node " << a.node;
    }
    EXPECT_LT(share_near(after, *centre, 30, surface_orange), 0.05) << "springs and nodes only";
}
#endif

TEST(EditorInput, aColliderIsDraggedWithTheMouseAndNudgedWithTheArrows) {
    TempDir dir;
    const Model cloth = small_cloth();
    const fs::path file = dir.path() / "cloth.json", scene_file = dir.path() / "world.scene.json";
    save_model(cloth, file);
    // A ball a metre under the cloth: on screen below it, no node near.
    ColliderSet world;
    Collider ball = sphere_collider(0.25f);
    ball.pose.position = {0.0f, 0.0f, 0.0f};
    ball.name = "ball";
    world.add(ball);
    save_scene(world, scene_file);

    const OpeningView view = opening_view(cloth);
    const OrbitCamera& camera = view.camera;
    const ScreenPoint from = view.at(ball.pose.position);
    ASSERT_TRUE(from.x > view.viewport.x && from.x < view.viewport.x + view.viewport.width) << "in the viewport";
    ASSERT_FALSE(pick(cloth.positions, cloth.springs, view.matrix, view.viewport, from.x, from.y))
        << "nothing of the cloth under the press";
    const ScreenPoint to{from.x + 60.0f, from.y + 20.0f, 0.0f};
    // Where the editor's drag puts it: the grabbed point of the sphere moves on the
    // plane through it facing the camera.
    const Ray press = camera.ray(view.viewport, from.x, from.y);
    const auto t = ray_collider(ball, press.origin, press.direction, 1e4f);
    ASSERT_TRUE(t);
    const Vec3 grabbed = press.origin + press.direction * *t;
    const auto hit = intersect_plane(camera.ray(view.viewport, to.x, to.y), grabbed,
                                     normalized(camera.eye() - camera.target));
    ASSERT_TRUE(hit);
    const Vec3 dragged = ball.pose.position + (*hit - grabbed);

    std::ostringstream script;
    script << "drag left " << xy(from) << " " << xy(to) << " 6\nwait 1\n"
           << "# arrows move the selected collider: 10 frames to the right, one undo entry\n"
           << "keydown right\nwait 10\nkeyup right\nwait 1\nkey ctrl+z\nwait 1\nkey ctrl+shift+z\nwait 1\n"
           << "key ctrl+s\nwait 2\n";
    const fs::path script_file = dir.path() / "drag.txt";
    std::ofstream(script_file) << script.str();
    const EditorRun run = run_editor("'" + file.string() + "' --paused --scene '" + scene_file.string() +
                                         "' --input-script '" + script_file.string() + "'" + size_args(),
                                     dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    // Ctrl+S saved the scene to the file it came from (--scene), the model as it was.
    const ColliderSet after = load_scene(scene_file);
    ASSERT_EQ(after.size(), 1u);
    EXPECT_EQ(load_model(file), cloth);
    EXPECT_GT(dragged.x - ball.pose.position.x, 0.05f) << "the drag goes right with the mouse";
    // The arrows slide it along the camera's right at half the model's size per
    // second, 1/60 s a frame: what is left after the drag is that, for 10 frames.
    const Vec3 forward = normalized(Vec3{camera.target.x - camera.eye().x, 0, camera.target.z - camera.eye().z});
    const Vec3 right = cross(forward, {0, 1, 0});
    const float per_frame = 0.5f * std::max(bounds(cloth).diagonal(), 0.5f) / 60.0f;
    const Vec3 nudged = after[0].pose.position - dragged;
    EXPECT_NEAR(dot(nudged, right) / per_frame, 10.0f, 1.01f) << "one undo entry for the whole press";
    EXPECT_NEAR(length(nudged - right * dot(nudged, right)), 0.0f, 1e-5f) << "along the camera's right only";
}

TEST(EditorInput, undoingAColliderDragPutsItBackWithoutThrowingItThroughTheModel) {
    // A ribbon 0.4 m wide and 2 m tall hangs from its top corners while it runs; a
    // ball 1.2 m to its left is dragged up over it and down on its right (one undo
    // entry), never touching it. Ctrl+Z puts the ball back: in one frame, along the
    // straight line through the ribbon's middle. Swept there as a drag's frames
    // are, the ball went through the ribbon at 140 m/s and flung it; put there,
    // the ribbon runs on as if the ball had stayed on the right (--stats prints
    // the same energies to the last bit).
    TempDir dir;
    ClothSpec spec;
    spec.columns = 3;
    spec.rows = 10;
    spec.width = 0.4f;
    spec.height = 2.0f;
    spec.origin = {-0.2f, 2.0f, 0.0f};
    spec.vertical = true;
    const Model ribbon = make_cloth(spec);
    const fs::path file = dir.path() / "ribbon.json", scene_file = dir.path() / "ribbon.scene.json";
    save_model(ribbon, file);

    // The view after four wheel steps out, the cursor in the scene's middle. The
    // drag moves the ball on the plane facing the camera (right and up on it).
    OpeningView view = opening_view(ribbon);
    constexpr float kWheel = -4.0f;
    view.camera.zoom(kWheel);
    view.matrix = view.camera.view_projection(view.viewport);
    const OrbitCamera& camera = view.camera;
    const Vec3 facing = normalized(camera.eye() - camera.target);
    const Vec3 right = normalized(cross(Vec3{0, 1, 0}, facing)), up = cross(facing, right);
    const Vec3 middle{0.0f, 1.0f, 0.0f};  // of the ribbon
    const Vec3 start = middle - right * 1.2f;
    ColliderSet world;
    Collider ball = sphere_collider(0.2f);
    ball.pose.position = start;
    world.add(ball);
    save_scene(world, scene_file);

    const ScreenPoint press = view.at(start);
    ASSERT_FALSE(pick(ribbon.positions, ribbon.springs, view.matrix, view.viewport, press.x, press.y))
        << "the press is on the ball, not the ribbon";
    const Ray ray = camera.ray(view.viewport, press.x, press.y);
    const auto t = ray_collider(ball, ray.origin, ray.direction, 1e4f);
    ASSERT_TRUE(t);
    const Vec3 grabbed = ray.origin + ray.direction * *t;
    // Past the drag threshold first (that frame starts the drag without moving
    // the ball), then up, across above the ribbon's top and down.
    const std::array<Vec3, 4> path{up * 0.1f, up * 2.2f, up * 2.2f + right * 2.4f, right * 2.4f};
    std::ostringstream drag;
    drag << "press left " << xy(press) << "\nwait 1\n";
    for (std::size_t i = 0; i < path.size(); ++i) {
        const ScreenPoint p = view.at(grabbed + path[i]);
        ASSERT_TRUE(p.x > view.viewport.x + 5 && p.x < view.viewport.x + view.viewport.width - 5 &&
                    p.y > view.viewport.y + 5 && p.y < view.viewport.y + view.viewport.height - 5)
            << "point " << i << " in the scene";
        drag << "move " << xy(p) << "\nwait 1\n";
    }
    const ScreenPoint centre{view.viewport.x + view.viewport.width / 2, view.viewport.y + view.viewport.height / 2, 0};
    const std::string before = "move " + xy(centre) + "\nwheel " + std::to_string(static_cast<int>(kWheel)) +
                               "\nwait 2\n" + drag.str() + "release left\nwait 1\nkey ctrl+s\nwait 30\n";
    const fs::path undo = dir.path() / "undo.txt", stay = dir.path() / "stay.txt";
    std::ofstream(undo) << before << "key ctrl+z\nwait 40\n";
    std::ofstream(stay) << before << "wait 2\nwait 40\n";
    const std::string common = "'" + file.string() + "' --stats" + size_args() + " --input-script ";
    const EditorRun undone = run_editor(common + "'" + undo.string() + "'", dir.path());
    ASSERT_EQ(undone.exit_code, 0) << undone.err;
    // Ctrl+S after the drag saved where it put the ball: across the ribbon from
    // where it started, the ribbon's middle between.
    const Vec3 dragged = load_scene(scene_file)[0].pose.position;
    EXPECT_LT(length(dragged - (middle + right * 1.2f)), 0.05f);
    const EditorRun stayed = run_editor(common + "'" + stay.string() + "'", dir.path());
    ASSERT_EQ(stayed.exit_code, 0) << stayed.err;
    const EnergyReport a = energy_report(undone.out), b = energy_report(stayed.out);
    EXPECT_EQ(a.peak, b.peak);
    EXPECT_EQ(a.last, b.last);
    EXPECT_EQ(a.strain, b.strain);
    EXPECT_GT(a.peak, 0.0) << "the ribbon ran";
}

TEST(EditorInput, aBrokenSceneFileFailsWithOneLineNamingItsPlace) {
    TempDir dir;
    const fs::path file = dir.path() / "cloth.json", scene_file = dir.path() / "cloth.scene.json";
    save_model(small_cloth(), file);
    std::ofstream(scene_file) << R"({"format": "springkit-scene", "version": 1, "colliders": [{"kind": "sphere", "radius": 0}]})";
    // Found beside the model or named with --scene: the same one line, exit 1.
    for (const std::string& scene_option : {std::string(), " --scene '" + scene_file.string() + "'"}) {
        const EditorRun run = run_editor("'" + file.string() + "'" + scene_option + " --frames 1" + size_args(), dir.path());
        EXPECT_EQ(run.exit_code, 1);
        EXPECT_EQ(run.err, "error: " + scene_file.string() +
                               ": /colliders/0: radius must be a finite number > 0 (got 0)\n")
            << run.err;
    }
}
