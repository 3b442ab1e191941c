// springkit — printable(): quoting file bytes in one line of a message.
#include "springkit/printable.hpp"

#include <algorithm>

namespace springkit {

namespace {

/// Bytes of one well-formed UTF-8 sequence at `text[i]` (the Unicode Standard,
/// table 3-7 "Well-Formed UTF-8 Byte Sequences"), or 0 when the bytes there are
/// not one.
std::size_t utf8_length(std::string_view text, std::size_t i) {
    const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = at(i);
    std::size_t n = 0;
    unsigned char low = 0x80, high = 0xbf;  // the second byte's range
    if (lead >= 0xc2 && lead <= 0xdf) n = 2;
    else if (lead == 0xe0) n = 3, low = 0xa0;
    else if (lead == 0xed) n = 3, high = 0x9f;
    else if (lead >= 0xe1 && lead <= 0xef) n = 3;
    else if (lead == 0xf0) n = 4, low = 0x90;
    else if (lead == 0xf4) n = 4, high = 0x8f;
    else if (lead >= 0xf1 && lead <= 0xf3) n = 4;
    else return 0;
    if (i + n > text.size() || at(i + 1) < low || at(i + 1) > high) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (at(i + k) < 0x80 || at(i + k) > 0xbf) return 0;
    // U+0080..U+009F are C1 controls: some terminals act on them (U+009B starts a sequence).
    if (n == 2 && lead == 0xc2 && at(i + 1) <= 0x9f) return 0;
    return n;
}

void hex_escape(std::string& out, unsigned char byte) {
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
}

}  // namespace

std::string printable(std::string_view text, std::size_t limit) {
    std::string out;
    out.reserve(std::min(text.size(), limit) + 32);
    std::size_t i = 0;
    while (i < text.size()) {
        const auto byte = static_cast<unsigned char>(text[i]);
        std::string piece;
        std::size_t used = 1;
        if (byte == '\n') piece = "\\n";
        else if (byte == '\r') piece = "\\r";
        else if (byte == '\t') piece = "\\t";
        else if (byte < 0x20 || byte == 0x7f) hex_escape(piece, byte);
        else if (byte < 0x80) piece = static_cast<char>(byte);
        else if ((used = utf8_length(text, i)) > 0) piece.assign(text.substr(i, used));
        else used = 1, hex_escape(piece, byte);
        if (out.size() + piece.size() > limit) break;
        out += piece;
        i += used;
    }
    if (i < text.size()) out += "... (" + std::to_string(text.size() - i) + " bytes more)";
    return out;
}

std::string counted(std::size_t count, std::string_view noun, std::string_view plural) {
    std::string text = std::to_string(count) + " ";
    if (count == 1) return text.append(noun);
    if (!plural.empty()) return text.append(plural);
    return text.append(noun).append("s");
}

}  // namespace springkit
