// springkit — the JSON reader's entry points inside the library: for the binary
// form, whose header is the model's JSON without its big arrays, and the parser
// other JSON files (scene files) share.
#pragma once

#include <string>
#include <string_view>
#include <nlohmann/json.hpp>

#include "springkit/model.hpp"

namespace springkit::detail {

/// model_from_json, with validation optional: the binary reader parses its
/// JSON header (a model without the big arrays) and validates the whole model
/// once the arrays are read.
Model model_from_json(std::string_view text, const std::string& name, bool validate_model);

/// Any JSON text springkit reads, parsed by nlohmann/json with each decimal
/// read straight to float (so the shortest text to_chars writes for a float
/// comes back exact). Throws springkit::Error naming `name`, the line and
/// column and the problem, in one printable line.
nlohmann::json parse_json(std::string_view text, const std::string& name);

}  // namespace springkit::detail
