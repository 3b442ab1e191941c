#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <string_view>

#include "cli.hpp"
#include "springkit/error.hpp"

namespace springkit::cli {

namespace {

/// Bytes of one valid UTF-8 sequence at `text[i]`, or 0 when the bytes there are
/// not one (stray continuation bytes, overlong forms, surrogates, beyond U+10FFFF).
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

/// Drops the tags nlohmann puts in front of its messages ("[json.exception.type_error.302] "):
/// they name the library's internals, not anything in the user's file.
std::string without_library_tags(std::string text) {
    static constexpr std::string_view kTag = "[json.exception.";
    for (std::size_t at = text.find(kTag); at != std::string::npos; at = text.find(kTag, at)) {
        const std::size_t end = text.find(']', at);
        if (end == std::string::npos) break;
        text.erase(at, end + 1 - at + (end + 1 < text.size() && text[end + 1] == ' ' ? 1 : 0));
    }
    return text;
}

std::string trimmed(std::string_view text) {
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
    return std::string(text);
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

void print_line(const std::string& line) { std::cout << printable(line) << std::endl; }

void print_error(const std::string& message) {
    std::cerr << "error: " << printable(trimmed(without_library_tags(message))) << std::endl;
}
void print_warning(const std::string& message) {
    if (verbosity() == Verbosity::quiet) return;
    std::cerr << "warning: " << printable(trimmed(without_library_tags(message))) << std::endl;
}
void add_parameter_options(CLI::App& sub, const std::shared_ptr<ParameterOverrides>& overrides,
                           std::initializer_list<std::pair<std::string_view, std::string_view>> notes,
                           std::vector<OptionWord> words) {
    auto shared_words = std::make_shared<std::vector<OptionWord>>(std::move(words));
    for (const ParameterInfo& row : parameter_table()) {
        if (row.cli_option.empty()) continue;
        std::string help(row.doc);
        help += " (";
        if (!row.unit.empty()) help += std::string(row.unit) + ", ";
        help += row.type == ParameterType::integrator ? std::string("a name") : row.range_text();
        help += ")";
        for (const auto& [option, note] : notes)
            if (option == row.cli_option) help += "; " + std::string(note);
        const char* type_name = row.type == ParameterType::vector    ? "X,Y,Z"
                                : row.type == ParameterType::count   ? "INT"
                                : row.type == ParameterType::integrator ? "NAME"
                                : row.section == ParameterSection::ground && row.key == "height" ? "HEIGHT"
                                                                                                 : "FLOAT";
        const ParameterInfo* r = &row;
        // A word of this option ("bottom") instead of a value.
        auto word = [shared_words, r](const std::string& text) -> const OptionWord* {
            for (const OptionWord& w : *shared_words)
                if (w.option == r->cli_option && w.word == text) return &w;
            return nullptr;
        };
        sub.add_option_function<std::string>(
               std::string(row.cli_option),
               [overrides, r, word](const std::string& text) {
                   if (const OptionWord* w = word(text)) return w->given();
                   ParameterValue value;
                   parse_parameter(*r, text, value);  // checked by the validator below
                   overrides->set(*r, value);
               },
               help)
            ->type_name(type_name)
            ->check(CLI::Validator(
                [r, word](std::string& text) {
                    if (word(text)) return std::string();
                    ParameterValue value;
                    return parse_parameter(*r, text, value);
                },
                ""));
    }
}

bool apply_parameter_options(const ParameterOverrides& overrides, Parameters& params) {
    try {
        overrides.apply(params);
        return true;
    } catch (const Error& e) {
        print_error(e.what());
        return false;
    }
}

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

}  // namespace springkit::cli
