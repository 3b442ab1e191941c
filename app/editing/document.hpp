// springkit-editor — the document: one Model being edited, its file, and its undo
// history. Plain C++ (no OpenGL) so tests drive it without a window.
//
// Every change of the model, and of the colliders of its scene, goes through an
// Edit that stores what it needs to go both ways exactly, so any sequence of edits
// followed by as many undos gives back the model and the colliders bit for bit as
// they were loaded. Oliveira's tool (Figure 13) adds and
// deletes springs, adds anchors and tunes the physics; those are the edits here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "springkit/colliders.hpp"
#include "editing/paint.hpp"
#include "springkit/model.hpp"
#include "springkit/scene_file.hpp"

namespace springkit::editor {

/// New physics parameters for the whole model.
struct SetParameters {
    Parameters before, after;
};
/// A spring appended at the end of Model::springs.
struct AddSpring {
    Spring spring;
};
/// Springs taken out; `indices` ascending, `springs` the removed values in that order.
/// The spring groups lose them and renumber the rest; `groups` is what they were.
struct RemoveSprings {
    std::vector<std::uint32_t> indices;
    std::vector<Spring> springs;
    std::vector<SpringGroup> groups;
};
/// The anchor list replaced (anchoring and un-anchoring nodes, in bulk or one by one).
struct SetAnchors {
    std::vector<Anchor> before, after;
};
/// Own stiffness of some springs set to one value (0 = use Parameters::k).
struct SetSpringK {
    std::vector<std::uint32_t> indices;
    std::vector<float> before;
    float after = 0.0f;
};
/// The tube list replaced (how ropes are drawn: Catmull-Rom subdivisions, radius, sides).
struct SetTubes {
    std::vector<Tube> before, after;
};
/// Own mass of some nodes set to one value (Model::masses; it is filled with
/// Parameters::mass first when empty, and `before` keeps the list as it was).
struct SetMasses {
    std::vector<float> before, after;
};
/// The scene's colliders replaced (added, moved, resized, retuned, deleted,
/// or a scene file opened): the scene, not the model, changes. `what` names it
/// for the Edit menu ("add collider", "move collider", ...).
struct SetColliders {
    std::vector<Collider> before, after;
    const char* what = "collider change";
};
/// A brush stroke (paint.hpp): masses, anchors and spring k as they were and are.
struct Paint {
    PaintValues before, after;
    PaintTarget target = PaintTarget::anchors;
};
/// The spring group list replaced (create, rename, k and damping, delete).
struct SetSpringGroups {
    std::vector<SpringGroup> before, after;
};
using Edit = std::variant<SetParameters, AddSpring, RemoveSprings, SetAnchors, SetSpringK, SetTubes, SetMasses,
                          SetColliders, Paint, SetSpringGroups>;

/// True for the edits that change the scene (the colliders) rather than the model.
bool is_scene_edit(const Edit& edit);

/// Two colliders are the same: shape, name, dimensions, points, mesh (the same
/// one), pose and surface, bit for bit.
bool same_collider(const Collider& a, const Collider& b);

/// What the editor reads the mesh files a scene names with: springkit::import
/// in a child process (scene_mesh_loader), or nothing in an editor built
/// without the converter (such a scene is then refused with a clear error).
SceneMeshLoader scene_mesh_files();

/// The scene file that goes with a model file: <stem>.scene.json beside it
/// (cloth.json -> cloth.scene.json). The editor opens it with the model when it
/// exists and no --scene was given, and saves the colliders there by default.
std::filesystem::path companion_scene_path(const std::filesystem::path& model_path);

/// Short human name of an edit, for "Undo add spring" menu entries.
const char* edit_name(const Edit& edit);

class Document {
public:
    /// An empty, untitled document.
    Document() = default;
    /// An untitled document holding `model` (built or imported); it counts as unsaved
    /// when `unsaved` is true (an imported mesh has not been saved as a model yet).
    Document(Model model, std::filesystem::path suggested_path, bool unsaved);

    /// Loads a model file. Throws springkit::Error naming the file and the problem;
    /// nothing is created, so a file that fails to load is never saved over.
    static Document open(const std::filesystem::path& path);

    const Model& model() const { return model_; }
    /// The file this document saves to; empty while untitled.
    const std::filesystem::path& path() const { return path_; }
    /// Where Save As starts for an untitled document (e.g. the mesh name + .json).
    const std::filesystem::path& suggested_path() const { return suggested_path_; }
    /// The name to show in a title bar: file name, or "untitled".
    std::string display_name() const;

    /// True when the model or the scene differs from its saved file (undoing back
    /// to the saved state makes it clean again, as in Blender).
    bool dirty() const { return model_dirty() || scene_dirty(); }
    /// The model alone differs from its file.
    bool model_dirty() const;
    /// The colliders differ from the scene file (or there are colliders and no
    /// scene file yet).
    bool scene_dirty() const;
    /// Grows by one on every change of the model (edit, undo, redo, open). A viewer
    /// rebuilds its simulation when this changes.
    std::uint64_t revision() const { return revision_; }

    // Edits. Each returns false, and records nothing, when it would change nothing
    // or make the model invalid.

    /// Adds a Hooke spring a-b at the nodes' rest distance (no duplicates, not a == b,
    /// not between coincident nodes).
    bool add_spring(std::uint32_t a, std::uint32_t b);
    /// Removes the given springs (any order, duplicates ignored).
    bool remove_springs(std::span<const std::uint32_t> springs);
    /// Anchors (fixed) or un-anchors the given nodes; nodes already in that state stay.
    bool set_anchored(std::span<const std::uint32_t> nodes, bool anchored);
    /// Flips one node between anchored and free.
    bool toggle_anchor(std::uint32_t node);
    /// Sets the physics parameters. With `continuing`, a change that follows another
    /// continuing parameter change merges into it (one undo entry per slider drag)
    /// until seal() is called.
    bool set_parameters(const Parameters& params, bool continuing = false);
    /// Sets the own k of the given springs (0 = model k); merges like set_parameters.
    bool set_spring_k(std::span<const std::uint32_t> springs, float k, bool continuing = false);
    /// Sets how ropes are drawn (Model::tubes: the Source engine's subdivision
    /// count, radius, sides); refused (false) when invalid or unchanged. Merges
    /// like set_parameters.
    bool set_tubes(std::vector<Tube> tubes, bool continuing = false);
    /// Sets the own mass (kg, > 0) of the given nodes; merges like set_parameters.
    bool set_node_mass(std::span<const std::uint32_t> nodes, float mass, bool continuing = false);

    // The scene: colliders the model meets, kept in a scene file of their own
    // (springkit/scene_file.hpp), edited and undone in the same history as the model.

    const std::vector<Collider>& colliders() const { return colliders_; }
    /// The colliders as a set for Simulation::set_colliders().
    ColliderSet collider_set() const;
    /// Grows by one on every change of the colliders.
    std::uint64_t scene_revision() const { return scene_revision_; }
    /// Appends a collider; refused (false) when check_collider() refuses it.
    bool add_collider(Collider collider);
    /// Replaces collider `index` (moved, resized, renamed, retuned); refused when
    /// invalid or unchanged. `what` names the edit. Merges like set_parameters
    /// when the same collider changes the same way.
    bool set_collider(std::size_t index, Collider collider, bool continuing = false,
                      const char* what = "collider change");
    bool remove_collider(std::size_t index);
    /// The scene file the colliders save to; empty while there is none.
    const std::filesystem::path& scene_path() const { return scene_path_; }
    /// Where the colliders save when no scene file was chosen: the scene file
    /// beside the model (companion_scene_path), or next to the suggested file.
    std::filesystem::path suggested_scene_path() const;
    /// Loads a scene file and makes its colliders the document's (one undo
    /// entry "open scene") and the file the scene's. Throws springkit::Error
    /// (load_scene's message); nothing changes then.
    void open_scene(const std::filesystem::path& path);
    /// Saves the colliders to `path` atomically (save_scene) and makes it the
    /// scene's file. Throws springkit::Error; nothing changes then.
    void save_scene_as(const std::filesystem::path& path);

    /// Sets what a brush stroke paints (paint.hpp): the masses, anchors and spring
    /// k of `values`. Refused (false) when unchanged or invalid. With `continuing`,
    /// the dabs of one stroke merge into one undo entry until seal().
    bool paint(const PaintValues& values, PaintTarget target, bool continuing = false);
    /// Replaces the spring groups (names, stiffness scales, damping, members);
    /// refused (false) when unchanged or invalid. Merges like set_parameters.
    bool set_spring_groups(std::vector<SpringGroup> groups, bool continuing = false);
    /// Ends a continuing edit: the next change starts a new undo entry.
    void seal() { merge_open_ = false; }

    bool can_undo() const { return undo_pos_ > 0; }
    bool can_redo() const { return undo_pos_ < history_.size(); }
    /// Names of what undo/redo would do; nullptr when there is nothing.
    const char* undo_name() const;
    const char* redo_name() const;
    bool undo();
    bool redo();
    std::size_t history_size() const { return history_.size(); }

    /// Saves the model to path() atomically (temp file + rename), and the colliders
    /// when they changed, to scene_path() or else suggested_scene_path(). Throws
    /// springkit::Error; on failure the document stays dirty and the old file is
    /// untouched.
    void save();
    /// Saves to `path` atomically and makes it the document's file. A relative
    /// texture path is rewritten to stay pointing at the same image from the new
    /// folder. The colliders are saved as save() saves them, but a scene that was
    /// beside the model (or had no file yet) goes beside the new file
    /// (companion_scene_path), so the model and its scene keep together.
    void save_as(const std::filesystem::path& path);
    /// The folder a relative texture path is relative to: the file's, or for an
    /// untitled document the suggested file's.
    std::filesystem::path folder() const;

    /// Replaces the model with one recovered from an autosave, and the colliders
    /// with the autosave's when it has them; the history starts empty and the
    /// document is dirty (the file on disk is still the old one). The scene counts
    /// as changed when the recovered colliders differ from the document's.
    void recover(Model model, std::optional<std::vector<Collider>> colliders = std::nullopt);

private:
    void apply(const Edit& edit, bool forward);
    void push(Edit edit, bool continuing);

    /// Whether some edit of the kind `scene` lies between history positions
    /// `saved` and undo_pos_ (either way round): the file then differs.
    bool differs_from(const std::optional<std::size_t>& saved, bool scene) const;
    void save_scene_if_changed();

    Model model_;
    std::filesystem::path path_;
    std::filesystem::path suggested_path_;

    std::vector<Edit> history_;
    std::size_t undo_pos_ = 0;     ///< edits [0, undo_pos_) are applied
    /// undo_pos_ at the last save/load of the model; nullopt when no history state
    /// matches the file.
    std::optional<std::size_t> saved_pos_ = 0;
    /// The same for the scene file.
    std::optional<std::size_t> scene_saved_pos_ = 0;
    bool merge_open_ = false;
    std::uint64_t revision_ = 0;
    std::vector<Collider> colliders_;
    std::filesystem::path scene_path_;
    std::uint64_t scene_revision_ = 0;
};

}  // namespace springkit::editor
