// springkit-editor — the Colliders section (colliders_panel.hpp).
#include "ui/colliders_panel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

#include "editing/collider_shapes.hpp"
#include "ui/widgets.hpp"

namespace springkit::editor {

namespace {

constexpr ImGuiSliderFlags kClamp = ImGuiSliderFlags_AlwaysClamp;

// A drag of any size of collider: a hundredth of the value per pixel, never
// slower than a millimetre.
float size_speed(float value) { return std::max(std::abs(value) * 0.01f, 0.001f); }

}  // namespace

void collider_fields(Document& doc, std::size_t index) {
    if (index >= doc.colliders().size()) return;
    Collider c = doc.colliders()[index];
    ImGui::PushID(static_cast<int>(index));
    // Each field edits its own copy of the collider: `apply` commits it.
    auto field = [&](bool changed, auto& value, const char* what) {
        edited(changed, value, doc, [&](bool continuing) { doc.set_collider(index, c, continuing, what); });
    };
    std::string name = c.name;
    if (ImGui::InputText("name", &name, ImGuiInputTextFlags_EnterReturnsTrue)) {
        c.name = name;
        doc.set_collider(index, c, false, "rename collider");
    }
    Vec3 position = c.pose.position;
    const float reach = std::max(0.01f, 0.01f * length(position));
    const bool moved = ImGui::DragFloat3("position", &position.x, reach, 0.0f, 0.0f, "%.3f m");
    c.pose.position = position;
    field(moved, c.pose.position, "move collider");

    Vec3 angles = euler_degrees(c.pose.rotation);
    const bool turned = ImGui::DragFloat3("rotation", &angles.x, 0.5f, -360.0f, 360.0f, "%.1f deg");
    help_marker("Degrees about x, then y, then z (of the world). A plane's normal is its frame's +y.");
    if (turned) c.pose.rotation = quat_from_euler_degrees(angles);
    field(turned, c.pose.rotation, "rotate collider");

    switch (c.shape) {
        case ColliderShape::sphere:
        case ColliderShape::capsule: {
            const bool r = ImGui::DragFloat("radius", &c.radius, size_speed(c.radius), 1e-4f, 1e4f, "%.4g m", kClamp);
            field(r, c.radius, "resize collider");
            if (c.shape == ColliderShape::capsule) {
                const bool h = ImGui::DragFloat("half height", &c.half_height, size_speed(c.half_height), 1e-4f, 1e4f,
                                                "%.4g m", kClamp);
                help_marker("Half the length of the capsule's segment, along its frame's y.");
                field(h, c.half_height, "resize collider");
            }
            break;
        }
        case ColliderShape::box: {
            const bool h = ImGui::DragFloat3("half extents", &c.half_extents.x, size_speed(c.half_extents.x), 1e-4f, 1e4f,
                                             "%.4g m", kClamp);
            field(h, c.half_extents, "resize collider");
            break;
        }
        case ColliderShape::convex_hull: {
            ImGui::TextDisabled("convex hull of %zu points, %zu faces", c.points.size(), c.planes.size());
            // The points as text to edit (in the collider's frame), applied as one edit.
            static std::string text, error;
            static std::vector<Vec3> shown;
            if (shown != c.points) {
                shown = c.points;
                text = points_text(c.points);
                error.clear();
            }
            ImGui::InputTextMultiline("points", &text, ImVec2(170, 70));
            help_marker("One point a line, x y z in m in the collider's frame; 4 to 64 points spanning a volume.");
            if (ImGui::SmallButton("Apply points")) {
                error.clear();
                {
                    try {
                        Collider reshaped = convex_hull_collider(parse_points(text));
                        reshaped.name = c.name;
                        reshaped.pose = c.pose;
                        reshaped.static_friction = c.static_friction;
                        reshaped.dynamic_friction = c.dynamic_friction;
                        reshaped.restitution = c.restitution;
                        doc.set_collider(index, reshaped, false, "reshape hull");
                    } catch (const std::exception& e) {
                        error = e.what();
                    }
                }
            }
            if (!error.empty()) ImGui::TextColored(kBad, "%s", error.c_str());
            break;
        }
        case ColliderShape::triangle_mesh:
            ImGui::TextDisabled("triangle mesh of %zu triangles", c.mesh ? triangle_count(*c.mesh) : std::size_t{0});
            break;
        case ColliderShape::plane:
            ImGui::TextDisabled("endless: bodies stay above its frame's y = 0");
            break;
    }

    // Coulomb friction: dynamic <= static (check_collider), so each drags the other along.
    const bool s = ImGui::DragFloat("static friction", &c.static_friction, 0.01f, 0.0f, 10.0f, "%.3f", kClamp);
    if (s) c.dynamic_friction = std::min(c.dynamic_friction, c.static_friction);
    field(s, c.static_friction, "collider friction");
    const bool d = ImGui::DragFloat("dynamic friction", &c.dynamic_friction, 0.01f, 0.0f, 10.0f, "%.3f", kClamp);
    if (d) c.static_friction = std::max(c.static_friction, c.dynamic_friction);
    field(d, c.dynamic_friction, "collider friction");
    help_marker("Coulomb friction (Bridson et al. 2002): a touching node keeps sliding unless the contact could "
                "stop it (static), else loses dynamic x the normal speed change.");
    const bool r = ImGui::DragFloat("restitution", &c.restitution, 0.01f, 0.0f, 1.0f, "%.3f", kClamp);
    help_marker("Share of the approach speed a node leaves with: 0 sticks, 1 bounces back fully.");
    field(r, c.restitution, "collider restitution");
    ImGui::PopID();
}

Action colliders_section(Document& doc, std::optional<std::size_t>& selected, const Selection& nodes) {
    Action action;
    if (selected && *selected >= doc.colliders().size()) selected.reset();
    if (!ImGui::CollapsingHeader("Colliders", ImGuiTreeNodeFlags_DefaultOpen)) return action;
    ImGui::PushID("colliders");
    // One button per kind, sized and placed under the model (default_collider).
    constexpr std::pair<ColliderShape, const char*> kKinds[] = {
        {ColliderShape::plane, "Plane"},  {ColliderShape::sphere, "Sphere"},    {ColliderShape::capsule, "Capsule"},
        {ColliderShape::box, "Box"},      {ColliderShape::convex_hull, "Hull"},
    };
    ImGui::TextUnformatted("Add");
    for (const auto& [shape, label] : kKinds) {
        ImGui::SameLine();
        if (ImGui::SmallButton(label)) {
            action = Command::add_collider;
            action.shape = shape;
        }
    }
    if (ImGui::SmallButton("Mesh file...")) action = Command::show_add_mesh_collider;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("A static triangle mesh from a mesh file (OBJ, FBX, glTF, ...)");
    ImGui::SameLine();
    ImGui::BeginDisabled(nodes.nodes().size() < 4);
    if (ImGui::SmallButton("Hull of selected nodes")) action = Command::add_hull_of_selection;
    ImGui::EndDisabled();
    help_marker("A convex hull around the selected nodes where they are now (at least 4 nodes, not in a plane).");

    const auto& colliders = doc.colliders();
    if (colliders.empty()) {
        ImGui::TextDisabled("no colliders: add one, or File > Open scene");
    } else if (ImGui::BeginListBox("##list", ImVec2(-1.0f, std::min(5.0f, static_cast<float>(colliders.size())) *
                                                                ImGui::GetTextLineHeightWithSpacing() + 4.0f))) {
        for (std::size_t i = 0; i < colliders.size(); ++i) {
            const std::string label = std::to_string(i) + "  " + collider_shape_name(colliders[i].shape) +
                                      (colliders[i].name.empty() ? "" : "  \"" + colliders[i].name + "\"");
            ImGui::PushID(static_cast<int>(i));
            if (ImGui::Selectable(label.c_str(), selected == i)) selected = i;
            ImGui::PopID();
        }
        ImGui::EndListBox();
    }
    if (selected) {
        ImGui::PushItemWidth(170);
        collider_fields(doc, *selected);
        ImGui::PopItemWidth();
        if (ImGui::Button("Delete collider")) action = Command::delete_collider;
        ImGui::SameLine();
        ImGui::TextDisabled("or Del");
    }
    const std::string scene = doc.scene_path().empty() ? std::string("(no scene file yet)")
                                                       : doc.scene_path().filename().string();
    ImGui::TextDisabled("scene: %s%s", scene.c_str(), doc.scene_dirty() ? " *" : "");
    ImGui::PopID();
    return action;
}

}  // namespace springkit::editor
