// springkit-editor — the unsaved-changes decision.
#include "editing/unsaved_changes.hpp"

#include <utility>

namespace springkit::editor {

std::optional<CloseRequest> UnsavedChangesGuard::request(const Document& doc, CloseRequest request) {
    if (!doc.dirty()) {
        pending_.reset();
        return request;
    }
    pending_ = std::move(request);
    return std::nullopt;
}

std::optional<CloseRequest> UnsavedChangesGuard::answer(CloseAnswer answer) {
    switch (answer) {
        case CloseAnswer::discard: {
            auto request = std::exchange(pending_, std::nullopt);
            return request;
        }
        case CloseAnswer::cancel:
            pending_.reset();
            return std::nullopt;
        case CloseAnswer::save:
            break;
    }
    return std::nullopt;  // still pending until saved()
}

std::optional<CloseRequest> UnsavedChangesGuard::saved(const Document& doc) {
    auto request = std::exchange(pending_, std::nullopt);
    if (doc.dirty()) return std::nullopt;
    return request;
}

}  // namespace springkit::editor
