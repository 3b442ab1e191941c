// springkit — the JSON reader's fast path for well-formed model files.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <vector>

namespace springkit::detail {

// The big numeric arrays of a model file, parsed straight into typed vectors by
// parse_fast (absent: the array was not in the file, or the DOM holds it).
struct BigArrays {
    std::optional<std::vector<float>> positions, masses, rest, k, texcoords;
    std::optional<std::vector<std::uint32_t>> pairs, faces;
    std::optional<std::vector<std::uint8_t>> kind, role;
};

/// A direct parser for well-formed model files: the big arrays go straight to
/// `big` with std::from_chars (no DOM node per number), everything else into a
/// small nlohmann DOM in `root`. It accepts only plain valid JSON whose big
/// arrays hold what the reader accepts (numbers; node indices as integers in
/// range; kinds 0 or 1, roles 0 to kMaxSpringRole) and gives up on anything else (returns false): the
/// caller then parses with nlohmann, whose messages name the problem. So both
/// paths read the same model from the same text, and only valid files take the
/// fast one.
bool parse_fast(std::string_view text, nlohmann::json& root, BigArrays& big);

}  // namespace springkit::detail
