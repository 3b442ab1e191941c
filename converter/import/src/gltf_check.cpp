// springkit::import — the layout of a glTF or GLB file checked before Assimp
// reads it (detail::check_gltf_layout, import_internal.hpp).
//
// glTF (Khronos glTF 2.0 specification, sections 3.6 "Binary Data Storage" and
// 5.1 "Accessor", 5.11 "BufferView"; glTF 1.0 for the older layout) stores its
// arrays as accessors: `count` elements of `type` x `componentType`, starting
// `byteOffset` bytes into a bufferView, `byteStride` bytes apart; a bufferView is
// `byteLength` bytes at `byteOffset` in a buffer. Assimp trusts these numbers:
// an accessor whose byteOffset is near 2^64 wraps the pointer sum and reads heap
// bytes before its buffer into the model. Every number is checked here against
// what actually holds the bytes, each layer within the next:
//
//   accessor.byteOffset + (count - 1) * stride + element size <= bufferView.byteLength
//   bufferView.byteOffset + bufferView.byteLength
//       <= min(buffer.byteLength, the bytes that hold it: GLB chunk, data URI, file)
//
// Every number is first required to be at most 2^53 (no buffer is larger), so
// these sums of at most a few such numbers times a stride below 2^8 cannot
// overflow 64 bits.
#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "springkit/printable.hpp"
#include "import_internal.hpp"

namespace springkit::detail {

namespace {

using nlohmann::json;

constexpr std::uint64_t kLargest = std::uint64_t{1} << 53;

// Thrown by read_file's check_start for a file that is neither GLB nor JSON.
struct NotGltf {};

std::uint32_t u32_at(std::string_view bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v |= std::uint32_t{static_cast<unsigned char>(bytes[at + i])} << (8 * i);
    return v;
}

/// One collection of a glTF file: an array (glTF 2.0, items named by index) or
/// an object (glTF 1.0, items named by id).
class Collection {
public:
    Collection(const json& root, const char* key, const char* kind) : kind_(kind) {
        const auto it = root.find(key);
        if (it != root.end()) items_ = &*it;
    }

    /// The item `ref` names (an index or an id), or null.
    const json* find(const json& ref) const {
        if (!items_) return nullptr;
        if (items_->is_array() && ref.is_number_unsigned()) {
            const auto i = ref.get<std::uint64_t>();
            return i < items_->size() && (*items_)[i].is_object() ? &(*items_)[i] : nullptr;
        }
        if (items_->is_object() && ref.is_string()) {
            const auto it = items_->find(ref.get<std::string>());
            return it != items_->end() && it->is_object() ? &*it : nullptr;
        }
        return nullptr;
    }

    /// The name messages give the item `ref` names.
    std::string name_of(const json& ref) const {
        if (ref.is_string()) return std::string(kind_) + " \"" + printable(ref.get<std::string>(), 100) + "\"";
        return std::string(kind_) + " " + ref.dump();
    }

    /// Calls each(item, its name as messages give it) for every object item.
    template <class F>
    void each(F f) const {
        if (!items_) return;
        if (items_->is_array()) {
            for (std::size_t i = 0; i < items_->size(); ++i)
                if ((*items_)[i].is_object()) f((*items_)[i], name_of(json(i)));
        } else if (items_->is_object()) {
            for (const auto& [id, item] : items_->items())
                if (item.is_object()) f(item, name_of(json(id)));
        }
    }

private:
    const char* kind_;
    const json* items_ = nullptr;
};

class Checker {
public:
    Checker(const std::filesystem::path& path, const json& root, std::optional<std::uint64_t> binary_chunk)
        : path_(path),
          binary_chunk_(binary_chunk),
          buffers_(root, "buffers", "buffer"),
          views_(root, "bufferViews", "bufferView"),
          accessors_(root, "accessors", "accessor") {}

    // Every bufferView within its buffer's byteLength; what accessors reach also
    // within the bytes that hold the buffer. A bufferView no accessor uses (an
    // embedded image, say) is not read as an array, so a file whose last image
    // is cut short still converts.
    void run() {
        views_.each([&](const json& view, const std::string& name) { check_view(view, name, false); });
        accessors_.each([&](const json& accessor, const std::string& name) { check_accessor(accessor, name); });
    }

private:
    [[noreturn]] void fail(const std::string& where, const std::string& what) const {
        throw Error(path_.string() + ": glTF " + where + ": " + what);
    }

    /// A non-negative integer field of at most 2^53, or `fallback` when absent.
    std::uint64_t number(const json& item, const std::string& where, const char* key,
                         std::optional<std::uint64_t> fallback) const {
        const auto it = item.find(key);
        if (it == item.end()) {
            if (!fallback) fail(where, std::string("has no ") + key);
            return *fallback;
        }
        if (it->is_number_float()) {
            const double d = it->get<double>();
            if (d >= 0 && d <= static_cast<double>(kLargest) && d == static_cast<double>(static_cast<std::uint64_t>(d)))
                return static_cast<std::uint64_t>(d);
        }
        if (!it->is_number_unsigned() || it->get<std::uint64_t>() > kLargest)
            fail(where, std::string(key) + " " + printable(it->dump(), 100) +
                            " is not a byte count or offset (a whole number from 0 to 2^53)");
        return it->get<std::uint64_t>();
    }

    /// The bytes a buffer really has, when they can be counted: the GLB binary
    /// chunk, a base64 data URI, or a file beside the glTF file.
    std::optional<std::uint64_t> real_size(const json& buffer, const std::string& name) const {
        const auto uri = buffer.find("uri");
        const bool glb_buffer = uri == buffer.end() || name == "buffer \"binary_glTF\"";
        if (glb_buffer) {
            if (!binary_chunk_) fail(name, "has no uri and the file has no binary chunk");
            return binary_chunk_;
        }
        if (!uri->is_string()) fail(name, "uri is not a string");
        const std::string& text = uri->get_ref<const std::string&>();
        if (text.rfind("data:", 0) == 0) {
            const auto comma = text.find(',');
            if (comma == std::string::npos || text.rfind(";base64", comma) == std::string::npos) return std::nullopt;
            std::size_t digits = text.size() - comma - 1;
            std::size_t padding = 0;
            while (digits > 0 && padding < 2 && text[comma + digits] == '=') --digits, ++padding;
            return digits / 4 * 3 + (digits % 4 == 0 ? 0 : digits % 4 - 1);
        }
        // A relative path, %XX-escaped as URIs are.
        std::string file;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '%' && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
                std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
                file += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
                i += 2;
            } else {
                file += text[i];
            }
        }
        std::error_code ec;
        const auto size = std::filesystem::file_size(path_.parent_path() / file, ec);
        return ec ? std::nullopt : std::optional<std::uint64_t>(size);
    }

    /// How many bytes of `buffer` can be read: its byteLength, or fewer when
    /// the bytes that hold it are fewer. Worked out once per buffer.
    std::uint64_t readable(const json& buffer, const std::string& name) {
        const auto known = readable_.find(&buffer);
        if (known != readable_.end()) return known->second;
        std::uint64_t length = number(buffer, name, "byteLength", std::nullopt);
        if (const std::optional<std::uint64_t> size = real_size(buffer, name)) length = std::min(length, *size);
        return readable_[&buffer] = length;
    }

    void check_view(const json& view, const std::string& name, bool against_real_bytes) {
        const std::uint64_t offset = number(view, name, "byteOffset", 0);
        const std::uint64_t length = number(view, name, "byteLength", std::nullopt);
        const std::uint64_t stride = number(view, name, "byteStride", 0);
        if (stride > 252) fail(name, "byteStride " + std::to_string(stride) + " is more than 252");
        const auto ref = view.find("buffer");
        const json* buffer = ref == view.end() ? nullptr : buffers_.find(*ref);
        if (!buffer) fail(name, "refers to a buffer that does not exist");
        const std::string buffer_name = buffers_.name_of(*ref);
        const std::uint64_t declared = number(*buffer, buffer_name, "byteLength", std::nullopt);
        const std::uint64_t holds = against_real_bytes ? readable(*buffer, buffer_name) : declared;
        if (offset + length > holds)
            fail(name, "bytes " + std::to_string(offset) + " to " + std::to_string(offset + length) + " are beyond " +
                           (holds < declared ? "the " + std::to_string(holds) + " bytes its buffer holds"
                                             : "its buffer's " + std::to_string(holds) + " bytes"));
    }

    /// The bufferView `item` refers to, checked within its buffer.
    const json& view_of(const json& item, const std::string& name) {
        const auto ref = item.find("bufferView");
        const json* view = ref == item.end() ? nullptr : views_.find(*ref);
        if (!view) fail(name, "refers to a bufferView that does not exist");
        check_view(*view, views_.name_of(*ref), true);
        return *view;
    }

    /// `count` elements of `size` bytes, `stride` apart, from `offset` in `view`.
    void check_span(const json& view, const std::string& name, std::uint64_t offset, std::uint64_t count,
                    std::uint64_t size, std::uint64_t stride) const {
        const std::uint64_t view_length = number(view, name, "byteLength", std::nullopt);
        const std::uint64_t end = count == 0 ? offset : offset + (count - 1) * stride + size;
        if (end > view_length)
            fail(name, std::to_string(count) + " elements of " + std::to_string(size) + " bytes, " +
                           std::to_string(stride) + " apart from byteOffset " + std::to_string(offset) +
                           ", end at byte " + std::to_string(end) + " of a bufferView of " +
                           std::to_string(view_length) + " bytes");
    }

    static std::uint64_t component_bytes(const json& type) {
        if (!type.is_number_unsigned()) return 0;
        switch (type.get<std::uint64_t>()) {
            case 5120: case 5121: return 1;  // (unsigned) byte
            case 5122: case 5123: return 2;  // (unsigned) short
            case 5125: case 5126: return 4;  // unsigned int, float
            default: return 0;
        }
    }
    static std::uint64_t components(const json& type) {
        if (!type.is_string()) return 0;
        const std::string& t = type.get_ref<const std::string&>();
        if (t == "SCALAR") return 1;
        if (t == "VEC2") return 2;
        if (t == "VEC3") return 3;
        if (t == "VEC4" || t == "MAT2") return 4;
        if (t == "MAT3") return 9;
        if (t == "MAT4") return 16;
        return 0;
    }

    void check_accessor(const json& accessor, const std::string& name) {
        const std::uint64_t count = number(accessor, name, "count", std::nullopt);
        const std::uint64_t component = component_bytes(accessor.value("componentType", json()));
        const std::uint64_t n = components(accessor.value("type", json()));
        if (component == 0) fail(name, "componentType is not one glTF defines");
        if (n == 0) fail(name, "type is not one glTF defines (SCALAR, VEC2-4, MAT2-4)");
        const std::uint64_t size = component * n;
        if (accessor.contains("bufferView")) {
            const json& view = view_of(accessor, name);
            // glTF 2.0 keeps the stride in the bufferView, glTF 1.0 in the accessor; 0 = packed.
            std::uint64_t stride = number(view, name, "byteStride", 0);
            if (stride == 0) stride = number(accessor, name, "byteStride", 0);
            if (stride > 255) fail(name, "byteStride " + std::to_string(stride) + " is more than 255");
            if (stride == 0) stride = size;
            check_span(view, name, number(accessor, name, "byteOffset", 0), count, size, stride);
        }
        if (const auto sparse = accessor.find("sparse"); sparse != accessor.end() && sparse->is_object()) {
            const std::uint64_t changed = number(*sparse, name + " sparse", "count", std::nullopt);
            if (changed > count)
                fail(name, "sparse count " + std::to_string(changed) + " is more than its count " +
                               std::to_string(count));
            if (const auto indices = sparse->find("indices"); indices != sparse->end() && indices->is_object()) {
                const std::uint64_t index_size = component_bytes(indices->value("componentType", json()));
                if (index_size == 0) fail(name + " sparse indices", "componentType is not one glTF defines");
                check_span(view_of(*indices, name + " sparse indices"), name + " sparse indices",
                           number(*indices, name + " sparse indices", "byteOffset", 0), changed, index_size,
                           index_size);
            }
            if (const auto values = sparse->find("values"); values != sparse->end() && values->is_object())
                check_span(view_of(*values, name + " sparse values"), name + " sparse values",
                           number(*values, name + " sparse values", "byteOffset", 0), changed, size, size);
        }
    }

    const std::filesystem::path& path_;
    std::optional<std::uint64_t> binary_chunk_;
    Collection buffers_, views_, accessors_;
    std::unordered_map<const json*, std::uint64_t> readable_;
};

/// The JSON text and the binary chunk's size of a GLB file (versions 1 and 2),
/// or nullopt for a file that does not start with the GLB magic.
struct GlbParts {
    std::string_view json_text;
    std::optional<std::uint64_t> binary_chunk;
};

std::optional<GlbParts> glb_parts(const std::filesystem::path& path, std::string_view bytes) {
    if (bytes.size() < 12 || bytes.substr(0, 4) != "glTF") return std::nullopt;
    const auto fail = [&](const std::string& what) -> GlbParts { throw Error(path.string() + ": GLB " + what); };
    const std::uint32_t version = u32_at(bytes, 4);
    const std::uint64_t length = std::min<std::uint64_t>(u32_at(bytes, 8), bytes.size());
    if (version == 1) {
        // header (20 bytes: magic, version, length, content length, content format), JSON, binary body
        if (bytes.size() < 20) return fail("header is cut short");
        const std::uint64_t content = u32_at(bytes, 12);
        if (20 + content > length) return fail("JSON content runs past the end of the file");
        return GlbParts{bytes.substr(20, content), length - 20 - content};
    }
    if (version != 2) return fail("version " + std::to_string(version) + " is not 1 or 2");
    // header (12 bytes), then chunks: length, type, data
    GlbParts parts;
    bool have_json = false;
    for (std::uint64_t at = 12; at + 8 <= length;) {
        const std::uint64_t chunk = u32_at(bytes, at);
        const std::uint32_t type = u32_at(bytes, at + 4);
        if (at + 8 + chunk > length) return fail("chunk at byte " + std::to_string(at) + " runs past the end of the file");
        if (type == 0x4E4F534Au && !have_json) {  // "JSON"
            parts.json_text = bytes.substr(at + 8, chunk);
            have_json = true;
        } else if (type == 0x004E4942u && !parts.binary_chunk) {  // "BIN\0"
            parts.binary_chunk = chunk;
        }
        at += 8 + chunk;
    }
    if (!have_json) return fail("has no JSON chunk");
    return parts;
}

}  // namespace

void check_gltf_layout(const std::filesystem::path& path) {
    std::string bytes;
    try {
        bytes = read_file(path, [](std::string_view start) {
            if (start.substr(0, 4) == "glTF") return;
            if (start.substr(0, 3) == "\xef\xbb\xbf") start.remove_prefix(3);
            const auto first = start.find_first_not_of(" \t\r\n");
            if (first == std::string_view::npos || start[first] != '{') throw NotGltf{};
        });
    } catch (const NotGltf&) {
        return;
    }
    const std::optional<GlbParts> glb = glb_parts(path, bytes);
    const json root = json::parse(glb ? glb->json_text : std::string_view(bytes), nullptr, false);
    // Not JSON, or JSON without an asset: not glTF (Assimp's glTF readers need
    // "asset"); whatever reads it names its own errors.
    if (!root.is_object() || !root.contains("asset")) {
        if (glb) throw Error(path.string() + ": GLB JSON chunk is not a glTF object");
        return;
    }
    Checker checker(path, root, glb ? glb->binary_chunk : std::nullopt);
    checker.run();
}

}  // namespace springkit::detail
