// springkit-editor — what every panel of app/ui shares: the fixed layout, the
// colours of good and bad news, help markers and the undo rule of drag widgets.
#pragma once

#include <imgui.h>
#include <imgui_internal.h>

#include <any>
#include <string>

#include "editing/document.hpp"
#include "view/camera.hpp"

namespace springkit::editor {

inline constexpr float kToolsWidth = 330.0f;    ///< px, the left panel at full width
inline constexpr float kInsightWidth = 300.0f;  ///< px, the right panel at full width

/// The tools panel's (left) and the insight panel's (right) widths in this
/// window: side_panels() of the main viewport's width.
SidePanels panel_widths();

inline const ImVec4 kGood{0.45f, 0.85f, 0.45f, 1.0f};
inline const ImVec4 kWarn{1.0f, 0.75f, 0.25f, 1.0f};
inline const ImVec4 kBad{1.0f, 0.35f, 0.3f, 1.0f};

/// A number being typed into a field (Ctrl+click or double-click turns a drag
/// field into a text field): Dear ImGui hands over the value at every keystroke,
/// so typing 50000 would run the model at 5, 50, 500 and 5000 on the way. The
/// typed value waits here until Enter or focus loss. One at a time: only one
/// field has the keyboard.
struct TypedValue {
    ImGuiID field = 0;
    std::any value;
};
TypedValue& typed_value();
/// True while the last item is a field being typed into.
bool typing_into_last_item();

/// Applies a widget's edit to the document. A drag applies live, as one undo
/// entry: the edit continues while the widget stays active and is sealed when it
/// lets go (IsItemDeactivatedAfterEdit). A typed number applies once, on Enter or
/// focus loss, as its own entry (Escape drops it). `value` is what the widget
/// edits and `apply(continuing)` makes the edit from it; call right after the
/// widget that reported `changed`.
template <class T, class Apply>
void edited(bool changed, T& value, Document& doc, Apply apply) {
    TypedValue& typed = typed_value();
    const ImGuiID field = ImGui::GetItemID();
    if (typing_into_last_item()) {
        if (changed) typed = {field, value};
        return;
    }
    if (typed.field == field && typed.value.has_value() && ImGui::IsItemDeactivated()) {
        // Escape leaves the value as it was: nothing was applied.
        const bool cancelled = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
        value = std::any_cast<T>(typed.value);
        typed = {};
        doc.seal();
        if (!cancelled) apply(false);
        return;
    }
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

/// Seconds a status message stays in the status bar; an error stays longer.
inline constexpr double kStatusSeconds = 6.0;
inline constexpr double kErrorSeconds = 15.0;
/// Whether a status message `age` seconds old is still shown.
inline bool status_fresh(const std::string& status, double age) {
    return age < (status.starts_with("error:") ? kErrorSeconds : kStatusSeconds);
}

/// The status bar along the bottom edge: the model's texture that could not be
/// loaded (for as long as the model is open), the last message (red when it is
/// an error) and the autosaver's trouble, if any (warnings in kWarn).
void status_bar(const std::string& status, const std::string& texture_error, const std::string& autosave_error);

}  // namespace springkit::editor
