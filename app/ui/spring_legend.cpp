// springkit-editor — the spring legend (spring_legend.hpp).
#include "ui/spring_legend.hpp"

#include <imgui.h>

#include "ui/widgets.hpp"

namespace springkit::editor {

void spring_legend(const Viewport& viewport, ViewOptions& view,
                   const std::array<std::size_t, kSpringClasses>& counts) {
    ImGui::SetNextWindowPos(ImVec2(viewport.x + 10.0f, viewport.y + 10.0f));
    ImGui::SetNextWindowBgAlpha(0.75f);
    // The layout legend_checkbox() describes: default padding and spacing.
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8.0f, 8.0f));
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(8.0f, 4.0f));
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(4.0f, 3.0f));
    constexpr ImGuiWindowFlags kFlags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
        ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
        ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    if (ImGui::Begin("##spring legend", nullptr, kFlags)) {
        ImGui::Checkbox("colour by kind", &view.colour_by_class);
        help_marker(
            "Springs in the colour of their kind (the swatches below) instead of their strain. "
            "Kinds: edge "
            "(along a face's edge or a mesh line), shear (a quad's second diagonal), bend (across "
            "two "
            "faces), volume (through a closed mesh), rope (max-length constraint), added (by hand "
            "in the "
            "editor), other (no kind recorded: models built by springkit new or saved before "
            "kinds).");
        for (std::size_t c = 0; c < kSpringClasses; ++c) {
            const auto cls = static_cast<SpringClass>(c);
            ImGui::PushID(static_cast<int>(c));
            ImGui::Checkbox("##shown", &view.show_class[c]);
            ImGui::SameLine();
            const Rgb rgb = spring_class_rgb(cls);
            ImGui::ColorButton("##colour", ImVec4(rgb.r, rgb.g, rgb.b, 1.0f),
                               ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker |
                                   ImGuiColorEditFlags_NoDragDrop);
            ImGui::SameLine();
            if (counts[c] == 0)
                ImGui::TextDisabled("%-7s %zu", spring_class_name(cls), counts[c]);
            else
                ImGui::Text("%-7s %zu", spring_class_name(cls), counts[c]);
            ImGui::PopID();
        }
        ImGui::Checkbox("isolate selection", &view.isolate_selection);
        help_marker(
            "Draw only the selected nodes and springs, the springs and faces that join selected "
            "nodes, "
            "and the ends of selected springs.");
        ImGui::Checkbox("x-ray", &view.xray);
        help_marker("Springs and nodes drawn through the surface.");
    }
    ImGui::End();
    ImGui::PopStyleVar(3);
}

}  // namespace springkit::editor
