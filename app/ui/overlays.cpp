// springkit-editor — overlays on the viewport (overlays.hpp).
#include "ui/overlays.hpp"

#include <imgui.h>

#include <cstdio>

#include "render/view_options.hpp"

namespace springkit::editor {

void strain_legend(const Viewport& area, float strain_full) {
    constexpr int kSteps = 32;
    const float line = ImGui::GetTextLineHeight();
    const auto bar = strain_legend_bar(area, line);
    if (!bar) return;  // no room between the floating panels
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    const Viewport plate = strain_legend_plate(*bar, line);
    draw->AddRectFilled(ImVec2(plate.x, plate.y), ImVec2(plate.x + plate.width, plate.y + plate.height),
                        IM_COL32(20, 20, 24, 200), 3.0f);
    const ImVec2 origin(bar->x, bar->y);
    for (int i = 0; i < kSteps; ++i) {
        const float strain = strain_full * (2.0f * (static_cast<float>(i) + 0.5f) / kSteps - 1.0f);
        const Rgb c = strain_rgb(strain, strain_full);
        const float x0 = origin.x + bar->width * static_cast<float>(i) / kSteps;
        const float x1 = origin.x + bar->width * static_cast<float>(i + 1) / kSteps;
        draw->AddRectFilled(ImVec2(x0, origin.y), ImVec2(x1, origin.y + bar->height),
                            ImGui::GetColorU32(ImVec4(c.r, c.g, c.b, 1)));
    }
    char low[32], high[32];
    std::snprintf(low, sizeof low, "-%.3g%%", 100.0 * static_cast<double>(strain_full));
    std::snprintf(high, sizeof high, "+%.3g%%", 100.0 * static_cast<double>(strain_full));
    const ImU32 white = IM_COL32(230, 230, 230, 255);
    const float text_y = origin.y - line - 2;
    const float low_width = ImGui::CalcTextSize(low).x, high_width = ImGui::CalcTextSize(high).x;
    draw->AddText(ImVec2(origin.x, text_y), white, low);
    draw->AddText(ImVec2(origin.x + bar->width - high_width, text_y), white, high);
    // The title where it fits between the two ends' labels (a narrow bar leaves it out).
    const char* title = "strain";
    const float title_width = ImGui::CalcTextSize(title).x;
    if (low_width + title_width + high_width + 16.0f <= bar->width)
        draw->AddText(ImVec2(origin.x + (bar->width - title_width) * 0.5f, text_y), white, title);
}

void selected_springs_overlay(std::span<const Spring> springs, std::span<const std::uint32_t> selected,
                              std::span<const Vec3> positions, const Mat4& view_projection,
                              const Viewport& viewport) {
    ImDrawList* draw = ImGui::GetBackgroundDrawList();  // over the scene, under the panels
    draw->PushClipRect(ImVec2(viewport.x, viewport.y), ImVec2(viewport.x + viewport.width, viewport.y + viewport.height));
    for (std::uint32_t i : selected) {
        if (i >= springs.size()) continue;
        const auto a = project(view_projection, viewport, positions[springs[i].a]);
        const auto b = project(view_projection, viewport, positions[springs[i].b]);
        if (!a || !b) continue;
        draw->AddLine(ImVec2(a->x, a->y), ImVec2(b->x, b->y), IM_COL32(255, 230, 51, 255), 3.0f);
    }
    draw->PopClipRect();
}

namespace {

constexpr Shortcut kShortcuts[] = {
    {"F1", "show or hide this help"},
    {"click", "select a node or spring (Shift toggles, Ctrl removes); a collider where there is neither; empty "
              "space clears"},
    {"drag a node", "pull it with a soft spring (an anchor moves with the mouse)"},
    {"drag a collider", "move it (where no node or spring is under the cursor)"},
    {"drag on empty space", "box selection; Shift+drag adds, Ctrl+drag removes, anywhere"},
    {"right / middle drag, Alt+drag", "orbit the camera"},
    {"Shift + right / middle drag", "pan"},
    {"wheel", "zoom"},
    {"Home", "frame the selected nodes, or all the model has swept (View > Follow the body tracks it)"},
    {"Space", "play / pause"},
    {".", "one step"},
    {"R", "reset the simulation"},
    {"F", "spring between the last two selected nodes (it becomes selected)"},
    {"Delete, X", "delete the selected springs (or else the selected collider)"},
    {"P", "anchor or free the selected nodes"},
    {"B", "paint mode: a left drag paints anchors, mass or stiffness under the brush (Tools > Paint)"},
    {"A / Alt+A, Esc", "select all / none"},
    {"[ ]", "previous / next node"},
    {"arrows, Page Up / Down", "move the selected collider (no node selected), the selected anchor, or a rope's "
                               "driven end"},
    {"V", "mesh view (surface) / spring view (springs and nodes)"},
    {"Ctrl+Left / Ctrl+Right", "timeline: a recorded frame back / on, pausing (with Shift, ten)"},
    {"Ctrl+Z / Ctrl+Shift+Z, Ctrl+Y", "undo / redo"},
    {"Ctrl+S / Ctrl+Shift+S", "save / save as"},
    {"Ctrl+O", "open"},
    {"Ctrl+Q", "quit"},
    {"Ctrl+click a number", "type a value; Enter applies it, Esc drops it"},
};

}  // namespace

std::span<const Shortcut> shortcuts() { return kShortcuts; }

void help_window(bool& open) {
    if (!open) return;
    const ImGuiViewport* main = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(main->Pos.x + main->Size.x * 0.5f, main->Pos.y + main->Size.y * 0.5f),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(580, 0), ImGuiCond_Appearing);
    ImGui::SetNextWindowBgAlpha(1.0f);  // over panels that draw no background of their own
    if (ImGui::Begin("Help: shortcuts (F1)", &open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
        if (ImGui::BeginTable("##shortcuts", 2, ImGuiTableFlags_RowBg)) {
            ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed, 230.0f);
            ImGui::TableSetupColumn("does", ImGuiTableColumnFlags_WidthStretch);
            for (const Shortcut& s : kShortcuts) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(s.keys);
                ImGui::TableNextColumn();
                ImGui::TextWrapped("%s", s.does);
            }
            ImGui::EndTable();
        }
    }
    ImGui::End();
}

}  // namespace springkit::editor
