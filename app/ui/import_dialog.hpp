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
};

/// Draws the dialog while state.path is set. Returns the conversion once the
/// person presses Convert; Convert and Cancel both close it.
std::optional<ImportRequest> import_dialog(ImportDialogState& state);

}  // namespace springkit::editor
