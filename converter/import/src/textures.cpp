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
#include <stb_image.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <system_error>

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

}  // namespace springkit::detail
