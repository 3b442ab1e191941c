// springkit::import: texture paths as artists' files write them (relative with
// backslashes, absolute from another machine, another letter case), only regular
// files, and image headers within texture_limits.hpp.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <assimp/scene.h>
#include <stb_image.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "springkit/import.hpp"
#include "springkit/texture_limits.hpp"
#include "import_internal.hpp"
#include "support/test_files.hpp"

using namespace springkit;
namespace fs = std::filesystem;

namespace {

std::uint32_t crc32(const std::string& bytes) {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (unsigned char b : bytes) {
        crc ^= b;
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

std::string big_endian(std::uint32_t v) {
    return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

/// The start of a PNG file of width x height RGBA pixels: its signature and IHDR
/// chunk (what a header check reads; no pixel data follows).
std::string png_header(std::uint32_t width, std::uint32_t height) {
    const std::string ihdr = "IHDR" + big_endian(width) + big_endian(height) + std::string{8, 6, 0, 0, 0};
    return std::string("\x89PNG\r\n\x1a\n", 8) + big_endian(13) + ihdr + big_endian(crc32(ihdr));
}

void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

/// A textured quad whose material names `texture` (as the .mtl file writes it).
fs::path quad_naming(const fs::path& dir, const std::string& texture) {
    write(dir / "quad.mtl", "newmtl skin\nmap_Kd " + texture + "\n");
    write(dir / "quad.obj",
          "mtllib quad.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
          "usemtl skin\nf 1/1 2/2 3/3 4/4\n");
    return dir / "quad.obj";
}

struct Imported {
    Model model;
    ImportReport report;
};

Imported import(const fs::path& mesh, const fs::path& texture_folder = {}) {
    ImportOptions o;
    o.texture_folder = texture_folder;
    Imported r;
    r.model = import_mesh(mesh, o, r.report);
    return r;
}

}  // namespace

TEST(Textures, RelativeWithBackslashesIsFoundRelativeToTheMesh) {
    test::TempDir dir;
    write(dir.path() / "maps/wood.png", png_header(4, 4));
    const Imported r = import(quad_naming(dir.path(), "maps\\wood.png"));
    EXPECT_EQ(r.model.texture, (dir.path() / "maps/wood.png").generic_string());
    EXPECT_EQ(r.report.texture_source, "where the mesh names it");
    EXPECT_TRUE(r.report.warnings.empty()) << r.report.warnings.front();
}

TEST(Textures, AbsolutePathsFromAnotherMachineAreFoundNextToTheMeshByName) {
    test::TempDir dir;
    write(dir.path() / "wood.png", png_header(4, 4));
    for (const char* foreign : {"D:/projects/x/wood.png", "C:\\tex\\wood.png", "/home/other-machine/x/wood.png"}) {
        const Imported r = import(quad_naming(dir.path(), foreign));
        EXPECT_EQ(r.model.texture, (dir.path() / "wood.png").generic_string()) << foreign;
        EXPECT_EQ(r.report.texture_source, "found next to the mesh by name") << foreign;
        EXPECT_TRUE(r.report.warnings.empty()) << foreign;
    }
}

TEST(Textures, TexturesFolderThenCaseInsensitiveNameAreTheLastResorts) {
    test::TempDir dir;
    write(dir.path() / "Textures/wood.png", png_header(4, 4));
    Imported r = import(quad_naming(dir.path(), "C:\\tex\\wood.png"));
    EXPECT_EQ(r.model.texture, (dir.path() / "Textures/wood.png").generic_string());
    EXPECT_EQ(r.report.texture_source, "found in the textures folder next to the mesh by name");

    write(dir.path() / "Bark.PNG", png_header(2, 2));
    r = import(quad_naming(dir.path(), "D:/art/bark.png"));
    EXPECT_EQ(r.model.texture, (dir.path() / "Bark.PNG").generic_string());
    EXPECT_EQ(r.report.texture_source, "found next to the mesh by a case-insensitive name match");
}

TEST(Textures, ThePathIsWrittenRelativeToTheOutputFolder) {
    test::TempDir dir;
    write(dir.path() / "art/wood.png", png_header(4, 4));
    const Imported r = import(quad_naming(dir.path() / "art", "D:\\p\\wood.png"), dir.path() / "out/models");
    EXPECT_EQ(r.model.texture, "../../art/wood.png");
}

TEST(Textures, AMissingTextureIsWarnedAboutAndStillNamed) {
    test::TempDir dir;
    const Imported r = import(quad_naming(dir.path(), "D:/projects/x/wood.png"));
    ASSERT_EQ(r.report.warnings.size(), 1u);
    EXPECT_EQ(r.report.warnings[0], "the texture D:/projects/x/wood.png was not found (nor wood.png next to the mesh "
                                    "or in its textures folder); the model names it all the same");
    EXPECT_EQ(r.model.texture, (dir.path() / "wood.png").generic_string());
    EXPECT_EQ(r.report.texture_source, "");
}

TEST(Textures, OnlyRegularFilesAreRead) {
    test::TempDir dir;
    const fs::path fifo = dir.path() / "wood.png";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);  // opening it to read would block forever
    const Imported r = import(quad_naming(dir.path(), "wood.png"));
    ASSERT_EQ(r.report.warnings.size(), 1u);
    EXPECT_EQ(r.report.warnings[0], "the texture " + fifo.generic_string() +
                                        " is not a regular file (a folder, device or pipe); not read, the model has none");
    EXPECT_EQ(r.model.texture, "");
}

TEST(Textures, HugeImagesAreRefusedFromTheirHeader) {
    test::TempDir dir;
    // 33 bytes claiming 16384 x 16384 pixels (1 GiB of RGBA): refused without decoding.
    write(dir.path() / "huge.png", png_header(16384, 16384));
    Imported r = import(quad_naming(dir.path(), "huge.png"));
    ASSERT_EQ(r.report.warnings.size(), 1u);
    EXPECT_EQ(r.report.warnings[0], "the texture " + (dir.path() / "huge.png").generic_string() +
                                        " is refused: texture of 16384 x 16384 pixels is larger than 8192 x 8192; "
                                        "scale it down; the model has none");
    EXPECT_EQ(r.model.texture, "");
    // The largest accepted side, and a file that is not an image (still named).
    write(dir.path() / "edge.png", png_header(kMaxTextureSide, 16));
    EXPECT_TRUE(import(quad_naming(dir.path(), "edge.png")).report.warnings.empty());
    write(dir.path() / "notes.png", "not an image");
    r = import(quad_naming(dir.path(), "notes.png"));
    ASSERT_EQ(r.report.warnings.size(), 1u);
    EXPECT_EQ(r.report.warnings[0].rfind("the texture " + (dir.path() / "notes.png").generic_string() +
                                             " cannot be read as an image (",
                                         0),
              0u)
        << r.report.warnings[0];
    EXPECT_EQ(r.model.texture, (dir.path() / "notes.png").generic_string());
}

TEST(Textures, TextureSizeLimits) {
    EXPECT_EQ(texture_size_problem(8192, 8192), "");
    EXPECT_EQ(texture_size_problem(8193, 1), "texture of 8193 x 1 pixels is larger than 8192 x 8192; scale it down");
    EXPECT_NE(texture_size_problem(0, 5), "");
}

// Through Assimp's own readers: a glTF file's external image, a Collada file's
// backslash path.
TEST(Textures, GltfExternalImage) {
    test::TempDir dir;
    write(dir.path() / "images/wood.png", png_header(4, 4));
    write(dir.path() / "tri.gltf", R"({
  "asset": {"version": "2.0"},
  "buffers": [{"byteLength": 60, "uri": "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/"}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 24}],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
    {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"}],
  "images": [{"uri": "images/wood.png"}],
  "textures": [{"source": 0}],
  "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "material": 0}]}],
  "nodes": [{"mesh": 0}],
  "scenes": [{"nodes": [0]}],
  "scene": 0
})");
    const Imported r = import(dir.path() / "tri.gltf", dir.path());
    EXPECT_EQ(r.model.texture, "images/wood.png");
    EXPECT_EQ(r.report.texture_source, "where the mesh names it");
    EXPECT_TRUE(r.report.warnings.empty()) << r.report.warnings.front();
}

TEST(Textures, ColladaBackslashPath) {
    test::TempDir dir;
    write(dir.path() / "maps/wood.png", png_header(4, 4));
    write(dir.path() / "tri.dae", R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Y_UP</up_axis></asset>
  <library_images><image id="wood"><init_from>maps\wood.png</init_from></image></library_images>
  <library_effects><effect id="fx"><profile_COMMON>
    <newparam sid="surf"><surface type="2D"><init_from>wood</init_from></surface></newparam>
    <newparam sid="samp"><sampler2D><source>surf</source></sampler2D></newparam>
    <technique sid="common"><lambert><diffuse><texture texture="samp" texcoord="UV"/></diffuse></lambert></technique>
  </profile_COMMON></effect></library_effects>
  <library_materials><material id="mat"><instance_effect url="#fx"/></material></library_materials>
  <library_geometries><geometry id="g"><mesh>
    <source id="p"><float_array id="pa" count="9">0 0 0 1 0 0 0 1 0</float_array>
      <technique_common><accessor source="#pa" count="3" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
    <source id="t"><float_array id="ta" count="6">0 0 1 0 0 1</float_array>
      <technique_common><accessor source="#ta" count="3" stride="2">
        <param name="S" type="float"/><param name="T" type="float"/></accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles material="m" count="1"><input semantic="VERTEX" source="#v" offset="0"/>
      <input semantic="TEXCOORD" source="#t" offset="1" set="0"/><p>0 0 1 1 2 2</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g"><bind_material><technique_common>
    <instance_material symbol="m" target="#mat"><bind_vertex_input semantic="UV" input_semantic="TEXCOORD" input_set="0"/></instance_material>
  </technique_common></bind_material></instance_geometry></node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
)");
    const Imported r = import(dir.path() / "tri.dae", dir.path());
    EXPECT_EQ(r.model.texture, "maps/wood.png");
    EXPECT_EQ(r.report.texture_source, "where the mesh names it");
    EXPECT_TRUE(r.report.warnings.empty()) << r.report.warnings.front();
}

// Raw ARGB8888 texels (aiTexture with a height) become a PNG file with the same pixels.
TEST(Textures, RawEmbeddedTexelsBecomeAPng) {
    aiScene scene;
    scene.mNumTextures = 1;
    scene.mTextures = new aiTexture*[1]{new aiTexture};
    aiTexture& t = *scene.mTextures[0];
    t.mWidth = 2;
    t.mHeight = 1;
    t.pcData = new aiTexel[2]{{1, 2, 3, 4}, {250, 251, 252, 253}};  // b, g, r, a
    detail::Soup soup;
    detail::take_embedded_texture(scene, "*0", soup);
    ASSERT_EQ(soup.embedded_texture_problem, "");
    EXPECT_EQ(soup.embedded_texture_format, "png");
    int width = 0, height = 0, channels = 0;
    std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
        stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(soup.embedded_texture.data()),
                              static_cast<int>(soup.embedded_texture.size()), &width, &height, &channels, 4),
        stbi_image_free);
    ASSERT_TRUE(pixels);
    EXPECT_EQ(width, 2);
    EXPECT_EQ(height, 1);
    EXPECT_EQ(std::vector<int>(pixels.get(), pixels.get() + 8), (std::vector<int>{3, 2, 1, 4, 252, 251, 250, 253}));

    // A raw image beyond the limits is refused from its size alone.
    t.mWidth = 16384;
    t.mHeight = 16384;
    detail::Soup huge;
    detail::take_embedded_texture(scene, "*0", huge);
    EXPECT_EQ(huge.embedded_texture, "");
    EXPECT_EQ(huge.embedded_texture_problem, "the texture embedded in the file (*0) is refused: texture of 16384 x "
                                             "16384 pixels is larger than 8192 x 8192; scale it down; the model has none");
    t.mWidth = 2;  // what pcData holds, for the destructor's sake (it frees by pointer)
    t.mHeight = 1;
}
