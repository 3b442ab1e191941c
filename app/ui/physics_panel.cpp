// springkit-editor — the Physics section (physics_panel.hpp).
#include "ui/physics_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <climits>
#include <string>

#include "springkit/material.hpp"
#include "ui/widgets.hpp"

namespace springkit::editor {

namespace {

int to_int(float bound) { return static_cast<int>(std::clamp<double>(bound, INT_MIN, INT_MAX)); }

}  // namespace

bool parameter_input(const ParameterWidget& w, ParameterValue& value) {
    const char* label = w.label.c_str();
    const ImGuiSliderFlags flags = (w.clamped() ? ImGuiSliderFlags_AlwaysClamp : ImGuiSliderFlags_None) |
                                   (w.logarithmic ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
    switch (w.control) {
        case ParameterControl::drag_float: {
            float& v = value.number;
            return ImGui::DragFloat(label, &v, w.speed_at(v), w.min, w.max, w.format.c_str(), flags);
        }
        case ParameterControl::drag_float3:
            return ImGui::DragFloat3(label, &value.vector.x, w.speed, w.min, w.max, w.format.c_str(), flags);
        case ParameterControl::drag_int:
            return ImGui::DragInt(label, &value.count, w.speed, to_int(w.min), to_int(w.max), w.format.c_str(), flags);
        case ParameterControl::combo: {
            const auto labels = integrator_labels();
            int chosen = static_cast<int>(value.integrator);
            if (!ImGui::Combo(label, &chosen, labels.data(), static_cast<int>(labels.size()))) return false;
            value.integrator = static_cast<Integrator>(chosen);
            return true;
        }
    }
    return false;
}

bool parameter_input(const ParameterWidget& w, Parameters& params) {
    ParameterValue value;
    if (!read_parameter(*w.row, params, value)) return false;
    if (!parameter_input(w, value)) return false;
    write_parameter(*w.row, value, params);
    return true;
}

void physics_section(Document& doc) {
    if (!ImGui::CollapsingHeader("Physics", ImGuiTreeNodeFlags_DefaultOpen)) return;
    // The widgets edit a copy of the document's parameters; a change becomes an
    // edit (one undo entry per drag) and the running simulation takes it at once.
    const Model& m = doc.model();
    Parameters p = m.params;
    auto commit = [&](bool continuing) {
        fit_gust(p);  // a gust's duration is tied to its period, which no row's range says
        doc.set_parameters(p, continuing);
    };
    auto rows = [&](ParameterTopic group) {
        for (const ParameterWidget& w : physics_widgets(group)) {
            const bool changed = parameter_input(w, p);
            // The implicit integrator takes one step a frame, as a switch on
            // the command line does.
            if (changed) take_implicit_substep(p, m.params.integrator);
            if (w.control == ParameterControl::combo) {
                if (changed) commit(false);  // a choice, not a drag: its own undo entry
            } else {
                edited(changed, p, doc, commit);
            }
            help_marker(w.help.c_str());
        }
    };
    // "Ground (collision)": the plane the model collides with; the View section's
    // "floor grid" only draws.
    ImGui::PushID("physics");
    ImGui::PushItemWidth(150);
    rows(ParameterTopic::main);
    bool has_ground = p.ground.has_value();
    if (ImGui::Checkbox("Ground (collision)", &has_ground)) {
        if (has_ground) {
            p.ground = Ground{};
            p.ground->height = bounds(m).min.y;  // where the model stands now
        } else {
            p.ground.reset();
        }
        doc.set_parameters(p);
    }
    help_marker("The model's own ground plane (parameters ground/...): nodes below its height are pushed back up. "
                "The floor grid (View) only shows where it is. Other shapes: Colliders.");
    if (p.ground) {
        ImGui::Indent();
        rows(ParameterTopic::ground);
        ImGui::Unindent();
    }
    if (ImGui::TreeNode("Wind and gusts")) {
        rows(ParameterTopic::wind);
        ImGui::TreePop();
    }
    if (ImGui::TreeNode("Implicit integrator")) {
        rows(ParameterTopic::implicit);
        ImGui::TreePop();
    }
    if (ImGui::TreeNode("Self-collision")) {
        rows(ParameterTopic::self_collision);
        ImGui::TreePop();
    }
    // The material node masses and spring k were derived from when converting
    // (derive_material): shown, not edited here, since the masses and k are.
    if (has_material(p)) {
        std::string text = "material:";
        for (const ParameterWidget& w : physics_widgets(ParameterTopic::material)) {
            const float value = *parameter_number(*w.row, p);
            if (value > 0.0f) text += " " + w.label + " " + std::to_string(value) + " " + std::string(w.row->unit);
        }
        ImGui::TextDisabled("%s", text.c_str());
        help_marker("What the node masses and spring stiffness were derived from when the mesh was converted "
                    "(springkit convert --total-mass, --density, --area-density, --stretch-stiffness).");
    }
    ImGui::PopItemWidth();
    ImGui::PopID();
}

}  // namespace springkit::editor
