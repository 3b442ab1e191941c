// springkit::import — running Assimp in a child process.
//
// Assimp 5.2 hangs on some corrupt files (mangled PLY headers spin forever) and
// has had heap overflows on malformed OBJ, ASE, MD3 and FBX inputs; our fuzzing
// found more (tests/fuzz/regressions/import-isolated). So each import runs in a
// forked child with an address-space limit; the parent waits with a wall-clock
// deadline and kills it when the deadline passes. The child answers with one JSON
// line through a pipe (the report or the error) and leaves the model in a memfd
// the parent maps, in the binary model form (.skb, docs/FILE_FORMAT.md: raw arrays
// read in bulk; JSON text would cost seconds for a million-triangle mesh). The
// parent validates it: the child checks only the parameters.
//
// The child must not outlive the caller nor its own deadline: a killed `convert`
// (SIGKILL, a CI job's timeout) used to leave an Assimp hang spinning at 100% CPU.
// It asks the kernel for SIGKILL when its parent goes (PR_SET_PDEATHSIG, then
// checks the parent is still the one that forked it, since the parent may have
// died before the request) and arms its own deadline (alarm() for a wall clock
// that also covers a blocked read, RLIMIT_CPU for a spin) a second after the
// parent's, so the parent normally reports the timeout itself. PDEATHSIG follows
// the forking thread, which stays in import_meshes_isolated until the child is reaped.
//
// The child's stderr goes through a pipe: when it dies abnormally, the start of
// what it printed (an AddressSanitizer report from inside Assimp, an abort
// message) is part of the error, escaped and bounded.
//
// The child runs Assimp right after fork() without exec(): glibc's malloc is
// fork-safe, and the child only touches Assimp, our own code and a pipe, then
// leaves with _exit() so no atexit handler or stdio buffer of the parent runs twice.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <future>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "springkit/error.hpp"
#include "springkit/import.hpp"
#include "springkit/io.hpp"
#include "import_internal.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define SPRINGKIT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SPRINGKIT_ASAN 1
#endif
#endif

namespace springkit {

namespace {

using Clock = std::chrono::steady_clock;

/// Bytes as hexadecimal text, for the JSON answer (an embedded texture).
std::string to_hex(std::string_view bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text;
    text.reserve(2 * bytes.size());
    for (unsigned char b : bytes) text += {kDigits[b >> 4], kDigits[b & 15]};
    return text;
}

std::string from_hex(std::string_view text) {
    auto digit = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    std::string bytes(text.size() / 2, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = static_cast<char>(digit(text[2 * i]) << 4 | digit(text[2 * i + 1]));
    return bytes;
}

nlohmann::json report_to_json(const ImportReport& r) {
    return {{"meshes", r.meshes},
            {"input_vertices", r.input_vertices},
            {"welded_vertices", r.welded_vertices},
            {"faces", r.faces},
            {"edge_springs", r.edge_springs},
            {"line_springs", r.line_springs},
            {"bend_springs", r.bend_springs},
            {"shear_springs", r.shear_springs},
            {"volume_springs", r.volume_springs},
            {"volume_elements", r.volume_elements},
            {"volume_elements_why", r.volume_elements_why},
            {"anchors", r.anchors},
            {"bones", r.bones},
            {"animations", r.animations},
            {"bone_anchors", r.bone_anchors},
            {"bone_tracks", r.bone_tracks},
            {"animation", r.animation},
            {"animation_seconds", r.animation_seconds},
            {"unit_scale", r.unit_scale},
            {"unit", r.unit},
            {"ground_sink", r.ground_sink},
            {"ground_repulsion", r.ground_repulsion},
            {"ground_nodes", r.ground_nodes},
            {"ground_substep", r.ground_substep},
            {"substep", r.substep},
            {"total_mass", r.total_mass},
            {"islands", r.islands},
            {"island_springs", r.island_springs},
            {"dropped_nodes", r.dropped_nodes},
            {"reader", r.reader},
            {"texture_source", r.texture_source},
            {"structure", r.structure},
            {"embedded_texture", to_hex(r.embedded_texture)},
            {"embedded_texture_format", r.embedded_texture_format},
            {"warnings", r.warnings}};
}

ImportReport report_from_json(const nlohmann::json& j) {
    ImportReport r;
    r.meshes = j.at("meshes");
    r.input_vertices = j.at("input_vertices");
    r.welded_vertices = j.at("welded_vertices");
    r.faces = j.at("faces");
    r.edge_springs = j.at("edge_springs");
    r.line_springs = j.at("line_springs");
    r.bend_springs = j.at("bend_springs");
    r.shear_springs = j.at("shear_springs");
    r.volume_springs = j.at("volume_springs");
    r.volume_elements = j.at("volume_elements");
    r.volume_elements_why = j.at("volume_elements_why");
    r.anchors = j.at("anchors");
    r.bones = j.at("bones");
    r.animations = j.at("animations");
    r.bone_anchors = j.at("bone_anchors");
    r.bone_tracks = j.at("bone_tracks");
    r.animation = j.at("animation");
    r.animation_seconds = j.at("animation_seconds");
    r.unit_scale = j.at("unit_scale");
    r.unit = j.at("unit");
    r.ground_sink = j.at("ground_sink");
    r.ground_repulsion = j.at("ground_repulsion");
    r.ground_nodes = j.at("ground_nodes");
    r.ground_substep = j.at("ground_substep");
    r.substep = j.at("substep");
    r.total_mass = j.at("total_mass");
    r.islands = j.at("islands").get<std::vector<std::size_t>>();
    r.island_springs = j.at("island_springs");
    r.dropped_nodes = j.at("dropped_nodes");
    r.reader = j.at("reader");
    r.texture_source = j.at("texture_source");
    r.structure = j.at("structure");
    r.embedded_texture = from_hex(j.at("embedded_texture").get<std::string>());
    r.embedded_texture_format = j.at("embedded_texture_format");
    r.warnings = j.at("warnings").get<std::vector<std::string>>();
    return r;
}

// The model as raw arrays (what import_mesh fills: it adds no attachments).
bool write_all(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t w = ::write(fd, data, size);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        data += w;
        size -= static_cast<std::size_t>(w);
    }
    return true;
}

[[noreturn]] void run_child(int fd, int memfd, int errfd, pid_t parent, const std::filesystem::path& path,
                            const ImportOptions& options) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(4);  // the parent died before the request took
    if (options.timeout_seconds > 0) {
        const double seconds = std::min(std::ceil(options.timeout_seconds) + 1.0, 1.0e6);
        ::alarm(static_cast<unsigned>(seconds));
        const rlim_t cpu = static_cast<rlim_t>(seconds);
        const rlimit cpu_limit{cpu, cpu + 1};  // SIGXCPU, then SIGKILL a second later
        ::setrlimit(RLIMIT_CPU, &cpu_limit);
    }
#ifndef SPRINGKIT_ASAN  // AddressSanitizer reserves terabytes of shadow memory up front
    if (options.memory_limit_mib > 0) {
        const rlim_t bytes = static_cast<rlim_t>(options.memory_limit_mib) * 1024 * 1024;
        const rlimit limit{bytes, bytes};
        ::setrlimit(RLIMIT_AS, &limit);
    }
#endif
    const rlimit no_core{0, 0};  // a crashing importer should not litter core files
    ::setrlimit(RLIMIT_CORE, &no_core);
    // Some Assimp parsers print to stdout/stderr (OpenDDL: "nullptr returned by
    // creating DDLNode."); the caller's output must stay its own, so the child
    // answers through the pipe only, and its stderr goes to the parent, which
    // shows it only when the child dies without an answer.
    const int devnull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull >= 0) {
        ::dup2(devnull, STDIN_FILENO);
        ::dup2(devnull, STDOUT_FILENO);
        ::dup2(errfd >= 0 ? errfd : devnull, STDERR_FILENO);
        ::close(devnull);
    }
    // The answer: its length (8 bytes, little-endian), then one JSON line. The
    // model goes into `memfd` in the binary form; the parent maps it instead of
    // copying 50 MB through the pipe. Written inside the try block so the model
    // is not freed first: the process exits right after, which reclaims it at once.
    auto answer = [fd](const std::string& line) {
        const std::uint64_t length = line.size();
        unsigned char prefix[8];
        for (int i = 0; i < 8; ++i) prefix[i] = static_cast<unsigned char>(length >> (8 * i));
        return write_all(fd, reinterpret_cast<const char*>(prefix), sizeof prefix) &&
               write_all(fd, line.data(), line.size());
    };
    int code = 0;
    try {
        ImportReport report;
        const Model model = detail::import_mesh_then_exit(path, options, report);  // the parent validates it
        // The .skb layout (raw arrays, read in bulk), written straight into the memfd,
        // its pages allocated in one call (MAP_POPULATE) rather than a fault each.
        std::size_t size = 0;
        model_to_binary(model, Check::already_validated, [&](std::size_t n) {  // the parent checks it
            size = n;
            void* at = MAP_FAILED;
            if (::ftruncate(memfd, static_cast<off_t>(n)) == 0)
                at = ::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, memfd, 0);
            if (at == MAP_FAILED) throw std::bad_alloc();  // the memory limit (RLIMIT_AS) or none left
            return static_cast<char*>(at);
        });
        answer(nlohmann::json{{"ok", true}, {"report", report_to_json(report)}, {"model_bytes", size}}.dump(
                   -1, ' ', false, nlohmann::json::error_handler_t::replace) +
               "\n");
        ::_exit(0);
    } catch (const std::bad_alloc&) {
        answer(nlohmann::json{{"ok", false},
                              {"error", path.string() + ": the importer needs more than " +
                                            std::to_string(options.memory_limit_mib) +
                                            " MiB of memory; the file is probably corrupt"}}
                   .dump());
        code = 3;
    } catch (const std::exception& e) {
        answer(nlohmann::json{{"ok", false}, {"error", std::string(e.what())}}.dump(
                   -1, ' ', false, nlohmann::json::error_handler_t::replace));
        code = 3;
    }
    ::_exit(code);
}

/// One running importer and its answer so far.
struct Child {
    std::size_t index = 0;  ///< position in the batch
    pid_t pid = -1;
    int fd = -1;     ///< the pipe the answer comes through
    int memfd = -1;  ///< the model the answer refers to
    int errfd = -1;  ///< the child's stderr
    std::string err;               ///< the start of the child's stderr
    std::uint64_t err_total = 0;   ///< bytes the child wrote to stderr
    unsigned char prefix[8] = {};  ///< the answer's length, little-endian
    std::size_t prefix_read = 0;
    std::unique_ptr<char[]> data;  ///< the answer, read straight into place
    std::uint64_t length = 0, read = 0;
    Clock::time_point start, deadline;

    bool complete() const { return prefix_read == sizeof prefix && read == length; }
    /// Reads what the pipe has; false at the end of the answer or the pipe.
    bool read_some() {
        for (;;) {
            char* to = prefix_read < sizeof prefix ? reinterpret_cast<char*>(prefix) + prefix_read : data.get() + read;
            const std::uint64_t want = prefix_read < sizeof prefix ? sizeof prefix - prefix_read : length - read;
            const ssize_t got = ::read(fd, to, static_cast<std::size_t>(std::min<std::uint64_t>(want, 1u << 24)));
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) return false;
            if (prefix_read < sizeof prefix) {
                prefix_read += static_cast<std::size_t>(got);
                if (prefix_read == sizeof prefix) {
                    for (int i = 0; i < 8; ++i) length |= std::uint64_t{prefix[i]} << (8 * i);
                    if (length > (std::uint64_t{1} << 40)) return false;  // not an answer
                    data.reset(new char[length]);
                }
            } else {
                read += static_cast<std::uint64_t>(got);
            }
            return !complete();
        }
    }
};

/// Reads what the child's stderr pipe has, keeping the start; false at its end.
bool read_stderr(Child& c) {
    static constexpr std::size_t kKept = 4096;
    char buf[4096];
    for (;;) {
        const ssize_t got = ::read(c.errfd, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 && errno == EAGAIN) return true;
        if (got <= 0) return false;
        c.err_total += static_cast<std::uint64_t>(got);
        if (c.err.size() < kKept) c.err.append(buf, std::min(static_cast<std::size_t>(got), kKept - c.err.size()));
    }
}

/// Reads the child's stderr to its end (the child's exit); a child still running
/// at `deadline` is killed, which ends it.
void drain_stderr(Child& c, Clock::time_point deadline) {
    if (c.errfd < 0) return;
    int after_kill = 0;  // polls since the kill: another fork of this process may hold the pipe too
    for (;;) {
        if (!read_stderr(c)) break;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        const bool killed = after_kill > 0;
        if (left <= 0 && !killed) ::kill(c.pid, SIGKILL);
        if (left <= 0 && ++after_kill > 20) break;
        pollfd p{c.errfd, POLLIN, 0};
        ::poll(&p, 1, killed ? 100 : static_cast<int>(std::clamp<long long>(left, 1, 100)));
    }
    ::close(c.errfd);
    c.errfd = -1;
}

std::string signal_name(int sig) {
    const char* name = ::strsignal(sig);
    return std::to_string(sig) + (name ? std::string(" ") + name : "");
}

Child start_child(std::size_t index, const std::filesystem::path& path, const ImportOptions& options) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(path.string() + ": cannot start the importer (pipe: " + std::strerror(errno) + ")");
    int errfds[2] = {-1, -1};  // without it the child's stderr goes to /dev/null
    if (::pipe2(errfds, O_CLOEXEC | O_NONBLOCK) != 0) errfds[0] = errfds[1] = -1;
    auto close_err = [&] {
        if (errfds[0] >= 0) ::close(errfds[0]);
        if (errfds[1] >= 0) ::close(errfds[1]);
    };
    const int memfd = ::memfd_create("springkit-import", MFD_CLOEXEC);
    if (memfd < 0) {
        const int err = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        close_err();
        throw Error(path.string() + ": cannot start the importer (memfd: " + std::strerror(err) + ")");
    }
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int err = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        close_err();
        ::close(memfd);
        throw Error(path.string() + ": cannot start the importer (fork: " + std::strerror(err) + ")");
    }
    if (pid == 0) {
        ::close(fds[0]);
        if (errfds[0] >= 0) ::close(errfds[0]);
        // The write end blocks in the child, as stderr normally does.
        if (errfds[1] >= 0) ::fcntl(errfds[1], F_SETFL, ::fcntl(errfds[1], F_GETFL) & ~O_NONBLOCK);
        run_child(fds[1], memfd, errfds[1], parent, path, options);
    }
    ::close(fds[1]);
    if (errfds[1] >= 0) ::close(errfds[1]);
    Child c;
    c.index = index;
    c.pid = pid;
    c.fd = fds[0];
    c.memfd = memfd;
    c.errfd = errfds[0];
    c.start = Clock::now();
    const auto limit = std::chrono::duration<double>(options.timeout_seconds > 0 ? options.timeout_seconds : 1e9);
    c.deadline = c.start + std::chrono::duration_cast<Clock::duration>(limit);
    return c;
}

int wait_for(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

/// A read-only view of a child's memfd, unmapped when it goes.
class Mapping {
public:
    Mapping() = default;
    Mapping(int fd, std::size_t size) : size_(size) {
        if (size == 0) return;
        void* at = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (at == MAP_FAILED) throw Error(std::string("cannot map the model: ") + std::strerror(errno));
        data_ = static_cast<const char*>(at);
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(Mapping&& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        return *this;
    }
    ~Mapping() {
        if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
    }
    std::string_view bytes() const { return {data_, size_}; }

private:
    const char* data_ = nullptr;
    std::size_t size_ = 0;
};

/// Turns a finished (or killed) child into a result. A complete answer is read
/// before the child is reaped: the child is still handing its memory back then.
void finish(Child& c, bool timed_out, const ImportOptions& options, ImportResult& result,
            const std::function<void(std::size_t, std::string_view)>& on_answer) {
    ::close(c.fd);
    c.fd = -1;
    const std::string file = result.path.string();
    bool answered = false;
    if (timed_out) {
        ::kill(c.pid, SIGKILL);
    } else if (c.complete()) {
        const std::string_view answer(c.data.get(), c.length);
        Mapping mapped;
        std::future<void> early;
        const std::size_t newline = answer.find('\n');
        try {
            const nlohmann::json header = nlohmann::json::parse(answer.substr(0, newline));
            if (header.at("ok").get<bool>()) {
                if (newline == std::string::npos) throw Error("truncated answer");
                result.report = report_from_json(header.at("report"));
                const std::uint64_t size = header.at("model_bytes").get<std::uint64_t>();
                struct stat st {};
                if (::fstat(c.memfd, &st) != 0 || static_cast<std::uint64_t>(st.st_size) != size)
                    throw Error("the model is not all there");
                mapped = Mapping(c.memfd, size);
                const std::string_view binary = mapped.bytes();
                // The caller may write the bytes while they are checked here.
                if (on_answer) early = std::async(std::launch::async, [&, binary] { on_answer(c.index, binary); });
                try {
                    result.model = model_from_binary(binary, file);  // validates: the child did not
                } catch (const Error& e) {
                    result.error = e.what();  // names the file and the problem, as the child would have
                }
            } else {
                result.error = header.at("error").get<std::string>();
            }
            answered = true;
        } catch (const std::exception&) {
            result.model.reset();
        }
        if (early.valid()) early.get();  // before the bytes go; the caller's errors are its own
        c.data.reset();
    }
    ::close(c.memfd);
    c.memfd = -1;
    result.seconds = std::chrono::duration<double>(Clock::now() - c.start).count();
    // Before the wait: a child blocked on a full stderr pipe would never exit.
    drain_stderr(c, timed_out ? Clock::now() : std::max(c.deadline, Clock::now() + std::chrono::seconds(1)));
    const int status = wait_for(c.pid);
    char timeout[64];
    std::snprintf(timeout, sizeof timeout, "%g", options.timeout_seconds);
    if (timed_out) {
        result.error = file + ": import timed out after " + timeout + " s (the file is probably corrupt)";
        return;
    }
    std::string printed = detail::stderr_excerpt(c.err, c.err_total);
    if (!printed.empty()) printed = " (the importer printed: " + printed + ")";
    if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGALRM || WTERMSIG(status) == SIGXCPU)) {
        // The child's own deadline, a second after the parent's (a stopped parent misses its own).
        result.model.reset();
        result.error = file + ": import timed out after " + timeout + " s (the file is probably corrupt)";
        return;
    }
    if (WIFSIGNALED(status)) {
        result.model.reset();
        result.error = file + ": the importer crashed (signal " + signal_name(WTERMSIG(status)) +
                       "); the file is probably malformed" + printed;
        return;
    }
    if (!answered)
        result.error = file + ": the importer failed (exit status " +
                       std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                       ") without an answer; the file is probably malformed" + printed;
}

}  // namespace

std::string detail::stderr_excerpt(std::string_view printed, std::uint64_t total, std::size_t limit) {
    // The line that says what happened: a sanitizer's "ERROR:" or "runtime error:",
    // an abort's message; else the first line with text (not a "====" rule).
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at < printed.size();) {
        std::size_t end = printed.find('\n', at);
        if (end == std::string_view::npos) end = printed.size();
        std::string_view line = printed.substr(at, end - at);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
        if (line.find_first_not_of("= \t") != std::string_view::npos) lines.push_back(line);
        at = end + 1;
    }
    if (lines.empty()) return {};
    std::size_t pick = 0;
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].find("ERROR:") != std::string_view::npos || lines[i].find("runtime error:") != std::string_view::npos) {
            pick = i;
            break;
        }
    std::string text(lines[pick]);
    if (pick + 1 < lines.size()) text += " | " + std::string(lines[pick + 1]);
    // Escaped: it goes into a one-line message, and may hold anything.
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    std::size_t used = 0;
    for (; used < text.size(); ++used) {
        const auto byte = static_cast<unsigned char>(text[used]);
        std::string piece;
        if (byte >= 0x20 && byte < 0x7f) {
            piece = static_cast<char>(byte);
        } else {
            piece = "\\x";
            piece += kHex[byte >> 4];
            piece += kHex[byte & 15];
        }
        if (out.size() + piece.size() > limit) break;
        out += piece;
    }
    if (used < text.size() || total > printed.size()) out += " ...";
    return out;
}

std::vector<ImportResult> import_meshes_isolated(const std::vector<std::filesystem::path>& paths,
                                                 const ImportOptions& options, unsigned jobs,
                                                 const std::function<void(std::size_t, std::size_t)>& on_done,
    const std::function<void(std::size_t, std::string_view)>& on_answer) {
    if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
    std::vector<ImportResult> results(paths.size());
    for (std::size_t i = 0; i < paths.size(); ++i) results[i].path = paths[i];
    std::vector<Child> running;
    std::size_t next = 0, finished = 0;
    Clock::time_point last_report = Clock::now();
    auto done = [&](std::size_t at, bool timed_out) {
        Child c = std::move(running[at]);
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(at));
        finish(c, timed_out, options, results[c.index], on_answer);
        ++finished;
        if (on_done) on_done(finished, paths.size());
    };
    try {
        while (finished < paths.size()) {
            while (running.size() < jobs && next < paths.size()) {
                running.push_back(start_child(next, paths[next], options));
                ++next;
            }
            // Wait for output from any child, at most until the nearest deadline.
            Clock::time_point nearest = running.front().deadline;
            for (const Child& c : running) nearest = std::min(nearest, c.deadline);
            const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(nearest - Clock::now()).count();
            // Each child's answer pipe, then its stderr (drained so that it never blocks on it).
            std::vector<pollfd> fds;
            for (const Child& c : running) fds.push_back({c.fd, POLLIN, 0});
            for (const Child& c : running) fds.push_back({c.errfd, POLLIN, 0});  // -1 is skipped by poll
            const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(std::clamp<long long>(wait + 1, 0, 1000)));
            if (ready < 0 && errno != EINTR) throw Error(std::string("poll failed: ") + std::strerror(errno));
            const std::size_t n = running.size();
            for (std::size_t i = 0; i < n; ++i)
                if (fds[n + i].revents != 0 && !read_stderr(running[i])) {
                    ::close(running[i].errfd);  // the child closed it: it is exiting; what it wrote is kept
                    running[i].errfd = -1;
                }
            for (std::size_t i = n; i-- > 0;) {
                if (fds[i].revents == 0) continue;
                if (!running[i].read_some()) done(i, false);
            }
            const auto now = Clock::now();
            for (std::size_t i = running.size(); i-- > 0;)
                if (now >= running[i].deadline) done(i, true);
            if (on_done && now - last_report >= std::chrono::seconds(1)) {  // a heartbeat for long imports
                last_report = now;
                on_done(finished, paths.size());
            }
        }
    } catch (...) {
        for (Child& c : running) {
            ::kill(c.pid, SIGKILL);
            ::close(c.fd);
            ::close(c.memfd);
            if (c.errfd >= 0) ::close(c.errfd);
            wait_for(c.pid);
        }
        throw;
    }
    return results;
}

Model import_mesh_isolated(const std::filesystem::path& path, const ImportOptions& options, ImportReport& report) {
    std::vector<ImportResult> results = import_meshes_isolated({path}, options, 1);
    ImportResult& r = results.front();
    if (!r.model) throw Error(r.error);
    report = std::move(r.report);
    return std::move(*r.model);
}

Model import_mesh_isolated(const std::filesystem::path& path, const ImportOptions& options) {
    ImportReport report;
    return import_mesh_isolated(path, options, report);
}

}  // namespace springkit
