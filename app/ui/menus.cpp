// springkit-editor — the main menu bar (menus.hpp).
#include "ui/menus.hpp"

#include <imgui.h>

#include <string>
#include <utility>

#include "editing/scene_menu.hpp"

namespace springkit::editor {

namespace fs = std::filesystem;

namespace {

Action file_menu(const MenuState& state) {
    Action action;
    if (!ImGui::BeginMenu("File")) return action;
    if (ImGui::BeginMenu("New")) {
        for (const SceneMenuItem& item : new_scene_menu())
            if (ImGui::MenuItem(item.label.c_str())) {
                action = Command::new_model;
                action.builder = item.builder;
            }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Samples")) {
        // Every scene of the registry as catalogued (samples/README.md).
        for (const SceneMenuItem& item : sample_menu()) {
            if (ImGui::MenuItem(item.label.c_str())) {
                action = Command::new_model;
                action.builder = item.builder;
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", item.tooltip.c_str());
        }
        ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Open...", "Ctrl+O")) action = Command::show_open;
    if (ImGui::BeginMenu("Open Recent", !state.recent.paths().empty())) {
        for (const fs::path& p : state.recent.paths())
            if (ImGui::MenuItem(p.string().c_str())) {
                action = Command::open;
                action.path = p;
            }
        ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Save", "Ctrl+S")) action = Command::save;
    if (ImGui::MenuItem("Save As...", "Ctrl+Shift+S")) action = Command::show_save_as;
    ImGui::Separator();
    // The colliders live in a scene file of their own (springkit simulate --scene).
    if (ImGui::MenuItem("Open scene...")) action = Command::show_open_scene;
    if (ImGui::MenuItem("Save scene", nullptr, false, state.doc.scene_dirty() || !state.doc.scene_path().empty()))
        action = Command::save_scene;
    if (ImGui::MenuItem("Save scene as...")) action = Command::show_save_scene_as;
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) action = Command::quit;
    ImGui::EndMenu();
    return action;
}

Action edit_menu(const Document& doc) {
    Action action;
    if (!ImGui::BeginMenu("Edit")) return action;
    const std::string undo_label = std::string("Undo ") + (doc.undo_name() ? doc.undo_name() : "");
    const std::string redo_label = std::string("Redo ") + (doc.redo_name() ? doc.redo_name() : "");
    if (ImGui::MenuItem(undo_label.c_str(), "Ctrl+Z", false, doc.can_undo())) action = Command::undo;
    if (ImGui::MenuItem(redo_label.c_str(), "Ctrl+Shift+Z", false, doc.can_redo())) action = Command::redo;
    ImGui::Separator();
    if (ImGui::MenuItem("Add spring between last two nodes", "F")) action = Command::add_spring;
    if (ImGui::MenuItem("Delete selected springs", "Del")) action = Command::delete_springs;
    if (ImGui::MenuItem("Toggle anchor", "P")) action = Command::toggle_anchors;
    if (ImGui::MenuItem("Anchor selected nodes")) action = Command::anchor_selection;
    if (ImGui::MenuItem("Free selected nodes")) action = Command::free_selection;
    ImGui::Separator();
    if (ImGui::MenuItem("Select all nodes", "A")) action = Command::select_all;
    if (ImGui::MenuItem("Select none", "Alt+A / Esc")) action = Command::select_none;
    if (ImGui::MenuItem("Next node", "]")) action = Command::next_node;
    if (ImGui::MenuItem("Previous node", "[")) action = Command::previous_node;
    ImGui::EndMenu();
    return action;
}

Action view_menu(bool has_texture, ViewOptions& view) {
    Action action;
    if (!ImGui::BeginMenu("View")) return action;
    ImGui::MenuItem("Surface", nullptr, &view.surface);
    ImGui::MenuItem("Lighting", nullptr, &view.lighting);
    ImGui::MenuItem("Texture", nullptr, &view.texture, has_texture);
    ImGui::MenuItem("Springs (strain colours)", nullptr, &view.springs);
    ImGui::MenuItem("Spring kinds legend", nullptr, &view.legend);
    ImGui::MenuItem("Strain view (grey surface)", nullptr, &view.strain_view);
    ImGui::MenuItem("Nodes", nullptr, &view.nodes);
    ImGui::MenuItem("Anchors", nullptr, &view.anchors);
    ImGui::MenuItem("Floor grid", nullptr, &view.ground);
    ImGui::MenuItem("Shadow", nullptr, &view.shadow);
    ImGui::MenuItem("Ropes (tubes, tethers, beads)", nullptr, &view.ropes);
    ImGui::MenuItem("Colliders", nullptr, &view.colliders);
    if (ImGui::MenuItem(view.surface ? "Spring view" : "Mesh view", "V")) action = Command::toggle_mesh_view;
    ImGui::Separator();
    if (ImGui::MenuItem("Frame selection or motion", "Home")) action = Command::frame_model;
    ImGui::MenuItem("Follow the body", nullptr, &view.follow);
    ImGui::EndMenu();
    return action;
}

// What the Colliders panel adds and deletes, from the menu bar (always in
// reach, whatever the tools panel is scrolled to).
Action colliders_menu() {
    Action action;
    if (!ImGui::BeginMenu("Colliders")) return action;
    constexpr std::pair<ColliderShape, const char*> kKinds[] = {
        {ColliderShape::plane, "Add plane"}, {ColliderShape::sphere, "Add sphere"},
        {ColliderShape::capsule, "Add capsule"}, {ColliderShape::box, "Add box"},
        {ColliderShape::convex_hull, "Add hull"},
    };
    for (const auto& [shape, label] : kKinds)
        if (ImGui::MenuItem(label)) {
            action = Command::add_collider;
            action.shape = shape;
        }
    if (ImGui::MenuItem("Add hull of selected nodes")) action = Command::add_hull_of_selection;
    if (ImGui::MenuItem("Add mesh from file...")) action = Command::show_add_mesh_collider;
    ImGui::Separator();
    if (ImGui::MenuItem("Delete selected collider", "Del")) action = Command::delete_collider;
    ImGui::EndMenu();
    return action;
}

Action simulation_menu(bool playing) {
    Action action;
    if (!ImGui::BeginMenu("Simulation")) return action;
    if (ImGui::MenuItem(playing ? "Pause" : "Play", "Space")) action = Command::play_pause;
    if (ImGui::MenuItem("Single step", ".")) action = Command::single_step;
    if (ImGui::MenuItem("Reset", "R")) action = Command::reset_simulation;
    ImGui::EndMenu();
    return action;
}

Action help_menu() {
    Action action;
    if (!ImGui::BeginMenu("Help")) return action;
    if (ImGui::MenuItem("Shortcuts", "F1")) action = Command::toggle_help;
    ImGui::EndMenu();
    return action;
}

}  // namespace

Action menu_bar(const MenuState& state, ViewOptions& view) {
    if (!ImGui::BeginMainMenuBar()) return {};
    // One menu is open at a time, so at most one of them answers.
    Action action = file_menu(state);
    if (Action a = edit_menu(state.doc)) action = std::move(a);
    if (Action a = view_menu(state.has_texture, view)) action = std::move(a);
    if (Action a = colliders_menu()) action = std::move(a);
    if (Action a = simulation_menu(state.playing)) action = std::move(a);
    if (Action a = help_menu()) action = std::move(a);
    ImGui::EndMainMenuBar();
    return action;
}

}  // namespace springkit::editor
