// Saving onto targets that are not plain files (docs/RELIABILITY.md, "Save
// targets"): devices and FIFOs are written through, directories, sockets and
// read-only files are refused, symbolic links are followed, hard links are split,
// names up to NAME_MAX bytes save. check_writable gives the same verdicts
// without writing.
#include <gtest/gtest.h>
#include <limits.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>

#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
using springkit::test::error_of;
using springkit::test::TempDir;
namespace fs = std::filesystem;

namespace {

int temp_files_in(const fs::path& dir) {
    int count = 0;
    for (const auto& entry : fs::directory_iterator(dir))
        count += entry.path().filename().string().rfind(".springkit-tmp-", 0) == 0;
    return count;
}

bool is_character_device(const char* path) {
    struct stat st {};
    return ::lstat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

}  // namespace

TEST(SaveTargets, CharacterDeviceIsWrittenThroughNotReplaced) {
    ASSERT_TRUE(is_character_device("/dev/null"));
    check_writable("/dev/null");
    save_model(make_string({.nodes = 3}), "/dev/null");
    write_file_atomically("/dev/null", "text");
    PendingFile pending("/dev/null", "text");
    pending.commit();
    EXPECT_TRUE(is_character_device("/dev/null"));
    EXPECT_EQ(temp_files_in("/dev"), 0);
}

TEST(SaveTargets, FifoIsWrittenThroughToItsReader) {
    TempDir dir;
    const fs::path fifo = dir.path() / "pipe.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
    check_writable(fifo);  // must not open it: that would wait for a reader
    const Model model = make_string({.nodes = 3});
    auto reader = std::async(std::launch::async, [&] { return read_file(fifo); });
    save_model(model, fifo);
    EXPECT_EQ(reader.get(), model_to_json(model));
    struct stat st {};
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    EXPECT_EQ(temp_files_in(dir.path()), 0);
}

TEST(SaveTargets, LinkTheKernelResolvesIsWrittenThrough) {
    // /dev/stdout is such a link: /proc/self/fd/1, whose text ("pipe:[...]") is no path.
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const fs::path path = "/proc/self/fd/" + std::to_string(fds[1]);
    check_writable(path);
    save_model(make_string({.nodes = 3}), path);  // small: fits in the pipe's buffer
    ::close(fds[1]);
    std::string text;
    char buffer[4096];
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
    ::close(fds[0]);
    EXPECT_EQ(text, model_to_json(make_string({.nodes = 3})));
}

TEST(SaveTargets, PendingFileWritesToADeviceOnlyWhenCommitted) {
    TempDir dir;
    const fs::path fifo = dir.path() / "pipe.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
    { PendingFile abandoned(fifo, "invalid"); }  // opening the FIFO would block: nothing is opened
    auto reader = std::async(std::launch::async, [&] { return read_file(fifo); });
    PendingFile(fifo, "valid").commit();
    EXPECT_EQ(reader.get(), "valid");
}

TEST(SaveTargets, DirectoryIsRefused) {
    TempDir dir;
    const std::string message = dir.path().string() + ": is a directory; give a file name to save to";
    EXPECT_EQ(error_of([&] { save_model(make_string(), dir.path()); }), message);
    EXPECT_EQ(error_of([&] { check_writable(dir.path()); }), message);
    EXPECT_TRUE(fs::is_directory(dir.path()));
}

TEST(SaveTargets, SocketIsRefused) {
    TempDir dir;
    const fs::path path = dir.path() / "socket.json";
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    ASSERT_LT(path.string().size(), sizeof address.sun_path);
    std::strcpy(address.sun_path, path.c_str());
    ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
    const std::string message = path.string() + ": is a socket, not a file; give a file name to save to";
    EXPECT_EQ(error_of([&] { save_model(make_string(), path); }), message);
    EXPECT_EQ(error_of([&] { check_writable(path); }), message);
    EXPECT_TRUE(fs::is_socket(path));
    ::close(fd);
}

TEST(SaveTargets, DanglingSymbolicLinkGetsItsTargetCreated) {
    TempDir dir;
    fs::create_directories(dir.path() / "real");
    const fs::path link = dir.path() / "link.json", target = dir.path() / "real" / "model.json";
    fs::create_symlink("real/model.json", link);  // relative to the link's folder
    check_writable(link);
    save_model(make_string({.nodes = 3}), link);
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(load_model(target).node_count(), 3u);
    // A chain of links: the last one's target is written.
    const fs::path chain = dir.path() / "chain.json";
    fs::create_symlink("link.json", chain);
    save_model(make_string({.nodes = 4}), chain);
    EXPECT_TRUE(fs::is_symlink(chain));
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(load_model(target).node_count(), 4u);
    EXPECT_EQ(temp_files_in(dir.path() / "real"), 0);
}

TEST(SaveTargets, SymbolicLinkLoopIsAClearError) {
    TempDir dir;
    const fs::path a = dir.path() / "a.json", b = dir.path() / "b.json";
    fs::create_symlink("b.json", a);
    fs::create_symlink("a.json", b);
    const std::string message = a.string() + ": cannot write (Too many levels of symbolic links)";
    EXPECT_EQ(error_of([&] { save_model(make_string(), a); }), message);
    EXPECT_EQ(error_of([&] { check_writable(a); }), message);
}

TEST(SaveTargets, NamesOfUpToNameMaxBytesSave) {
    TempDir dir;
    for (const std::size_t length : {std::size_t{220}, std::size_t{250}, std::size_t{NAME_MAX}}) {
        const fs::path file = dir.path() / (std::string(length - 5, 'm') + ".json");
        ASSERT_EQ(file.filename().string().size(), length);
        check_writable(file);
        save_model(make_string({.nodes = 3}), file);
        save_model(make_string({.nodes = 4}), file);
        EXPECT_EQ(load_model(file).node_count(), 4u);
    }
    EXPECT_EQ(temp_files_in(dir.path()), 0);
}

TEST(SaveTargets, StaleTempFileOfALongNameIsRemoved) {
    TempDir dir;
    const std::string name = std::string(245, 'm') + ".json";  // 250 bytes
    const pid_t gone = ::fork();
    if (gone == 0) ::_exit(0);
    ::waitpid(gone, nullptr, 0);
    // What a killed save of that name leaves: the temp name shortened to NAME_MAX
    // bytes by dropping the start of the file name.
    std::string stale = ".springkit-tmp-" + std::to_string(gone) + "-1-0-";
    stale += name.substr(name.size() - (NAME_MAX - stale.size()));
    ASSERT_EQ(stale.size(), std::size_t{NAME_MAX});
    std::ofstream(dir.path() / stale) << "partial";
    save_model(make_string(), dir.path() / name);
    EXPECT_EQ(temp_files_in(dir.path()), 0);
}

TEST(SaveTargets, ReadOnlyFileIsRefusedAndKept) {
    TempDir dir;
    const fs::path file = dir.path() / "model.json";
    save_model(make_string({.nodes = 3}), file);
    ASSERT_EQ(::chmod(file.c_str(), 0444), 0);
    const std::string message = file.string() + ": is read-only; not replaced (make it writable to save over it)";
    // Root may write anything; the refusal rests on the mode bits, not on EACCES.
    EXPECT_EQ(error_of([&] { save_model(make_string({.nodes = 4}), file); }), message);
    EXPECT_EQ(error_of([&] { check_writable(file); }), message);
    EXPECT_EQ(load_model(file).node_count(), 3u);
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    EXPECT_EQ(temp_files_in(dir.path()), 0);
    // Through a link too.
    const fs::path link = dir.path() / "link.json";
    fs::create_symlink("model.json", link);
    EXPECT_EQ(error_of([&] { save_model(make_string({.nodes = 4}), link); }),
              link.string() + ": is read-only; not replaced (make it writable to save over it)");
}

TEST(SaveTargets, FileTheUserMayNotWriteIsReadOnlyForThem) {
    if (::geteuid() != 0) GTEST_SKIP() << "needs root, to save as another user";
    TempDir dir;
    const fs::path file = dir.path() / "model.json";
    save_model(make_string({.nodes = 3}), file);  // root's, mode 0644
    fs::permissions(dir.path(), fs::perms::all);  // anyone may create files beside it
    // As nobody: the folder would allow replacing it, the file's mode does not.
    const pid_t child = ::fork();
    if (child == 0) {
        if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(3);
        const std::string expected = file.string() + ": is read-only; not replaced (make it writable to save over it)";
        const bool refused = error_of([&] { save_model(make_string({.nodes = 4}), file); }) == expected &&
                             error_of([&] { check_writable(file); }) == expected;
        ::_exit(refused ? 0 : 1);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
    EXPECT_EQ(load_model(file).node_count(), 3u);
}

TEST(SaveTargets, HardLinkIsSplit) {
    TempDir dir;
    const fs::path file = dir.path() / "model.json", other = dir.path() / "other-name.json";
    save_model(make_string({.nodes = 3}), file);
    fs::create_hard_link(file, other);
    ASSERT_EQ(fs::hard_link_count(file), 2u);
    save_model(make_string({.nodes = 4}), file);
    EXPECT_EQ(load_model(file).node_count(), 4u);
    EXPECT_EQ(load_model(other).node_count(), 3u);  // the other name keeps the old model
    EXPECT_EQ(fs::hard_link_count(file), 1u);
    EXPECT_EQ(fs::hard_link_count(other), 1u);
}

TEST(SaveTargets, CheckWritableRefusesWhatSavingRefuses) {
    TempDir dir;
    const fs::path missing = dir.path() / "no-such-folder" / "model.json";
    EXPECT_EQ(error_of([&] { check_writable(missing); }),
              missing.string() + ": cannot write (No such file or directory)");
    const fs::path plain = dir.path() / "plain.txt";
    std::ofstream(plain) << "x";
    EXPECT_EQ(error_of([&] { check_writable(plain / "model.json"); }),
              (plain / "model.json").string() + ": cannot write (Not a directory)");
    // A new file and an existing writable one pass, and nothing is created.
    const fs::path fresh = dir.path() / "model.json";
    check_writable(fresh);
    EXPECT_FALSE(fs::exists(fresh));
    std::ofstream(fresh) << "old";
    check_writable(fresh);
    EXPECT_EQ(read_file(fresh), "old");
    EXPECT_EQ(temp_files_in(dir.path()), 0);
}

TEST(SaveTargets, DevNullIsStillACharacterDevice) {
    // Runs last in this file: no test above may have replaced /dev/null.
    EXPECT_TRUE(is_character_device("/dev/null"));
}
