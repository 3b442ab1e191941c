// springkit CLI — the conventions every verb shares, as assimp's command line,
// gltfpack and gltf-transform keep them: -q/-v, --version naming the build,
// `springkit help VERB`, and `-o -` for standard output.
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli.hpp"
#include "springkit/io.hpp"

namespace springkit::cli {

namespace {

Verbosity g_verbosity = Verbosity::normal;
bool g_stdout_holds_data = false;

}  // namespace

void set_verbosity(Verbosity v) { g_verbosity = v; }
Verbosity verbosity() { return g_verbosity; }

void set_stdout_holds_data() { g_stdout_holds_data = true; }

void print_note(const std::string& line) {
    if (g_verbosity == Verbosity::quiet) return;
    // With `-o -` stdout carries the model: notes must not end up inside it.
    (g_stdout_holds_data ? std::cerr : std::cout) << printable(line) << std::endl;
}

void print_detail(const std::string& line) {
    if (g_verbosity == Verbosity::verbose) print_note(line);
}

std::string version_text(std::string_view version, std::string_view build_type, bool native,
                         std::string_view importer) {
    std::string text = "springkit " + std::string(version) + " (" + (native ? "native" : "portable") + " build";
    if (!build_type.empty()) text += ", " + std::string(build_type);
    return text + "; " + std::string(importer) + ")";
}

std::optional<double> finite_number(const std::string& text) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

CLI::Validator finite_number_above(double low, bool or_equal) {
    char bound[64];
    std::snprintf(bound, sizeof bound, "%s %g", or_equal ? ">=" : ">", low);
    const std::string what = bound;
    return CLI::Validator(
        [low, or_equal, what](std::string& text) {
            const std::optional<double> v = finite_number(text);
            if (v && (or_equal ? *v >= low : *v > low)) return std::string();
            return "must be a finite number " + what + ", not '" + text + "'";
        },
        "NUMBER " + what);
}

namespace {

// "OPTION VALUE: ..." naming what was given and what is accepted, when the
// extension is no model form's.
bool extension_ok(std::string_view option, const std::string& value, const std::string& extension) {
    const std::string problem = model_extension_problem(extension);
    if (problem.empty()) return true;
    print_error(std::string(option) + " " + value + ": " + problem);
    return false;
}

}  // namespace

bool model_output_ok(std::string_view option, const std::string& path, bool dash_is_stdout) {
    if (path == "-" && dash_is_stdout) return true;
    if (path == "-") {
        print_error(std::string(option) + " -: this verb writes no model to standard output; give a file name ending "
                    "in .json or .skb");
        return false;
    }
    const std::filesystem::path name(path);
    if (model_extension_problem(name.extension().string()).empty()) return true;
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(name, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) return true;
    return extension_ok(option, path, name.extension().string());
}

bool model_extension_ok(std::string_view option, const std::string& extension) {
    const std::string dotted = !extension.empty() && extension.front() != '.' ? "." + extension : extension;
    return extension_ok(option, extension, dotted);
}

void add_help_verb(CLI::App& app, const std::shared_ptr<std::string>& verb) {
    CLI::App* sub = app.add_subcommand("help", "Show the options of a verb (springkit help convert), or list the verbs");
    sub->add_option("verb", *verb, "A verb");
}

int run_help_verb(CLI::App& app, const std::string& verb) {
    if (verb.empty()) {
        // app.help() would show the help verb's own help: it is the parsed verb.
        std::cout << app.get_formatter()->make_help(&app, "springkit", CLI::AppFormatMode::Normal);
        return kExitOk;
    }
    for (const CLI::App* sub : app.get_subcommands({}))
        if (sub->get_name() == verb && verb != "help") {
            std::cout << sub->help("springkit");
            return kExitOk;
        }
    std::string names;
    for (const CLI::App* sub : app.get_subcommands({}))
        if (sub->get_name() != "help") names += (names.empty() ? "" : ", ") + sub->get_name();
    print_error("help: unknown verb '" + verb + "' (the verbs: " + names + ")");
    return kExitUsage;
}

}  // namespace springkit::cli
