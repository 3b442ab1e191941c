// springkit — model files on disk: load_model and save_model choose the JSON
// or the binary form by the file name and save atomically.
#include <array>
#include <optional>
#include <string>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "files/json_writer.hpp"

namespace springkit {

bool is_binary_model_path(const std::filesystem::path& path) { return path.extension() == kBinaryExtension; }

Model load_model(const std::filesystem::path& path) {
    if (is_binary_model_path(path)) return model_from_binary(read_file(path), path.string());
    return model_from_json(read_file(path), path.string());
}

void save_model(const Model& model, const std::filesystem::path& path) { save_model(model, path, Check::validate); }

void save_model(const Model& model, const std::filesystem::path& path, Check check) {
    std::string binary;
    std::optional<detail::JsonText> text;
    std::array<std::string_view, 2> parts{};
    try {
        if (check == Check::validate) validate(model);
        if (is_binary_model_path(path)) {
            binary = model_to_binary(model, Check::already_validated);
            parts[0] = binary;
        } else {
            text.emplace(model, true);
            parts = text->parts();
        }
    } catch (const Error& e) {
        throw Error(path.string() + ": not saved: " + e.what());
    }
    PendingFile(path, parts).commit();
}

}  // namespace springkit
