// Test support: the editor as a process (editor_process.hpp).
#include "editor_process.hpp"

#include <gtest/gtest.h>
#include <stb_image.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <sstream>

#include "support/run_command.hpp"

namespace springkit::test::editor {

namespace fs = std::filesystem;

// The child keeps no descriptor of ours but stdin, stdout and stderr: xvfb-run's
// X server can outlive a failed run, and it must not hold a landing script's lock
// file. xvfb-run itself sometimes fails around the command: another run on the
// machine wins the race for the display number ("Xvfb failed to start"), or its
// clean-up cannot remove its temporary folder (exit 5) and hides the editor's
// exit code. Those are retried, never counted as the editor's result.
namespace {

// Starts `command` (shell-quoted) under xvfb-run in a child, its state folder in
// `dir`, stdout and stderr to dir's stdout.txt and stderr.txt; the display
// number differs per process and attempt.
pid_t start_under_xvfb(const std::string& command, const fs::path& dir, int attempt) {
    std::ostringstream cmd;
    // Leak checking (in sanitizer builds) would report Mesa's and X's allocations.
    cmd << "ASAN_OPTIONS=detect_leaks=0 XDG_STATE_HOME='" << (dir / "state").string() << "' xvfb-run -a -n "
        << 100 + (::getpid() * 7 + attempt * 131) % 900 << " -s '-screen 0 1024x768x24' " << command << " >'"
        << (dir / "stdout.txt").string() << "' 2>'" << (dir / "stderr.txt").string() << "'";
    const std::string line = cmd.str();
    const pid_t child = ::fork();
    if (child == 0) {
        for (int fd = 3; fd < 4096; ++fd) ::close(fd);
        ::execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    return child;
}

}  // namespace

EditorRun run_editor(const std::string& arguments, const fs::path& dir) {
    const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
    EditorRun run{-1, {}, {}};
    for (int attempt = 0; attempt < 5; ++attempt) {
        const pid_t child = start_under_xvfb("'" + std::string(SPRINGKIT_EDITOR) + "' " + arguments, dir, attempt);
        int status = -1;
        ::waitpid(child, &status, 0);
        run = {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
        if (run.err.find("xvfb-run: error:") == std::string::npos) break;
    }
    return run;
}

bool run_editor_until_killed(const std::string& arguments, const fs::path& dir, const fs::path& until,
                             double seconds) {
    const fs::path err = dir / "stderr.txt", pid_file = dir / "editor.pid";
    for (int attempt = 0; attempt < 5; ++attempt) {
        std::error_code ec;
        fs::remove(pid_file, ec);
        // A shell inside xvfb-run writes its pid and becomes the editor, so the
        // pid killed is the editor's; xvfb-run then sees it die and stops Xvfb.
        const fs::path launcher = dir / "launch.sh";
        std::ofstream(launcher) << "echo $$ >'" << pid_file.string() << "'\nexec '" << SPRINGKIT_EDITOR
                                << "' \"$@\"\n";
        const pid_t child = start_under_xvfb("sh '" + launcher.string() + "' " + arguments, dir, attempt);
        bool appeared = false, ended = false;
        for (int waited = 0; waited < static_cast<int>(seconds * 20.0); ++waited) {
            if (fs::exists(until, ec)) {
                appeared = true;
                break;
            }
            if (::waitpid(child, nullptr, WNOHANG) == child) {  // it ended on its own
                ended = true;
                break;
            }
            ::usleep(50000);
        }
        if (appeared || !ended) {  // killed in time, or else when the time is up
            pid_t editor = 0;
            std::ifstream(pid_file) >> editor;
            if (editor > 0) ::kill(editor, SIGKILL);
        }
        if (!ended) ::waitpid(child, nullptr, 0);
        if (appeared) return true;
        if (slurp(err).find("xvfb-run: error:") == std::string::npos) break;
    }
    ADD_FAILURE() << until << " never appeared; the editor said: " << slurp(err);
    return false;
}

Image load_png(const fs::path& path) {
    Image image;
    int channels = 0;
    unsigned char* data = stbi_load(path.string().c_str(), &image.width, &image.height, &channels, 3);
    if (!data) {
        ADD_FAILURE() << "cannot read " << path << ": " << stbi_failure_reason();
        return image;
    }
    image.rgb.assign(data, data + static_cast<std::size_t>(image.width) * image.height * 3);
    stbi_image_free(data);
    return image;
}

double coverage(const Image& image) {
    std::size_t covered = 0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) covered += image.background(x, y) ? 0 : 1;
    return static_cast<double>(covered) / (static_cast<double>(image.width) * image.height);
}

}  // namespace springkit::test::editor
