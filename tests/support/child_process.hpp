// Tests that run a piece of code in a child process under other conditions (an
// unprivileged user, a memory limit) and get back the springkit::Error it threw.
#pragma once

#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "support/test_files.hpp"

namespace springkit::test {

/// AddressSanitizer and ThreadSanitizer reserve terabytes of address space for
/// their shadow memory: a limit on the address space cannot be tested under them.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizerShadowMemory = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitizerShadowMemory = true;
#else
inline constexpr bool kSanitizerShadowMemory = false;
#endif
#else
inline constexpr bool kSanitizerShadowMemory = false;
#endif

// Runs f in a child process after prepare() (which returns false when it could
// not) and returns the springkit::Error message f got.
template <class Prepare, class F>
std::string error_in_child(Prepare prepare, F f) {
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) return "pipe failed";
    const pid_t child = ::fork();
    if (child == 0) {
        ::close(pipe_fds[0]);
        if (!prepare()) ::_exit(3);
        const std::string message = error_of(f);
        const ssize_t written = ::write(pipe_fds[1], message.data(), message.size());
        ::_exit(written == static_cast<ssize_t>(message.size()) ? 0 : 4);
    }
    ::close(pipe_fds[1]);
    std::string message;
    char buffer[512];
    ssize_t n;
    while ((n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0) message.append(buffer, static_cast<std::size_t>(n));
    ::close(pipe_fds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "child failed with status " + std::to_string(status);
    return message;
}

// f as an unprivileged user (root ignores file permissions).
template <class F>
std::string error_as_nobody(F f) {
    return error_in_child([] { return ::geteuid() != 0 || (::setgid(65534) == 0 && ::setuid(65534) == 0); }, f);
}

// f with `more` bytes of address space beyond what the process maps already.
// Blocks of 1 MiB and more are mapped anew (not taken from memory the heap
// already holds), so each counts against the limit.
template <class F>
std::string error_with_memory_left(std::size_t more, F f) {
    return error_in_child(
        [more] {
            if (::mallopt(M_MMAP_THRESHOLD, 1 << 20) != 1) return false;
            // Free memory the parent's earlier tests left at the heap's top would
            // serve big requests without new address space: give it back first.
            ::malloc_trim(0);
            std::size_t pages = 0;
            if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
                if (std::fscanf(statm, "%zu", &pages) != 1) pages = 0;
                std::fclose(statm);
            }
            const rlimit limit{.rlim_cur = pages * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)) + more,
                               .rlim_max = RLIM_INFINITY};
            return pages > 0 && ::setrlimit(RLIMIT_AS, &limit) == 0;
        },
        f);
}

}  // namespace springkit::test
