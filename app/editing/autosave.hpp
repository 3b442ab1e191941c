// springkit-editor — autosave and crash recovery. While a document has unsaved
// edits (to the model or to its colliders), a copy is written every `interval`
// seconds beside its file: the model as ".NAME.autosave" and the colliders as a
// scene file ".NAME.scene.autosave" (Vim's swap-file idea; an untitled document
// autosaves to the state folder). Saving or closing cleanly deletes both; finding
// a model autosave newer than the file on opening means the last session crashed,
// and the editor offers both back.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "editing/document.hpp"

namespace springkit::editor {

/// $XDG_STATE_HOME/springkit, or ~/.local/state/springkit (recent files, untitled autosave).
std::filesystem::path default_state_dir();

/// Where the autosave of a document with file `document_path` goes (empty path:
/// an untitled document, in `state_dir`).
std::filesystem::path autosave_path(const std::filesystem::path& document_path,
                                    const std::filesystem::path& state_dir);

/// The colliders that go with the model autosave `autosave` (the path
/// autosave_path gives): ".NAME.autosave" -> ".NAME.scene.autosave".
std::filesystem::path scene_autosave_path(const std::filesystem::path& autosave);

/// Deletes the autosave of the document with file `document_path`, and its scene.
void remove_autosave(const std::filesystem::path& document_path, const std::filesystem::path& state_dir);

/// What an autosave holds: the model, and the colliders when the scene autosave
/// is there (an autosave written before the colliders were autosaved has none).
struct Recovered {
    Model model;
    std::optional<std::vector<Collider>> colliders;
};
/// Reads the model autosave `autosave` and its scene. Throws springkit::Error
/// naming the file that cannot be read.
Recovered load_autosave(const std::filesystem::path& autosave);

/// The autosave to offer when opening `document_path`: one exists and it is newer
/// than the file (or the file is gone).
std::optional<std::filesystem::path> find_recovery(const std::filesystem::path& document_path,
                                                   const std::filesystem::path& state_dir);

class Autosaver {
public:
    explicit Autosaver(std::filesystem::path state_dir, double interval_seconds = 30.0)
        : state_dir_(std::move(state_dir)), interval_(interval_seconds) {}

    /// Call every frame with the current time in seconds. Writes the colliders, then
    /// the model (each atomically; the model last, so a model autosave always has
    /// its scene beside it) when the document is dirty (model or scene), has
    /// changed since the last autosave, and the interval has passed since that
    /// change was first seen. Returns true when it wrote.
    /// A failure to write is kept in last_error() and retried at the next interval.
    bool tick(const Document& doc, double now);

    /// Deletes the autosave of the document (after saving, or closing it on purpose).
    void discard(const Document& doc);

    const std::string& last_error() const { return last_error_; }
    const std::filesystem::path& state_dir() const { return state_dir_; }

private:
    std::filesystem::path state_dir_;
    double interval_;
    /// Document::revision and scene_revision last written
    std::optional<std::pair<std::uint64_t, std::uint64_t>> written_revision_;
    std::filesystem::path written_path_;  ///< where it was written
    std::optional<double> pending_since_;  ///< when an unwritten change was first seen
    double last_attempt_ = -1e300;
    std::string last_error_;
};

}  // namespace springkit::editor
