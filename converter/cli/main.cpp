// springkit — the command-line tool. One subcommand per verb:
// convert, new, info, simulate, golden, check, diff, and help.
#include <exception>
#include <iostream>
#include <vector>

#include "cli.hpp"
#include "springkit/error.hpp"

int main(int argc, char** argv) {
    using namespace springkit::cli;
    CLI::App app{"springkit: data-driven mass-spring soft bodies"};
    app.require_subcommand(1);
    // Inherited by the verbs: -q/-v after the verb reach the options below.
    app.fallthrough();
#ifdef SPRINGKIT_NATIVE_BUILD
    constexpr bool native = true;
#else
    constexpr bool native = false;
#endif
    app.set_version_flag("--version", version_text(SPRINGKIT_VERSION, SPRINGKIT_BUILD_TYPE, native, importer_version()),
                         "Print the version, the build (portable or native, Release or Debug) and the importer's");
    bool quiet = false, verbose = false;
    CLI::Option* quiet_flag = app.add_flag("-q,--quiet", quiet, "Print errors only: no summaries, warnings or progress");
    app.add_flag("-v,--verbose", verbose, "Print more: the choices convert made, each sample check compared")
        ->excludes(quiet_flag);

    static constexpr VerbRegistration verbs[] = {register_convert, register_new, register_info, register_simulate,
                                                 register_golden, register_check, register_diff};
    std::vector<std::pair<CLI::App*, VerbRun>> runs;
    for (VerbRegistration add : verbs) {
        const std::size_t before = app.get_subcommands({}).size();
        VerbRun run = add(app);
        runs.emplace_back(app.get_subcommands({})[before], std::move(run));
    }
    auto help_verb = std::make_shared<std::string>();
    add_help_verb(app, help_verb);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::string what = e.what();
        // CLI11 calls an unknown verb "extra arguments"; name it as what it is.
        if (app.get_subcommands().empty() && argc > 1 && argv[1][0] != '-')
            what = std::string("unknown verb '") + argv[1] + "'";
        print_error(what + " (see springkit --help)");
        return kExitUsage;
    }

    set_verbosity(quiet ? Verbosity::quiet : verbose ? Verbosity::verbose : Verbosity::normal);
    if (app.got_subcommand("help")) return run_help_verb(app, *help_verb);
    try {
        for (auto& [sub, run] : runs)
            if (sub->parsed()) return run();
    } catch (const springkit::Error& e) {
        print_error(e.what());
        return kExitFailure;
    } catch (const std::bad_alloc&) {
        print_error("out of memory");
        return kExitFailure;
    } catch (const std::exception& e) {
        print_error(e.what());
        return kExitFailure;
    }
    return kExitUsage;
}
