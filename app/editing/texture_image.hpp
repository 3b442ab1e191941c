// springkit-editor — reading a model's texture image into memory (stb_image), with
// the checks that keep a file from hanging or exhausting the editor.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "springkit/texture_limits.hpp"

namespace springkit::editor {

/// An RGBA image, rows bottom to top (v = 0 is the bottom row, the OBJ convention).
struct TextureImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgba;  ///< width * height * 4 bytes
};

/// Reads and decodes an image file. Only regular files are opened (a FIFO or a
/// device named as a texture would block or never end); the header's size is
/// checked against springkit/texture_limits.hpp before any pixel is decoded (a small PNG can claim
/// 16384 x 16384 pixels: 1 GiB of RGBA). Throws springkit::Error naming the file
/// and what is wrong.
TextureImage read_texture_image(const std::filesystem::path& path);

}  // namespace springkit::editor
