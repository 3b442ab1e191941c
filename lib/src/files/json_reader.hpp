// springkit — the JSON reader's entry point inside the library, for the binary
// form, whose header is the model's JSON without its big arrays.
#pragma once

#include <string>
#include <string_view>

#include "springkit/model.hpp"

namespace springkit::detail {

/// model_from_json, with validation optional: the binary reader parses its
/// JSON header (a model without the big arrays) and validates the whole model
/// once the arrays are read.
Model model_from_json(std::string_view text, const std::string& name, bool validate_model);

}  // namespace springkit::detail
