// Test support: run a command line, capture exit code, stdout and stderr.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace springkit::test {

struct CommandResult {
    int exit_code = -1;   ///< the process's exit status; 128 + signal if it was killed
    std::string out;
    std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Runs `command` through /bin/sh with stdin from /dev/null.
inline CommandResult run_command(const std::string& command) {
    static int counter = 0;
    const auto base = std::filesystem::temp_directory_path() /
                      ("springkit-cmd-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    const std::string out = base.string() + ".out", err = base.string() + ".err";
    const int status = std::system((command + " </dev/null >" + out + " 2>" + err).c_str());
    CommandResult r;
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) r.exit_code = 128 + WTERMSIG(status);
    r.out = slurp(out);
    r.err = slurp(err);
    std::filesystem::remove(out);
    std::filesystem::remove(err);
    return r;
}

/// Number of lines in `text` (a last line without newline counts).
inline int line_count(const std::string& text) {
    int n = 0;
    for (char c : text) n += c == '\n';
    return n + (!text.empty() && text.back() != '\n');
}

}  // namespace springkit::test
