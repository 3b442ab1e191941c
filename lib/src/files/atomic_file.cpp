// springkit — files read whole and written atomically: a temp file beside the
// target, flushed and renamed over it, and the clean-up of temp files a killed
// save left behind.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "springkit/error.hpp"
#include "springkit/io.hpp"

namespace springkit {

std::string read_file(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw Error(path.string() + ": is a directory, not a model file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path.string() + ": cannot open for reading (" + std::strerror(errno) + ")");
    // One read into a string of the file's size (big models: no stream copies).
    std::string bytes;
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    in.seekg(0, std::ios::beg);
    if (size > 0) {
        bytes.resize(static_cast<std::size_t>(size));
        in.read(bytes.data(), size);
        if (in.gcount() != size) throw Error(path.string() + ": read failed");
    }
    std::ostringstream rest;  // anything past the size seen (a file still growing, a pipe)
    rest << in.rdbuf();
    if (in.bad()) throw Error(path.string() + ": read failed");
    bytes += std::move(rest).str();
    return bytes;
}

namespace {

constexpr std::string_view kTempPrefix = ".springkit-tmp-";

// A save killed between creating its temp file and the rename leaves the temp file
// behind (".springkit-tmp-<pid>-<random>-<counter>-<name>"). The next save of the
// same file removes those whose process is gone; a live process may still be saving.
void remove_stale_temp_files(const std::filesystem::path& dir, const std::string& name) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string file = it->path().filename().string();
        const std::string suffix = "-" + name;
        if (file.size() <= kTempPrefix.size() + suffix.size() || file.rfind(kTempPrefix, 0) != 0 ||
            file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const std::string middle =
            file.substr(kTempPrefix.size(), file.size() - kTempPrefix.size() - suffix.size());
        const auto dash = middle.find('-');
        if (dash == std::string::npos || dash == 0 ||
            middle.find_first_not_of("0123456789-") != std::string::npos ||
            std::count(middle.begin(), middle.end(), '-') != 2)
            continue;
        const long pid = std::strtol(middle.substr(0, dash).c_str(), nullptr, 10);
        if (pid <= 0 || pid == ::getpid()) continue;
        if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) std::filesystem::remove(it->path(), ec);
    }
}

}  // namespace

PendingFile::PendingFile(const std::filesystem::path& path, std::string_view bytes)
    : PendingFile(path, std::span<const std::string_view>(&bytes, 1)) {}

PendingFile::PendingFile(const std::filesystem::path& requested, std::span<const std::string_view> parts)
    : target_(requested.string()), path_(requested) {
    const std::string& target = target_;
    std::error_code ec;
    if (std::filesystem::is_directory(requested, ec))
        throw Error(target + ": is a directory; give a file name to save to");
    // Saving through a symbolic link replaces the file it points to, not the link.
    if (std::filesystem::is_symlink(requested, ec)) {
        path_ = std::filesystem::weakly_canonical(requested, ec);
        if (ec) throw Error(target + ": cannot resolve the link (" + ec.message() + ")");
    }
    const std::filesystem::path& path = path_;
    // The temp file sits beside the target so that rename() stays on one file system.
    static std::atomic<unsigned> counter{0};
    std::random_device random;
    const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
    const std::filesystem::path temp =
        dir / (std::string(kTempPrefix) + std::to_string(::getpid()) + "-" + std::to_string(random()) + "-" +
               std::to_string(counter++) + "-" + path.filename().string());
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) throw Error(target + ": cannot write (" + std::strerror(errno) + ")");
    // The new file keeps the permissions of the one it replaces (a private file stays private).
    struct stat old_file {};
    if (::stat(path.c_str(), &old_file) == 0) ::fchmod(fd, old_file.st_mode & 07777);
    auto fail = [&](const char* what) {
        const std::string reason = std::strerror(errno);
        ::close(fd);
        ::unlink(temp.c_str());
        throw Error(target + ": " + what + " (" + reason + "); the old file is untouched");
    };
    for (const std::string_view bytes : parts) {
        std::size_t written = 0;
        while (written < bytes.size()) {
            const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
            if (n < 0) {
                if (errno == EINTR) continue;
                fail("write failed");
            }
            written += static_cast<std::size_t>(n);
        }
    }
    if (::fsync(fd) != 0) fail("flush to disk failed");
    if (::close(fd) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(temp.c_str());
        throw Error(target + ": close failed (" + reason + "); the old file is untouched");
    }
    temp_ = temp;
}

PendingFile::PendingFile(PendingFile&& other) noexcept
    : target_(std::move(other.target_)), path_(std::move(other.path_)), temp_(std::move(other.temp_)) {
    other.temp_.clear();
}

PendingFile::~PendingFile() {
    if (!temp_.empty()) ::unlink(temp_.c_str());
}

void PendingFile::commit() {
    if (temp_.empty()) throw Error(target_ + ": nothing to save (already saved)");
    const std::filesystem::path temp = std::move(temp_);
    temp_.clear();
    if (::rename(temp.c_str(), path_.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(temp.c_str());
        throw Error(target_ + ": cannot replace the file (" + reason + "); the old file is untouched");
    }
    // Make the rename itself durable.
    const std::filesystem::path dir = path_.has_parent_path() ? path_.parent_path() : ".";
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    remove_stale_temp_files(dir, path_.filename().string());
}

void write_file_atomically(const std::filesystem::path& requested, std::string_view bytes) {
    PendingFile(requested, bytes).commit();
}

}  // namespace springkit
