// springkit-editor — what a panel, menu or dialog asks the editor to do. Panels
// edit the document through its own methods; everything that needs the rest of
// the editor (files, the selection, the simulation's clock, quitting) comes back
// as an Action that EditorApp carries out.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "springkit/colliders.hpp"

namespace springkit::editor {

enum class Command : std::uint8_t {
    none,
    new_model,        ///< Action::builder: a scene name (its template) or "sample/NAME" (editing/scene_menu.hpp)
    open,             ///< Action::path: a file to open (a recent one)
    show_open,        ///< the file dialog, to open
    show_save_as,     ///< the file dialog, to save
    save,
    quit,
    undo,
    redo,
    add_spring,       ///< between the last two selected nodes
    delete_springs,   ///< the selected springs
    toggle_anchors,   ///< of the selected nodes
    anchor_selection,
    free_selection,
    select_all,
    select_none,
    next_node,
    previous_node,
    frame_model,      ///< point the camera at the selected nodes, or else all the model has swept
    play_pause,
    single_step,
    reset_simulation,
    toggle_help,      ///< the shortcuts window (F1)
    toggle_mesh_view, ///< between the surface (mesh) view and the spring view (V)
    show_open_scene,  ///< the file dialog, to open a scene file (colliders)
    save_scene,       ///< the colliders to the scene file (or the one beside the model)
    show_save_scene_as,
    add_collider,             ///< Action::shape, sized and placed under the model (default_collider)
    add_hull_of_selection,    ///< a convex hull collider around the selected nodes
    show_add_mesh_collider,   ///< the file dialog, for a mesh to collide with
    delete_collider,          ///< the selected collider
};

struct Action {
    Command command = Command::none;
    std::string builder;          ///< Command::new_model
    std::filesystem::path path;   ///< Command::open
    ColliderShape shape = ColliderShape::sphere;  ///< Command::add_collider

    Action() = default;
    Action(Command c) : command(c) {}  // implicit: a panel returns a bare Command
    explicit operator bool() const { return command != Command::none; }
};

}  // namespace springkit::editor
