// springkit-editor — reading a model's texture image (texture_image.hpp).
#include "editing/texture_image.hpp"

#include <stb_image.h>

#include <cstring>
#include <memory>
#include <string>

#include "springkit/error.hpp"
#include "springkit/io.hpp"

namespace springkit::editor {

TextureImage read_texture_image(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw Error(path.string() + ": texture not found");
    if (!fs::is_regular_file(status))
        throw Error(path.string() + ": texture is not a regular file (a folder, device or pipe); not read");
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) throw Error(path.string() + ": cannot read the texture's size: " + ec.message());
    if (size > kMaxTextureFileBytes)
        throw Error(path.string() + ": texture file of " + std::to_string(size >> 20) + " MiB is larger than " +
                    std::to_string(kMaxTextureFileBytes >> 20) + " MiB; not read");
    const std::string bytes = read_file(path);
    const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
    const int length = static_cast<int>(bytes.size());
    int width = 0, height = 0, channels = 0;
    if (!stbi_info_from_memory(data, length, &width, &height, &channels))
        throw Error(path.string() + ": cannot load texture: " + stbi_failure_reason());
    if (const std::string problem = texture_size_problem(width, height); !problem.empty())
        throw Error(path.string() + ": " + problem);
    stbi_set_flip_vertically_on_load(1);
    std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
        stbi_load_from_memory(data, length, &width, &height, &channels, 4), stbi_image_free);
    if (!pixels) throw Error(path.string() + ": cannot load texture: " + stbi_failure_reason());
    TextureImage image{width, height, {}};
    image.rgba.assign(pixels.get(), pixels.get() + static_cast<std::size_t>(width) * height * 4);
    return image;
}

}  // namespace springkit::editor
