// springkit-editor — the questions: save changes before closing, recover an
// autosave, and the error box. Each returns the person's answer; EditorApp acts
// on it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "editing/unsaved_changes.hpp"

namespace springkit::editor {

/// "Save changes to `name` before closing it?", opened while `asking`. Returns
/// the answer in the frame it is given.
std::optional<CloseAnswer> unsaved_changes_dialog(bool asking, const std::string& name);

enum class RecoveryAnswer { recover, delete_autosave, not_now };

/// "Recover unsaved changes?" about `autosave` (an autosave newer than the file:
/// the last session did not end cleanly), open while there is one. Enter
/// recovers, like its first button.
std::optional<RecoveryAnswer> recovery_dialog(const std::optional<std::filesystem::path>& autosave,
                                              const std::string& name);

/// The error box: opens when `show` is set (and clears it), shows `message`.
void error_dialog(bool& show, const std::string& message);

}  // namespace springkit::editor
