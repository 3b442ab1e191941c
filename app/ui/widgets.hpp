// springkit-editor — what every panel of app/ui shares: the fixed layout, the
// colours of good and bad news, help markers and the undo rule of drag widgets.
#pragma once

#include <imgui.h>

#include <string>

#include "editing/document.hpp"

namespace springkit::editor {

inline constexpr float kToolsWidth = 330.0f;    ///< px, the fixed left panel
inline constexpr float kInsightWidth = 300.0f;  ///< px, the fixed right panel

inline const ImVec4 kGood{0.45f, 0.85f, 0.45f, 1.0f};
inline const ImVec4 kWarn{1.0f, 0.75f, 0.25f, 1.0f};
inline const ImVec4 kBad{1.0f, 0.35f, 0.3f, 1.0f};

/// One undo entry per drag: the edit continues while the widget stays active and
/// is sealed when it lets go (IsItemDeactivatedAfterEdit). `apply(continuing)`
/// makes the edit; call right after the widget that reported `changed`.
template <class Apply>
void edited(bool changed, Document& doc, Apply apply) {
    if (changed) apply(ImGui::IsItemActive());
    if (ImGui::IsItemDeactivatedAfterEdit()) doc.seal();
}

/// A "(?)" after the last item that shows `text` while hovered.
void help_marker(const char* text);

/// Begins one of the fixed side panels: full height between the menu bar and the
/// status bar, `width` wide, its left edge `x` from the window's; end_side_panel()
/// closes it.
void begin_side_panel(const char* name, float x, float width);
void end_side_panel();

/// The status bar along the bottom edge: the last message (red when it is an
/// error) and the autosaver's trouble, if any.
void status_bar(const std::string& status, const std::string& autosave_error);

}  // namespace springkit::editor
