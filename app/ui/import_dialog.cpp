// springkit-editor — the "Convert mesh" dialog (import_dialog.hpp).
#include "ui/import_dialog.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

#include "ui/parameter_widgets.hpp"
#include "ui/widgets.hpp"

namespace springkit::editor {

namespace {

// A parameter the converted model may get instead of the default: a checkbox,
// and when ticked the value, formatted and bounded as the Physics panel's widget
// of the same row.
void optional_parameter(std::string_view path, std::optional<float>& value) {
    const ParameterInfo* row = find_parameter(path);
    if (!row) return;
    const ParameterWidget w = parameter_widget(*row);
    const std::string label(row->label);
    bool set = value.has_value();
    if (ImGui::Checkbox(label.c_str(), &set))
        value = set ? std::optional<float>(*parameter_number(*row, parameter_defaults())) : std::nullopt;
    if (value) {
        ImGui::SameLine();
        ImGui::PushID(label.c_str());
        if (ImGui::InputFloat("##value", &*value, 0.0f, 0.0f, w.format.c_str()) && w.clamped())
            *value = std::clamp(*value, w.min, w.max);
        ImGui::PopID();
    }
    help_marker(w.help.c_str());
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string line = text.substr(start, end - start);
        if (!line.empty()) out.push_back(line);
        start = end + 1;
    }
    return out;
}

}  // namespace

std::optional<ImportRequest> import_dialog(ImportDialogState& state) {
    if (state.path && !ImGui::IsPopupOpen("Convert mesh")) ImGui::OpenPopup("Convert mesh");
    if (!ImGui::BeginPopupModal("Convert mesh", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return std::nullopt;
    std::optional<ImportRequest> request;
    ImportOptions& o = state.options;
    ImGui::Text("Convert %s to a spring model", state.path ? state.path->filename().string().c_str() : "");
    ImGui::TextDisabled("Each vertex becomes a node and each edge a spring (Oliveira).");
    ImGui::PushItemWidth(160);
    ImGui::InputDouble("weld", &o.weld, 0.0, 0.0, "%.2g");
    help_marker("Vertices closer than weld x (bounding-box diagonal) become one node, so UV seams do not cut the "
                "model apart. 0: exact duplicates only; negative: no welding.");
    ImGui::InputDouble("scale", &o.scale, 0.0, 0.0, "%.4g");
    ImGui::Checkbox("file unit to metres", &o.unit_to_metres);
    ImGui::Checkbox("bend springs", &o.bend);
    ImGui::SameLine();
    ImGui::Checkbox("shear springs", &o.shear);
    ImGui::SameLine();
    ImGui::Checkbox("volume springs", &o.volume);
    if (o.volume) ImGui::SliderInt("volume springs per node", &o.volume_springs, 1, 32);
    if (o.bend || o.shear || o.volume)
        ImGui::DragFloat("extra springs k factor", &o.extra_spring_k_factor, 0.01f, 0.0f, 100.0f, "%.2f");
    optional_parameter("k", o.k);
    optional_parameter("energy_loss", o.energy_loss);
    optional_parameter("mass", o.mass);
    std::string& anchors = state.anchors_text;
    if (ImGui::IsWindowAppearing()) {
        anchors.clear();
        for (const std::string& a : o.anchors) anchors += a + "\n";
    }
    ImGui::InputTextMultiline("anchors", &anchors, ImVec2(160, 50));
    help_marker("One selector a line: top:10% (the top 10% of the box along +y; also +x -x +y -y +z -z, bottom), "
                "nodes:0,5,17, near:X,Y,Z.");
    ImGui::PopItemWidth();
    if (ImGui::Button("Convert", ImVec2(120, 0))) {
        o.anchors = lines(anchors);
        request = ImportRequest{*state.path, o};
        state.path.reset();
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(120, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
        state.path.reset();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
    return request;
}

}  // namespace springkit::editor
