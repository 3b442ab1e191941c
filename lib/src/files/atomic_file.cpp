// springkit — files read whole and written atomically: a temp file beside the
// target, flushed and renamed over it, and the clean-up of temp files a killed
// save left behind; what a save does with a target that is not a plain file.
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <sstream>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "files/file_bytes.hpp"

namespace springkit {

std::string read_file(const std::filesystem::path& path, const std::function<void(std::string_view)>& check_start) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw Error(path.string() + ": is a directory, not a model file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path.string() + ": cannot open for reading (" + std::strerror(errno) + ")");
    std::string bytes;
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    in.seekg(0, std::ios::beg);
    // The start first: a file that is not what the caller reads (a 3 GB file of
    // zeros named model.json) is refused before the rest is read.
    if (check_start) {
        bytes.resize(kReadFileStart);
        in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        bytes.resize(static_cast<std::size_t>(in.gcount()));
        if (in.bad()) throw Error(path.string() + ": read failed");
        check_start(bytes);
        in.clear(in.rdstate() & ~std::ios::failbit & ~std::ios::eofbit);
    }
    // Then one read into a string of the file's size (big models: no stream copies).
    const std::size_t start = bytes.size();
    if (size > static_cast<std::streamoff>(start)) {
        bytes.resize(static_cast<std::size_t>(size));
        in.read(bytes.data() + start, static_cast<std::streamsize>(size - static_cast<std::streamoff>(start)));
        if (in.gcount() != size - static_cast<std::streamoff>(start)) throw Error(path.string() + ": read failed");
    }
    std::ostringstream rest;  // anything past the size seen (a file still growing, a pipe)
    rest << in.rdbuf();
    if (in.bad()) throw Error(path.string() + ": read failed");
    bytes += std::move(rest).str();
    return bytes;
}

detail::FileBytes detail::read_file_bytes(const std::filesystem::path& path,
                                          const std::function<void(std::string_view)>& check_start) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw Error(path.string() + ": is a directory, not a model file");
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    // Pipes, special files and files that cannot be measured: as read_file() reads them.
    if (ec || !std::filesystem::is_regular_file(path, ec) || size > (std::uintmax_t{1} << 62)) {
        std::string bytes = read_file(path, check_start);
        FileBytes out{std::make_unique_for_overwrite<char[]>(bytes.size()), bytes.size()};
        std::memcpy(out.data.get(), bytes.data(), bytes.size());
        return out;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path.string() + ": cannot open for reading (" + std::strerror(errno) + ")");
    FileBytes out{std::make_unique_for_overwrite<char[]>(static_cast<std::size_t>(size)),
                  static_cast<std::size_t>(size)};
    std::size_t done = 0;
    auto read_up_to = [&](std::size_t end) {
        in.read(out.data.get() + done, static_cast<std::streamsize>(end - done));
        done += static_cast<std::size_t>(in.gcount());
        if (in.bad()) throw Error(path.string() + ": read failed");
    };
    // The start first (see read_file()).
    if (check_start) {
        read_up_to(std::min(out.size, kReadFileStart));
        check_start(std::string_view(out.data.get(), done));
    }
    read_up_to(out.size);
    // A file that changed size while it was read: read again, as a stream.
    if (done != out.size || in.peek() != std::ifstream::traits_type::eof()) {
        std::string bytes = read_file(path);
        out = {std::make_unique_for_overwrite<char[]>(bytes.size()), bytes.size()};
        std::memcpy(out.data.get(), bytes.data(), bytes.size());
    }
    return out;
}

namespace {

constexpr std::string_view kTempPrefix = ".springkit-tmp-";

// The temp file's name: ".springkit-tmp-<pid>-<random>-<counter>-<name>", with the
// start of <name> dropped when the whole would pass NAME_MAX, so that every legal
// file name can be saved; the end (the extension) stays recognisable.
std::string temp_name(const std::string& name) {
    static std::atomic<unsigned> counter{0};
    std::random_device random;
    const std::string head = std::string(kTempPrefix) + std::to_string(::getpid()) + "-" + std::to_string(random()) +
                             "-" + std::to_string(counter++) + "-";
    if (head.size() + name.size() <= NAME_MAX) return head + name;
    return head + name.substr(name.size() - (NAME_MAX - head.size()));
}

// A save killed between creating its temp file and the rename leaves the temp file
// behind (temp_name). The next save of the same file removes those whose process
// is gone; a live process may still be saving.
void remove_stale_temp_files(const std::filesystem::path& dir, const std::string& name) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string file = it->path().filename().string();
        if (file.rfind(kTempPrefix, 0) != 0) continue;
        // Three numbers, each followed by '-', then the (maybe shortened) name.
        std::size_t at = kTempPrefix.size();
        bool numbers = true;
        for (int i = 0; i < 3 && numbers; ++i) {
            const std::size_t dash = file.find('-', at);
            numbers = dash != std::string::npos && dash > at &&
                      file.find_first_not_of("0123456789", at) == dash;
            at = dash + 1;
        }
        if (!numbers || at >= file.size()) continue;
        const std::string_view tail = std::string_view(file).substr(at);
        const bool same = tail == name || (file.size() == NAME_MAX && tail.size() < name.size() &&
                                           std::string_view(name).substr(name.size() - tail.size()) == tail);
        if (!same) continue;
        const long pid = std::strtol(file.c_str() + kTempPrefix.size(), nullptr, 10);
        if (pid <= 0 || pid == ::getpid()) continue;
        if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) std::filesystem::remove(it->path(), ec);
    }
}

// What a save does with its target (docs/RELIABILITY.md, "Save targets").
enum class Target : unsigned char {
    replace,  ///< a regular file or nothing yet: a temp file renamed over it
    through,  ///< a character device or a FIFO: written directly, never replaced
};

struct SaveTarget {
    std::filesystem::path path;  ///< the file written: symbolic links followed
    Target how = Target::replace;
};

[[noreturn]] void cannot_write(const std::string& target, int error) {
    throw Error(target + ": cannot write (" + std::strerror(error) + ")");
}

// The path a chain of symbolic links ends at, existing or not: where a regular
// file is replaced or a dangling link's target created (which keeps the link a link).
std::filesystem::path follow_links(const std::filesystem::path& requested) {
    std::filesystem::path path = requested;
    struct stat st {};
    for (int links = 0; ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode); ++links) {
        if (links == 40) cannot_write(requested.string(), ELOOP);  // the kernel's limit
        std::error_code ec;
        const std::filesystem::path next = std::filesystem::read_symlink(path, ec);
        if (ec) cannot_write(requested.string(), ec.value());
        path = next.is_absolute() ? next : path.parent_path() / next;
    }
    return path;
}

// Where and how a save writes `requested`; refuses what must not be written over.
SaveTarget save_target(const std::filesystem::path& requested) {
    const std::string target = requested.string();
    struct stat st {};
    if (::stat(requested.c_str(), &st) != 0) {
        if (errno != ENOENT) cannot_write(target, errno);  // a link loop, a path below a file
        return {follow_links(requested), Target::replace};
    }
    if (S_ISDIR(st.st_mode)) throw Error(target + ": is a directory; give a file name to save to");
    if (S_ISSOCK(st.st_mode)) throw Error(target + ": is a socket, not a file; give a file name to save to");
    if (S_ISBLK(st.st_mode)) throw Error(target + ": is a block device, not a file; give a file name to save to");
    // Opened as given, links and all: /dev/stdout is a link the kernel resolves
    // (to a pipe, say) that has no path to follow by hand.
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return {requested, Target::through};
    // A file without write permission is one its owner protected: refuse rather than
    // replace it (the rename needs only the folder's permission). Root passes every
    // access() check, so a file nobody may write counts as read-only for root too.
    if ((st.st_mode & 0222) == 0 || (::access(requested.c_str(), W_OK) != 0 && errno == EACCES))
        throw Error(target + ": is read-only; not replaced (make it writable to save over it)");
    return {follow_links(requested), Target::replace};
}

std::filesystem::path folder_of(const std::filesystem::path& path) {
    return path.has_parent_path() ? path.parent_path() : ".";
}

// 0, or the errno of the write that failed.
int write_all(int fd, std::string_view bytes) {
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        written += static_cast<std::size_t>(n);
    }
    return 0;
}

}  // namespace

void check_writable(const std::filesystem::path& path) {
    const SaveTarget t = save_target(path);
    // A FIFO is not opened: that would wait for a reader.
    if (t.how == Target::through) {
        if (::access(t.path.c_str(), W_OK) != 0) cannot_write(path.string(), errno);
        return;
    }
    // The temp file is created in the target's folder, and renamed there.
    const std::filesystem::path dir = folder_of(t.path);
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) cannot_write(path.string(), errno);
    if (!S_ISDIR(st.st_mode)) cannot_write(path.string(), ENOTDIR);
    if (::access(dir.c_str(), W_OK | X_OK) != 0) cannot_write(path.string(), errno);
}

PendingFile::PendingFile(const std::filesystem::path& path, std::string_view bytes)
    : PendingFile(path, std::span<const std::string_view>(&bytes, 1)) {}

PendingFile::PendingFile(const std::filesystem::path& requested, std::span<const std::string_view> parts)
    : target_(requested.string()) {
    const std::string& target = target_;
    SaveTarget save = save_target(requested);
    path_ = std::move(save.path);
    if (save.how == Target::through) {
        // Opened only at commit(): a FIFO's reader must not see content that is
        // abandoned, and opening it waits for a reader.
        for (const std::string_view bytes : parts) through_.append(bytes);
        through_pending_ = true;
        return;
    }
    const std::filesystem::path& path = path_;
    // The temp file sits beside the target so that rename() stays on one file system.
    const std::filesystem::path temp = folder_of(path) / temp_name(path.filename().string());
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) cannot_write(target, errno);
    // The new file keeps the permissions of the one it replaces (a private file stays private).
    struct stat old_file {};
    if (::stat(path.c_str(), &old_file) == 0) ::fchmod(fd, old_file.st_mode & 07777);
    auto fail = [&](const char* what, int error) {
        ::close(fd);
        ::unlink(temp.c_str());
        throw Error(target + ": " + what + " (" + std::strerror(error) + "); the old file is untouched");
    };
    for (const std::string_view bytes : parts)
        if (const int error = write_all(fd, bytes)) fail("write failed", error);
    if (::fsync(fd) != 0) fail("flush to disk failed", errno);
    if (::close(fd) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(temp.c_str());
        throw Error(target + ": close failed (" + reason + "); the old file is untouched");
    }
    temp_ = temp;
}

PendingFile::PendingFile(PendingFile&& other) noexcept
    : target_(std::move(other.target_)),
      path_(std::move(other.path_)),
      temp_(std::move(other.temp_)),
      through_(std::move(other.through_)),
      through_pending_(other.through_pending_) {
    other.temp_.clear();
    other.through_pending_ = false;
}

PendingFile::~PendingFile() {
    if (!temp_.empty()) ::unlink(temp_.c_str());
}

void PendingFile::commit() {
    if (through_pending_) {
        through_pending_ = false;
        const std::string bytes = std::move(through_);
        through_.clear();
        // No temp file, no rename, no fsync: a device or a pipe has no old content
        // to protect, and fsync() is not defined for either.
        const int fd = ::open(path_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) cannot_write(target_, errno);
        if (const int error = write_all(fd, bytes)) {
            ::close(fd);
            throw Error(target_ + ": write failed (" + std::strerror(error) + ")");
        }
        if (::close(fd) != 0) throw Error(target_ + ": close failed (" + std::strerror(errno) + ")");
        return;
    }
    if (temp_.empty()) throw Error(target_ + ": nothing to save (already saved)");
    const std::filesystem::path temp = std::move(temp_);
    temp_.clear();
    if (::rename(temp.c_str(), path_.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(temp.c_str());
        throw Error(target_ + ": cannot replace the file (" + reason + "); the old file is untouched");
    }
    // Make the rename itself durable.
    const std::filesystem::path dir = folder_of(path_);
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
