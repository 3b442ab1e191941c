// springkit-editor — shared panel helpers (widgets.hpp).
#include "ui/widgets.hpp"

namespace springkit::editor {

namespace {

// The fixed panels draw no background of their own: the frame is cleared to this
// colour under them (EditorApp::frame), which saves blending half the window
// every frame in a software rasteriser such as llvmpipe.
const ImVec4 kPanelBackground{0.0f, 0.0f, 0.0f, 0.0f};
const ImVec4 kFloatingPanelBackground{0.08f, 0.08f, 0.09f, 0.9f};

}  // namespace

TypedValue& typed_value() {
    static TypedValue typed;
    return typed;
}

bool typing_into_last_item() { return ImGui::TempInputIsActive(ImGui::GetItemID()); }

void help_marker(const char* text) {
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

SidePanels panel_widths() {
    return side_panels(ImGui::GetMainViewport()->Size.x, kToolsWidth, kInsightWidth);
}

void begin_side_panel(const char* name, float x, float width) {
    const ImGuiViewport* main = ImGui::GetMainViewport();
    const float top = ImGui::GetFrameHeight();
    ImGui::SetNextWindowPos(ImVec2(main->Pos.x + x, main->Pos.y + top));
    ImGui::SetNextWindowSize(ImVec2(width, main->Size.y - 2.0f * top));
    // Panels floating over the scene (a narrow window) get a plate of that colour
    // of their own, so that their text reads over the model.
    const bool floating = !panels_beside_scene(main->Size.x, panel_widths());
    ImGui::PushStyleColor(ImGuiCol_WindowBg, floating ? kFloatingPanelBackground : kPanelBackground);
    ImGui::Begin(name, nullptr,
                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoTitleBar);
}

void end_side_panel() {
    ImGui::End();
    ImGui::PopStyleColor();
}

void status_bar(const std::string& status, const std::string& texture_error, const std::string& autosave_error) {
    const ImGuiViewport* main = ImGui::GetMainViewport();
    const float height = ImGui::GetFrameHeight();
    ImGui::SetNextWindowPos(ImVec2(main->Pos.x, main->Pos.y + main->Size.y - height));
    ImGui::SetNextWindowSize(ImVec2(main->Size.x, height));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8, 3));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, kPanelBackground);
    ImGui::Begin("##status", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
    // The texture's warning first: it lasts, and a long status would push it
    // out of a narrow window.
    if (!texture_error.empty()) {
        ImGui::TextColored(kWarn, "%s (drawn without it)", texture_error.c_str());
        ImGui::SameLine(0.0f, 16.0f);
    }
    if (status.starts_with("error:"))
        ImGui::TextColored(kBad, "%s", status.c_str());
    else
        ImGui::TextUnformatted(status.c_str());
    if (!autosave_error.empty()) {
        ImGui::SameLine();
        ImGui::TextColored(kWarn, "  %s", autosave_error.c_str());
    }
    ImGui::End();
    ImGui::PopStyleColor();
    ImGui::PopStyleVar();
}

}  // namespace springkit::editor
