// springkit-editor — the spring groups section (groups_panel.hpp).
#include "ui/groups_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "editing/spring_groups.hpp"
#include "ui/widgets.hpp"

namespace springkit::editor {

void spring_groups_section(Document& doc, Selection& selection) {
    const Model& m = doc.model();
    const char* title = m.spring_groups.empty() ? "Spring groups###groups"
                                                : "Spring groups (%zu)###groups";
    char header[64];
    std::snprintf(header, sizeof header, title, m.spring_groups.size());
    if (!ImGui::CollapsingHeader(header)) return;
    const auto& selected = selection.springs();
    ImGui::BeginDisabled(selected.empty());
    if (ImGui::Button("New group from selected springs")) doc.set_spring_groups(with_new_group(m.spring_groups, selected));
    ImGui::EndDisabled();
    help_marker("A group's springs are stepped with their k (their own or the model's) times the group's "
                "stiffness scale, and with the group's damping in place of the model's spring damping. A spring "
                "is in one group at most: adding it to a group takes it out of any other. Saved in the file.");
    std::vector<SpringGroup> groups = m.spring_groups;
    auto commit = [&](bool continuing) { doc.set_spring_groups(groups, continuing); };
    std::optional<std::size_t> erase;
    ImGui::PushItemWidth(150);
    for (std::size_t i = 0; i < groups.size(); ++i) {
        SpringGroup& g = groups[i];
        ImGui::PushID(static_cast<int>(i));
        ImGui::Separator();
        // The name, as it is typed: one undo entry for the typing; a name that
        // is empty or another group's is refused (the group keeps its name).
        char name[128];
        std::snprintf(name, sizeof name, "%s", g.name.c_str());
        if (ImGui::InputText("name", name, sizeof name)) {
            const std::string before = g.name;
            g.name = name;
            commit(true);
            g.name = before;  // the other widgets below edit the model's values
        }
        if (ImGui::IsItemDeactivated()) doc.seal();
        ImGui::TextDisabled("%zu springs", g.springs.size());
        edited(ImGui::DragFloat("stiffness scale", &g.stiffness_scale, 0.01f, 0.001f, 1000.0f, "x %.3g",
                                ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic),
               groups, doc, commit);
        bool own_damping = g.damping.has_value();
        if (ImGui::Checkbox("own damping", &own_damping)) {
            g.damping = own_damping ? std::optional<float>(m.params.spring_damping) : std::nullopt;
            commit(false);
        }
        if (g.damping) {
            float damping = *g.damping;
            const bool changed = ImGui::DragFloat("damping", &damping, 0.005f, 0.0f, 1000.0f, "%.4g N s/m",
                                                  ImGuiSliderFlags_AlwaysClamp);
            if (changed) g.damping = damping;
            edited(changed, groups, doc, commit);
        } else {
            ImGui::TextDisabled("damping: the model's (%.4g N s/m)", m.params.spring_damping);
        }
        if (ImGui::Button("Select")) selection.select_springs(g.springs, SelectMode::replace);
        ImGui::SameLine();
        ImGui::BeginDisabled(selected.empty());
        if (ImGui::Button("Add selected")) doc.set_spring_groups(with_springs_in_group(m.spring_groups, i, selected));
        ImGui::EndDisabled();
        ImGui::SameLine();
        if (ImGui::Button("Delete")) erase = i;
        ImGui::PopID();
    }
    ImGui::PopItemWidth();
    if (erase) {
        std::vector<SpringGroup> without = m.spring_groups;
        without.erase(without.begin() + static_cast<std::ptrdiff_t>(*erase));
        doc.set_spring_groups(std::move(without));
    }
}

}  // namespace springkit::editor
