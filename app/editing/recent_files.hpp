// springkit-editor — the recent-files list (File > Open Recent), newest first,
// kept in the state folder as one path per line.
#pragma once

#include <filesystem>
#include <vector>

namespace springkit::editor {

class RecentFiles {
public:
    static constexpr std::size_t kMax = 10;

    /// Reads the list; a missing or unreadable file gives an empty list.
    static RecentFiles load(const std::filesystem::path& file);
    /// Writes the list atomically; returns false when that failed (not worth an error).
    bool save(const std::filesystem::path& file) const;

    /// Puts `path` (made absolute) first, dropping an older entry of it and the oldest
    /// beyond kMax.
    void add(const std::filesystem::path& path);
    void remove(const std::filesystem::path& path);
    const std::vector<std::filesystem::path>& paths() const { return paths_; }

private:
    std::vector<std::filesystem::path> paths_;
};

}  // namespace springkit::editor
