// springkit-editor — autosave and recovery.
#include "editing/autosave.hpp"

#include <cstdlib>
#include <system_error>

#include "springkit/error.hpp"
#include "springkit/io.hpp"

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
        written_path_.clear();
        written_revision_.reset();
    }
    if (!doc.model_dirty()) {  // the model alone: colliders are not autosaved
        if (!written_path_.empty()) discard(doc);  // undone back to the saved state
        pending_since_.reset();
        return false;
    }
    if (doc.revision() == written_revision_) {
        pending_since_.reset();
        return false;
    }
    if (!pending_since_) pending_since_ = now;
    if (now - *pending_since_ < interval_ || now - last_attempt_ < interval_) return false;
    last_attempt_ = now;
    try {
        if (doc.path().empty()) fs::create_directories(state_dir_);
        write_file_atomically(target, model_to_json(doc.model()));
    } catch (const std::exception& e) {
        last_error_ = std::string("autosave failed: ") + e.what();
        return false;
    }
    last_error_.clear();
    written_path_ = target;
    written_revision_ = doc.revision();
    pending_since_.reset();
    return true;
}

void Autosaver::discard(const Document& doc) {
    std::error_code ec;
    fs::remove(autosave_path(doc.path(), state_dir_), ec);
    if (!written_path_.empty()) fs::remove(written_path_, ec);
    written_path_.clear();
    written_revision_.reset();
    pending_since_.reset();
}

}  // namespace springkit::editor
