// springkit-editor — paint mode's strokes (EditorApp::paint_with_mouse): while
// the left button is held after a press in the viewport, every frame is one dab
// of the brush at the cursor onto the nodes drawn under it, applied to the
// document as one continuing edit, so the stroke is one undo entry and the
// running simulation takes each dab as it takes any edit (sync_with_document).
#include <imgui.h>

#include "editor_app.hpp"

namespace springkit::editor {

bool EditorApp::paint_with_mouse(bool inside, float x, float y, std::span<const Vec3> positions,
                                 const Mat4& view_projection, const Viewport& vp) {
    if (!paint_.stroking) {
        if (!inside || !ImGui::IsMouseClicked(ImGuiMouseButton_Left)) return false;
        paint_.stroking = true;
        doc_.seal();  // a stroke never merges into the edit before it
    }
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
        paint_.stroking = false;
        doc_.seal();
        return true;
    }
    // The nodes are painted where they are drawn (the running simulation's
    // positions); the values go to the document's model, which has the same nodes.
    if (positions.size() != doc_.model().node_count()) return true;
    const std::vector<BrushHit> hits = nodes_under_brush(positions, view_projection, vp, x, y, paint_.brush);
    PaintValues values = paint_values(doc_.model());
    if (apply_dab(doc_.model(), values, hits, paint_.brush)) doc_.paint(values, paint_.brush.target, true);
    return true;
}

}  // namespace springkit::editor
