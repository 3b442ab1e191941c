// springkit-editor — the "Convert mesh" dialog: the converter's options
// (`springkit convert`'s flags), asked before a mesh opens. Its physics half
// offers every row of the parameter table as an override (ImportOptions::
// parameters), drawn by the Physics section's own widgets and grouped as there.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "springkit/import.hpp"

namespace springkit::editor {

/// What the dialog keeps between frames (and between meshes: the last options
/// are offered again).
struct ImportDialogState {
    std::optional<std::filesystem::path> path;  ///< a mesh waiting for the dialog; none: closed
    ImportOptions options;
    std::string anchors_text;  ///< the anchor selectors being typed, one a line
};

struct ImportRequest {
    std::filesystem::path path;
    ImportOptions options;
    /// Preview: convert to show what the conversion makes (bounds, units,
    /// islands, springs, ground, anchors) before it becomes the document.
    bool preview = false;
};

/// Draws the dialog while state.path is set. Returns the conversion once the
/// person presses Convert or Preview; each of them and Cancel close it.
std::optional<ImportRequest> import_dialog(ImportDialogState& state);

/// What a conversion made, one fact a line: the reader, the unit and how it was
/// decided, the bounds, nodes and faces, the islands, the springs of each kind,
/// the ground under the model, the anchors the selectors picked and the warnings.
void import_facts(const Model& model, const ImportReport& report);

enum class PreviewAnswer { convert, change_options, cancel };
/// The conversion preview's window (the viewport shows the previewed model):
/// the facts, and Convert / Change options / Cancel.
std::optional<PreviewAnswer> preview_window(const std::filesystem::path& path, const Model& model,
                                            const ImportReport& report);
/// The facts of the conversion just made, until closed (`open` goes false).
void conversion_report_window(bool& open, const Model& model, const ImportReport& report);

}  // namespace springkit::editor
