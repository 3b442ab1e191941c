// springkit-editor — loading a model's texture image (stb_image) into OpenGL.
#pragma once

#include <filesystem>
#include <string>

#include "render/gl_util.hpp"

namespace springkit::editor {

/// Loads an image file as an RGBA texture with mipmaps, rows flipped so that
/// v = 0 is the bottom of the image (the OBJ convention). Throws springkit::Error
/// naming the file and the problem (read_texture_image's checks and limits).
gl::Texture load_texture(const std::filesystem::path& path);

}  // namespace springkit::editor
