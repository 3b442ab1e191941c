// springkit-editor — the paint brush (paint.hpp).
#include "editing/paint.hpp"

#include <algorithm>
#include <cmath>

namespace springkit::editor {

namespace {

constexpr float kMinMass = 1e-6f, kMaxMass = 1e6f;
constexpr float kMinScale = 1e-3f, kMaxScale = 1e3f;

}  // namespace

const char* paint_target_name(PaintTarget target) {
    switch (target) {
        case PaintTarget::anchors: return "anchors";
        case PaintTarget::mass: return "mass";
        case PaintTarget::stiffness: return "stiffness";
    }
    return "anchors";
}

const char* paint_falloff_name(PaintFalloff falloff) {
    switch (falloff) {
        case PaintFalloff::constant: return "constant";
        case PaintFalloff::linear: return "linear";
        case PaintFalloff::smooth: return "smooth";
    }
    return "smooth";
}

float brush_weight(const BrushSettings& brush, float distance_px) {
    if (!(brush.radius_px > 0.0f) || !(distance_px <= brush.radius_px)) return 0.0f;
    const float d = std::max(0.0f, distance_px) / brush.radius_px;
    switch (brush.falloff) {
        case PaintFalloff::constant: return 1.0f;
        case PaintFalloff::linear: return 1.0f - d;
        case PaintFalloff::smooth: return 1.0f - d * d * (3.0f - 2.0f * d);
    }
    return 0.0f;
}

std::vector<BrushHit> nodes_under_brush(std::span<const Vec3> positions, const Mat4& view_projection,
                                        const Viewport& viewport, float x, float y, const BrushSettings& brush) {
    std::vector<BrushHit> hits;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const auto s = project(view_projection, viewport, positions[i]);
        if (!s) continue;
        // A node at the rim has weight 0 and counts as outside.
        const float w = brush_weight(brush, std::hypot(s->x - x, s->y - y));
        if (w > 0.0f) hits.push_back({static_cast<std::uint32_t>(i), w});
    }
    return hits;
}

PaintValues paint_values(const Model& model) {
    PaintValues v{model.masses, model.anchors, {}};
    v.spring_k.reserve(model.springs.size());
    for (const Spring& s : model.springs) v.spring_k.push_back(s.k);
    return v;
}

float stiffness_scale_of(const Model& model, const Spring& spring) {
    return spring.k > 0.0f && model.params.k > 0.0f ? spring.k / model.params.k : 1.0f;
}

bool apply_dab(const Model& model, PaintValues& values, std::span<const BrushHit> hits, const BrushSettings& brush) {
    if (hits.empty()) return false;
    const float strength = std::clamp(brush.strength, 0.0f, 1.0f);
    bool changed = false;
    switch (brush.target) {
        case PaintTarget::anchors: {
            std::vector<bool> hit(model.node_count(), false);
            for (const BrushHit& h : hits) hit[h.node] = true;
            if (brush.erase) {
                const auto before = values.anchors.size();
                std::erase_if(values.anchors, [&](const Anchor& a) { return hit[a.node]; });
                return values.anchors.size() != before;
            }
            std::vector<bool> anchored(model.node_count(), false);
            for (const Anchor& a : values.anchors) anchored[a.node] = true;
            for (const BrushHit& h : hits) {
                if (anchored[h.node]) continue;
                anchored[h.node] = true;
                Anchor a;
                a.node = h.node;
                values.anchors.push_back(a);
                changed = true;
            }
            return changed;
        }
        case PaintTarget::mass: {
            if (values.masses.empty()) values.masses.assign(model.node_count(), model.params.mass);
            for (const BrushHit& h : hits) {
                float& m = values.masses[h.node];
                const float amount = h.weight * strength;
                float next = m;
                if (brush.erase) next = m + (model.params.mass - m) * amount;
                else if (brush.mass_mode == MassMode::toward) next = m + (brush.mass_value - m) * amount;
                else next = m * std::pow(brush.mass_factor, amount);
                next = std::clamp(next, kMinMass, kMaxMass);
                if (std::isfinite(next) && next != m) {
                    m = next;
                    changed = true;
                }
            }
            return changed;
        }
        case PaintTarget::stiffness: {
            if (!(model.params.k > 0.0f)) return false;
            std::vector<float> weight(model.node_count(), 0.0f);
            for (const BrushHit& h : hits) weight[h.node] = h.weight;
            const float target = brush.erase ? 1.0f : brush.stiffness_value;
            for (std::size_t i = 0; i < model.springs.size(); ++i) {
                const Spring& s = model.springs[i];
                const float w = 0.5f * (weight[s.a] + weight[s.b]);
                if (!(w > 0.0f)) continue;
                float& k = values.spring_k[i];
                const float scale = k > 0.0f ? k / model.params.k : 1.0f;
                const float next = std::clamp(scale + (target - scale) * w * strength, kMinScale, kMaxScale);
                const float next_k = next * model.params.k;
                if (std::isfinite(next_k) && next_k != k) {
                    k = next_k;
                    changed = true;
                }
            }
            return changed;
        }
    }
    return false;
}

}  // namespace springkit::editor
