// springkit::import — finding a mesh's texture the way artists' files name it.
//
// Exporters write whatever path the texture had on the artist's machine: relative
// to the mesh (with Windows backslashes), or absolute on a machine that is not this
// one (D:/projects/x/wood.png, C:\tex\wood.png, /home/other/wood.png). What travels
// with the mesh is its folder, so after the path as named the file is looked for by
// its name next to the mesh and in a textures/ (Textures/) folder beside it, and,
// as a last resort, by a case-insensitive match of the name (files made on Windows
// or macOS name WOOD.PNG what is stored as wood.png). Blender's "find missing files"
// and Assimp's own viewer search the same way.
#include <assimp/scene.h>
#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>
#include <system_error>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "springkit/texture_limits.hpp"
#include "import_internal.hpp"

namespace springkit::detail {

namespace {

namespace fs = std::filesystem;

/// A path written on Windows: a drive letter (D:/...) or a network share (//host/...).
bool windows_absolute(const std::string& name) {
    return (name.size() >= 3 && std::isalpha(static_cast<unsigned char>(name[0])) && name[1] == ':' && name[2] == '/') ||
           name.rfind("//", 0) == 0;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

struct Candidate {
    fs::path file;
    const char* why;
};

/// In `folder`, the entry whose name equals `name` ignoring ASCII case (the first
/// in name order, so the choice does not depend on the directory's order).
std::optional<fs::path> case_insensitive_match(const fs::path& folder, const std::string& name) {
    std::error_code ec;
    std::optional<fs::path> best;
    const std::string wanted = lower(name);
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
        if (lower(it->path().filename().string()) == wanted && (!best || it->path() < *best)) best = it->path();
    return best;
}

}  // namespace

void set_texture(const fs::path& mesh, const std::string& name, const ImportOptions& options, Model& model,
                 ImportReport& report) {
    const fs::path folder = mesh.parent_path();
    const bool foreign = windows_absolute(name);
    const fs::path named(name);
    // Where the mesh names it: relative to its folder, or absolute on this machine.
    const fs::path as_named = (foreign ? folder / fs::path(name.substr(name.find_last_of('/') + 1))
                                       : named.is_absolute() ? named : folder / named)
                                  .lexically_normal();
    const std::string file_name = as_named.filename().string();
    std::vector<Candidate> candidates;
    if (!foreign) candidates.push_back({as_named, "where the mesh names it"});
    candidates.push_back({folder / file_name, "found next to the mesh by name"});
    for (const char* sub : {"textures", "Textures"})
        candidates.push_back({folder / sub / file_name, "found in the textures folder next to the mesh by name"});

    std::error_code ec;
    std::optional<Candidate> found;
    std::optional<fs::path> irregular;  // something by that name that is not a file (a FIFO, a device, a folder)
    for (const Candidate& c : candidates) {
        const fs::file_status status = fs::status(c.file, ec);
        if (fs::is_regular_file(status)) {
            found = Candidate{c.file.lexically_normal(), c.why};
            break;
        }
        if (fs::exists(status) && !irregular) irregular = c.file.lexically_normal();
    }
    if (!found && !irregular)
        for (const fs::path& where : {folder, folder / "textures", folder / "Textures"})
            if (const auto match = case_insensitive_match(where, file_name)) {
                if (fs::is_regular_file(*match, ec))
                    found = Candidate{match->lexically_normal(), "found next to the mesh by a case-insensitive name match"};
                else
                    irregular = match->lexically_normal();
                break;
            }

    if (!found && irregular) {
        report.warnings.push_back("the texture " + irregular->generic_string() +
                                  " is not a regular file (a folder, device or pipe); not read, the model has none");
        return;
    }
    const fs::path chosen = found ? found->file : as_named;
    if (!found) {
        report.warnings.push_back("the texture " + (foreign ? name : as_named.generic_string()) +
                                  " was not found (nor " + file_name +
                                  " next to the mesh or in its textures folder); the model names it all the same");
    } else {
        report.texture_source = found->why;
        // The header only: the editor refuses what it could not decode, so the
        // model should not name it.
        int width = 0, height = 0, channels = 0;
        if (!stbi_info(chosen.string().c_str(), &width, &height, &channels)) {
            report.warnings.push_back("the texture " + chosen.generic_string() + " cannot be read as an image (" +
                                      stbi_failure_reason() + "); the model names it all the same");
        } else if (const std::string problem = texture_size_problem(width, height); !problem.empty()) {
            report.warnings.push_back("the texture " + chosen.generic_string() + " is refused: " + problem +
                                      "; the model has none");
            report.texture_source.clear();
            return;
        }
    }
    model.texture = options.texture_folder.empty() ? chosen.generic_string()
                                                   : fs::absolute(chosen)
                                                         .lexically_normal()
                                                         .lexically_relative(options.texture_folder)
                                                         .generic_string();
}

void take_embedded_texture(const aiScene& scene, const std::string& name, Soup& soup) {
    const aiTexture* texture = scene.GetEmbeddedTexture(name.c_str());
    if (texture == nullptr) return;
    const std::string what = "the texture embedded in the file (" + name + ")";
    if (texture->pcData == nullptr || texture->mWidth == 0) {
        soup.embedded_texture_problem = what + " is empty; the model has none";
        return;
    }
    if (texture->mHeight == 0) {
        // Compressed: mWidth bytes of an image file, achFormatHint its extension.
        std::string format = lower(std::string(texture->achFormatHint, strnlen(texture->achFormatHint, 8)));
        static constexpr std::string_view kImageFormats[] = {"png", "jpg", "jpeg", "bmp", "tga", "gif", "dds",
                                                             "tif", "tiff", "webp", "ktx", "ktx2", "hdr", "psd"};
        if (std::find(std::begin(kImageFormats), std::end(kImageFormats), format) == std::end(kImageFormats)) {
            soup.embedded_texture_problem = what + " is of an unknown format ('" + format + "'); the model has none";
            return;
        }
        const auto* bytes = reinterpret_cast<const char*>(texture->pcData);
        int width = 0, height = 0, channels = 0;
        if (stbi_info_from_memory(reinterpret_cast<const stbi_uc*>(bytes), static_cast<int>(texture->mWidth), &width,
                                  &height, &channels))
            if (const std::string problem = texture_size_problem(width, height); !problem.empty()) {
                soup.embedded_texture_problem = what + " is refused: " + problem + "; the model has none";
                return;
            }
        soup.embedded_texture.assign(bytes, texture->mWidth);
        soup.embedded_texture_format = format;
        return;
    }
    // Raw texels (aiTexel: B, G, R, A bytes), written as a PNG file.
    const int width = static_cast<int>(std::min(texture->mWidth, 1u << 30)),
              height = static_cast<int>(std::min(texture->mHeight, 1u << 30));
    if (const std::string problem = texture_size_problem(width, height); !problem.empty()) {
        soup.embedded_texture_problem = what + " is refused: " + problem + "; the model has none";
        return;
    }
    std::vector<unsigned char> rgba(static_cast<std::size_t>(width) * height * 4);
    for (std::size_t i = 0; i < rgba.size() / 4; ++i) {
        const aiTexel& t = texture->pcData[i];
        rgba[4 * i] = t.r, rgba[4 * i + 1] = t.g, rgba[4 * i + 2] = t.b, rgba[4 * i + 3] = t.a;
    }
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
    };
    std::string png;
    if (!stbi_write_png_to_func(append, &png, width, height, 4, rgba.data(), width * 4)) {
        soup.embedded_texture_problem = what + " could not be encoded as PNG; the model has none";
        return;
    }
    soup.embedded_texture = std::move(png);
    soup.embedded_texture_format = "png";
}

}  // namespace springkit::detail

namespace springkit {

std::string write_embedded_texture(const ImportReport& report, const std::filesystem::path& model_path) {
    namespace fs = std::filesystem;
    const std::string name = model_path.stem().string() + "." + report.embedded_texture_format;
    const fs::path file = model_path.parent_path() / name;
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(file, ec);
    if (fs::exists(status)) {
        // Same bytes: converting the same mesh again. Anything else is the user's.
        if (fs::is_regular_file(status) && fs::file_size(file, ec) == report.embedded_texture.size() && !ec &&
            read_file(file) == report.embedded_texture)
            return name;
        throw Error(file.string() + ": exists and is not the texture embedded in the mesh; not overwritten "
                                    "(move it away or choose another output name)");
    }
    write_file_atomically(file, report.embedded_texture);
    return name;
}

}  // namespace springkit
