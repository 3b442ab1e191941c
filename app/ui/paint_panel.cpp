// springkit-editor — the paint section and overlay (paint_panel.hpp).
#include "ui/paint_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "ui/widgets.hpp"

namespace springkit::editor {

namespace {

// A value relative to its reference, on a log scale: blue (r = 1/10 or less)
// through white (r = 1) to red (10 or more).
ImU32 ratio_colour(float r) {
    const float t = std::clamp(std::log10(std::max(r, 1e-30f)), -1.0f, 1.0f);
    const float cool = std::max(0.0f, -t), warm = std::max(0.0f, t);
    const auto c = [](float v) { return static_cast<int>(std::lround(255.0f * std::clamp(v, 0.0f, 1.0f))); };
    return IM_COL32(c(1.0f - 0.8f * cool), c(1.0f - 0.8f * (cool + warm)), c(1.0f - 0.8f * warm), 255);
}

}  // namespace

void paint_section(PaintMode& paint, const Model& model) {
    if (!ImGui::CollapsingHeader(paint.active ? "Paint (on)###paint" : "Paint###paint")) return;
    ImGui::Checkbox("paint mode (B)", &paint.active);
    help_marker("While paint mode is on, a left drag in the viewport paints onto the nodes under the brush (one undo "
                "entry per stroke): anchors pins them (erase frees them), mass moves each node's mass towards the "
                "value or multiplies it, stiffness moves the k of the springs at the painted nodes towards the scale "
                "of the model's k. Right and middle drags still orbit and pan.");
    BrushSettings& b = paint.brush;
    int target = static_cast<int>(b.target);
    ImGui::PushItemWidth(150);
    if (ImGui::Combo("paints", &target, "anchors\0mass\0stiffness\0")) b.target = static_cast<PaintTarget>(target);
    ImGui::SliderFloat("radius", &b.radius_px, 2.0f, 200.0f, "%.0f px", ImGuiSliderFlags_AlwaysClamp);
    ImGui::SliderFloat("strength", &b.strength, 0.01f, 1.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp);
    int falloff = static_cast<int>(b.falloff);
    if (ImGui::Combo("falloff", &falloff, "constant\0linear\0smooth\0")) b.falloff = static_cast<PaintFalloff>(falloff);
    ImGui::Checkbox(b.target == PaintTarget::anchors ? "erase (free nodes)" : "erase (back to the model's value)",
                    &b.erase);
    if (b.target == PaintTarget::mass) {
        int mode = static_cast<int>(b.mass_mode);
        if (ImGui::Combo("mass mode", &mode, "towards a value\0multiply\0")) b.mass_mode = static_cast<MassMode>(mode);
        if (b.mass_mode == MassMode::toward)
            ImGui::DragFloat("mass", &b.mass_value, std::max(b.mass_value, 1e-4f) * 0.01f, 1e-6f, 1e6f, "%.4g kg",
                             ImGuiSliderFlags_AlwaysClamp);
        else
            ImGui::DragFloat("factor", &b.mass_factor, 0.01f, 0.01f, 100.0f, "x %.3g", ImGuiSliderFlags_AlwaysClamp);
        ImGui::TextDisabled("model mass %.4g kg", model.params.mass);
    } else if (b.target == PaintTarget::stiffness) {
        ImGui::DragFloat("k scale", &b.stiffness_value, 0.01f, 0.001f, 1000.0f, "x %.3g", ImGuiSliderFlags_AlwaysClamp);
        ImGui::TextDisabled("= %.4g N/m (model k %.4g N/m)", b.stiffness_value * model.params.k, model.params.k);
    }
    ImGui::PopItemWidth();
}

void paint_overlay(const Model& model, std::span<const Vec3> positions, const Mat4& view_projection,
                   const Viewport& viewport, const BrushSettings& brush, float x, float y) {
    ImDrawList* draw = ImGui::GetBackgroundDrawList();  // over the scene, under the panels
    draw->PushClipRect(ImVec2(viewport.x, viewport.y), ImVec2(viewport.x + viewport.width, viewport.y + viewport.height));
    const std::size_t n = std::min(positions.size(), model.node_count());
    switch (brush.target) {
        case PaintTarget::anchors: {
            std::vector<bool> anchored(model.node_count(), false);
            for (const Anchor& a : model.anchors) anchored[a.node] = true;
            for (std::size_t i = 0; i < n; ++i) {
                const auto p = project(view_projection, viewport, positions[i]);
                if (!p) continue;
                if (anchored[i]) draw->AddCircleFilled(ImVec2(p->x, p->y), 5.0f, IM_COL32(255, 140, 25, 255));
                else draw->AddCircleFilled(ImVec2(p->x, p->y), 2.5f, IM_COL32(150, 150, 150, 200));
            }
            break;
        }
        case PaintTarget::mass:
            for (std::size_t i = 0; i < n; ++i) {
                const auto p = project(view_projection, viewport, positions[i]);
                if (!p) continue;
                draw->AddCircleFilled(ImVec2(p->x, p->y), 4.0f, ratio_colour(model.node_mass(i) / model.params.mass));
            }
            break;
        case PaintTarget::stiffness:
            for (const Spring& s : model.springs) {
                if (s.a >= n || s.b >= n) continue;
                const auto a = project(view_projection, viewport, positions[s.a]);
                const auto b = project(view_projection, viewport, positions[s.b]);
                if (!a || !b) continue;
                draw->AddLine(ImVec2(a->x, a->y), ImVec2(b->x, b->y), ratio_colour(stiffness_scale_of(model, s)), 2.0f);
            }
            break;
    }
    draw->AddCircle(ImVec2(x, y), brush.radius_px, brush.erase ? IM_COL32(120, 180, 255, 230) : IM_COL32(255, 255, 255, 230),
                    48, 1.5f);
    draw->PopClipRect();
}

}  // namespace springkit::editor
