// springkit — the command-line tool. One subcommand per verb:
// convert, new, info, simulate, golden, check, diff.
#include <exception>
#include <iostream>
#include <vector>

#include "cli.hpp"
#include "springkit/error.hpp"

int main(int argc, char** argv) {
    using namespace springkit::cli;
    CLI::App app{"springkit: data-driven mass-spring soft bodies"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "springkit 0.1.0");

    static constexpr VerbRegistration verbs[] = {register_convert, register_new, register_info, register_simulate,
                                                 register_golden, register_check, register_diff};
    std::vector<std::pair<CLI::App*, VerbRun>> runs;
    for (VerbRegistration add : verbs) {
        const std::size_t before = app.get_subcommands({}).size();
        VerbRun run = add(app);
        runs.emplace_back(app.get_subcommands({})[before], std::move(run));
    }

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
