// Test support for input scripts that click the editor's viewport: where the
// editor's camera puts a point when it opens a model (its own camera and layout,
// app/view and ui/widgets.hpp), and points written as script coordinates.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "springkit/model.hpp"
#include "ui/widgets.hpp"
#include "view/camera.hpp"

namespace springkit::test::editor {

/// Dear ImGui's default frame height: the 13 px font and 3 px of padding above
/// and below; the menu bar and the status bar are one frame high.
inline constexpr float kBarHeight = 19.0f;

/// The view the editor opens `model` with in a window `width` x `height`.
struct OpeningView {
    springkit::editor::Viewport viewport;
    springkit::editor::Mat4 matrix;
    springkit::editor::OrbitCamera camera;

    OpeningView(const Model& model, int width, int height)
        : viewport(scene(width, height)) {
        camera.frame(springkit::editor::framing_bounds(model), viewport.width / viewport.height);
        matrix = camera.view_projection(viewport);
    }
    /// The scene's rectangle in a window `width` x `height`, between the side
    /// panels as wide as the editor makes them there.
    static springkit::editor::Viewport scene(int width, int height) {
        const auto panels = springkit::editor::side_panels(static_cast<float>(width), springkit::editor::kToolsWidth,
                                                           springkit::editor::kInsightWidth);
        return springkit::editor::scene_viewport(static_cast<float>(width), static_cast<float>(height), kBarHeight,
                                                 panels.left, panels.right);
    }
    /// Where `p` is drawn, window pixels.
    springkit::editor::ScreenPoint at(Vec3 p) const {
        const auto s = springkit::editor::project(matrix, viewport, p);
        EXPECT_TRUE(s);
        return s.value_or(springkit::editor::ScreenPoint{0, 0, 0});
    }
};

/// The editor's window size options: " --width W --height H".
inline std::string size_args(int width, int height) {
    return " --width " + std::to_string(width) + " --height " + std::to_string(height);
}

/// "X Y" as input scripts take a point.
inline std::string xy(springkit::editor::ScreenPoint p) {
    char text[64];
    std::snprintf(text, sizeof text, "%.1f %.1f", static_cast<double>(p.x),
                  static_cast<double>(p.y));
    return text;
}

}  // namespace springkit::test::editor
