// Test support for the editor run as a process: springkit-editor under xvfb-run
// (Mesa llvmpipe) and the PNG screenshots it writes.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace springkit::test::editor {

// The viewport's clear colour (scene_renderer.cpp kBackground: 0.16, 0.17, 0.19).
inline constexpr int kBackground[3] = {41, 43, 48};

struct EditorRun {
    int exit_code;
    std::string out, err;
};

/// Runs the editor (arguments already shell-quoted) under xvfb-run, its state
/// folder (autosaves, recent files) inside `dir`, stdout and stderr captured.
EditorRun run_editor(const std::string& arguments, const std::filesystem::path& dir);

/// Runs the editor as run_editor does until the file `until` exists (at most
/// `seconds`), then kills it with SIGKILL, as a crash ends it: nothing of its
/// own clean-up runs. Returns false when the file never appeared (the run's
/// stderr then goes to the test's failure message).
bool run_editor_until_killed(const std::string& arguments, const std::filesystem::path& dir,
                             const std::filesystem::path& until, double seconds = 120.0);

struct Image {
    int width = 0, height = 0;
    std::vector<unsigned char> rgb;
    const unsigned char* at(int x, int y) const { return &rgb[(static_cast<std::size_t>(y) * width + x) * 3]; }
    bool background(int x, int y) const {
        const unsigned char* p = at(x, y);
        return std::abs(p[0] - kBackground[0]) <= 2 && std::abs(p[1] - kBackground[1]) <= 2 &&
               std::abs(p[2] - kBackground[2]) <= 2;
    }
};

/// Reads a PNG as RGB; an empty image (and a test failure) when it cannot.
Image load_png(const std::filesystem::path& path);

/// Share of the pixels that are not background.
double coverage(const Image& image);

}  // namespace springkit::test::editor
