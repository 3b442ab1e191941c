// springkit-editor's views under xvfb-run, driven by recorded input: the spring
// legend's kind filter and colours, isolating the selection, x-ray, and the
// timeline scrubbed back and forth with its keys (the screenshots must be the
// recorded frames' to the pixel).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "editor_process.hpp"
#include "editor_view.hpp"
#include "springkit/builders.hpp"
#include "springkit/io.hpp"
#include "support/test_files.hpp"
#include "ui/spring_legend.hpp"
#include "ui/widgets.hpp"
#include "view/camera.hpp"

namespace fs = std::filesystem;
using namespace springkit;
using namespace springkit::editor;
using springkit::test::TempDir;
using namespace springkit::test::editor;

namespace {

constexpr int kWidth = 1280, kHeight = 720;

std::string size_args() { return springkit::test::editor::size_args(kWidth, kHeight); }

// Runs the editor on `model_file` with `options`, replaying `script` (written next
// to it) at this file's window size.
EditorRun run_script(const fs::path& model_file, const std::string& options,
                     const std::string& script, const fs::path& dir) {
    const fs::path script_file = dir / "script.txt";
    std::ofstream(script_file) << script;
    return run_editor("'" + model_file.string() + "' " + options + " --input-script '" +
                          script_file.string() + "'" + size_args(),
                      dir);
}

// A 6 x 6 cloth whose springs say what they are, told apart by rest length:
// along rows and columns (edge), diagonals (shear), skipping a node (bend).
Model cloth_with_kinds() {
    ClothSpec spec;
    spec.columns = 6;
    spec.rows = 6;
    Model m = make_cloth(spec);
    const float d = spec.width / static_cast<float>(spec.columns - 1);
    for (Spring& s : m.springs)
        s.role = std::abs(s.rest - d) < 1e-4f                     ? SpringRole::edge
                 : std::abs(s.rest - 2 * d) < 1e-4f               ? SpringRole::bend
                 : std::abs(s.rest - d * std::sqrt(2.0f)) < 1e-4f ? SpringRole::shear
                                                                  : SpringRole::unspecified;
    return m;
}

// The view the editor opens a model with, in this file's window.
OpeningView opening_view(const Model& model) { return OpeningView(model, kWidth, kHeight); }

// Pixels of the viewport right of the legend (which shows every colour as a swatch)
// that `match` accepts.
template <class Match>
int count_right_of_legend(const Image& image, const Viewport& vp, Match match) {
    int hits = 0;
    for (int y = static_cast<int>(vp.y); y < static_cast<int>(vp.y + vp.height); ++y)
        for (int x = static_cast<int>(vp.x) + 260; x < static_cast<int>(vp.x + vp.width); ++x)
            hits += match(image.at(x, y)) ? 1 : 0;
    return hits;
}

// Within 12 of the colour spring_class_rgb gives `c`.
auto class_colour(SpringClass c) {
    const Rgb rgb = spring_class_rgb(c);
    return [rgb](const unsigned char* p) {
        auto near = [](unsigned char v, float f) {
            return std::abs(static_cast<int>(v) - static_cast<int>(f * 255.0f + 0.5f)) <= 12;
        };
        return near(p[0], rgb.r) && near(p[1], rgb.g) && near(p[2], rgb.b);
    };
}

int non_background_near(const Image& image, ScreenPoint p, int radius) {
    int hits = 0;
    for (int y = static_cast<int>(p.y) - radius; y <= static_cast<int>(p.y) + radius; ++y)
        for (int x = static_cast<int>(p.x) - radius; x <= static_cast<int>(p.x) + radius; ++x)
            hits += image.background(x, y) ? 0 : 1;
    return hits;
}

}  // namespace

TEST(EditorViews, aKindTurnedOffInTheLegendDisappears) {
    TempDir dir;
    const Model model = cloth_with_kinds();
    const fs::path file = dir.path() / "cloth.json";
    save_model(model, file);
    const OpeningView view = opening_view(model);
    const fs::path all = dir.path() / "all.png", no_bend = dir.path() / "no-bend.png";
    const fs::path strain = dir.path() / "strain.png";
    std::ostringstream script;
    script << "wait 2\nscreenshot " << strain.string() << "\n"
           << "click left " << xy(legend_checkbox(view.viewport, LegendRow::colour_by_class))
           << "\n"
           << "wait 1\nscreenshot " << all.string() << "\n"
           << "click left " << xy(legend_checkbox(view.viewport, SpringClass::bend)) << "\n"
           << "wait 1\nscreenshot " << no_bend.string() << "\n";
    const EditorRun run =
        run_script(file, "--paused --show legend --hide surface,grid,shadow,nodes,anchors",
                   script.str(), dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;

    const Image by_strain = load_png(strain), by_kind = load_png(all), filtered = load_png(no_bend);
    ASSERT_EQ(by_kind.width, kWidth);
    const auto bend = class_colour(SpringClass::bend), edge = class_colour(SpringClass::edge),
               shear = class_colour(SpringClass::shear);
    // Coloured by strain (at rest: the neutral grey-green), no kind colour.
    EXPECT_EQ(count_right_of_legend(by_strain, view.viewport, bend), 0);
    EXPECT_EQ(count_right_of_legend(by_strain, view.viewport, edge), 0);
    // By kind: all three; bend turned off: no bend pixel, the others as many.
    const int bend_on = count_right_of_legend(by_kind, view.viewport, bend);
    EXPECT_GT(bend_on, 200);
    EXPECT_GT(count_right_of_legend(by_kind, view.viewport, edge), 200);
    EXPECT_GT(count_right_of_legend(by_kind, view.viewport, shear), 200);
    EXPECT_EQ(count_right_of_legend(filtered, view.viewport, bend), 0);
    EXPECT_GE(count_right_of_legend(filtered, view.viewport, edge),
              count_right_of_legend(by_kind, view.viewport, edge));
}

TEST(EditorViews, isolatingTheSelectionHidesTheRest) {
    TempDir dir;
    const Model model = cloth_with_kinds();
    const fs::path file = dir.path() / "cloth.json";
    save_model(model, file);
    const OpeningView view = opening_view(model);
    // Two neighbours on the right of the cloth (clear of the legend): 10 and 11.
    const ScreenPoint a = view.at(model.positions[10]), b = view.at(model.positions[11]);
    ASSERT_GT(std::min(a.x, b.x), view.viewport.x + 260);
    const fs::path before = dir.path() / "before.png", isolated = dir.path() / "isolated.png";
    std::ostringstream script;
    script << "wait 2\nclick left " << xy(a) << "\nkeydown shift\nclick left " << xy(b)
           << "\nkeyup shift\n"
           << "wait 1\nscreenshot " << before.string() << "\n"
           << "click left " << xy(legend_checkbox(view.viewport, LegendRow::isolate_selection))
           << "\n"
           << "wait 1\nscreenshot " << isolated.string() << "\n";
    const EditorRun run =
        run_script(file, "--paused --show legend --hide grid,shadow", script.str(), dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const Image all = load_png(before), only = load_png(isolated);
    ASSERT_EQ(only.width, kWidth);
    // The two nodes and the spring between them stay; the rest of the cloth goes.
    const ScreenPoint middle{(a.x + b.x) / 2, (a.y + b.y) / 2, 0};
    EXPECT_GT(non_background_near(only, a, 3), 10);
    EXPECT_GT(non_background_near(only, b, 3), 10);
    EXPECT_GT(non_background_near(only, middle, 1), 0);
    for (std::uint32_t far : {21u, 27u, 33u, 35u}) {
        const ScreenPoint p = view.at(model.positions[far]);
        EXPECT_GT(non_background_near(all, p, 3), 10) << far;
        EXPECT_EQ(non_background_near(only, p, 3), 0) << far;
    }
}

TEST(EditorViews, xrayShowsTheSpringsBehindTheSurface) {
    // A jelly block: its inner and far springs are hidden by its faces unless x-ray.
    TempDir dir;
    Model jelly = make_jelly({.nx = 4, .ny = 4, .nz = 4});
    for (Spring& s : jelly.springs) s.role = SpringRole::volume;
    const fs::path file = dir.path() / "jelly.json";
    save_model(jelly, file);
    const OpeningView view = opening_view(jelly);
    const fs::path plain = dir.path() / "plain.png", xray = dir.path() / "xray.png";
    std::ostringstream script;
    script << "wait 2\nclick left "
           << xy(legend_checkbox(view.viewport, LegendRow::colour_by_class)) << "\n"
           << "wait 1\nscreenshot " << plain.string() << "\n"
           << "click left " << xy(legend_checkbox(view.viewport, LegendRow::xray)) << "\n"
           << "wait 1\nscreenshot " << xray.string() << "\n";
    const EditorRun run =
        run_script(file, "--paused --show legend,springs --hide grid,shadow,nodes", script.str(),
                   dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto green = class_colour(SpringClass::volume);
    const int hidden = count_right_of_legend(load_png(plain), view.viewport, green);
    const int shown = count_right_of_legend(load_png(xray), view.viewport, green);
    EXPECT_GT(hidden, 100) << "the springs on the near faces show either way";
    EXPECT_GT(shown, hidden + hidden / 2) << hidden << " -> " << shown;
}

TEST(EditorViews, scrubbingBackAndOnShowsTheRecordedFramesExactly) {
    // A cloth falling from its two corners, the UI hidden (its ms/frame text
    // changes); the timeline's keys work without it. Each frame of the script
    // steps once before it is drawn: the screenshot at script frame i shows
    // recorded frame i + 1.
    TempDir dir;
    ClothSpec spec;
    spec.columns = 12;
    spec.rows = 12;
    const Model model = make_cloth(spec);
    const fs::path file = dir.path() / "cloth.json";
    save_model(model, file);
    auto png = [&](const std::string& name) { return (dir.path() / (name + ".png")).string(); };
    std::ostringstream script;
    script << "wait 40\nscreenshot " << png("live41") << "\n"  // frame 40: recorded 41
           << "wait 10\nscreenshot " << png("live51") << "\n"  // frame 50: recorded 51
           << "wait 9\n"                                       // frames 50..58: at 59
           << "key ctrl+shift+left\n"                          // frame 59: to 49, paused
           << "key ctrl+shift+left\n"                          // to 39
           << "key ctrl+right\nkey ctrl+right\n"               // to 41
           << "wait 1\nscreenshot " << png("scrubbed41") << "\nwait 1\n"
           << "key ctrl+shift+right\n"  // to 51
           << "wait 1\nscreenshot " << png("scrubbed51") << "\nwait 1\n"
           << "key ctrl+shift+left\n"  // to 41 again
           << "key space\n"            // play on: a step in each of its 2 frames
           << "wait 7\nscreenshot " << png("resumed51") << "\n";  // 41 + 2 + 7 + 1 steps
    const EditorRun run = run_script(file, "--hide ui", script.str(), dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const Image live41 = load_png(png("live41")), live51 = load_png(png("live51"));
    ASSERT_EQ(live41.width, kWidth);
    ASSERT_NE(live41.rgb, live51.rgb) << "the cloth moves between the two frames";
    EXPECT_TRUE(load_png(png("scrubbed41")).rgb == live41.rgb) << "back to frame 41";
    EXPECT_TRUE(load_png(png("scrubbed51")).rgb == live51.rgb) << "on to frame 51";
    EXPECT_TRUE(load_png(png("resumed51")).rgb == live51.rgb) << "played on from 41 for 10 frames";
}

// A small window keeps the scene between the side panels: both narrow by one share
// (to 63% at 640 px) so that the scene keeps kMinSceneWidth, where the editor frames
// the model whole. Narrower than the panels at their least, the scene goes under them.
namespace {

// `model` opened paused in a window `width` x `height` (no floor grid or shadow),
// its third frame; an empty image (and a failure) when the editor fails.
Image small_window_shot(const Model& model, int width, int height, const fs::path& dir) {
    const fs::path file = dir / "model.json", shot = dir / "small.png";
    save_model(model, file);
    std::ofstream(dir / "script.txt") << "wait 2\nscreenshot " << shot.string() << "\n";
    const EditorRun run = run_editor("'" + file.string() + "' --paused --hide grid,shadow --input-script '" +
                                         (dir / "script.txt").string() + "'" +
                                         springkit::test::editor::size_args(width, height),
                                     dir);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return run.exit_code == 0 ? load_png(shot) : Image{};
}

}  // namespace

TEST(EditorViews, aSmallWindowNarrowsThePanelsAndKeepsTheSceneBesideThem) {
    const SidePanels full = side_panels(1280, kToolsWidth, kInsightWidth);
    EXPECT_EQ(full.left, kToolsWidth);
    EXPECT_EQ(full.right, kInsightWidth);
    constexpr int kSmallWidth = 640, kSmallHeight = 400;
    const SidePanels small = side_panels(kSmallWidth, kToolsWidth, kInsightWidth);
    EXPECT_NEAR(small.left + small.right + kMinSceneWidth, kSmallWidth, 1e-3);
    EXPECT_NEAR(small.left / kToolsWidth, small.right / kInsightWidth, 1e-6);
    const SidePanels least = side_panels(400, kToolsWidth, kInsightWidth);
    EXPECT_NEAR(least.left, kToolsWidth * kMinPanelShare, 1e-3);
    EXPECT_EQ(scene_viewport(400, 300, kBarHeight, least.left, least.right).width, 400.0f);

    TempDir dir;
    const Model model = cloth_with_kinds();
    const Image image = small_window_shot(model, kSmallWidth, kSmallHeight, dir.path());
    ASSERT_EQ(image.width, kSmallWidth);
    const Viewport vp = OpeningView::scene(kSmallWidth, kSmallHeight);
    EXPECT_NEAR(vp.x, small.left, 1e-3);
    // The tools panel ends where the scene begins, the insight panel starts where it ends.
    EXPECT_FALSE(image.background(static_cast<int>(vp.x) - 3, static_cast<int>(vp.y) + 3));
    EXPECT_TRUE(image.background(static_cast<int>(vp.x) + 3, static_cast<int>(vp.y) + 3));
    EXPECT_TRUE(image.background(static_cast<int>(vp.x + vp.width) - 3, static_cast<int>(vp.y) + 3));
    EXPECT_FALSE(image.background(static_cast<int>(vp.x + vp.width) + 3, static_cast<int>(vp.y) + 3));
    // The cloth is drawn inside the scene, clear of its sides, where the editor's
    // camera for that scene puts its nodes.
    int drawn = 0;
    for (int y = static_cast<int>(vp.y); y < static_cast<int>(vp.y + vp.height); ++y) {
        EXPECT_TRUE(image.background(static_cast<int>(vp.x) + 1, y)) << "left edge, y " << y;
        EXPECT_TRUE(image.background(static_cast<int>(vp.x + vp.width) - 2, y)) << "right edge, y " << y;
        for (int x = static_cast<int>(vp.x); x < static_cast<int>(vp.x + vp.width); ++x)
            drawn += image.background(x, y) ? 0 : 1;
    }
    EXPECT_GT(drawn, 2000);
    const OpeningView view(model, kSmallWidth, kSmallHeight);
    for (std::uint32_t node : {0u, 5u, 30u, 35u, 14u}) {  // the corners and one in the middle
        const ScreenPoint p = view.at(model.positions[node]);
        EXPECT_GT(p.x, vp.x + 5) << node;
        EXPECT_LT(p.x, vp.x + vp.width - 5) << node;
        EXPECT_GT(non_background_near(image, p, 2), 3) << node;
    }
}

TEST(EditorViews, theStrainLegendStaysBetweenPanelsThatFloatOverTheScene) {
    // Under about 590 px the side panels float over a scene as wide as the window;
    // the strain legend goes into the gap between them (narrower if it must), and
    // where there is no room for it, it is left out.
    constexpr float kLine = 13.0f;  // Dear ImGui's default font
    auto legend = [&](int width, int height) {
        const SidePanels panels = side_panels(static_cast<float>(width), kToolsWidth, kInsightWidth);
        const Viewport scene = OpeningView::scene(width, height);
        const Viewport area = uncovered_scene(scene, static_cast<float>(width), panels);
        EXPECT_GE(area.x, panels.left);
        EXPECT_LE(area.x + area.width, static_cast<float>(width) - panels.right);
        return strain_legend_bar(area, kLine);
    };
    // Beside the scene (700 x 500): at full width, 10 px in from the scene's corner.
    const auto beside = legend(700, 500);
    ASSERT_TRUE(beside);
    EXPECT_EQ(beside->width, kStrainLegendWidth);
    EXPECT_EQ(beside->x, OpeningView::scene(700, 500).x + kStrainLegendMargin);
    // Floating (400 x 300): 53 px between the panels, no room.
    EXPECT_FALSE(legend(400, 300));

    // Floating (500 x 400): 153 px between the panels; the legend's plate lies
    // between them, and the screenshot shows its bar there, blue to red, and no
    // bar at the corner of the scene under the tools panel.
    constexpr int kSmallWidth = 500, kSmallHeight = 400;
    const SidePanels panels = side_panels(kSmallWidth, kToolsWidth, kInsightWidth);
    ASSERT_FALSE(panels_beside_scene(kSmallWidth, panels));
    const auto bar = legend(kSmallWidth, kSmallHeight);
    ASSERT_TRUE(bar);
    const Viewport plate = strain_legend_plate(*bar, kLine);
    EXPECT_GE(plate.x, panels.left);
    EXPECT_LE(plate.x + plate.width, kSmallWidth - panels.right);
    EXPECT_LT(bar->width, kStrainLegendWidth);

    TempDir dir;
    const Image image = small_window_shot(cloth_with_kinds(), kSmallWidth, kSmallHeight, dir.path());
    ASSERT_EQ(image.width, kSmallWidth);
    auto blue = [](const unsigned char* p) { return p[2] > 220 && p[0] < 90 && p[1] < 90; };
    auto red = [](const unsigned char* p) { return p[0] > 220 && p[1] < 90 && p[2] < 90; };
    const int row = static_cast<int>(bar->y + bar->height / 2);
    EXPECT_TRUE(blue(image.at(static_cast<int>(bar->x) + 2, row)));
    EXPECT_TRUE(red(image.at(static_cast<int>(bar->x + bar->width) - 3, row)));
    const Viewport scene = OpeningView::scene(kSmallWidth, kSmallHeight);
    for (int x = static_cast<int>(scene.x); x < static_cast<int>(panels.left); ++x)
        for (int y = row - 6; y <= row + 6; ++y)
            ASSERT_FALSE(blue(image.at(x, y)) || red(image.at(x, y))) << "legend colours under the tools panel at " << x
                                                                       << ", " << y;
}
