// springkit-editor — "Save changes before closing?": the decision logic behind the
// question a person gets when quitting or opening another file with unsaved edits.
// Plain C++, so tests check that no path loses work without asking.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "editing/document.hpp"

namespace springkit::editor {

/// Something the person asked for that closes the current document.
struct CloseRequest {
    enum class Kind { quit, open, new_model };
    Kind kind = Kind::quit;
    std::filesystem::path path;  ///< the file to open (Kind::open)
    std::string builder;         ///< the scene to build (Kind::new_model), e.g. "cloth" or "sample/flag"
    friend bool operator==(const CloseRequest&, const CloseRequest&) = default;
};

/// The person's answer to "Save changes to X before closing?".
enum class CloseAnswer { save, discard, cancel };

class UnsavedChangesGuard {
public:
    /// Returns the request when it may go ahead now (the document is clean);
    /// otherwise keeps it pending, and the UI asks the question.
    std::optional<CloseRequest> request(const Document& doc, CloseRequest request);

    /// The request waiting for an answer, if any.
    const std::optional<CloseRequest>& pending() const { return pending_; }

    /// The answer. discard: returns the request to carry out. cancel: forgets it.
    /// save: returns nothing; the UI saves (or runs Save As for an untitled
    /// document) and then calls saved().
    std::optional<CloseRequest> answer(CloseAnswer answer);

    /// After the UI tried to save for the pending request: returns the request when
    /// the document is clean now; when saving failed or Save As was cancelled it
    /// forgets the request and returns nothing, so nothing is lost.
    std::optional<CloseRequest> saved(const Document& doc);

private:
    std::optional<CloseRequest> pending_;
};

}  // namespace springkit::editor
