// springkit — the largest texture image a tool reads: the editor decodes it, the
// converter checks a texture's header against it before naming it in a model.
#pragma once

#include <cstdint>
#include <string>

namespace springkit {

/// A side of 8192 pixels is what every OpenGL 3.3 implementation the editor runs
/// on accepts; 64 Mpixels of RGBA are 256 MiB before mipmaps. A small PNG can
/// claim 16384 x 16384 pixels (1 GiB of RGBA), so the header's size is checked
/// before any pixel is decoded.
inline constexpr std::uintmax_t kMaxTextureFileBytes = 256ull << 20;
inline constexpr int kMaxTextureSide = 8192;
inline constexpr std::uint64_t kMaxTexturePixels = 64ull << 20;

/// Empty if an image of width x height pixels (from its header) is within the
/// limits, else why not: "texture of 16384 x 16384 pixels is larger than 8192 x
/// 8192; scale it down".
inline std::string texture_size_problem(int width, int height) {
    if (width > 0 && height > 0 && width <= kMaxTextureSide && height <= kMaxTextureSide &&
        static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) <= kMaxTexturePixels)
        return {};
    return "texture of " + std::to_string(width) + " x " + std::to_string(height) + " pixels is larger than " +
           std::to_string(kMaxTextureSide) + " x " + std::to_string(kMaxTextureSide) + "; scale it down";
}

}  // namespace springkit
