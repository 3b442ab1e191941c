// springkit-editor — a small file dialog in ImGui (Debian has no file-dialog
// library for Dear ImGui): a path field, the folder's entries to browse, and the
// recent files. std::filesystem does the work.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace springkit::editor {

class FileDialog {
public:
    enum class Mode { open, save };

    /// Opens the dialog at `start` (a file or a folder). `extensions` (".json", ...)
    /// filter the listing; `recent` is shown above it in open mode.
    void show(Mode mode, const std::filesystem::path& start, std::vector<std::string> extensions,
              std::vector<std::filesystem::path> recent = {});

    /// Draws the dialog while it is open. Returns the chosen path once, when the
    /// person confirms (in save mode after agreeing to replace an existing file).
    std::optional<std::filesystem::path> draw();
    /// True once after the dialog was closed without a choice.
    bool take_cancelled();
    bool is_open() const { return open_; }
    Mode mode() const { return mode_; }

private:
    void list_folder();
    bool accepted(const std::filesystem::path& p) const;

    Mode mode_ = Mode::open;
    bool open_ = false;
    bool just_opened_ = false;
    bool cancelled_ = false;
    bool confirm_replace_ = false;
    std::filesystem::path folder_;
    std::string path_text_;
    std::vector<std::string> extensions_;
    std::vector<std::filesystem::path> recent_;
    struct Entry {
        std::filesystem::path path;
        bool folder;
    };
    std::vector<Entry> entries_;
    std::string listing_error_;
};

}  // namespace springkit::editor
