// springkit-editor — picking.
#include "view/picking.hpp"

#include <algorithm>

namespace springkit::editor {

namespace {

// The nearest thing and its squared distance in pixels.
struct Nearest {
    std::optional<std::uint32_t> index;
    float d2 = 0.0f;
};

Nearest nearest_node(std::span<const Vec3> positions, const Mat4& view_projection, const Viewport& viewport, float x,
                     float y, float radius) {
    std::optional<std::uint32_t> best;
    float best_d2 = radius * radius, best_depth = 2.0f;
    for (std::uint32_t i = 0; i < positions.size(); ++i) {
        const auto s = project(view_projection, viewport, positions[i]);
        if (!s || s->depth < 0.0f || s->depth > 1.0f) continue;
        const float d2 = (s->x - x) * (s->x - x) + (s->y - y) * (s->y - y);
        // Within half a pixel counts as a tie: prefer the node in front.
        if (d2 < best_d2 - 0.25f || (d2 <= best_d2 + 0.25f && s->depth < best_depth)) {
            best = i;
            best_d2 = std::min(d2, best_d2);
            best_depth = s->depth;
        }
    }
    return {best, best_d2};
}

Nearest nearest_spring(std::span<const Spring> springs, std::span<const Vec3> positions, const Mat4& view_projection,
                       const Viewport& viewport, float x, float y, float radius) {
    std::optional<std::uint32_t> best;
    float best_d2 = radius * radius, best_len2 = 0.0f;
    for (std::uint32_t i = 0; i < springs.size(); ++i) {
        const auto a = project(view_projection, viewport, positions[springs[i].a]);
        const auto b = project(view_projection, viewport, positions[springs[i].b]);
        if (!a || !b) continue;
        const float ex = b->x - a->x, ey = b->y - a->y;
        const float len2 = ex * ex + ey * ey;
        float t = len2 > 0.0f ? ((x - a->x) * ex + (y - a->y) * ey) / len2 : 0.0f;
        t = std::clamp(t, 0.0f, 1.0f);
        const float px = a->x + ex * t - x, py = a->y + ey * t - y;
        const float d2 = px * px + py * py;
        // Springs on one line (a bend spring over the two edges it spans) tie:
        // the shortest on screen, the one that ends nearest, is the one meant.
        if (d2 < best_d2 - 0.25f || (best && d2 <= best_d2 + 0.25f && len2 < best_len2)) {
            best = i;
            best_d2 = std::min(d2, best_d2);
            best_len2 = len2;
        }
    }
    return {best, best_d2};
}

}  // namespace

std::optional<std::uint32_t> pick_node(std::span<const Vec3> positions, const Mat4& view_projection,
                                       const Viewport& viewport, float x, float y, float radius) {
    return nearest_node(positions, view_projection, viewport, x, y, radius).index;
}

std::optional<std::uint32_t> pick_spring(std::span<const Spring> springs, std::span<const Vec3> positions,
                                         const Mat4& view_projection, const Viewport& viewport, float x,
                                         float y, float radius) {
    return nearest_spring(springs, positions, view_projection, viewport, x, y, radius).index;
}

std::string to_string(const PickHit& hit) {
    return (hit.kind == PickHit::Kind::node ? "node " : "spring ") + std::to_string(hit.index);
}

std::optional<PickHit> pick(std::span<const Vec3> positions, std::span<const Spring> springs,
                            const Mat4& view_projection, const Viewport& viewport, float x, float y) {
    const Nearest node = nearest_node(positions, view_projection, viewport, x, y, kNodePickRadius);
    if (node.index && node.d2 <= kNodeDotRadius * kNodeDotRadius) return PickHit{PickHit::Kind::node, *node.index};
    const Nearest spring = nearest_spring(springs, positions, view_projection, viewport, x, y, kSpringPickRadius);
    if (spring.index && (!node.index || spring.d2 < node.d2)) return PickHit{PickHit::Kind::spring, *spring.index};
    if (node.index) return PickHit{PickHit::Kind::node, *node.index};
    return std::nullopt;
}

std::vector<std::uint32_t> nodes_in_rect(std::span<const Vec3> positions, const Mat4& view_projection,
                                         const Viewport& viewport, float x0, float y0, float x1, float y1) {
    const float left = std::min(x0, x1), right = std::max(x0, x1);
    const float top = std::min(y0, y1), bottom = std::max(y0, y1);
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < positions.size(); ++i) {
        const auto s = project(view_projection, viewport, positions[i]);
        if (s && s->depth >= 0.0f && s->depth <= 1.0f && s->x >= left && s->x <= right && s->y >= top &&
            s->y <= bottom)
            out.push_back(i);
    }
    return out;
}

}  // namespace springkit::editor
