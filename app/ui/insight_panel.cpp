// springkit-editor — the insight panel (insight_panel.hpp).
#include "ui/insight_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "ui/widgets.hpp"

namespace springkit::editor {

Action insight_panel(const Document& doc, const LiveSimulation& live, FrequencyCache& frequency) {
    Action action;
    begin_side_panel("Insight", ImGui::GetMainViewport()->Size.x - kInsightWidth, kInsightWidth);
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
    if (!frequency.value || (frequency.revision != doc.revision() && !ImGui::IsAnyItemActive())) {
        frequency.value = frequency_stability(m);
        frequency.revision = doc.revision();
    }
    const FrequencyStability& f = *frequency.value;
    const double margin = f.limit > 0.0 ? f.omega_dt / f.limit : 1.0;
    ImGui::Text("dt omega_max:");
    ImGui::SameLine();
    ImGui::TextColored(margin < 0.7 ? kGood : !f.above_limit() ? kWarn : kBad, "%.3g / %.3g", f.omega_dt, f.limit);
    help_marker("The substep times the highest natural frequency of the springs (rad/s), anchored nodes held; "
                "green below 70% of the integrator's limit, yellow near it, red at or above it: the model will "
                "explode. Symplectic Euler and Verlet explode at 2; explicit Euler wherever the energy loss per "
                "substep no longer takes back its growth. Unlike k dt^2/m it counts every spring at a node.");

    ImGui::Separator();
    ImGui::Text("nodes %zu   springs %zu", m.node_count(), m.springs.size());
    ImGui::Text("anchors %zu   faces %zu", m.anchors.size(), m.faces.size());
    const int substeps = static_cast<int>(std::ceil(1.0 / 60.0 / m.params.max_substep - 1e-6));
    ImGui::Text("substeps per frame %d", std::max(substeps, 1));
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
