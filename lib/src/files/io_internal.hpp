// springkit — what the JSON and binary model files share inside the library.
#pragma once

#include <string>
#include <string_view>

#include "springkit/model.hpp"

namespace springkit::detail {

/// model_from_json, with validation optional: the binary reader parses its
/// JSON header (a model without the big arrays) and validates the whole model
/// once the arrays are read.
Model model_from_json(std::string_view text, const std::string& name, bool validate_model);

/// model_to_json without validation; with_arrays = false writes the big arrays
/// (positions, masses, springs, faces, texcoords) empty: the binary header.
std::string model_to_json(const Model& model, bool with_arrays);

}  // namespace springkit::detail
