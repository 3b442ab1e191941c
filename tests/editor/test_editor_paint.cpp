// springkit-editor's paint mode driven by recorded input under xvfb-run: B turns
// it on, a left drag paints anchors onto the nodes under the brush, each stroke
// is one undo entry, and the saved file holds what was painted. Where the nodes
// are on screen comes from the editor's own camera and layout, as the editor
// frames a model on opening (as in test_editor_input.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "editing/paint.hpp"
#include "editor_process.hpp"
#include "editor_view.hpp"
#include "springkit/builders.hpp"
#include "springkit/io.hpp"
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

// Distance from p to the segment a-b, pixels.
float to_segment(ScreenPoint p, ScreenPoint a, ScreenPoint b) {
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float t = std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy), 0.0f, 1.0f);
    return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

std::set<std::uint32_t> anchored(const Model& m) {
    std::set<std::uint32_t> nodes;
    for (const Anchor& a : m.anchors) nodes.insert(a.node);
    return nodes;
}

}  // namespace

TEST(EditorPaint, aDragPaintsAnchorsOneUndoEntryPerStrokeAndTheFileKeepsThem) {
    TempDir dir;
    ClothSpec spec;
    spec.columns = 3;
    spec.rows = 3;
    const Model original = make_cloth(spec);  // anchored at nodes 0 and 2
    const fs::path file = dir.path() / "cloth.json";
    save_model(original, file);

    const OpeningView view(original, kWidth, kHeight);
    const Viewport& vp = view.viewport;
    auto node = [&](std::uint32_t i) { return view.at(original.positions[i]); };
    // Stroke one along the middle row (nodes 3-5), stroke two along part of the
    // last (7-8; node 6 is behind the tools panel).
    const ScreenPoint a1 = node(3), b1 = node(5), a2 = node(7), b2 = node(8);
    for (ScreenPoint p : {a1, b1, a2, b2})
        ASSERT_TRUE(p.x > vp.x && p.x < vp.x + vp.width && p.y > vp.y && p.y < vp.y + vp.height)
            << xy(p) << " is outside the viewport";
    const float radius = BrushSettings{}.radius_px;
    // The brush must reach each row's nodes and no other row's: what it paints
    // is then known whatever the steps between.
    for (std::uint32_t i = 0; i < original.node_count(); ++i) {
        const float d1 = to_segment(node(i), a1, b1), d2 = to_segment(node(i), a2, b2);
        const bool row1 = i >= 3 && i < 6, row2 = i >= 7;
        ASSERT_TRUE(row1 ? d1 < radius - 2 : d1 > radius + 2) << "node " << i << ": " << d1 << " px";
        ASSERT_TRUE(row2 ? d2 < radius - 2 : d2 > radius + 2) << "node " << i << ": " << d2 << " px";
    }

    const fs::path painted = dir.path() / "painted.png", second = dir.path() / "second.png";
    std::ostringstream script;
    script << "wait 2\n# paint mode, then pin the middle row\nkey b\n"
           << "drag left " << xy(a1) << " " << xy(b1) << " 12\n"
           << "screenshot " << painted.string() << "\n"
           << "# a second stroke pins the next row; one Ctrl+Z takes back that stroke alone\n"
           << "drag left " << xy(a2) << " " << xy(b2) << " 12\n"
           << "screenshot " << second.string() << "\n"
           << "key ctrl+z\nwait 1\nkey ctrl+s\nwait 2\n";
    const fs::path script_file = dir.path() / "paint.txt";
    std::ofstream(script_file) << script.str();
    const EditorRun run = run_editor("'" + file.string() + "' --paused --input-script '" + script_file.string() +
                                         "'" + size_args(kWidth, kHeight),
                                     dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;

    const Model saved = load_model(file);
    EXPECT_EQ(anchored(saved), (std::set<std::uint32_t>{0, 2, 3, 4, 5})) << script.str();
    for (const Anchor& a : saved.anchors) EXPECT_EQ(a.drive, AnchorDrive::fixed) << "node " << a.node;
    EXPECT_EQ(saved.springs, original.springs);
    EXPECT_EQ(saved.masses, original.masses);

    // While painting, the overlay marks the pinned nodes in orange: the first
    // stroke's, then also the second's (which Ctrl+Z took back alone).
    auto orange = [&](const Image& image, std::uint32_t i) {
        const ScreenPoint p = node(i);
        const unsigned char* c = image.at(static_cast<int>(p.x), static_cast<int>(p.y));
        return c[0] > 220 && c[1] > 110 && c[1] < 170 && c[2] < 70;
    };
    const Image first_stroke = load_png(painted), second_stroke = load_png(second);
    ASSERT_GT(first_stroke.width, 0);
    ASSERT_GT(second_stroke.width, 0);
    for (std::uint32_t i : {3u, 4u, 5u}) EXPECT_TRUE(orange(first_stroke, i)) << "node " << i;
    for (std::uint32_t i : {7u, 8u}) {
        EXPECT_FALSE(orange(first_stroke, i)) << "node " << i;
        EXPECT_TRUE(orange(second_stroke, i)) << "node " << i;
    }
}
