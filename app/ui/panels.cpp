// springkit-editor — the ImGui panels: menu bar, tools (Oliveira's buttons:
// loop through nodes, add/delete springs, anchors, physics), insight (energy plot,
// stability, counts, errors), status bar and the questions (unsaved changes,
// recovery, errors).
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <system_error>

#include "editor_app.hpp"
#include "springkit/builders.hpp"
#include "springkit/io.hpp"
#include "springkit/samples.hpp"

namespace springkit::editor {

namespace fs = std::filesystem;

namespace {

const ImVec4 kGood{0.45f, 0.85f, 0.45f, 1.0f};
const ImVec4 kWarn{1.0f, 0.75f, 0.25f, 1.0f};
const ImVec4 kBad{1.0f, 0.35f, 0.3f, 1.0f};
// The fixed panels draw no background of their own: the frame is cleared to this
// colour under them (EditorApp::frame), which saves blending half the window
// every frame in a software rasteriser such as llvmpipe.
const ImVec4 kPanelBackground{0.0f, 0.0f, 0.0f, 0.0f};

// One undo entry per drag: the edit continues while the widget stays active and is
// sealed when it lets go (IsItemDeactivatedAfterEdit).
template <class Apply>
void edited(bool changed, Document& doc, Apply apply) {
    if (changed) apply(ImGui::IsItemActive());
    if (ImGui::IsItemDeactivatedAfterEdit()) doc.seal();
}

// Begins one of the fixed side panels: full height between the menu bar and the
// status bar, `width` wide, its left edge `x` from the window's; end_side_panel()
// closes it.
void begin_side_panel(const char* name, float x, float width) {
    const ImGuiViewport* main = ImGui::GetMainViewport();
    const float top = ImGui::GetFrameHeight();
    ImGui::SetNextWindowPos(ImVec2(main->Pos.x + x, main->Pos.y + top));
    ImGui::SetNextWindowSize(ImVec2(width, main->Size.y - 2.0f * top));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, kPanelBackground);
    ImGui::Begin(name, nullptr,
                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoTitleBar);
}

void end_side_panel() {
    ImGui::End();
    ImGui::PopStyleColor();
}

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

}  // namespace

void EditorApp::draw_ui() {
    draw_menu_bar();
    draw_tools_panel();
    draw_insight_panel();
    draw_status_bar();
    draw_modals();
#if SPRINGKIT_EDITOR_HAS_IMPORT
    draw_import_dialog();
#endif
}

void EditorApp::draw_menu_bar() {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::BeginMenu("New")) {
            for (const char* name : kBuilderNames)
                if (ImGui::MenuItem(name)) request({CloseRequest::Kind::new_model, {}, name});
            ImGui::EndMenu();
        }
        if (ImGui::BeginMenu("Samples")) {
            // Every system of the source texts (samples/README.md), built by the library.
            for (const SampleInfo& info : sample_catalogue()) {
                if (ImGui::MenuItem(info.name))
                    request({CloseRequest::Kind::new_model, {}, std::string(kSamplePrefix) + info.name});
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: %s", info.source, info.shows);
            }
            ImGui::EndMenu();
        }
        if (ImGui::MenuItem("Open...", "Ctrl+O"))
            file_dialog_.show(FileDialog::Mode::open,
                              doc_.path().empty() ? fs::current_path() : doc_.path().parent_path(), {},
                              recent_.paths());
        if (ImGui::BeginMenu("Open Recent", !recent_.paths().empty())) {
            for (const fs::path& p : recent_.paths())
                if (ImGui::MenuItem(p.string().c_str())) request({CloseRequest::Kind::open, p, {}});
            ImGui::EndMenu();
        }
        if (ImGui::MenuItem("Save", "Ctrl+S")) save();
        if (ImGui::MenuItem("Save As...", "Ctrl+Shift+S"))
            file_dialog_.show(FileDialog::Mode::save, doc_.suggested_path(), {".json"});
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) request_quit();
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Edit")) {
        const std::string undo_label = std::string("Undo ") + (doc_.undo_name() ? doc_.undo_name() : "");
        const std::string redo_label = std::string("Redo ") + (doc_.redo_name() ? doc_.redo_name() : "");
        if (ImGui::MenuItem(undo_label.c_str(), "Ctrl+Z", false, doc_.can_undo())) undo();
        if (ImGui::MenuItem(redo_label.c_str(), "Ctrl+Shift+Z", false, doc_.can_redo())) redo();
        ImGui::Separator();
        if (ImGui::MenuItem("Add spring between last two nodes", "F")) add_spring_between_selected();
        if (ImGui::MenuItem("Delete selected springs", "Del")) delete_selected_springs();
        if (ImGui::MenuItem("Toggle anchor", "P")) toggle_anchors_of_selection();
        if (ImGui::MenuItem("Anchor selected nodes")) set_anchored_selection(true);
        if (ImGui::MenuItem("Free selected nodes")) set_anchored_selection(false);
        ImGui::Separator();
        if (ImGui::MenuItem("Select all nodes", "A")) select_all();
        if (ImGui::MenuItem("Select none", "Alt+A / Esc")) selection_.clear();
        if (ImGui::MenuItem("Next node", "]")) selection_.next_node(doc_.model().node_count());
        if (ImGui::MenuItem("Previous node", "[")) selection_.previous_node(doc_.model().node_count());
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        ImGui::MenuItem("Surface", nullptr, &view_.surface);
        ImGui::MenuItem("Lighting", nullptr, &view_.lighting);
        ImGui::MenuItem("Texture", nullptr, &view_.texture, renderer_.has_texture());
        ImGui::MenuItem("Springs (strain colours)", nullptr, &view_.springs);
        ImGui::MenuItem("Nodes", nullptr, &view_.nodes);
        ImGui::MenuItem("Anchors", nullptr, &view_.anchors);
        ImGui::MenuItem("Ground", nullptr, &view_.ground);
        ImGui::MenuItem("Shadow", nullptr, &view_.shadow);
        ImGui::MenuItem("Ropes (tubes, tethers, beads)", nullptr, &view_.ropes);
        ImGui::Separator();
        if (ImGui::MenuItem("Frame model", "Home")) camera_.frame(framing_bounds(doc_.model()));
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Simulation")) {
        if (ImGui::MenuItem(playing_ ? "Pause" : "Play", "Space")) playing_ = !playing_;
        if (ImGui::MenuItem("Single step", ".")) {
            playing_ = false;
            step_once_ = true;
        }
        if (ImGui::MenuItem("Reset", "R")) live_.reset();
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
}

void EditorApp::draw_tools_panel() {
    begin_side_panel("Tools", 0.0f, kToolsWidth);
    const Model& m = doc_.model();
    ImGui::Text("%s%s", doc_.display_name().c_str(), doc_.dirty() ? " *" : "");

    // Simulation controls.
    if (ImGui::Button(playing_ ? "Pause" : "Play", ImVec2(70, 0))) playing_ = !playing_;
    ImGui::SameLine();
    if (ImGui::Button("Step", ImVec2(60, 0))) {
        playing_ = false;
        step_once_ = true;
    }
    ImGui::SameLine();
    if (ImGui::Button("Reset", ImVec2(60, 0))) live_.reset();
    ImGui::SameLine();
    ImGui::TextDisabled("t %.1f s", live_.running() ? live_.simulation().time() : 0.0);

    if (ImGui::CollapsingHeader("Selection", ImGuiTreeNodeFlags_DefaultOpen)) {
        // Oliveira's tool loops through the spring nodes with buttons.
        if (ImGui::ArrowButton("##previous", ImGuiDir_Left)) selection_.previous_node(m.node_count());
        ImGui::SameLine();
        if (ImGui::ArrowButton("##next", ImGuiDir_Right)) selection_.next_node(m.node_count());
        ImGui::SameLine();
        if (auto node = selection_.active_node(); node && *node < m.node_count()) {
            const bool anchored = live_.anchor_of(*node).has_value();
            ImGui::Text("node %u%s", *node, anchored ? " (anchor)" : "");
            const Vec3 p = live_.running() ? live_.simulation().positions()[*node] : m.positions[*node];
            ImGui::TextDisabled("at (%.3f, %.3f, %.3f) m, %.4g kg", p.x, p.y, p.z, m.node_mass(*node));
        } else {
            ImGui::TextDisabled("no node selected");
        }
        ImGui::Text("%zu node(s), %zu spring(s) selected", selection_.nodes().size(), selection_.springs().size());
        help_marker("Click a node or spring; Shift+click toggles, Ctrl+click removes. Drag on empty space for a box "
                    "(Shift adds, Ctrl removes). Drag a node to shake the model; arrows and Page Up/Down move a "
                    "selected anchor. Right/middle drag orbits, Shift+drag pans, wheel zooms, Home frames.");
        const float half = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
        if (ImGui::Button("Add spring (F)", ImVec2(half, 0))) add_spring_between_selected();
        ImGui::SameLine();
        if (ImGui::Button("Delete springs (Del)", ImVec2(half, 0))) delete_selected_springs();
        if (ImGui::Button("Toggle anchor (P)", ImVec2(half, 0))) toggle_anchors_of_selection();
        ImGui::SameLine();
        if (ImGui::Button("Select all (A)", ImVec2(half, 0))) select_all();
        if (ImGui::Button("Anchor selected", ImVec2(half, 0))) set_anchored_selection(true);
        ImGui::SameLine();
        if (ImGui::Button("Free selected", ImVec2(half, 0))) set_anchored_selection(false);

        if (!selection_.springs().empty()) {
            const Spring& first = m.springs[selection_.springs().front()];
            float k = m.spring_k(first);
            ImGui::SetNextItemWidth(150);
            edited(ImGui::DragFloat("k of selected springs", &k, std::max(k, 1.0f) * 0.01f, 0.0f, 1e9f, "%.4g N/m",
                                    ImGuiSliderFlags_AlwaysClamp),
                   doc_, [&](bool continuing) { doc_.set_spring_k(selection_.springs(), k, continuing); });
            if (ImGui::Button("Use model k for selected springs")) doc_.set_spring_k(selection_.springs(), 0.0f);
            ImGui::TextDisabled("spring %u: nodes %u-%u, rest %.4g m, strain %+.3f", selection_.springs().front(),
                                first.a, first.b, first.rest,
                                live_.running() ? spring_strain(first, live_.simulation().positions()) : 0.0f);
        }
    }

    if (ImGui::CollapsingHeader("Physics", ImGuiTreeNodeFlags_DefaultOpen)) {
        // The widgets edit a copy of the document's parameters; a change becomes an
        // edit (one undo entry per drag) and the running simulation takes it at once.
        Parameters p = m.params;
        auto commit = [&](bool continuing) { doc_.set_parameters(p, continuing); };
        ImGui::PushItemWidth(150);
        edited(ImGui::DragFloat("k", &p.k, std::max(p.k, 1.0f) * 0.01f, 0.0f, 1e9f, "%.4g N/m",
                                ImGuiSliderFlags_AlwaysClamp),
               doc_, commit);
        help_marker("Stiffness of every spring without its own k (Hooke: F = -k (|x| - rest)).");
        edited(ImGui::SliderFloat("energy loss", &p.energy_loss, 0.5f, 1.0f, "%.4f", ImGuiSliderFlags_AlwaysClamp),
               doc_, commit);
        help_marker("Velocity kept per 1/60 s frame (Oliveira). 1 keeps all energy.");
        edited(ImGui::DragFloat("mass", &p.mass, std::max(p.mass, 1e-4f) * 0.01f, 1e-6f, 1e6f, "%.4g kg",
                                ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic),
               doc_, commit);
        edited(ImGui::DragFloat3("gravity", &p.gravity.x, 0.05f, -100.0f, 100.0f, "%.2f"), doc_, commit);
        edited(ImGui::DragFloat("spring damping", &p.spring_damping, 0.005f, 0.0f, 1e4f, "%.3f N s/m",
                                ImGuiSliderFlags_AlwaysClamp),
               doc_, commit);
        help_marker("Inner spring friction (Tunca): F += (v_b - v_a) * damping.");
        edited(ImGui::DragFloat("air friction", &p.air_friction, 0.001f, 0.0f, 1e4f, "%.3f N s/m",
                                ImGuiSliderFlags_AlwaysClamp),
               doc_, commit);
        edited(ImGui::DragFloat("max substep", &p.max_substep, 0.00005f, 1e-5f, 0.1f, "%.5f s",
                                ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic),
               doc_, commit);
        int integrator = static_cast<int>(p.integrator);
        if (ImGui::Combo("integrator", &integrator, "explicit Euler\0symplectic Euler\0Verlet\0")) {
            p.integrator = static_cast<Integrator>(integrator);
            doc_.set_parameters(p);
        }
        bool has_ground = p.ground.has_value();
        if (ImGui::Checkbox("ground", &has_ground)) {
            if (has_ground) {
                p.ground = Ground{};
                p.ground->height = bounds(m).min.y;
            } else {
                p.ground.reset();
            }
            doc_.set_parameters(p);
        }
        if (p.ground) {
            ImGui::Indent();
            edited(ImGui::DragFloat("height", &p.ground->height, 0.01f, -1e4f, 1e4f, "%.3f m"), doc_, commit);
            edited(ImGui::DragFloat("repulsion", &p.ground->repulsion, 1.0f, 0.0f, 1e7f, "%.4g N/m",
                                    ImGuiSliderFlags_AlwaysClamp),
                   doc_, commit);
            edited(ImGui::DragFloat("friction", &p.ground->friction, 0.01f, 0.0f, 1e4f, "%.3f N s/m",
                                    ImGuiSliderFlags_AlwaysClamp),
                   doc_, commit);
            edited(ImGui::DragFloat("absorption", &p.ground->absorption, 0.01f, 0.0f, 1e4f, "%.3f N s/m",
                                    ImGuiSliderFlags_AlwaysClamp),
                   doc_, commit);
            ImGui::Unindent();
        }
        ImGui::PopItemWidth();
    }

    draw_drives_section();

    if (!m.tubes.empty() && ImGui::CollapsingHeader("Ropes")) {
        // How ropes are drawn (Model::tubes): the Source engine's subdivision count
        // smooths the curve through the nodes (Catmull-Rom); radius and sides make the tube.
        std::vector<Tube> tubes = m.tubes;
        auto commit = [&](bool continuing) { doc_.set_tubes(tubes, continuing); };
        ImGui::PushItemWidth(150);
        for (std::size_t i = 0; i < tubes.size(); ++i) {
            ImGui::PushID(static_cast<int>(i));
            ImGui::TextDisabled("rope %zu: %zu nodes", i, tubes[i].nodes.size());
            edited(ImGui::SliderInt("subdivisions", &tubes[i].subdivisions, 0, 32, "%d",
                                    ImGuiSliderFlags_AlwaysClamp),
                   doc_, commit);
            edited(ImGui::DragFloat("radius", &tubes[i].radius, 0.0005f, 0.0005f, 10.0f, "%.4f m",
                                    ImGuiSliderFlags_AlwaysClamp),
                   doc_, commit);
            edited(ImGui::SliderInt("sides", &tubes[i].sides, 3, 64, "%d", ImGuiSliderFlags_AlwaysClamp), doc_,
                   commit);
            ImGui::PopID();
        }
        ImGui::PopItemWidth();
    }

    if (ImGui::CollapsingHeader("View")) {
        ImGui::Checkbox("surface", &view_.surface);
        ImGui::SameLine(110);
        ImGui::Checkbox("lighting", &view_.lighting);
        ImGui::SameLine(220);
        ImGui::Checkbox("texture", &view_.texture);
        ImGui::Checkbox("springs", &view_.springs);
        ImGui::SameLine(110);
        ImGui::Checkbox("nodes", &view_.nodes);
        ImGui::SameLine(220);
        ImGui::Checkbox("anchors", &view_.anchors);
        ImGui::Checkbox("ground", &view_.ground);
        ImGui::SameLine(110);
        ImGui::Checkbox("shadow", &view_.shadow);
        ImGui::SameLine(220);
        ImGui::Checkbox("ropes", &view_.ropes);
        ImGui::PushItemWidth(150);
        ImGui::SliderAngle("light turn", &view_.light_yaw, -180.0f, 180.0f);
        ImGui::SliderAngle("light height", &view_.light_pitch, 5.0f, 90.0f);
        ImGui::SliderFloat("full strain colour", &view_.strain_full, 0.001f, 0.5f, "%.3f", ImGuiSliderFlags_Logarithmic);
        ImGui::PopItemWidth();
        if (!renderer_.texture_error().empty()) ImGui::TextColored(kWarn, "%s", renderer_.texture_error().c_str());
    }
    end_side_panel();
}

void EditorApp::draw_drives_section() {
    // Run-time controls of driven anchors, as the seed demos have them; they act on
    // the running simulation only (Reset returns to the model's values).
    if (!live_.running()) return;
    const bool velocity = live_.sole_velocity_anchor().has_value();
    const auto circle = live_.first_circle_anchor();
    if (!velocity && !circle) return;
    if (!ImGui::CollapsingHeader("Drives", ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (velocity)
        ImGui::TextWrapped("Arrows (and Page Up/Down) move the rope's connection point at a velocity, as in "
                           "Tunca's demo.");
    if (circle) {
        // Garrido's jump rope: the ends' circle radius and turning speed.
        const Simulation& sim = live_.simulation();
        circle_radius_ = sim.anchor_circle_radius(*circle);
        circle_speed_ = sim.anchor_angular_speed(*circle);
        ImGui::PushItemWidth(150);
        bool changed = ImGui::SliderFloat("circle radius", &circle_radius_, 0.01f, 2.0f, "%.3f m",
                                          ImGuiSliderFlags_AlwaysClamp);
        changed |= ImGui::SliderFloat("turn speed", &circle_speed_, -30.0f, 30.0f, "%.2f rad/s");
        ImGui::PopItemWidth();
        help_marker("Radius and angular speed of every circle-driven anchor (Garrido's jump-rope ends), changed "
                    "while it turns. Reset goes back to the model's values.");
        if (changed) live_.set_circle_drives(circle_radius_, circle_speed_);
    }
}

void EditorApp::draw_insight_panel() {
    begin_side_panel("Insight", ImGui::GetMainViewport()->Size.x - kInsightWidth, kInsightWidth);
    const Model& m = doc_.model();
    ImGui::TextUnformatted("Kinetic energy");
    const auto& energy = live_.energy_history();
    std::vector<float> samples(energy.begin(), energy.end());
    const float peak = samples.empty() ? 1.0f : std::max(*std::max_element(samples.begin(), samples.end()), 1e-9f);
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%.4g J", samples.empty() ? 0.0 : static_cast<double>(samples.back()));
    ImGui::PlotLines("##energy", samples.data(), static_cast<int>(samples.size()), 0, overlay, 0.0f, peak * 1.05f,
                     ImVec2(ImGui::GetContentRegionAvail().x, 90));
    ImGui::TextDisabled("last %.0f s, peak %.4g J", static_cast<double>(LiveSimulation::kHistory) / 60.0,
                        static_cast<double>(peak));

    // Garrido's rule of thumb: k dt^2 / m well below 0.5.
    const Stability stability = stability_estimate(m);
    const ImVec4 color = stability.worst < 0.1 ? kGood : stability.worst < kStabilityWarning ? kWarn : kBad;
    ImGui::Separator();
    ImGui::Text("Stability k dt^2/m:");
    ImGui::SameLine();
    ImGui::TextColored(color, "%.3f %s", stability.worst,
                       stability.worst < 0.1                 ? "(stable)"
                       : stability.worst < kStabilityWarning ? "(stiff)"
                                                             : "(at risk)");
    help_marker("Largest k dt^2 / m over the springs, dt = max substep, m = the lighter node (Garrido). Keep it "
                "well below 0.5; above 0.3 lower k or the substep.");
    if (stability.worst >= kStabilityWarning && !m.springs.empty())
        ImGui::TextColored(kBad, "worst: spring %zu (nodes %u-%u)", stability.worst_spring,
                           m.springs[stability.worst_spring].a, m.springs[stability.worst_spring].b);
    if (!frequency_ || (frequency_revision_ != doc_.revision() && !ImGui::IsAnyItemActive())) {
        frequency_ = frequency_stability(m);
        frequency_revision_ = doc_.revision();
    }
    const double margin = frequency_->limit > 0.0 ? frequency_->omega_dt / frequency_->limit : 1.0;
    ImGui::Text("dt omega_max:");
    ImGui::SameLine();
    ImGui::TextColored(margin < 0.7 ? kGood : !frequency_->above_limit() ? kWarn : kBad, "%.3g / %.3g",
                       frequency_->omega_dt, frequency_->limit);
    help_marker("The substep times the highest natural frequency of the springs (rad/s), anchored nodes held; "
                "green below 70% of the integrator's limit, yellow near it, red at or above it: the model will "
                "explode. Symplectic Euler and Verlet explode at 2; explicit Euler wherever the energy loss per "
                "substep no longer takes back its growth. Unlike k dt^2/m it counts every spring at a node.");

    ImGui::Separator();
    ImGui::Text("nodes %zu   springs %zu", m.node_count(), m.springs.size());
    ImGui::Text("anchors %zu   faces %zu", m.anchors.size(), m.faces.size());
    const int substeps = static_cast<int>(std::ceil(1.0 / 60.0 / m.params.max_substep - 1e-6));
    ImGui::Text("substeps per frame %d", std::max(substeps, 1));
    ImGui::Text("edits %zu   %s", doc_.history_size(), doc_.dirty() ? "unsaved" : "saved");
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::TextDisabled("%.1f ms/frame (%.0f fps)", 1000.0 / std::max(io.Framerate, 1.0f),
                        static_cast<double>(io.Framerate));

    if (!live_.error().empty()) {
        ImGui::Separator();
        ImGui::TextColored(kBad, "The simulation exploded:");
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(live_.error().c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::Button("Reset simulation", ImVec2(-1, 0))) live_.reset();
    }
    end_side_panel();
}

void EditorApp::draw_status_bar() {
    const ImGuiViewport* main = ImGui::GetMainViewport();
    const float height = ImGui::GetFrameHeight();
    ImGui::SetNextWindowPos(ImVec2(main->Pos.x, main->Pos.y + main->Size.y - height));
    ImGui::SetNextWindowSize(ImVec2(main->Size.x, height));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8, 3));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, kPanelBackground);
    ImGui::Begin("##status", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
    const bool error = status_.starts_with("error:");
    if (error)
        ImGui::TextColored(kBad, "%s", status_.c_str());
    else
        ImGui::TextUnformatted(status_.c_str());
    if (!autosaver_.last_error().empty()) {
        ImGui::SameLine();
        ImGui::TextColored(kWarn, "  %s", autosaver_.last_error().c_str());
    }
    ImGui::End();
    ImGui::PopStyleColor();
    ImGui::PopStyleVar();
}

void EditorApp::draw_modals() {
    // The file dialog: open, save as, or save as on the way to closing.
    if (auto chosen = file_dialog_.draw()) {
        if (file_dialog_.mode() == FileDialog::Mode::open) {
            request({CloseRequest::Kind::open, *chosen, {}});
        } else {
            save_as(*chosen);
            if (saving_for_close_) {
                saving_for_close_ = false;
                if (auto go = guard_.saved(doc_)) carry_out(*go);
            }
        }
    } else if (file_dialog_.take_cancelled() && saving_for_close_) {
        saving_for_close_ = false;
        guard_.saved(doc_);  // still dirty: forget the request, lose nothing
    }

    // Save changes before closing?
    if (guard_.pending() && !saving_for_close_ && !file_dialog_.is_open()) ImGui::OpenPopup("Unsaved changes");
    if (ImGui::BeginPopupModal("Unsaved changes", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::Text("Save changes to %s before closing it?", doc_.display_name().c_str());
        ImGui::TextDisabled("Your edits are lost if you don't save them.");
        if (ImGui::Button("Save", ImVec2(110, 0))) {
            guard_.answer(CloseAnswer::save);
            if (doc_.path().empty()) {
                saving_for_close_ = true;
                file_dialog_.show(FileDialog::Mode::save, doc_.suggested_path(), {".json"});
            } else {
                save();
                if (auto go = guard_.saved(doc_)) carry_out(*go);
            }
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Don't Save", ImVec2(110, 0))) {
            if (auto go = guard_.answer(CloseAnswer::discard)) carry_out(*go);
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel", ImVec2(110, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
            guard_.answer(CloseAnswer::cancel);
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }

    // An autosave newer than the file: the last session did not end cleanly.
    if (recovery_ && !ImGui::IsPopupOpen("Recover unsaved changes?")) ImGui::OpenPopup("Recover unsaved changes?");
    if (ImGui::BeginPopupModal("Recover unsaved changes?", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::Text("%s has unsaved changes from a session that did not end cleanly", doc_.display_name().c_str());
        ImGui::TextDisabled("autosave: %s", recovery_ ? recovery_->string().c_str() : "");
        if (ImGui::Button("Recover", ImVec2(120, 0))) {
            try {
                Document recovered = doc_;
                recovered.recover(load_model(*recovery_));
                adopt(std::move(recovered));
                set_status("Recovered the autosave; save to keep it");
            } catch (const std::exception& e) {
                report_error(e.what());
            }
            recovery_.reset();
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Delete autosave", ImVec2(120, 0))) {
            std::error_code ec;
            fs::remove(*recovery_, ec);
            recovery_.reset();
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Not now", ImVec2(120, 0))) {
            recovery_.reset();
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }

    if (show_error_) {
        ImGui::OpenPopup("Error");
        show_error_ = false;
    }
    if (ImGui::BeginPopupModal("Error", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
        ImGui::TextUnformatted(last_error_.c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::Button("OK", ImVec2(120, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)))
            ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
}

#if SPRINGKIT_EDITOR_HAS_IMPORT
void EditorApp::draw_import_dialog() {
    // The converter's options (springkit convert's flags), asked before a mesh opens.
    if (import_path_ && !ImGui::IsPopupOpen("Convert mesh")) ImGui::OpenPopup("Convert mesh");
    if (!ImGui::BeginPopupModal("Convert mesh", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImportOptions& o = import_options_;
    ImGui::Text("Convert %s to a spring model", import_path_ ? import_path_->filename().string().c_str() : "");
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
    auto optional_float = [](const char* label, std::optional<float>& value, float fallback, const char* format) {
        bool set = value.has_value();
        if (ImGui::Checkbox(label, &set)) value = set ? std::optional<float>(fallback) : std::nullopt;
        if (value) {
            ImGui::SameLine();
            ImGui::PushID(label);
            ImGui::InputFloat("##value", &*value, 0.0f, 0.0f, format);
            ImGui::PopID();
        }
    };
    const Parameters defaults;
    optional_float("k", o.k, defaults.k, "%.4g N/m");
    optional_float("energy loss", o.energy_loss, defaults.energy_loss, "%.4f");
    optional_float("mass", o.mass, defaults.mass, "%.4g kg");
    std::string& anchors = import_anchors_text_;
    if (ImGui::IsWindowAppearing()) {
        anchors.clear();
        for (const std::string& a : o.anchors) anchors += a + "\n";
    }
    ImGui::InputTextMultiline("anchors", &anchors, ImVec2(160, 50));
    help_marker("One selector a line: top:10% (the top 10% of the box along +y; also +x -x +y -y +z -z, bottom), "
                "nodes:0,5,17, near:X,Y,Z.");
    ImGui::PopItemWidth();
    if (ImGui::Button("Convert", ImVec2(120, 0))) {
        o.anchors.clear();
        std::size_t start = 0;
        while (start <= anchors.size()) {
            const std::size_t end = std::min(anchors.find('\n', start), anchors.size());
            std::string line = anchors.substr(start, end - start);
            if (!line.empty()) o.anchors.push_back(line);
            start = end + 1;
        }
        const fs::path path = *import_path_;
        import_path_.reset();
        ImGui::CloseCurrentPopup();
        import_now(path);
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(120, 0)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
        import_path_.reset();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}
#endif

}  // namespace springkit::editor
