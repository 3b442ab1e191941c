// springkit-editor — the timeline (timeline_panel.hpp).
#include "ui/timeline_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "ui/widgets.hpp"

namespace springkit::editor {

std::optional<std::uint64_t> timeline_section(const LiveSimulation& live,
                                              const Selection& selection, TimelineState& state) {
    std::optional<std::uint64_t> chosen;
    const RunRecording& rec = live.recording();
    if (!live.running() || rec.empty()) return chosen;
    ImGui::Separator();
    const std::uint64_t first = rec.first_frame(), last = rec.last_frame();
    const std::uint64_t now = live.frame().value_or(last);
    ImGui::Text("Timeline: frame %llu of %llu..%llu", static_cast<unsigned long long>(now),
                static_cast<unsigned long long>(first), static_cast<unsigned long long>(last));
    help_marker(
        "The run is recorded frame by frame (node positions, kinetic energy, and every 30th frame "
        "the "
        "whole state) in a ring of at most 256 MiB or 10 minutes; the oldest frames go first. Drag "
        "the "
        "slider (or Ctrl+Left / Ctrl+Right, one frame; with Shift, ten) to go back: the simulation "
        "pauses "
        "there, exactly as it was. Play goes on from the frame shown and drops the frames after "
        "it. An "
        "edit of the model starts a new recording.");
    int frame = static_cast<int>(now);
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::SliderInt("##frame", &frame, static_cast<int>(first), static_cast<int>(last), "%d",
                         ImGuiSliderFlags_AlwaysClamp) &&
        static_cast<std::uint64_t>(frame) != now)
        chosen = static_cast<std::uint64_t>(frame);
    ImGui::TextDisabled("%.2f s, %zu frames, %.1f MiB", rec.time(now), rec.frame_count(),
                        static_cast<double>(rec.bytes()) / (1024.0 * 1024.0));

    const std::vector<float> energy = rec.kinetic_energies();
    const float peak = std::max(*std::max_element(energy.begin(), energy.end()), 1e-9f);
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "kinetic %.4g J", rec.kinetic_energy(now));
    ImGui::PlotLines("##recorded energy", energy.data(), static_cast<int>(energy.size()), 0,
                     overlay, 0.0f, peak * 1.05f, ImVec2(ImGui::GetContentRegionAvail().x, 60));

    if (selection.nodes() != state.seen_nodes || selection.springs() != state.seen_springs) {
        state.seen_nodes = selection.nodes();
        state.seen_springs = selection.springs();
        state.springs = springs_of_selection(live.model(), state.seen_nodes, state.seen_springs);
    }
    state.strain.update(rec, live.model(), state.springs);
    const std::vector<float>& strain = state.strain.values();
    if (strain.empty()) {
        ImGui::TextDisabled("select springs to plot their strain");
    } else {
        const auto [low, high] = std::minmax_element(strain.begin(), strain.end());
        std::snprintf(overlay, sizeof overlay, "largest strain %+.2f%%",
                      100.0 * static_cast<double>(strain[now - first]));
        ImGui::PlotLines("##selection strain", strain.data(), static_cast<int>(strain.size()), 0,
                         overlay, std::min(*low, 0.0f), std::max(*high, 1e-6f),
                         ImVec2(ImGui::GetContentRegionAvail().x, 60));
        ImGui::TextDisabled("%zu springs of the selection", state.springs.size());
    }
    return chosen;
}

}  // namespace springkit::editor
