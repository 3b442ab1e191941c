// glTF and GLB files whose accessors, bufferViews or buffers point outside the
// bytes that hold them are refused before Assimp reads them, naming the file and
// the accessor (converter/import/src/gltf_check.cpp). Each file is written here: one triangle, three
// float positions and three 16-bit indices, then broken in one way.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>

#include "springkit/import.hpp"
#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
namespace fs = std::filesystem;

namespace {

void put_u32(std::string& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}
void put_float(std::string& out, float f) { put_u32(out, std::bit_cast<std::uint32_t>(f)); }

/// The triangle's 44 bytes: positions (0,0,0) (1,0,0) (0,2,0) at 0, indices 0 1 2 at
/// 36, two bytes of padding.
std::string triangle_bytes(float x1 = 1.0f) {
    std::string out;
    for (float f : {0.0f, 0.0f, 0.0f, x1, 0.0f, 0.0f, 0.0f, 2.0f, 0.0f}) put_float(out, f);
    for (int i : {0, 1, 2}) out += static_cast<char>(i), out += '\0';
    out += std::string(2, '\0');
    return out;
}

std::string base64(std::string_view bytes) {
    static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        std::uint32_t group = 0;
        const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
        for (std::size_t k = 0; k < 3; ++k)
            group = group << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
        for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kDigits[(group >> (18 - 6 * k)) & 63] : '=';
    }
    return out;
}

struct Layout {
    std::string position_offset = "0";  ///< the position accessor's byteOffset
    std::string position_count = "3";
    std::string view_length = "36";       ///< the positions' bufferView byteLength
    std::string view_offset = "0";
    std::string buffer_length = "44";
    std::string extra_accessor;           ///< a third accessor, if any
};

/// The default layout with some fields changed.
Layout changed(std::initializer_list<std::pair<std::string Layout::*, std::string>> changes) {
    Layout l;
    for (const auto& [field, value] : changes) l.*field = value;
    return l;
}

/// The glTF JSON of the triangle; `buffer` is the buffer object's "uri" member
/// (empty: none, as in a GLB file).
std::string gltf_json(const Layout& l, const std::string& uri) {
    return R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
  "buffers": [{)" + (uri.empty() ? "" : "\"uri\": \"" + uri + "\", ") + "\"byteLength\": " + l.buffer_length + R"(}],
  "bufferViews": [{"buffer": 0, "byteOffset": )" + l.view_offset + ", \"byteLength\": " + l.view_length + R"(},
                  {"buffer": 0, "byteOffset": 36, "byteLength": 6}],
  "accessors": [{"bufferView": 0, "byteOffset": )" + l.position_offset + R"(, "componentType": 5126, "count": )" +
           l.position_count + R"(, "type": "VEC3", "min": [0, 0, 0], "max": [1, 2, 0]},
                {"bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"})" +
           (l.extra_accessor.empty() ? "" : ", " + l.extra_accessor) + "]}";
}

fs::path gltf(const std::string& name, const Layout& l = {}, const std::string& bytes = triangle_bytes()) {
    return springkit::test::scratch_file("gltf-check", name,
                                         gltf_json(l, "data:application/octet-stream;base64," + base64(bytes)));
}

/// A GLB file (glTF 2.0 binary): header, JSON chunk, BIN chunk of `bin` bytes.
fs::path glb(const std::string& name, const Layout& l, const std::string& bin) {
    std::string json = gltf_json(l, "");
    json.append((4 - json.size() % 4) % 4, ' ');
    std::string out = "glTF";
    put_u32(out, 2);
    put_u32(out, static_cast<std::uint32_t>(12 + 8 + json.size() + 8 + bin.size()));
    put_u32(out, static_cast<std::uint32_t>(json.size()));
    put_u32(out, 0x4E4F534Au);
    out += json;
    put_u32(out, static_cast<std::uint32_t>(bin.size()));
    put_u32(out, 0x004E4942u);
    out += bin;
    return springkit::test::scratch_file("gltf-check", name, out);
}

std::string import_error(const fs::path& file) {
    return springkit::test::error_of([&] { import_mesh(file); });
}

}  // namespace

TEST(GltfCheck, WellFormedTriangleImports) {
    for (const fs::path& file : {gltf("triangle.gltf"), glb("triangle.glb", {}, triangle_bytes())}) {
        const Model m = import_mesh(file);
        ASSERT_EQ(m.node_count(), 3u) << file;
        EXPECT_EQ(m.faces.size(), 1u) << file;
        EXPECT_EQ(m.springs.size(), 3u) << file;
        // The longest edge, (1,0,0)-(0,2,0), scaled as the importer scales: sqrt(5) of 2.
        float longest = 0;
        for (const Spring& s : m.springs) longest = std::max(longest, s.rest);
        float shortest = longest;
        for (const Spring& s : m.springs) shortest = std::min(shortest, s.rest);
        EXPECT_NEAR(longest / shortest, std::sqrt(5.0f), 1e-5f) << file;
    }
}

TEST(GltfCheck, AccessorOffsetNear2To64IsRefused) {
    const fs::path f = gltf("wrapping.gltf", changed({{&Layout::position_offset, "18446744073709551600"}}));
    EXPECT_EQ(import_error(f), f.string() +
                                   ": glTF accessor 0: byteOffset 18446744073709551600 is not a byte count or offset"
                                   " (a whole number from 0 to 2^53)");
}

TEST(GltfCheck, AccessorPastItsBufferViewIsRefused) {
    const fs::path f = gltf("past-view.gltf", changed({{&Layout::position_offset, "4"}}));
    EXPECT_EQ(import_error(f), f.string() + ": glTF accessor 0: 3 elements of 12 bytes, 12 apart from byteOffset 4, "
                                            "end at byte 40 of a bufferView of 36 bytes");
    const fs::path many = gltf("count.gltf", changed({{&Layout::position_count, "4000000000"}}));
    EXPECT_EQ(import_error(many), many.string() + ": glTF accessor 0: 4000000000 elements of 12 bytes, 12 apart "
                                                  "from byteOffset 0, end at byte 48000000000 of a bufferView of 36 bytes");
}

TEST(GltfCheck, BufferViewPastItsBufferIsRefused) {
    const fs::path f = gltf("past-buffer.gltf", changed({{&Layout::view_length, "36"}, {&Layout::view_offset, "12"}}));
    EXPECT_EQ(import_error(f), f.string() + ": glTF bufferView 0: bytes 12 to 48 are beyond its buffer's 44 bytes");
}

TEST(GltfCheck, BufferLongerThanItsBytesIsRefused) {
    // A data URI of 30 bytes for a buffer of 44: the positions' view needs 36.
    const fs::path f = gltf("short-data.gltf", {}, triangle_bytes().substr(0, 30));
    EXPECT_EQ(import_error(f), f.string() + ": glTF bufferView 0: bytes 0 to 36 are beyond the 30 bytes its buffer holds");
    // A BIN chunk of 40 bytes: the indices' view needs 42.
    const fs::path g = glb("short-chunk.glb", {}, triangle_bytes().substr(0, 40));
    EXPECT_EQ(import_error(g), g.string() + ": glTF bufferView 1: bytes 36 to 42 are beyond the 40 bytes its buffer holds");
}

TEST(GltfCheck, SparseIndicesPastTheirViewAreRefused) {
    const fs::path f = gltf("sparse.gltf", changed({{&Layout::extra_accessor, R"({"componentType": 5126, "count": 3, "type": "VEC3",
        "sparse": {"count": 2, "indices": {"bufferView": 1, "byteOffset": 4, "componentType": 5123},
                   "values": {"bufferView": 0}}})"}}));
    EXPECT_EQ(import_error(f), f.string() + ": glTF accessor 2 sparse indices: 2 elements of 2 bytes, 2 apart from "
                                            "byteOffset 4, end at byte 8 of a bufferView of 6 bytes");
}

TEST(GltfCheck, ChunkPastTheEndOfAGlbIsRefused) {
    fs::path f = glb("cut.glb", {}, triangle_bytes());
    std::string bytes = read_file(f);
    bytes.resize(bytes.size() - 10);
    f = springkit::test::scratch_file("gltf-check", "cut.glb", bytes);
    const std::string error = import_error(f);
    EXPECT_EQ(error.substr(0, f.string().size() + 20), f.string() + ": GLB chunk at byte ") << error;
    EXPECT_EQ(error.substr(error.find(" runs past")), " runs past the end of the file") << error;
}

// What Assimp hands back is checked by the conversion (finite positions, indices
// in range) and by model validation (texture coordinates).
TEST(GltfCheck, NonFinitePositionIsRefused) {
    const fs::path f = gltf("nan.gltf", {}, triangle_bytes(std::numeric_limits<float>::quiet_NaN()));
    EXPECT_EQ(import_error(f), f.string() + ": vertex 1 (counted from 0 as read, each position once) is at (nan, nan, nan), not all "
                                            "finite numbers; "
                                            "vertices beyond +-1e+09 m or not finite: 1 of 3: the file looks corrupt "
                                            "or truncated");
}
