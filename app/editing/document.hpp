// springkit-editor — the document: one Model being edited, its file, and its undo
// history. Plain C++ (no OpenGL) so tests drive it without a window.
//
// Every change of the model goes through an Edit that stores what it needs to go
// both ways exactly, so any sequence of edits followed by as many undos gives back
// the model bit for bit as it was loaded. Oliveira's tool (Figure 13) adds and
// deletes springs, adds anchors and tunes the physics; those are the edits here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "editing/paint.hpp"
#include "springkit/model.hpp"

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
/// A brush stroke (paint.hpp): masses, anchors and spring k as they were and are.
struct Paint {
    PaintValues before, after;
    PaintTarget target = PaintTarget::anchors;
};
/// The spring group list replaced (create, rename, k and damping, delete).
struct SetSpringGroups {
    std::vector<SpringGroup> before, after;
};
using Edit = std::variant<SetParameters, AddSpring, RemoveSprings, SetAnchors, SetSpringK, SetTubes, Paint,
                          SetSpringGroups>;

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

    /// True when the model differs from the saved file (undoing back to the saved
    /// state makes it clean again, as in Blender).
    bool dirty() const;
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

    /// Saves to path() atomically (temp file + rename). Throws springkit::Error; on
    /// failure the document stays dirty and the old file is untouched.
    void save();
    /// Saves to `path` atomically and makes it the document's file. A relative
    /// texture path is rewritten to stay pointing at the same image from the new
    /// folder.
    void save_as(const std::filesystem::path& path);
    /// The folder a relative texture path is relative to: the file's, or for an
    /// untitled document the suggested file's.
    std::filesystem::path folder() const;

    /// Replaces the model with one recovered from an autosave; the history starts
    /// empty and the document is dirty (the file on disk is still the old one).
    void recover(Model model);

private:
    void apply(const Edit& edit, bool forward);
    void push(Edit edit, bool continuing);

    Model model_;
    std::filesystem::path path_;
    std::filesystem::path suggested_path_;
    std::vector<Edit> history_;
    std::size_t undo_pos_ = 0;     ///< edits [0, undo_pos_) are applied
    /// undo_pos_ at the last save/load; nullopt when no history state matches the file.
    std::optional<std::size_t> saved_pos_ = 0;
    bool merge_open_ = false;
    std::uint64_t revision_ = 0;
};

}  // namespace springkit::editor
