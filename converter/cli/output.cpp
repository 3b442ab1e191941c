#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <string_view>

#include "cli.hpp"
#include "springkit/error.hpp"

namespace springkit::cli {

namespace {

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
