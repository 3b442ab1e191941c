// springkit-editor — writing what the window shows to a PNG file.
#pragma once

#include <filesystem>

namespace springkit::editor {

/// Reads the current framebuffer (width x height pixels) and writes it to `path`
/// as a PNG, atomically. Throws springkit::Error naming the file.
void save_screenshot(const std::filesystem::path& path, int width, int height);

}  // namespace springkit::editor
