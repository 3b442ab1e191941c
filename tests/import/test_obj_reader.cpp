// springkit's own OBJ reader (converter/import/src/obj_reader.cpp) against Assimp's:
// every file is converted both ways (ImportOptions::fast_obj on and off) and the
// models must be the same bytes and the reports the same numbers. Files outside
// the reader's subset must be handed to Assimp (report.reader says which read it).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include "springkit/import.hpp"
#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
namespace fs = std::filesystem;
using springkit::test::error_of;

namespace {

fs::path write(const std::string& name, const std::string& text) {
    return springkit::test::scratch_file("test-obj-reader", name, text);
}

struct Converted {
    std::string model;  // the binary form: every number bit for bit
    ImportReport report;
};

Converted convert(const fs::path& path, bool fast_obj, ImportOptions options = {}) {
    options.fast_obj = fast_obj;
    Converted out;
    out.model = model_to_binary(import_mesh_isolated(path, options, out.report));
    return out;
}

/// Converts `path` both ways, expects the same model and report, and returns
/// which reader the fast way used.
std::string expect_same_both_ways(const fs::path& path, const ImportOptions& options = {}) {
    const Converted fast = convert(path, true, options), assimp = convert(path, false, options);
    EXPECT_EQ(assimp.report.reader, "assimp");
    EXPECT_TRUE(fast.model == assimp.model) << path << ": the models differ";
    EXPECT_EQ(fast.report.meshes, assimp.report.meshes) << path;
    EXPECT_EQ(fast.report.input_vertices, assimp.report.input_vertices) << path;
    EXPECT_EQ(fast.report.welded_vertices, assimp.report.welded_vertices) << path;
    EXPECT_EQ(fast.report.faces, assimp.report.faces) << path;
    EXPECT_EQ(fast.report.edge_springs, assimp.report.edge_springs) << path;
    EXPECT_EQ(fast.report.warnings, assimp.report.warnings) << path;
    return fast.report.reader;
}

}  // namespace

TEST(ObjReader, SampleMeshesGiveTheSameModelsAsAssimp) {
    const fs::path meshes = fs::path(SPRINGKIT_SOURCE_DIR) / "samples" / "meshes";
    EXPECT_EQ(expect_same_both_ways(meshes / "cloth.obj"), "obj");  // textured (mtllib, usemtl)
    EXPECT_EQ(expect_same_both_ways(meshes / "cube.obj"), "obj");
    EXPECT_EQ(expect_same_both_ways(meshes / "uv_sphere.obj"), "obj");
    EXPECT_EQ(expect_same_both_ways(meshes / "flag.obj"), "assimp");  // its pole is an `l` polyline
    ImportOptions extras;
    extras.bend = extras.shear = extras.volume = true;
    extras.anchors = {"top:5%"};
    EXPECT_EQ(expect_same_both_ways(meshes / "cloth.obj", extras), "obj");
    const Model cloth = import_mesh(meshes / "cloth.obj");
    EXPECT_EQ(fs::path(cloth.texture).filename(), "cloth.png");
}

// Everything the subset allows, in one file each way it can be written.
TEST(ObjReader, EveryFormOfTheSubsetReadsAsAssimpReadsIt) {
    const std::string mtl = "newmtl skin\nKd 1 1 1\nmap_Kd skin.png\n\nnewmtl other\nmap_Kd other.png\n";
    write("skin.mtl", mtl);
    const std::vector<std::pair<std::string, std::string>> files = {
        {"numbers", "v 1.5 -2.25 +3\nv +.5 -.25 0.1\nv 12.34 1e-3 2.5E+2\nv 0.333333333333333333333 -0.0 1e0\n"
                    "v 123456789012345678 0.1234567890123456789 7.000000000000001\nf 1 2 3\nf 3 4 5\nf 1 3 5\n"},
        {"negative_zero", "v -0 -0.0 0\nv 1 0 -0\nv 0 1 0\nf 1 2 3\n"},
        {"relative_and_forward", "f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf -3 -1 -2\nf -4 -3 -1\n"},
        {"polygons", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv -1 0.5 0\nv 0.5 2 0\n"
                     "f 1 2 3 4\nf 4 3 6 5\nf 1 4 5\n"},
        {"uvs_and_normals", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0 0\nvt 1 1\nvt 0 1 0.5\n"
                            "vn 0 0 1\nf 1/1/1 2/2/1 3/3/1\nf 1/1/1 3/3/1 4/4/1\n"},
        {"normals_only", "v 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0.5 0.5\nvn 0 0 1\nf 1//1 2//1 3//1\n"},
        {"uv_seam", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 1 0 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvt 0.5 0\n"
                    "f 1/1 2/2 3/3\nf 1/1 3/3 4/4\nf 5/5 3/3 1/1\n"},
        {"layout", "# comment\r\n\r\nv\t0 0 0  \r\nv 1\t0 0\r\n   \r\nv 0 1 0\r\ns off\r\nf  1 2\t3 \r\ns 1\r\nv 1 1 0"
                   "\r\nf 2 4 3"},
        {"unused_and_duplicate_vertices", "v 9 9 9\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 0\nv 8 8 8\n"
                                          "f 2 3 4\nf 5 3 4\n"},
        {"textured", "mtllib skin.mtl\no body\ng part\nusemtl skin\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\n"
                     "vt 1 0\nvt 0 1\nf 1/1 2/2 3/3\ns 1\n"},
        {"second_material_chosen", "mtllib skin.mtl\nusemtl skin\nusemtl other\nv 0 0 0\nv 1 0 0\nv 0 1 0\n"
                                   "vt 0 0\nf 1/1 2/1 3/1\n"},
        {"unknown_material", "mtllib skin.mtl\nusemtl nothing\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\n"
                             "f 1/1 2/1 3/1\n"},
        {"missing_library", "mtllib none.mtl\nusemtl skin\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/1 3/1\n"},
        {"objects_before_faces", "o a\no b\ng c\ng c\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"},
        // Several meshes: Assimp orders them by object, then by material change,
        // and a revisited object or group does not reopen its mesh.
        {"materials_interleaved", "mtllib skin.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 0 0\nv 2 1 0\n"
                                  "vt 0 0\nvt 1 1\nusemtl skin\nf 1/1 2/1 3/2\nusemtl other\nf 2/2 4/1 3/1\n"
                                  "usemtl skin\nf 2/1 5/2 4/1\nusemtl skin\nf 5/1 6/1 4/2\n"},
        {"objects_revisited", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 0 0\nv 2 1 0\no a\nf 1 2 3\no b\n"
                              "f 2 4 3\no a\nf 2 5 4\ng c\nf 5 6 4\ng d\nf 6 4 5\ng c\nf 1 3 2\n"},
        {"groups_and_materials", "mtllib skin.mtl\ng top\nusemtl other\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n"
                                 "f -4 -3 -2\ng bottom\nf 2 4 3\nusemtl skin\ng top\nf 1 2 4\n"},
        {"mesh_added_to_a_revisited_object", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 2 0 0\nusemtl m1\no a\n"
                                             "f 1 2 3\no b\nf 2 4 3\no a\nusemtl m2\nf 2 5 4\n"},
        {"material_after_faces", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nusemtl a\nf 3 2 4\n"},
    };
    // Scaled by 2^-40 (exact) so that 18-digit coordinates fit a model.
    ImportOptions options;
    options.scale = std::ldexp(1.0, -40);
    for (const auto& [name, text] : files)
        EXPECT_EQ(expect_same_both_ways(write(name + ".obj", text), options), "obj") << name;
    // Exact duplicates only, and no locality renumbering: the same nodes either way.
    options.weld = 0.0;
    options.keep_order = true;
    EXPECT_EQ(expect_same_both_ways(write("exact.obj", files[0].second), options), "obj");
}

// Outside the subset the file goes to Assimp: the model is Assimp's, errors are
// Assimp's and name the same problem.
TEST(ObjReader, FilesOutsideTheSubsetAreReadByAssimp) {
    const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    const std::vector<std::pair<std::string, std::string>> files = {
        {"line", tri + "l 1 2 3\nf 1 2 3\n"},
        {"point", tri + "p 1\nf 1 2 3\n"},
        {"trailing_dot", "v 1. 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"},
        {"comma", "v 1,5 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"},
        {"four_numbers", "v 0 0 0 1\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"},
        {"colours", "v 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 0 1 0 0 0 1\nf 1 2 3\n"},
        {"continuation", "v 0 0 \\\n0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"},
        {"comment_continuation", "# a \\\nv 9 9 9\n" + tri + "f 1 2 3\n"},
        {"byte_order_mark", "\xEF\xBB\xBF# a comment\n" + tri + "f 1 2 3\n"},
        {"leading_zero_index", tri + "f 01 2 3\n"},
        {"two_corner_face", tri + "f 1 2\nf 1 2 3\n"},
        {"mixed_uv_corners", tri + "vt 0 0\nf 1/1 2 3\n"},
        {"indented", tri + " f 1 2 3\nf 1 2 3\n"},
        {"trailing_comment", "v 0 0 0 # origin\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"},
        {"fraction_without_sign", "v .5 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n"},
    };
    for (const auto& [name, text] : files)
        EXPECT_EQ(expect_same_both_ways(write(name + ".obj", text)), "assimp") << name;
    // Welding turned off: Assimp's one node per face corner.
    ImportOptions no_weld;
    no_weld.weld = -1.0;
    EXPECT_EQ(expect_same_both_ways(write("no_weld.obj", tri + "f 1 2 3\nf 1 3 2\n"), no_weld), "assimp");

    // Indices out of range and infinite numbers: Assimp's error, the same either way.
    for (const std::string& text : {tri + "f 1 2 4\n", tri + "f -4 1 2\n",
                                    tri + "v 1e39 0 0\nf 1 2 4\n", "v .5 0 0\n" + tri + "f 2 3 4\n"}) {
        const fs::path path = write("out_of_range.obj", text);
        const std::string fast = error_of([&] { convert(path, true); });
        EXPECT_FALSE(fast.empty()) << text;
        EXPECT_EQ(fast, error_of([&] { convert(path, false); })) << text;
    }
    // A UV index out of range: Assimp 5.2 reads it without a word (from beyond
    // its array); springkit's reader leaves such a file to it.
    EXPECT_EQ(convert(write("uv_out_of_range.obj", tri + "vt 0 0\nf 1/1 2/2 3/1\n"), true).report.reader, "assimp");
}

// Decimals of every shape Assimp's reader treats specially (many digits, long
// fractions, exponents, signs), positions scattered so that none weld: each must
// come out bit for bit as Assimp reads it.
TEST(ObjReader, RandomDecimalsReadBitForBitAsAssimpReadsThem) {
    std::mt19937 random(20261122);
    auto digits = [&](int count) {
        std::string s;
        for (int i = 0; i < count; ++i) s += static_cast<char>('0' + random() % 10);
        return s;
    };
    auto decimal = [&] {
        std::string s = random() % 3 == 0 ? "-" : random() % 5 == 0 ? "+" : "";
        const int form = static_cast<int>(random() % 4);
        s += digits(1 + static_cast<int>(random() % (form == 0 ? 19 : 4)));
        if (form != 1) {
            s += '.';
            s += digits(1 + static_cast<int>(random() % 22));
        }
        if (form == 3) {
            s += random() % 2 ? 'e' : 'E';
            if (random() % 2) s += '-';
            s += std::to_string(random() % 10);
        }
        return s;
    };
    std::string text;
    const int vertices = 3000;
    for (int i = 0; i < vertices; ++i) {
        // Large steps apart along x (so nothing welds), random digits in every field.
        text += "v " + std::to_string(i) + "." + digits(6) + " " + decimal() + " " + decimal() + "\n";
        text += "vt " + decimal() + " " + decimal() + "\n";
    }
    for (int i = 1; i + 2 <= vertices; i += 3)
        text += "f " + std::to_string(i) + "/" + std::to_string(i) + " " + std::to_string(i + 1) + "/" +
                std::to_string(i + 1) + " " + std::to_string(i + 2) + "/" + std::to_string(i + 2) + "\n";
    ImportOptions exact;
    exact.weld = 0.0;
    exact.keep_order = true;
    exact.scale = std::ldexp(1.0, -40);  // exact, and every decimal above fits a model
    const fs::path path = write("decimals.obj", text);
    EXPECT_EQ(expect_same_both_ways(path, exact), "obj");
    const Model model = import_mesh(path, exact);
    EXPECT_EQ(model.node_count(), std::size_t(vertices));  // every position read, none merged
}

namespace {

/// A random OBJ file inside the subset: vertices, UVs and normals written in
/// every form the subset allows, faces of 3-6 corners in every index form
/// (absolute, relative, forward), and objects, groups, materials and smoothing
/// lines anywhere, CRLF or LF, tabs or spaces, comments.
std::string random_plain_obj(std::mt19937& random) {
    auto pick = [&](int n) { return static_cast<int>(random() % static_cast<unsigned>(n)); };
    auto number = [&] {
        std::string s = pick(4) == 0 ? "-" : pick(8) == 0 ? "+" : "";
        s += std::to_string(pick(3));
        if (pick(4) != 0) {
            s += '.';
            for (int d = 1 + pick(9); d > 0; --d) s += static_cast<char>('0' + pick(10));
        }
        if (pick(8) == 0) {
            s += pick(2) ? "e-" : "E";
            s += std::to_string(pick(4));
        }
        return s;
    };
    const std::string eol = pick(3) == 0 ? "\r\n" : "\n";
    auto blank = [&] { return std::string(pick(4) == 0 ? "\t" : pick(6) == 0 ? "  " : " "); };
    const bool uvs = pick(3) != 0, normals = pick(2) == 0;
    const char* statements[] = {"o body", "o arm", "g left", "g right", "usemtl skin", "usemtl other",
                                "usemtl missing", "mtllib skin.mtl", "s 1", "s off", "# note"};
    std::string text;
    int vertices = 0, texcoords = 0, normal_count = 0;
    auto add_line = [&](const char* keyword, int numbers) {
        text += keyword;
        for (int i = 0; i < numbers; ++i) {
            text += blank();
            text += number();
        }
        text += eol;
    };
    auto add_vertex = [&] {
        add_line("v", 3);
        ++vertices;
        if (uvs || pick(4) == 0) {
            add_line("vt", pick(4) == 0 ? 3 : 2);
            ++texcoords;
        }
        if (normals) {
            add_line("vn", 3);
            ++normal_count;
        }
    };
    for (int i = 0; i < 4; ++i) add_vertex();
    auto index = [&](int i, int count) {  // 0-based i as absolute or relative, if it is already defined
        return i < count && pick(3) == 0 ? std::to_string(i - count) : std::to_string(i + 1);
    };
    const int lines = 10 + pick(40);
    for (int line = 0; line < lines; ++line) {
        if (pick(3) == 0) add_vertex();
        if (pick(5) == 0) {
            text += statements[pick(11)];
            text += eol;
        }
        const int corners = pick(4) == 0 ? 4 + pick(3) : 3;
        const int reach = vertices + 2;  // may point 2 vertices ahead: they come later
        text += "f";
        for (int c = 0; c < corners; ++c) {
            const int v = pick(reach);
            text += blank();
            text += index(v, vertices);
            if (uvs) {
                text += '/';
                text += index(pick(texcoords), texcoords);
            }
            if (normals) {
                text += uvs ? "/" : "//";
                text += index(pick(normal_count), normal_count);
            }
        }
        text += eol;
    }
    add_vertex();
    add_vertex();  // the vertices faces pointed ahead to
    return text;
}

}  // namespace

// Random files of the subset, with every feature mixed: each must be read by
// springkit's reader, into Assimp's model. (3000 files with other seeds were
// run once the same way: all the same.)
TEST(ObjReader, RandomFilesOfTheSubsetGiveAssimpsModel) {
    write("skin.mtl", "newmtl skin\nmap_Kd skin.png\nnewmtl other\nmap_Kd other.png\n");
    std::mt19937 random(7);
    ImportOptions options;
    options.weld = 0.0;  // random points are close: exact duplicates only, or everything welds
    for (int file = 0; file < 150; ++file) {
        const std::string text = random_plain_obj(random);
        SCOPED_TRACE(text);
        EXPECT_EQ(expect_same_both_ways(write("random.obj", text), options), "obj");
        if (HasFailure()) break;  // one file is enough to see what is wrong
    }
}

TEST(ObjReader, MeshCornersComeBackAsAssimpsVertexCount) {
    // 4 vertices, two triangles: Assimp hands back 6 vertices (one per corner),
    // the report counts those, and 2 of them are welded.
    const fs::path path = write("quad.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n");
    ImportReport report;
    const Model model = import_mesh(path, {}, report);
    EXPECT_EQ(report.reader, "obj");
    EXPECT_EQ(report.input_vertices, 6u);
    EXPECT_EQ(report.welded_vertices, 2u);
    EXPECT_EQ(model.node_count(), 4u);
    EXPECT_EQ(model.faces.size(), 2u);
    EXPECT_EQ(report.edge_springs, 5u);
}

// Assimp's own OBJ test files: whichever reader reads each, the model is the same.
TEST(ObjReader, AssimpsObjTestFilesGiveTheSameModelsEitherWay) {
    const fs::path corpus = "/usr/share/assimp/models/OBJ";
    if (!fs::exists(corpus)) GTEST_SKIP() << "assimp-testmodels is not installed";
    int read_by_springkit = 0, compared = 0;
    for (const auto& entry : fs::directory_iterator(corpus)) {
        if (entry.path().extension() != ".obj") continue;
        ImportReport report;
        try {
            import_mesh_isolated(entry.path(), {}, report);
        } catch (const Error&) {
            continue;  // refused either way (the corpus test checks how)
        }
        read_by_springkit += expect_same_both_ways(entry.path()) == "obj";
        ++compared;
    }
    EXPECT_GE(compared, 15);
    EXPECT_GE(read_by_springkit, 5);
    std::printf("%d of %d files read by springkit's OBJ reader\n", read_by_springkit, compared);
}
