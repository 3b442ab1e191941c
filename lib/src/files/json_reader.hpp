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

/// A JSON number as the float it holds: empty and `out` set, or why it is not
/// one ("expected a number, found null (NaN and infinity are not allowed)",
/// "number 1e+39 is too large for a 32-bit float"). JSON writers write NaN and
/// infinity as null, so null is refused rather than taken as a default.
std::string float_from_json(const nlohmann::json& v, float& out);

}  // namespace springkit::detail
