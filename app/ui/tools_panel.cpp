// springkit-editor — the tools panel's sections (tools_panel.hpp).
#include "ui/tools_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <vector>

#include "ui/widgets.hpp"

namespace springkit::editor {

Action simulation_controls(const Document& doc, const LiveSimulation& live, bool playing) {
    Action action;
    ImGui::Text("%s%s", doc.display_name().c_str(), doc.dirty() ? " *" : "");
    if (ImGui::Button(playing ? "Pause" : "Play", ImVec2(70, 0))) action = Command::play_pause;
    ImGui::SameLine();
    if (ImGui::Button("Step", ImVec2(60, 0))) action = Command::single_step;
    ImGui::SameLine();
    if (ImGui::Button("Reset", ImVec2(60, 0))) action = Command::reset_simulation;
    ImGui::SameLine();
    ImGui::TextDisabled("t %.1f s", live.running() ? live.simulation().time() : 0.0);
    return action;
}

Action selection_section(Document& doc, const Selection& selection, const LiveSimulation& live) {
    Action action;
    if (!ImGui::CollapsingHeader("Selection", ImGuiTreeNodeFlags_DefaultOpen)) return action;
    const Model& m = doc.model();
    // Oliveira's tool loops through the spring nodes with buttons.
    if (ImGui::ArrowButton("##previous", ImGuiDir_Left)) action = Command::previous_node;
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next", ImGuiDir_Right)) action = Command::next_node;
    ImGui::SameLine();
    if (auto node = selection.active_node(); node && *node < m.node_count()) {
        const bool anchored = live.anchor_of(*node).has_value();
        ImGui::Text("node %u%s", *node, anchored ? " (anchor)" : "");
        const Vec3 p = live.running() ? live.simulation().positions()[*node] : m.positions[*node];
        ImGui::TextDisabled("at (%.3f, %.3f, %.3f) m, %.4g kg", p.x, p.y, p.z, m.node_mass(*node));
    } else {
        ImGui::TextDisabled("no node selected");
    }
    ImGui::Text("%zu node(s), %zu spring(s) selected", selection.nodes().size(), selection.springs().size());
    help_marker("Click a node or spring; Shift+click toggles, Ctrl+click removes. Drag on empty space for a box, "
                "or Shift+drag (adds) / Ctrl+drag (removes) anywhere. Drag a node to pull it with a soft spring; "
                "arrows and Page Up/Down move a selected anchor. Right/middle drag orbits, Shift+drag pans, wheel "
                "zooms, Home frames.");
    const float half = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    if (ImGui::Button("Add spring (F)", ImVec2(half, 0))) action = Command::add_spring;
    ImGui::SameLine();
    if (ImGui::Button("Delete springs (Del)", ImVec2(half, 0))) action = Command::delete_springs;
    if (ImGui::Button("Toggle anchor (P)", ImVec2(half, 0))) action = Command::toggle_anchors;
    ImGui::SameLine();
    if (ImGui::Button("Select all (A)", ImVec2(half, 0))) action = Command::select_all;
    if (ImGui::Button("Anchor selected", ImVec2(half, 0))) action = Command::anchor_selection;
    ImGui::SameLine();
    if (ImGui::Button("Free selected", ImVec2(half, 0))) action = Command::free_selection;

    if (!selection.nodes().empty()) {
        // Per-node mass (Model::masses): the selected nodes get one value; the
        // others keep theirs (the model's mass until some node has its own).
        const std::uint32_t first = selection.nodes().front();
        float mass = first < m.node_count() ? m.node_mass(first) : m.params.mass;
        ImGui::SetNextItemWidth(150);
        edited(ImGui::DragFloat("mass of selected nodes", &mass, std::max(mass, 1e-4f) * 0.01f, 1e-6f, 1e9f, "%.4g kg",
                                ImGuiSliderFlags_AlwaysClamp),
               mass, doc, [&](bool continuing) { doc.set_node_mass(selection.nodes(), mass, continuing); });
        help_marker("Each selected node's own mass. The Physics panel's mass is the mass of nodes without one.");
        if (!m.masses.empty() && ImGui::Button("Use model mass for selected nodes"))
            doc.set_node_mass(selection.nodes(), m.params.mass);
    }
    if (!selection.springs().empty()) {
        const Spring& first = m.springs[selection.springs().front()];
        float k = m.spring_k(first);
        ImGui::SetNextItemWidth(150);
        edited(ImGui::DragFloat("k of selected springs", &k, std::max(k, 1.0f) * 0.01f, 0.0f, 1e9f, "%.4g N/m",
                                ImGuiSliderFlags_AlwaysClamp),
               k, doc, [&](bool continuing) { doc.set_spring_k(selection.springs(), k, continuing); });
        if (ImGui::Button("Use model k for selected springs")) doc.set_spring_k(selection.springs(), 0.0f);
        ImGui::TextDisabled("spring %u: nodes %u-%u, rest %.4g m, strain %+.3f", selection.springs().front(),
                            first.a, first.b, first.rest,
                            live.running() ? spring_strain(first, live.simulation().positions()) : 0.0f);
    }
    return action;
}

void drives_section(LiveSimulation& live) {
    // Run-time controls of driven anchors, as the seed demos have them; they act on
    // the running simulation only (Reset returns to the model's values).
    if (!live.running()) return;
    const bool velocity = live.sole_velocity_anchor().has_value();
    const auto circle = live.first_circle_anchor();
    if (!velocity && !circle) return;
    if (!ImGui::CollapsingHeader("Drives", ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (velocity)
        ImGui::TextWrapped("Arrows (and Page Up/Down) move the rope's connection point at a velocity, as in "
                           "Tunca's demo.");
    if (circle) {
        // Garrido's jump rope: the ends' circle radius and turning speed.
        const Simulation& sim = live.simulation();
        float radius = sim.anchor_circle_radius(*circle);
        float speed = sim.anchor_angular_speed(*circle);
        ImGui::PushItemWidth(150);
        bool changed =
            ImGui::SliderFloat("circle radius", &radius, 0.01f, 2.0f, "%.3f m", ImGuiSliderFlags_AlwaysClamp);
        changed |= ImGui::SliderFloat("turn speed", &speed, -30.0f, 30.0f, "%.2f rad/s");
        ImGui::PopItemWidth();
        help_marker("Radius and angular speed of every circle-driven anchor (Garrido's jump-rope ends), changed "
                    "while it turns. Reset goes back to the model's values.");
        if (changed) live.set_circle_drives(radius, speed);
    }
}

void ropes_section(Document& doc) {
    const Model& m = doc.model();
    if (m.tubes.empty() || !ImGui::CollapsingHeader("Ropes")) return;
    // How ropes are drawn (Model::tubes): the Source engine's subdivision count
    // smooths the curve through the nodes (Catmull-Rom); radius and sides make the tube.
    std::vector<Tube> tubes = m.tubes;
    auto commit = [&](bool continuing) { doc.set_tubes(tubes, continuing); };
    ImGui::PushItemWidth(150);
    for (std::size_t i = 0; i < tubes.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        ImGui::TextDisabled("rope %zu: %zu nodes", i, tubes[i].nodes.size());
        edited(ImGui::SliderInt("subdivisions", &tubes[i].subdivisions, 0, 32, "%d", ImGuiSliderFlags_AlwaysClamp),
               tubes, doc, commit);
        edited(ImGui::DragFloat("radius", &tubes[i].radius, 0.0005f, 0.0005f, 10.0f, "%.4f m",
                                ImGuiSliderFlags_AlwaysClamp),
               tubes, doc, commit);
        edited(ImGui::SliderInt("sides", &tubes[i].sides, 3, 64, "%d", ImGuiSliderFlags_AlwaysClamp), tubes, doc, commit);
        ImGui::PopID();
    }
    ImGui::PopItemWidth();
}

void view_section(ViewOptions& view, const std::string& texture_error) {
    if (!ImGui::CollapsingHeader("View")) return;
    ImGui::Checkbox("surface", &view.surface);
    ImGui::SameLine(110);
    ImGui::Checkbox("lighting", &view.lighting);
    ImGui::SameLine(220);
    ImGui::Checkbox("texture", &view.texture);
    ImGui::Checkbox("springs", &view.springs);
    ImGui::SameLine(110);
    ImGui::Checkbox("nodes", &view.nodes);
    ImGui::SameLine(220);
    ImGui::Checkbox("anchors", &view.anchors);
    ImGui::Checkbox("floor grid", &view.ground);
    ImGui::SameLine(110);
    ImGui::Checkbox("shadow", &view.shadow);
    ImGui::SameLine(220);
    ImGui::Checkbox("ropes", &view.ropes);
    ImGui::Checkbox("strain view", &view.strain_view);
    ImGui::SameLine(110);
    ImGui::Checkbox("kinds", &view.legend);
    ImGui::SameLine(220);
    ImGui::Checkbox("follow", &view.follow);
    ImGui::Checkbox("colliders", &view.colliders);
    help_marker("floor grid: drawn at the collision ground's height (Physics > Ground (collision)), or under the "
                "model when it has none; it collides with nothing itself. Strain view: the surface in plain grey, without its texture, so the springs' strain colours (red stretched, "
                "blue compressed) read on any texture.");
    ImGui::PushItemWidth(150);
    ImGui::SliderAngle("light turn", &view.light_yaw, -180.0f, 180.0f);
    ImGui::SliderAngle("light height", &view.light_pitch, 5.0f, 90.0f);
    ImGui::SliderFloat("full strain colour", &view.strain_full, 0.001f, 0.5f, "%.3f", ImGuiSliderFlags_Logarithmic);
    ImGui::PopItemWidth();
    if (!texture_error.empty()) ImGui::TextColored(kWarn, "%s", texture_error.c_str());
}

}  // namespace springkit::editor
