// springkit — model files on disk: load_model and save_model choose the JSON
// or the binary form by the file name and save atomically.
#include <array>
#include <functional>
#include <new>
#include <optional>
#include <string>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "files/file_bytes.hpp"
#include "files/json_writer.hpp"

namespace springkit {

bool is_binary_model_path(const std::filesystem::path& path) { return path.extension() == kBinaryExtension; }

std::string model_extension_problem(std::string_view extension) {
    if (extension == ".json" || extension == kBinaryExtension) return {};
    return "a model is written as .json or .skb (the binary form), chosen by the extension; " +
           (extension.empty() ? std::string("this name has none") : "not " + std::string(extension));
}

namespace {

// Files bigger than this that do not start as a model file are refused before
// they are read whole (a sparse file of 3 GB of zeros named model.json would
// otherwise be read into memory first); smaller ones are parsed, and the parser
// names the problem with its line and column.
constexpr std::uintmax_t kCheckStartAbove = std::uintmax_t{16} << 20;

std::string hex_byte(unsigned char c) {
    constexpr char kDigits[] = "0123456789abcdef";
    return std::string("0x") + kDigits[c >> 4] + kDigits[c & 15];
}

Model read_model(const std::filesystem::path& path) {
    const bool binary = is_binary_model_path(path);
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);  // pipes and errors: read as they come
    std::function<void(std::string_view)> check_start;
    if (!ec && size > kCheckStartAbove) {
        check_start = [&](std::string_view start) {
            if (binary) {
                if (!start.starts_with(std::string_view(kBinaryMagic, sizeof kBinaryMagic)))
                    throw Error(path.string() + ": not a springkit binary model (it does not start with \"" +
                                std::string(kBinaryMagic, sizeof kBinaryMagic) + "\"); not read");
                return;
            }
            if (start.starts_with("\xEF\xBB\xBF")) start.remove_prefix(3);  // a UTF-8 byte order mark
            const std::size_t first = start.find_first_not_of(" \t\r\n");
            if (first != std::string_view::npos && start[first] != '{')
                throw Error(path.string() + ": not a springkit model: a model file starts with '{', this one (" +
                            std::to_string(size >> 20) + " MiB) with byte " +
                            hex_byte(static_cast<unsigned char>(start[first])) + "; not read");
        };
    }
    if (binary) return model_from_binary(detail::read_file_bytes(path, check_start).view(), path.string());
    return model_from_json(read_file(path, check_start), path.string());
}

}  // namespace

// A model takes several times its file's size in memory (the text, the parsed
// arrays, the model): out of memory is said with the file's name, as any other
// reason a file cannot be loaded.
Model load_model(const std::filesystem::path& path) {
    try {
        return read_model(path);
    } catch (const std::bad_alloc&) {
        throw Error(path.string() + ": out of memory while loading the model");
    }
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
    } catch (const std::bad_alloc&) {  // the text of a model is about 100 bytes a spring
        throw Error(path.string() + ": not saved: out of memory while writing the model");
    }
    PendingFile(path, parts).commit();
}

}  // namespace springkit
