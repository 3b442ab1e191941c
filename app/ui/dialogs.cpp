// springkit-editor — the questions (dialogs.hpp).
#include "ui/dialogs.hpp"

#include <imgui.h>

namespace springkit::editor {

std::optional<CloseAnswer> unsaved_changes_dialog(bool asking, const std::string& name) {
    if (asking) ImGui::OpenPopup("Unsaved changes");
    if (!ImGui::BeginPopupModal("Unsaved changes", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return std::nullopt;
    std::optional<CloseAnswer> answer;
    ImGui::Text("Save changes to %s before closing it?", name.c_str());
    ImGui::TextDisabled("Your edits are lost if you don't save them.");
    if (ImGui::Button("Save", ImVec2(110, 0))) answer = CloseAnswer::save;
    ImGui::SameLine();
    if (ImGui::Button("Don't Save", ImVec2(110, 0))) answer = CloseAnswer::discard;
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(110, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
        answer = CloseAnswer::cancel;
    if (answer) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    return answer;
}

std::optional<RecoveryAnswer> recovery_dialog(const std::optional<std::filesystem::path>& autosave,
                                              const std::string& name) {
    if (autosave && !ImGui::IsPopupOpen("Recover unsaved changes?")) ImGui::OpenPopup("Recover unsaved changes?");
    if (!ImGui::BeginPopupModal("Recover unsaved changes?", nullptr, ImGuiWindowFlags_AlwaysAutoResize))
        return std::nullopt;
    std::optional<RecoveryAnswer> answer;
    ImGui::Text("%s has unsaved changes from a session that did not end cleanly", name.c_str());
    ImGui::TextDisabled("autosave: %s", autosave ? autosave->string().c_str() : "");
    if (ImGui::Button("Recover", ImVec2(120, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)))
        answer = RecoveryAnswer::recover;
    ImGui::SameLine();
    if (ImGui::Button("Delete autosave", ImVec2(120, 0))) answer = RecoveryAnswer::delete_autosave;
    ImGui::SameLine();
    if (ImGui::Button("Not now", ImVec2(120, 0))) answer = RecoveryAnswer::not_now;
    if (answer) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
    return answer;
}

void error_dialog(bool& show, const std::string& message) {
    if (show) {
        ImGui::OpenPopup("Error");
        show = false;
    }
    if (!ImGui::BeginPopupModal("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
    ImGui::TextUnformatted(message.c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::Button("OK", ImVec2(120, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)))
        ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

}  // namespace springkit::editor
