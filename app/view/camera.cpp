// springkit-editor — camera math.
#include "view/camera.hpp"

#include <algorithm>
#include <cmath>

namespace springkit::editor {

Mat4 operator*(const Mat4& a, const Mat4& b) {
    Mat4 r;
    for (int c = 0; c < 4; ++c)
        for (int row = 0; row < 4; ++row) {
            float sum = 0.0f;
            for (int k = 0; k < 4; ++k) sum += a.m[k * 4 + row] * b.m[c * 4 + k];
            r.m[c * 4 + row] = sum;
        }
    return r;
}

Mat4 perspective(float fov_y, float aspect, float near_plane, float far_plane) {
    const float f = 1.0f / std::tan(fov_y * 0.5f);
    Mat4 r;
    std::fill(std::begin(r.m), std::end(r.m), 0.0f);
    r.m[0] = f / aspect;
    r.m[5] = f;
    r.m[10] = (far_plane + near_plane) / (near_plane - far_plane);
    r.m[11] = -1.0f;
    r.m[14] = 2.0f * far_plane * near_plane / (near_plane - far_plane);
    return r;
}

Mat4 look_at(Vec3 eye, Vec3 target, Vec3 up) {
    const Vec3 f = normalized(target - eye);
    const Vec3 s = normalized(cross(f, up));
    const Vec3 u = cross(s, f);
    Mat4 r;
    r.m[0] = s.x;  r.m[4] = s.y;  r.m[8] = s.z;   r.m[12] = -dot(s, eye);
    r.m[1] = u.x;  r.m[5] = u.y;  r.m[9] = u.z;   r.m[13] = -dot(u, eye);
    r.m[2] = -f.x; r.m[6] = -f.y; r.m[10] = -f.z; r.m[14] = dot(f, eye);
    r.m[3] = 0;    r.m[7] = 0;    r.m[11] = 0;    r.m[15] = 1;
    return r;
}

Mat4 planar_shadow(Vec3 point, Vec3 normal, Vec3 toward_light) {
    // p' = p - L (n.(p - q)) / (n.L): slide p along the light direction L onto the plane.
    const Vec3 n = normalized(normal);
    const Vec3 l = toward_light;
    const float nl = dot(n, l);
    const float d = -dot(n, point);
    const float plane[4] = {n.x, n.y, n.z, d};
    const float light[4] = {l.x, l.y, l.z, 0.0f};
    Mat4 r;
    for (int c = 0; c < 4; ++c)
        for (int row = 0; row < 4; ++row)
            r.m[c * 4 + row] = (row == c ? nl : 0.0f) - light[row] * plane[c];
    return r;
}

void transform(const Mat4& m, Vec3 p, float out[4]) {
    for (int row = 0; row < 4; ++row)
        out[row] = m.m[row] * p.x + m.m[4 + row] * p.y + m.m[8 + row] * p.z + m.m[12 + row];
}

SidePanels side_panels(float window_width, float left, float right) {
    const float full = left + right;
    if (full <= 0.0f) return {left, right};
    const float share = std::clamp((window_width - kMinSceneWidth) / full, kMinPanelShare, 1.0f);
    return {left * share, right * share};
}

Viewport scene_viewport(float window_width, float window_height, float bar, float left, float right) {
    Viewport vp{0, bar, std::max(window_width, 1.0f), std::max(window_height - 2.0f * bar, 1.0f)};
    if (panels_beside_scene(window_width, {left, right})) {
        vp.x = left;
        vp.width -= left + right;
    }
    return vp;
}

bool panels_beside_scene(float window_width, SidePanels panels) {
    return std::max(window_width, 1.0f) >= panels.left + panels.right + kMinSceneWidth;
}

Viewport uncovered_scene(const Viewport& scene, float window_width, SidePanels panels) {
    if (panels_beside_scene(window_width, panels)) return scene;
    return {panels.left, scene.y, std::max(window_width - panels.left - panels.right, 0.0f), scene.height};
}

std::optional<Viewport> strain_legend_bar(const Viewport& area, float line) {
    const float width = std::min(kStrainLegendWidth, area.width - 2.0f * kStrainLegendMargin);
    const Viewport bar{area.x + kStrainLegendMargin, area.y + area.height - kStrainLegendMargin - kStrainLegendHeight,
                       width, kStrainLegendHeight};
    const Viewport plate = strain_legend_plate(bar, line);
    if (width < kMinStrainLegendWidth || plate.y < area.y) return std::nullopt;
    return bar;
}

Viewport strain_legend_plate(const Viewport& bar, float line) {
    const float top = bar.y - line - 2.0f - kStrainLegendPlate;
    return {bar.x - kStrainLegendPlate, top, bar.width + 2.0f * kStrainLegendPlate,
            bar.y + bar.height + kStrainLegendPlate - top};
}

std::optional<ScreenPoint> project(const Mat4& view_projection, const Viewport& viewport, Vec3 p) {
    float clip[4];
    transform(view_projection, p, clip);
    if (clip[3] <= 1e-6f) return std::nullopt;
    const float nx = clip[0] / clip[3], ny = clip[1] / clip[3], nz = clip[2] / clip[3];
    return ScreenPoint{viewport.x + (nx * 0.5f + 0.5f) * viewport.width,
                       viewport.y + (0.5f - ny * 0.5f) * viewport.height, nz * 0.5f + 0.5f};
}

Vec3 OrbitCamera::eye() const {
    const Vec3 dir{std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw)};
    return target + dir * distance;
}

Mat4 OrbitCamera::view() const { return look_at(eye(), target, {0, 1, 0}); }

Mat4 OrbitCamera::projection(float aspect) const {
    // Near and far follow the distance so that both tiny and huge models draw.
    return perspective(fov_y, aspect, distance * 0.01f, distance * 100.0f);
}

Mat4 OrbitCamera::view_projection(const Viewport& viewport) const {
    return projection(viewport.width / std::max(viewport.height, 1.0f)) * view();
}

Ray OrbitCamera::ray(const Viewport& viewport, float x, float y) const {
    const float aspect = viewport.width / std::max(viewport.height, 1.0f);
    const float nx = ((x - viewport.x) / viewport.width) * 2.0f - 1.0f;
    const float ny = 1.0f - ((y - viewport.y) / viewport.height) * 2.0f;
    const float t = std::tan(fov_y * 0.5f);
    const Vec3 e = eye();
    const Vec3 f = normalized(target - e);
    const Vec3 s = normalized(cross(f, {0, 1, 0}));
    const Vec3 u = cross(s, f);
    return {e, normalized(f + s * (nx * t * aspect) + u * (ny * t))};
}

void OrbitCamera::orbit(float dx, float dy) {
    yaw -= dx * 0.008f;
    pitch = std::clamp(pitch + dy * 0.008f, -1.55f, 1.55f);
}

void OrbitCamera::pan(float dx, float dy, const Viewport& viewport) {
    // One pixel moves the target by the size of a pixel at the target's distance.
    const float per_pixel = 2.0f * distance * std::tan(fov_y * 0.5f) / std::max(viewport.height, 1.0f);
    const Vec3 f = normalized(target - eye());
    const Vec3 s = normalized(cross(f, {0, 1, 0}));
    const Vec3 u = cross(s, f);
    target += (s * -dx + u * dy) * per_pixel;
}

void OrbitCamera::zoom(float steps) { distance = std::clamp(distance * std::pow(0.85f, steps), 1e-3f, 1e5f); }

void OrbitCamera::frame(const Bounds& box, float aspect) {
    target = (box.min + box.max) * 0.5f;
    const float radius = std::max(box.diagonal() * 0.5f, 0.05f);
    // The box's bounding sphere fits in the narrower of the two half-angles of the
    // view: fov_y / 2 upright, atan(tan(fov_y / 2) * aspect) across.
    const float half_angle = std::atan(std::tan(fov_y * 0.5f) * std::clamp(aspect, 0.05f, 1.0f));
    distance = radius / std::sin(half_angle) * 1.1f;
}

float floor_height(const Model& model) {
    if (model.params.ground) return model.params.ground->height;
    const Bounds box = bounds(model);
    const float diagonal = std::max(box.diagonal(), 0.1f);
    float floor = box.min.y;
    for (const Anchor& a : model.anchors) floor = std::min(floor, model.positions[a.node].y - diagonal);
    return floor - 0.05f * diagonal;
}

Bounds bounds_of(std::span<const Vec3> positions, std::span<const std::uint32_t> nodes) {
    Bounds box;
    bool first = true;
    auto add = [&](Vec3 p) {
        if (first) {
            box = {p, p};
            first = false;
            return;
        }
        box = merged(box, {p, p});
    };
    if (nodes.empty())
        for (const Vec3& p : positions) add(p);
    for (std::uint32_t n : nodes)
        if (n < positions.size()) add(positions[n]);
    return box;
}

Bounds merged(const Bounds& a, const Bounds& b) {
    return {{std::min(a.min.x, b.min.x), std::min(a.min.y, b.min.y), std::min(a.min.z, b.min.z)},
            {std::max(a.max.x, b.max.x), std::max(a.max.y, b.max.y), std::max(a.max.z, b.max.z)}};
}

Bounds framing_bounds(const Model& model) {
    Bounds box = bounds(model);
    if (model.node_count() == 0) return box;
    box.min.y = std::min(box.min.y, floor_height(model));
    // A fall onto the ground is in view; an unbounded hang below the anchors need not be.
    if (!model.params.ground) box.min.y = std::max(box.min.y, bounds(model).min.y - 0.5f * bounds(model).diagonal());
    return box;
}

std::optional<Vec3> intersect_plane(const Ray& ray, Vec3 point, Vec3 normal) {
    const float denom = dot(ray.direction, normal);
    if (std::abs(denom) < 1e-8f) return std::nullopt;
    const float t = dot(point - ray.origin, normal) / denom;
    if (t < 0.0f) return std::nullopt;
    return ray.origin + ray.direction * t;
}

}  // namespace springkit::editor
