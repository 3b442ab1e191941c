// springkit — the JSON writer's entry points inside the library: the text
// save_model writes (model_file.cpp) and the binary form's JSON header.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>

#include "springkit/model.hpp"

namespace springkit::detail {

/// A model's JSON text, unvalidated, in one or two pieces: a big model's text is
/// written on two threads and saved without joining the pieces.
class JsonText {
public:
    JsonText(const Model& model, bool with_arrays);
    JsonText(JsonText&& other) noexcept;
    ~JsonText();
    /// The text is parts()[0] followed by parts()[1].
    std::array<std::string_view, 2> parts() const;

private:
    struct Pieces;
    std::unique_ptr<Pieces> pieces_;
};

/// model_to_json without validation; with_arrays = false writes the big arrays
/// (positions, masses, springs, faces, texcoords) empty: the binary header.
std::string model_to_json(const Model& model, bool with_arrays);

}  // namespace springkit::detail
