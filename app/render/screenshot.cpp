// springkit-editor — screenshots (stb_image_write).
#include "render/screenshot.hpp"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <algorithm>
#include <string>
#include <vector>

#include "springkit/error.hpp"
#include "springkit/io.hpp"

namespace springkit::editor {

void save_screenshot(const std::filesystem::path& path, int width, int height) {
    if (width <= 0 || height <= 0) throw Error(path.string() + ": cannot take a screenshot of an empty window");
    const auto row = static_cast<std::size_t>(width) * 3;
    std::vector<unsigned char> pixels(row * static_cast<std::size_t>(height));
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    // OpenGL's rows start at the bottom; PNG's at the top.
    std::vector<unsigned char> flipped(pixels.size());
    for (int y = 0; y < height; ++y)
        std::copy_n(pixels.data() + static_cast<std::size_t>(height - 1 - y) * row, row,
                    flipped.data() + static_cast<std::size_t>(y) * row);
    std::string png;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
    };
    if (!stbi_write_png_to_func(append, &png, width, height, 3, flipped.data(), static_cast<int>(row)))
        throw Error(path.string() + ": cannot encode the screenshot as PNG");
    write_file_atomically(path, png);
}

}  // namespace springkit::editor
