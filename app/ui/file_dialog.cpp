// springkit-editor — the file dialog.
#include "ui/file_dialog.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <system_error>
#include <utility>

namespace springkit::editor {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

constexpr const char* kPopup = "File##springkit-file-dialog";

}  // namespace

void FileDialog::show(Mode mode, const fs::path& start, std::vector<std::string> extensions,
                      std::vector<fs::path> recent) {
    mode_ = mode;
    open_ = true;
    just_opened_ = true;
    cancelled_ = false;
    confirm_replace_ = false;
    extensions_ = std::move(extensions);
    recent_ = std::move(recent);
    std::error_code ec;
    fs::path begin = start.empty() ? fs::current_path(ec) : fs::absolute(start, ec);
    if (fs::is_directory(begin, ec)) {
        folder_ = begin;
        path_text_ = (begin / "").string();
    } else {
        folder_ = begin.parent_path();
        path_text_ = begin.string();
    }
    list_folder();
}

bool FileDialog::accepted(const fs::path& p) const {
    if (extensions_.empty()) return true;
    const std::string ext = lower(p.extension().string());
    return std::find(extensions_.begin(), extensions_.end(), ext) != extensions_.end();
}

void FileDialog::list_folder() {
    entries_.clear();
    listing_error_.clear();
    std::error_code ec;
    for (fs::directory_iterator it(folder_, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
        const fs::path& p = it->path();
        if (p.filename().string().starts_with(".")) continue;  // hidden files, autosaves
        std::error_code type_ec;
        const bool folder = it->is_directory(type_ec);
        if (folder || accepted(p)) entries_.push_back({p, folder});
    }
    if (ec) listing_error_ = folder_.string() + ": " + ec.message();
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
        if (a.folder != b.folder) return a.folder;
        return a.path.filename() < b.path.filename();
    });
}

bool FileDialog::take_cancelled() { return std::exchange(cancelled_, false); }

std::optional<fs::path> FileDialog::draw() {
    if (!open_) return std::nullopt;
    if (just_opened_) {
        ImGui::OpenPopup(kPopup);
        just_opened_ = false;
    }
    std::optional<fs::path> chosen;
    ImGui::SetNextWindowSize(ImVec2(640, 460), ImGuiCond_Appearing);
    bool keep = true;
    if (!ImGui::BeginPopupModal(kPopup, &keep)) {
        if (open_) {
            open_ = false;
            cancelled_ = true;
        }
        return std::nullopt;
    }
    ImGui::TextUnformatted(mode_ == Mode::open ? "Open" : "Save As");
    ImGui::SameLine();
    ImGui::TextDisabled("%s", folder_.string().c_str());

    auto finish = [&](const fs::path& p) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            folder_ = p;
            path_text_ = (p / "").string();
            list_folder();
            return;
        }
        fs::path target = p;
        if (mode_ == Mode::save && target.extension().empty()) target += ".json";
        if (mode_ == Mode::save && fs::exists(target, ec) && !confirm_replace_) {
            confirm_replace_ = true;
            path_text_ = target.string();
            return;
        }
        chosen = target;
    };

    ImGui::SetNextItemWidth(-90);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    if (ImGui::InputText("##path", &path_text_, ImGuiInputTextFlags_EnterReturnsTrue)) finish(path_text_);
    if (ImGui::IsItemEdited()) confirm_replace_ = false;
    ImGui::SameLine();
    if (ImGui::Button("Up", ImVec2(-1, 0)) && folder_.has_parent_path()) {
        folder_ = folder_.parent_path();
        list_folder();
    }

    const float footer = ImGui::GetFrameHeightWithSpacing() * (confirm_replace_ ? 2.2f : 1.2f);
    if (mode_ == Mode::open && !recent_.empty()) {
        ImGui::TextDisabled("Recent");
        ImGui::BeginChild("recent", ImVec2(0, std::min<float>(110.0f, 22.0f * static_cast<float>(recent_.size()) + 8)),
                          true);
        for (const fs::path& p : recent_) {
            if (ImGui::Selectable(p.string().c_str(), false, ImGuiSelectableFlags_AllowDoubleClick)) {
                path_text_ = p.string();
                if (ImGui::IsMouseDoubleClicked(0)) finish(p);
            }
        }
        ImGui::EndChild();
    }
    ImGui::BeginChild("entries", ImVec2(0, -footer), true);
    if (!listing_error_.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", listing_error_.c_str());
    for (const Entry& e : entries_) {
        const std::string label = e.path.filename().string() + (e.folder ? "/" : "");
        const bool selected = path_text_ == e.path.string();
        if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick)) {
            if (e.folder || ImGui::IsMouseDoubleClicked(0))
                finish(e.path);
            else
                path_text_ = e.path.string();
            confirm_replace_ = false;
        }
    }
    ImGui::EndChild();

    if (confirm_replace_) {
        ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "%s exists. Replace it?",
                           fs::path(path_text_).filename().string().c_str());
    }
    const char* ok = mode_ == Mode::open ? "Open" : (confirm_replace_ ? "Replace" : "Save");
    if (ImGui::Button(ok, ImVec2(100, 0))) finish(path_text_);
    ImGui::SameLine();
    bool cancel = ImGui::Button("Cancel", ImVec2(100, 0)) || (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)));
    if (chosen || cancel || !keep) {
        open_ = false;
        cancelled_ = !chosen;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
    return chosen;
}

}  // namespace springkit::editor
