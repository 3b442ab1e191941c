// springkit-editor — autosave and recovery.
#include "editing/autosave.hpp"

#include <cstdlib>
#include <string_view>
#include <system_error>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "springkit/scene_file.hpp"

namespace springkit::editor {

namespace fs = std::filesystem;

fs::path default_state_dir() {
    if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg) return fs::path(xdg) / "springkit";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".local" / "state" / "springkit";
    return fs::temp_directory_path() / "springkit";
}

fs::path autosave_path(const fs::path& document_path, const fs::path& state_dir) {
    if (document_path.empty()) return state_dir / "untitled.autosave";
    // Appended piece by piece: GCC 12 reports a false -Wrestrict for "." + name + "...".
    std::string name(".");
    name.append(document_path.filename().string());
    name.append(".autosave");
    return document_path.parent_path() / name;
}

fs::path scene_autosave_path(const fs::path& autosave) {
    std::string name = autosave.filename().string();
    constexpr std::string_view kSuffix = ".autosave";
    if (name.size() >= kSuffix.size() && name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
        name.resize(name.size() - kSuffix.size());
    name.append(".scene.autosave");
    return autosave.parent_path() / name;
}

void remove_autosave(const fs::path& document_path, const fs::path& state_dir) {
    const fs::path autosave = autosave_path(document_path, state_dir);
    std::error_code ec;
    fs::remove(autosave, ec);
    fs::remove(scene_autosave_path(autosave), ec);
}

Recovered load_autosave(const fs::path& autosave) {
    Recovered r{load_model(autosave), std::nullopt};
    const fs::path scene = scene_autosave_path(autosave);
    std::error_code ec;
    if (fs::exists(scene, ec)) {
        const ColliderSet set = load_scene(scene, scene_mesh_files());
        r.colliders.emplace();
        for (ColliderId id = 0; id < set.size(); ++id) r.colliders->push_back(set[id]);
    }
    return r;
}

std::optional<fs::path> find_recovery(const fs::path& document_path, const fs::path& state_dir) {
    const fs::path autosave = autosave_path(document_path, state_dir);
    std::error_code ec;
    if (!fs::is_regular_file(autosave, ec)) return std::nullopt;
    if (document_path.empty() || !fs::exists(document_path, ec)) return autosave;
    const auto saved = fs::last_write_time(autosave, ec);
    if (ec) return std::nullopt;
    const auto file = fs::last_write_time(document_path, ec);
    if (ec || saved > file) return autosave;
    return std::nullopt;
}

bool Autosaver::tick(const Document& doc, double now) {
    const fs::path target = autosave_path(doc.path(), state_dir_);
    if (!written_path_.empty() && written_path_ != target) {
        // The document was saved under another name: its old autosave is stale.
        std::error_code ec;
        fs::remove(written_path_, ec);
        fs::remove(scene_autosave_path(written_path_), ec);
        written_path_.clear();
        written_revision_.reset();
    }
    if (!doc.dirty()) {
        if (!written_path_.empty()) discard(doc);  // undone back to the saved state
        pending_since_.reset();
        return false;
    }
    const std::pair<std::uint64_t, std::uint64_t> revision{doc.revision(), doc.scene_revision()};
    if (revision == written_revision_) {
        pending_since_.reset();
        return false;
    }
    if (!pending_since_) pending_since_ = now;
    if (now - *pending_since_ < interval_ || now - last_attempt_ < interval_) return false;
    last_attempt_ = now;
    try {
        if (doc.path().empty()) fs::create_directories(state_dir_);
        // The scene first: whoever finds the model autosave finds its colliders too.
        save_scene(doc.collider_set(), scene_autosave_path(target));
        write_file_atomically(target, model_to_json(doc.model()));
    } catch (const std::exception& e) {
        last_error_ = std::string("autosave failed: ") + e.what();
        return false;
    }
    last_error_.clear();
    written_path_ = target;
    written_revision_ = revision;
    pending_since_.reset();
    return true;
}

void Autosaver::discard(const Document& doc) {
    remove_autosave(doc.path(), state_dir_);
    std::error_code ec;
    if (!written_path_.empty()) {
        fs::remove(written_path_, ec);
        fs::remove(scene_autosave_path(written_path_), ec);
    }
    written_path_.clear();
    written_revision_.reset();
    pending_since_.reset();
}

}  // namespace springkit::editor
