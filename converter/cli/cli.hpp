// springkit CLI — shared pieces of the verbs.
//
// Contract (tests/cli check it): exit 0 on success, 1 on failure (bad input, a
// failed check), 2 on a usage error; errors are one line on stderr starting with
// "error:" and naming the file and the problem.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "springkit/parameters.hpp"
#include "springkit/printable.hpp"
#include "springkit/scene_file.hpp"

namespace springkit::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

/// A verb registers its options on `app` and returns the function that runs it
/// after parsing. The function returns the exit code or throws springkit::Error.
using VerbRun = std::function<int()>;
using VerbRegistration = VerbRun (*)(CLI::App& app);

VerbRun register_new(CLI::App& app);
VerbRun register_info(CLI::App& app);
VerbRun register_simulate(CLI::App& app);
VerbRun register_convert(CLI::App& app);
VerbRun register_golden(CLI::App& app);
VerbRun register_check(CLI::App& app);
VerbRun register_diff(CLI::App& app);

/// One option per row of the parameter table that has a cli_option, setting
/// that row in `overrides`: help text from the row (doc, unit, range, plus a
/// note from `notes` by cli_option), values read and range-checked by
/// parse_parameter (a bad value is a usage error).
/// `words` are values an option takes besides its row's ("--ground" "bottom"):
/// given, they call their function instead of setting the row.
struct OptionWord {
    std::string_view option, word;
    std::function<void()> given;
};
void add_parameter_options(CLI::App& sub, const std::shared_ptr<ParameterOverrides>& overrides,
                           std::initializer_list<std::pair<std::string_view, std::string_view>> notes = {},
                           std::vector<OptionWord> words = {});

/// Applies `overrides` to `params`; a ground constant without a ground is
/// printed as a usage error and gives false.
bool apply_parameter_options(const ParameterOverrides& overrides, Parameters& params);

/// Longest message or output line the CLI prints, in bytes (before the "... (N
/// bytes more)" note): a name or an importer's message can be megabytes long.
inline constexpr std::size_t kMaxLineBytes = kMaxPrintableBytes;

/// Names, messages and file bytes the CLI prints go through springkit::printable.
using springkit::printable;

/// Prints printable(line) and a newline on stdout: every stdout line that holds a
/// name from a file or the command line goes through here.
void print_line(const std::string& line);
/// Prints "error: <message>" as one printable line on stderr, without the JSON
/// library's exception tags.
void print_error(const std::string& message);
/// Prints "warning: <message>" the same way.
void print_warning(const std::string& message);
/// True when stderr is a terminal: progress is shown only then.
bool stderr_is_terminal();

/// -q/--quiet and -v/--verbose, given before or after the verb.
enum class Verbosity { quiet, normal, verbose };
void set_verbosity(Verbosity v);
Verbosity verbosity();
/// Says that a verb writes its data to stdout (`-o -`): notes then go to stderr.
void set_stdout_holds_data();
/// A line that reports what a verb did (convert's and new's summaries, golden's
/// and check's result): on stdout, on stderr when stdout holds data, not at all
/// with -q. Data a verb was asked for (info, diff) goes through print_line.
void print_note(const std::string& line);
/// A note printed only with -v.
void print_detail(const std::string& line);

/// `--version`: "springkit 0.1.0 (native build, Release; Assimp 5.2.5)".
std::string version_text(std::string_view version, std::string_view build_type, bool native,
                         std::string_view importer);
/// "Assimp 5.2.5", or "no mesh importer" in a build without it
/// (verb_convert.cpp / verb_convert_unavailable.cpp).
std::string importer_version();
/// What `simulate --scene` reads a scene's mesh files with: springkit::import
/// in a child process, or nothing in a build without it (load_scene then refuses
/// such a scene naming the file).
SceneMeshLoader scene_mesh_files();
/// The whole of `text` as a finite number, or nothing (CLI11 reads "inf" and
/// "nan" as numbers).
std::optional<double> finite_number(const std::string& text);
/// A number option's check: a finite number above `low` (at or above it when
/// `or_equal`), refused with "must be a finite number > 0, not 'x'" (CLI11's
/// PositiveNumber and NonNegativeNumber name DBL_MAX in full as the range's end).
CLI::Validator finite_number_above(double low, bool or_equal);

/// The names a model file may be written to (every verb that writes one checks
/// its -o here, before any work): a name ending in a model form's extension,
/// ".json" or ".skb" (save_model picks the form by it); "-" where the verb
/// writes standard output (`dash_is_stdout`, as JSON); or anything that exists
/// and is no regular file (a device or pipe such as /dev/null is written
/// through, a folder is refused by the save). Else prints the usage error
/// naming `option` and the accepted extensions and gives false.
bool model_output_ok(std::string_view option, const std::string& path, bool dash_is_stdout = true);
/// The same check for convert's --extension ("skb" or ".skb").
bool model_extension_ok(std::string_view option, const std::string& extension);

/// Metres per unit for convert's --units: mm, cm, m, km, in, ft, or a positive
/// number; 0 for anything else.
double units_in_metres(const std::string& text);

/// `springkit help [VERB]`: registered by main, run with the verb it parsed.
void add_help_verb(CLI::App& app, const std::shared_ptr<std::string>& verb);
int run_help_verb(CLI::App& app, const std::string& verb);

}  // namespace springkit::cli
