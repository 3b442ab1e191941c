// springkit-editor — the insight panel (insight_panel.hpp).
#include "ui/insight_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "ui/widgets.hpp"

namespace springkit::editor {

namespace {

ImVec4 alarm_color(Alarm alarm) {
    switch (alarm) {
        case Alarm::good: return kGood;
        case Alarm::warn: return kWarn;
        case Alarm::bad: return kBad;
    }
    return kBad;
}

}  // namespace

Action insight_panel(const Document& doc, const LiveSimulation& live, FrequencyCache& frequency) {
    Action action;
    const float width = panel_widths().right;
    begin_side_panel("Insight", ImGui::GetMainViewport()->Size.x - width, width);
    const Model& m = doc.model();
    ImGui::TextUnformatted("Kinetic energy");
    const auto& energy = live.energy_history();
    std::vector<float> samples(energy.begin(), energy.end());
    const float peak = samples.empty() ? 1.0f : std::max(*std::max_element(samples.begin(), samples.end()), 1e-9f);
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%.4g J", samples.empty() ? 0.0 : static_cast<double>(samples.back()));
    ImGui::PlotLines("##energy", samples.data(), static_cast<int>(samples.size()), 0, overlay, 0.0f, peak * 1.05f,
                     ImVec2(ImGui::GetContentRegionAvail().x, 90));
    ImGui::TextDisabled("last %.0f s, peak %.4g J", static_cast<double>(LiveSimulation::kHistory) / 60.0,
                        static_cast<double>(peak));

    // The run itself first: what it does now outranks any estimate.
    ImGui::Separator();
    const RunHealth health = live.health();
    ImGui::TextUnformatted("Running:");
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(alarm_color(health.alarm), "%s", health.text.c_str());
    ImGui::PopTextWrapPos();
    help_marker("Watches the running simulation: EXPLODED when the runtime's runaway guard stopped it; UNSTABLE "
                "when the motion inside the body (kinetic energy less the centre of mass's) passes 20 times what "
                "a calm run has (the model's weight times its size, plus its drives and wind); TORN when a spring "
                "is stretched beyond 3 times its rest length (over-stretched beyond twice). Rope constraints "
                "are not counted.");

    if (!frequency.value || (frequency.revision != doc.revision() && !ImGui::IsAnyItemActive())) {
        frequency.value = frequency_stability(m);
        frequency.rule_of_thumb = stability_estimate(m);
        frequency.revision = doc.revision();
    }
    const FrequencyStability& f = *frequency.value;
    ImGui::Text("dt omega_max:");
    ImGui::SameLine();
    ImGui::TextColored(alarm_color(frequency_alarm(f)), "%.3g / %.3g %s", f.omega_dt, f.limit,
                       f.above_limit() ? "(will explode)" : "(stable)");
    help_marker("The substep times the highest natural frequency of the springs (rad/s), anchored nodes held: the "
                "step's own stability limit. Yellow from 90% of the integrator's limit (or of the budget it shares "
                "with the spring damping), red at or above it: the model will explode. Symplectic Euler and Verlet "
                "explode at 2; explicit Euler wherever the energy loss per substep no longer takes back its growth. "
                "Rope constraints have no frequency.");
    // Garrido's rule of thumb, for reference only: it sees one spring at a time.
    const Stability& stability = *frequency.rule_of_thumb;
    ImGui::TextDisabled("k dt^2/m: %.3f (spring %zu)", stability.worst, stability.worst_spring);
    help_marker("Largest k dt^2 / m over the springs, dt = max substep, m = the lighter node (Garrido's rule of "
                "thumb: keep it well below 0.5). Not a verdict: a chain of springs runs calm up to 1 with "
                "symplectic Euler (its highest mode has omega^2 = 4k/m), and a node held by many springs can "
                "explode below it; dt omega_max above counts both right.");

    ImGui::Separator();
    ImGui::Text("nodes %zu   springs %zu", m.node_count(), m.springs.size());
    ImGui::Text("anchors %zu   faces %zu", m.anchors.size(), m.faces.size());
    // How much of the model rests on the colliders: node-collider contacts of the last step.
    ImGui::Text("colliders %zu   contacts %zu", doc.colliders().size(),
                live.running() ? live.simulation().contacts().size() : std::size_t{0});
    ImGui::Text("substeps per frame %llu",
                static_cast<unsigned long long>(substeps_per_frame(1.0f / 60.0f, m.params.max_substep)));
    ImGui::Text("edits %zu   %s", doc.history_size(), doc.dirty() ? "unsaved" : "saved");
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::TextDisabled("%.1f ms/frame (%.0f fps)", 1000.0 / std::max(io.Framerate, 1.0f),
                        static_cast<double>(io.Framerate));

    if (!live.error().empty()) {
        ImGui::Separator();
        ImGui::TextColored(kBad, "The simulation exploded:");
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(live.error().c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::Button("Reset simulation", ImVec2(-1, 0))) action = Command::reset_simulation;
    }
    end_side_panel();
    return action;
}

}  // namespace springkit::editor
