// The isolated importer's child does not outlive `springkit convert` nor its own
// deadline, and what it prints on stderr when it dies shows in the error
// (converter/import/src/import_isolated.cpp). The hanging import is a FIFO nobody
// writes to: the child blocks opening it, as on a file Assimp hangs on.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "import_internal.hpp"
#include "support/run_command.hpp"
#include "support/test_files.hpp"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

const std::string kCli = SPRINGKIT_CLI;

fs::path work_dir() { return springkit::test::scratch_dir("import-lifetime"); }

/// Starts `springkit convert FILE -o OUT --timeout SECONDS` with stderr into `err`.
pid_t start_convert(const fs::path& file, const std::string& timeout, const fs::path& err) {
    const fs::path out = work_dir() / "out.json";
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int null = ::open("/dev/null", O_RDWR);
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::dup2(null, STDIN_FILENO);
        ::dup2(null, STDOUT_FILENO);
        ::dup2(e, STDERR_FILENO);
        ::execl(kCli.c_str(), kCli.c_str(), "convert", file.c_str(), "-o", out.c_str(), "--timeout", timeout.c_str(),
                static_cast<char*>(nullptr));
        ::_exit(127);
    }
    return pid;
}

/// State letter and parent of `pid` from /proc/PID/stat; '?' when there is no such process.
std::pair<char, pid_t> stat_of(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto paren = text.rfind(')');
    if (paren == std::string::npos) return {'?', 0};
    std::istringstream rest(text.substr(paren + 1));
    char state = '?';
    pid_t ppid = 0;
    rest >> state >> ppid;
    return {state, ppid};
}

/// Running (not gone, not a zombie waiting to be reaped).
bool alive(pid_t pid) {
    const char state = stat_of(pid).first;
    return state != '?' && state != 'Z' && state != 'X';
}

/// The first child process of `parent`, waiting up to 5 s for it to appear.
pid_t child_of(pid_t parent) {
    const auto give_up = Clock::now() + std::chrono::seconds(5);
    while (Clock::now() < give_up) {
        for (const auto& entry : fs::directory_iterator("/proc")) {
            const std::string name = entry.path().filename().string();
            if (name.find_first_not_of("0123456789") != std::string::npos) continue;
            const pid_t pid = std::stoi(name);
            if (stat_of(pid).second == parent) return pid;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
}

/// Seconds until `pid` is no longer alive, at most `limit`.
double seconds_until_gone(pid_t pid, double limit) {
    const auto start = Clock::now();
    for (;;) {
        const double t = std::chrono::duration<double>(Clock::now() - start).count();
        if (!alive(pid) || t > limit) return t;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

fs::path fifo(const std::string& name) {
    const fs::path p = work_dir() / name;
    fs::remove(p);
    EXPECT_EQ(::mkfifo(p.c_str(), 0600), 0);
    return p;
}

}  // namespace

TEST(ImportLifetime, KilledConvertTakesItsImporterAlong) {
    const fs::path hang = fifo("hang-kill.obj");
    const pid_t convert = start_convert(hang, "60", work_dir() / "kill.err");
    const pid_t importer = child_of(convert);
    ASSERT_GT(importer, 0) << "the importer child did not start";
    ASSERT_TRUE(alive(importer));
    ::kill(convert, SIGKILL);
    int status = 0;
    ::waitpid(convert, &status, 0);
    const double gone = seconds_until_gone(importer, 5.0);
    EXPECT_LT(gone, 2.0) << "the importer outlived convert";
    if (alive(importer)) ::kill(importer, SIGKILL);
    fs::remove(hang);
}

TEST(ImportLifetime, ImporterOfAStoppedConvertDiesAtItsOwnDeadline) {
    const fs::path hang = fifo("hang-stop.obj");
    const fs::path err = work_dir() / "stop.err";
    const pid_t convert = start_convert(hang, "1", err);
    const pid_t importer = child_of(convert);
    ASSERT_GT(importer, 0) << "the importer child did not start";
    ::kill(convert, SIGSTOP);  // convert cannot enforce its 1 s timeout now
    const double gone = seconds_until_gone(importer, 6.0);
    EXPECT_LT(gone, 4.0) << "the importer ran past its own deadline (timeout + 1 s)";
    ::kill(convert, SIGCONT);
    int status = 0;
    ::waitpid(convert, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 1);
    const std::string message = springkit::test::slurp(err);
    EXPECT_EQ(message, "error: " + hang.string() + ": import timed out after 1 s (the file is probably corrupt)\n");
    if (alive(importer)) ::kill(importer, SIGKILL);
    fs::remove(hang);
}

TEST(ImportLifetime, StderrExcerptNamesTheSanitizerReport) {
    using springkit::detail::stderr_excerpt;
    const std::string asan =
        "=================================================================\n"
        "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000014\n"
        "READ of size 4 at 0x602000000014 thread T0\n"
        "    #0 0x7f in Assimp::MDLImporter::InternReadFile\n";
    EXPECT_EQ(stderr_excerpt(asan, asan.size()),
              "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000014 | "
              "READ of size 4 at 0x602000000014 thread T0");
    const std::string ubsan = "noise\nsrc/x.cpp:3:5: runtime error: signed integer overflow\n";
    EXPECT_EQ(stderr_excerpt(ubsan, ubsan.size()), "src/x.cpp:3:5: runtime error: signed integer overflow");
    EXPECT_EQ(stderr_excerpt("terminate called\x1b[2J\n", 30), "terminate called\\x1b[2J ...")
        << "escaped; more was printed than kept";
    EXPECT_EQ(stderr_excerpt("", 0), "");
    EXPECT_EQ(stderr_excerpt("=====\n\n", 7), "");
    EXPECT_EQ(stderr_excerpt(std::string(5000, 'x'), 5000).size(), 300u + 4);
}
