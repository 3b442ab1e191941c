// springkit-editor — an orbit camera and the matrix math the viewport needs
// (no OpenGL: picking and tests use the same math as the renderer).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>

#include "springkit/model.hpp"
#include "springkit/vec3.hpp"

namespace springkit::editor {

/// 4x4 matrix, column-major as OpenGL reads it: element (row r, column c) is m[c * 4 + r].
struct Mat4 {
    float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
};
Mat4 operator*(const Mat4& a, const Mat4& b);
Mat4 perspective(float fov_y, float aspect, float near_plane, float far_plane);
Mat4 look_at(Vec3 eye, Vec3 target, Vec3 up);
/// Projects points onto the plane through `point` with normal `normal` along the
/// direction `toward_light` (a planar shadow, as Tunca's rope draws on its ground).
Mat4 planar_shadow(Vec3 point, Vec3 normal, Vec3 toward_light);
/// (x, y, z, w) = m * (p, 1).
void transform(const Mat4& m, Vec3 p, float out[4]);

/// A rectangle of the window in pixels, y down (GLFW and ImGui coordinates).
struct Viewport {
    float x = 0, y = 0, width = 1, height = 1;
};

/// The narrowest scene drawn between the side panels, px.
inline constexpr float kMinSceneWidth = 240.0f;
/// How far the side panels narrow, as a share of their full widths, to keep the
/// scene beside them on a small window.
inline constexpr float kMinPanelShare = 0.55f;

/// The widths of the two side panels, px.
struct SidePanels {
    float left = 0, right = 0;
};
/// The side panels' widths in a window `window_width` px wide, for panels `left`
/// and `right` px wide at full size: full size while the scene keeps
/// kMinSceneWidth between them; on a narrower window both narrow by the same
/// share, down to kMinPanelShare, so that the scene stays in view beside them
/// (a 640 px window keeps 240 px of scene between panels of 63% of their width).
SidePanels side_panels(float window_width, float left, float right);

/// The part of a window the scene is drawn in, window pixels: below the menu bar
/// and above the status bar (each `bar` px high, 0 without panels), and between
/// the side panels (`left` and `right` px wide) when that leaves at least
/// kMinSceneWidth; a narrower window draws the scene under the panels, across its
/// whole width.
Viewport scene_viewport(float window_width, float window_height, float bar, float left, float right);

/// Whether the side panels stand beside the scene in a window `window_width` px
/// wide (scene_viewport puts the scene between them), or else float over it.
bool panels_beside_scene(float window_width, SidePanels panels);

/// The part of the scene `scene` (scene_viewport's) no side panel covers: the
/// scene itself when the panels stand beside it, or else the gap between the
/// floating panels (0 px wide when they meet). What is drawn over the scene (its
/// legends) goes there.
Viewport uncovered_scene(const Viewport& scene, float window_width, SidePanels panels);

/// The strain legend's colour bar, kStrainLegendMargin in from the bottom left
/// corner of `area` (uncovered_scene's): kStrainLegendWidth px wide, or as wide
/// as `area` leaves down to kMinStrainLegendWidth; nullopt in a narrower area.
/// Its labels stand `line` px high above it, on a plate kStrainLegendPlate px
/// around both, all inside `area`.
std::optional<Viewport> strain_legend_bar(const Viewport& area, float line);
inline constexpr float kStrainLegendWidth = 160.0f, kMinStrainLegendWidth = 90.0f;
inline constexpr float kStrainLegendHeight = 10.0f, kStrainLegendMargin = 10.0f, kStrainLegendPlate = 4.0f;
/// The legend's plate: the bar, its labels above it and kStrainLegendPlate px around.
Viewport strain_legend_plate(const Viewport& bar, float line);

/// Where a point lands in the window: pixel x, y and depth in [0, 1]; nullopt
/// behind the camera.
struct ScreenPoint {
    float x, y, depth;
};
std::optional<ScreenPoint> project(const Mat4& view_projection, const Viewport& viewport, Vec3 p);

/// Whether a triangle whose corners lie at x[i], y[i] pixels from its viewport's
/// corner may cover a pixel: whether its bounding box, widened by `margin` px on
/// every side, holds a pixel centre (k + 0.5, l + 0.5). OpenGL rasterises at the
/// pixel centres, so a triangle for which this is false draws nothing. Less 0.5,
/// the box [lo, hi] holds a centre when floor(hi) >= ceil(lo) on both axes.
inline bool may_cover_pixel(const float x[3], const float y[3], float margin) {
    const float x0 = std::min({x[0], x[1], x[2]}) - margin - 0.5f, x1 = std::max({x[0], x[1], x[2]}) + margin - 0.5f;
    const float y0 = std::min({y[0], y[1], y[2]}) - margin - 0.5f, y1 = std::max({y[0], y[1], y[2]}) + margin - 0.5f;
    return std::floor(x1) >= std::ceil(x0) && std::floor(y1) >= std::ceil(y0);
}

struct Ray {
    Vec3 origin;
    Vec3 direction;  ///< unit length
};

/// Blender-style orbit camera around a target: drag to orbit, pan, wheel to zoom.
class OrbitCamera {
public:
    Vec3 target{0, 0, 0};
    float yaw = 0.6f;      ///< rad around +y
    float pitch = 0.45f;   ///< rad above the horizon
    float distance = 5.0f; ///< m from the target
    float fov_y = 0.7854f; ///< rad, vertical field of view (45 degrees)

    Vec3 eye() const;
    Mat4 view() const;
    Mat4 projection(float aspect) const;
    Mat4 view_projection(const Viewport& viewport) const;
    /// The ray through a window pixel.
    Ray ray(const Viewport& viewport, float x, float y) const;

    /// Mouse motion in pixels.
    void orbit(float dx, float dy);
    void pan(float dx, float dy, const Viewport& viewport);
    /// Wheel steps; positive moves closer.
    void zoom(float steps);
    /// Looks at the whole box from the current direction, in a view `aspect`
    /// (width / height) wide: a view narrower than it is high fits the box in its
    /// width.
    void frame(const Bounds& box, float aspect = 1.0f);
};

/// The height of the floor drawn under a model: its ground plane when it has one,
/// otherwise just below everything its anchors let it reach (a model hanging from
/// an anchor swings down at most its own size).
float floor_height(const Model& model);

/// What the camera frames on opening: the model's rest bounds down to its floor,
/// so a rope that will fall and hang is in view.
Bounds framing_bounds(const Model& model);

/// The box around the given nodes at `positions`; the box around all of them when
/// `nodes` is empty. A zero box for no positions.
Bounds bounds_of(std::span<const Vec3> positions, std::span<const std::uint32_t> nodes);
/// The smallest box holding both.
Bounds merged(const Bounds& a, const Bounds& b);

/// Where a ray meets the plane through `point` with normal `normal`; nullopt when
/// parallel or behind the ray's origin.
std::optional<Vec3> intersect_plane(const Ray& ray, Vec3 point, Vec3 normal);

}  // namespace springkit::editor
