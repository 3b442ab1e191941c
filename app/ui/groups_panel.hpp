// springkit-editor — the "Spring groups" section of the tools panel: named sets
// of springs with their own stiffness scale and damping (Model::spring_groups),
// made from the selected springs, renamed, tuned, selected and deleted; every
// change an edit of the document, saved in the file.
#pragma once

#include "editing/document.hpp"
#include "editing/selection.hpp"

namespace springkit::editor {

void spring_groups_section(Document& doc, Selection& selection);

}  // namespace springkit::editor
