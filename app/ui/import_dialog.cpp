// springkit-editor — the "Convert mesh" dialog (import_dialog.hpp).
#include "ui/import_dialog.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

#include "ui/parameter_widgets.hpp"
#include "ui/physics_panel.hpp"
#include "ui/widgets.hpp"

namespace springkit::editor {

namespace {

// One row of the parameter table as an override: "set" puts the row into
// `overrides` with the value the converted model would get anyway (`shown`), and
// the row's widget, the Physics section's own, edits it; unset, the widget shows
// that value disabled. `enabled` false: neither can be changed.
void override_row(const ParameterWidget& w, ParameterOverrides& overrides, const Parameters& shown, bool enabled) {
    ImGui::PushID(w.row);
    ImGui::BeginDisabled(!enabled);
    ParameterValue value;
    const ParameterValue* set_value = overrides.find(*w.row);
    bool set = set_value != nullptr;
    if (set)
        value = *set_value;
    else
        read_parameter(*w.row, shown, value);
    if (ImGui::Checkbox("##set", &set)) {
        if (set)
            overrides.set(*w.row, value);
        else
            overrides.erase(*w.row);
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(!set);
    if (parameter_input(w, value)) overrides.set(*w.row, value);
    ImGui::EndDisabled();
    ImGui::EndDisabled();
    help_marker(w.help.c_str());
    ImGui::PopID();
}

// A gust's duration must lie in (0, period] once there are gusts, which no row's
// range says: a period set above 0 brings a duration that fits it, as in the
// Physics section.
void fit_gust_overrides(ParameterOverrides& overrides, const Parameters& shown) {
    Parameters p = shown;  // has a ground, so every row applies
    overrides.apply(p);
    const float before = p.gust.duration;
    fit_gust(p);
    if (p.gust.duration != before) overrides.set(*find_parameter("gust/duration"), {.number = p.gust.duration});
}

// The implicit integrator's and self-collision's rows, under the mesh
// options (the physics column is as tall as a laptop's screen allows).
void implicit_overrides(ImportOptions& o) {
    Parameters shown = parameter_defaults();
    if (ImGui::TreeNode("Implicit integrator")) {
        for (const ParameterWidget& w : physics_widgets(ParameterTopic::implicit))
            override_row(w, o.parameters, shown, true);
        ImGui::TreePop();
    }
    if (ImGui::TreeNode("Self-collision")) {
        for (const ParameterWidget& w : physics_widgets(ParameterTopic::self_collision))
            override_row(w, o.parameters, shown, true);
        ImGui::TreePop();
    }
    // What the object is made of: node masses and spring k derived from it (material.hpp).
    if (ImGui::TreeNode("Material")) {
        for (const ParameterWidget& w : physics_widgets(ParameterTopic::material))
            override_row(w, o.parameters, shown, true);
        ImGui::TreePop();
    }
}

// The physics half of the dialog, grouped as the Physics section groups it.
void physics_overrides(ImportOptions& o) {
    ParameterOverrides& overrides = o.parameters;
    // What the converter gives a row that is not set.
    Parameters shown = parameter_defaults();
    shown.spring_damping = o.spring_damping;

    ImGui::TextUnformatted("Physics");
    ImGui::SameLine();
    ImGui::TextDisabled("(ticked rows replace the defaults)");
    for (const ParameterWidget& w : physics_widgets(ParameterTopic::main)) override_row(w, overrides, shown, true);

    ImGui::TextUnformatted("Ground (collision)");
    ImGui::Indent();
    ImGui::Checkbox("collide with the ground under the model", &o.ground_at_bottom);
    help_marker("Adds a ground plane (Ground (collision)) at the converted model's lowest node, so that it stands "
                "on the ground instead of falling to it.");
    if (o.ground_at_bottom) {
        ImGui::InputDouble("sink at most (m)", &o.ground_depth, 0.0, 0.0, "%.4g");
        help_marker("How deep the resting model may sink into the ground with all its weight on one node: the "
                    "repulsion is raised to weight / depth (kept stable). 0: 1% of the model's longest side.");
        o.ground_depth = std::max(o.ground_depth, 0.0);
    }
    const ParameterInfo& height = *find_parameter("ground/height");
    // The bottom sets the height; without a ground its other rows have nothing to change.
    if (o.ground_at_bottom) overrides.erase(height);
    const bool has_ground = o.ground_at_bottom || overrides.find(height);
    for (const ParameterWidget& w : physics_widgets(ParameterTopic::ground)) {
        const bool is_height = w.row == &height;
        if (!is_height && !has_ground) overrides.erase(*w.row);
        override_row(w, overrides, shown, is_height ? !o.ground_at_bottom : has_ground);
    }
    ImGui::Unindent();

    if (ImGui::TreeNode("Wind and gusts")) {
        for (const ParameterWidget& w : physics_widgets(ParameterTopic::wind)) override_row(w, overrides, shown, true);
        ImGui::TreePop();
    }
    fit_gust_overrides(overrides, shown);
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
    // No taller than the screen: with every group open the dialog scrolls
    // instead of pushing its Convert button out of reach.
    const ImGuiViewport* screen = ImGui::GetMainViewport();
    ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f),
                                        ImVec2(screen->WorkSize.x, std::max(200.0f, screen->WorkSize.y - 20.0f)));
    if (!ImGui::BeginPopupModal("Convert mesh", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return std::nullopt;
    std::optional<ImportRequest> request;
    ImportOptions& o = state.options;
    ImGui::Text("Convert %s to a spring model", state.path ? state.path->filename().string().c_str() : "");
    ImGui::TextDisabled("Each vertex becomes a node and each edge a spring (Oliveira).");
    // Two columns, the mesh's options and the physics, so that the dialog stays
    // within a laptop's screen.
    ImGui::BeginGroup();
    ImGui::TextUnformatted("Mesh");
    ImGui::PushItemWidth(160);
    ImGui::InputDouble("weld", &o.weld, 0.0, 0.0, "%.2g");
    help_marker("Vertices closer than weld x (bounding-box diagonal) become one node, so UV seams do not cut the "
                "model apart. 0: exact duplicates only; negative: no welding.");
    ImGui::InputDouble("scale", &o.scale, 0.0, 0.0, "%.4g");
    ImGui::Checkbox("file unit to metres", &o.unit_to_metres);
    ImGui::InputDouble("units (m per unit)", &o.units, 0.0, 0.0, "%.4g");
    help_marker("Metres per coordinate unit when you know it (0.01 for centimetres, 0.0254 for inches): wins over "
                "the file's declared unit. 0: the file's own unit, or metres when it declares none.");
    o.units = std::max(o.units, 0.0);
    ImGui::InputDouble("size (m)", &o.size, 0.0, 0.0, "%.4g");
    help_marker("Rescale so that the longest side of the box is this many metres. 0: keep the size.");
    o.size = std::max(o.size, 0.0);
    int islands = static_cast<int>(o.islands);
    const char* island_labels[] = {"keep", "keep the largest", "connect"};
    if (ImGui::Combo("islands", &islands, island_labels, 3)) o.islands = static_cast<ImportOptions::Islands>(islands);
    help_marker("Parts no chain of springs joins: keep them (each falls on its own), keep only the largest, or "
                "connect each to the rest with springs from its nearest nodes.");
    ImGui::Checkbox("bend springs", &o.bend);
    ImGui::Checkbox("shear springs", &o.shear);
    ImGui::Checkbox("volume springs", &o.volume);
    if (o.volume) ImGui::SliderInt("volume springs per node", &o.volume_springs, 1, 32);
    if (o.bend || o.shear || o.volume)
        ImGui::DragFloat("extra springs k factor", &o.extra_spring_k_factor, 0.01f, 0.0f, 100.0f, "%.2f");
    std::string& anchors = state.anchors_text;
    if (ImGui::IsWindowAppearing()) {
        anchors.clear();
        for (const std::string& a : o.anchors) anchors += a + "\n";
    }
    ImGui::InputTextMultiline("anchors", &anchors, ImVec2(160, 50));
    help_marker("One selector a line: top:10% (the top 10% of the box along +y; also +x -x +y -y +z -z, bottom), "
                "nodes:0,5,17, near:X,Y,Z.");
    ImGui::PopItemWidth();
    ImGui::PushItemWidth(120);
    implicit_overrides(o);
    ImGui::PopItemWidth();
    ImGui::EndGroup();

    ImGui::SameLine(0.0f, 3.0f * ImGui::GetStyle().ItemSpacing.x);
    ImGui::BeginGroup();
    ImGui::PushItemWidth(180);
    physics_overrides(o);
    ImGui::PopItemWidth();
    ImGui::EndGroup();

    ImGui::Separator();
    if (ImGui::Button("Preview", ImVec2(120, 0))) {
        o.anchors = lines(anchors);
        request = ImportRequest{*state.path, o, true};
        state.path.reset();
        ImGui::CloseCurrentPopup();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Show the bounds, units, islands, springs, ground and anchors before converting");
    ImGui::SameLine();
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

void import_facts(const Model& model, const ImportReport& r) {
    const Bounds box = bounds(model);
    const Vec3 size = box.max - box.min;
    ImGui::Text("read by %s; %zu mesh(es), %zu vertices (%zu welded)", r.reader.c_str(), r.meshes, r.input_vertices,
                r.welded_vertices);
    ImGui::Text("unit: %s", r.unit.c_str());
    ImGui::Text("size %.4g x %.4g x %.4g m", static_cast<double>(size.x), static_cast<double>(size.y),
                static_cast<double>(size.z));
    ImGui::TextDisabled("from (%.3g, %.3g, %.3g) to (%.3g, %.3g, %.3g) m", static_cast<double>(box.min.x),
                        static_cast<double>(box.min.y), static_cast<double>(box.min.z), static_cast<double>(box.max.x),
                        static_cast<double>(box.max.y), static_cast<double>(box.max.z));
    ImGui::Text("%zu nodes, %zu faces", model.node_count(), model.faces.size());
    if (r.islands.size() <= 1) {
        ImGui::Text("one piece (no islands)");
    } else {
        std::string sizes;
        for (std::size_t i = 0; i < r.islands.size() && i < 6; ++i)
            sizes += (i ? ", " : "") + std::to_string(r.islands[i]);
        if (r.islands.size() > 6) sizes += ", ...";
        ImGui::TextColored(kWarn, "%zu islands (nodes: %s)", r.islands.size(), sizes.c_str());
        if (r.island_springs > 0) ImGui::Text("  joined by %zu springs", r.island_springs);
        if (r.dropped_nodes > 0) ImGui::Text("  %zu nodes of the smaller ones dropped", r.dropped_nodes);
    }
    ImGui::Text("springs: %zu edge, %zu line, %zu bend, %zu shear, %zu volume", r.edge_springs, r.line_springs,
                r.bend_springs, r.shear_springs, r.volume_springs);
    if (model.params.ground) {
        ImGui::Text("ground (collision) at y = %.4g m, repulsion %.4g N/m", static_cast<double>(model.params.ground->height),
                    static_cast<double>(model.params.ground->repulsion));
        if (r.ground_sink > 0.0) ImGui::TextDisabled("  the resting model sinks at most %.3g m", r.ground_sink);
    } else {
        ImGui::TextDisabled("no ground: it falls without end");
    }
    ImGui::Text("%zu anchors picked by the selectors (orange)", model.anchors.size());
    if (!r.texture_source.empty()) ImGui::TextDisabled("texture: %s", r.texture_source.c_str());
    for (const std::string& w : r.warnings) ImGui::TextColored(kWarn, "%s", w.c_str());
}

std::optional<PreviewAnswer> preview_window(const std::filesystem::path& path, const Model& model,
                                            const ImportReport& report) {
    std::optional<PreviewAnswer> answer;
    // Over the insight panel, so the viewport shows the previewed mesh.
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - 6.0f, vp->WorkPos.y + 6.0f), ImGuiCond_Always,
                            ImVec2(1.0f, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.95f);
    if (ImGui::Begin("Conversion preview", nullptr,
                     ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse)) {
        ImGui::Text("%s, as it would convert:", path.filename().string().c_str());
        ImGui::Separator();
        import_facts(model, report);
        ImGui::Separator();
        if (ImGui::Button("Convert")) answer = PreviewAnswer::convert;
        ImGui::SameLine();
        if (ImGui::Button("Change options")) answer = PreviewAnswer::change_options;
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) answer = PreviewAnswer::cancel;
    }
    ImGui::End();
    return answer;
}

void conversion_report_window(bool& open, const Model& model, const ImportReport& report) {
    if (!open) return;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x - 6.0f, vp->WorkPos.y + vp->WorkSize.y - 30.0f),
                            ImGuiCond_Appearing, ImVec2(1.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.95f);
    if (ImGui::Begin("Conversion report", &open, ImGuiWindowFlags_AlwaysAutoResize)) {
        import_facts(model, report);
        ImGui::TextDisabled("V: mesh view / spring view");
    }
    ImGui::End();
}

}  // namespace springkit::editor
