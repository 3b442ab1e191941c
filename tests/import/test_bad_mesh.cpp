// The bad-input table for meshes (docs/RELIABILITY.md): small OBJ files broken in
// one way each, through springkit::import_mesh. Refused with one line naming the
// file, or converted with the documented outcome, and never a NaN.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "springkit/import.hpp"
#include "springkit/springkit.hpp"
#include "support/child_process.hpp"
#include "support/test_files.hpp"

using namespace springkit;
namespace fs = std::filesystem;

namespace {

fs::path mesh(const std::string& name, const std::string& text) {
    return springkit::test::scratch_file("bad-mesh", name, text);
}

std::string import_error(const fs::path& file) {
    return springkit::test::error_of([&] { import_mesh(file); });
}

// Steps a converted model for one second: every position and normal stays finite.
void runs_finite(const Model& m) {
    Simulation sim(m);
    for (int frame = 0; frame < 60; ++frame) sim.step(1.0f / 60.0f);
    for (const Vec3& p : sim.positions()) EXPECT_TRUE(is_finite(p));
    for (const Vec3& n : sim.normals()) EXPECT_TRUE(is_finite(n));
}

}  // namespace

TEST(BadMesh, EmptyFile) {
    const fs::path f = mesh("empty.obj", "");
    EXPECT_EQ(import_error(f), f.string() + ": cannot import: OBJ-file is too small.");
}

TEST(BadMesh, EmptyScene) {
    const fs::path f = mesh("comments.obj", "# a scene with a name and nothing in it\no empty\ng nothing\n");
    EXPECT_EQ(import_error(f), f.string() + ": the scene has no vertices (no meshes to convert)");
}

TEST(BadMesh, MeshWithoutFacesBecomesLooseNodes) {
    const Model m = import_mesh(mesh("points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n"));
    EXPECT_EQ(m.node_count(), 3u);
    EXPECT_TRUE(m.springs.empty());
    EXPECT_TRUE(m.faces.empty());
    runs_finite(m);
}

TEST(BadMesh, TriangleWeldedToAPointIsDroppedWithAWarning) {
    ImportReport report;
    const Model m = import_mesh(mesh("same.obj", "v 0 0 0\nv 0 0 0\nv 0 0 0\nf 1 2 3\n"), {}, report);
    EXPECT_EQ(m.node_count(), 1u);
    EXPECT_TRUE(m.faces.empty());
    ASSERT_EQ(report.warnings.size(), 1u);
    EXPECT_EQ(report.warnings[0], "1 degenerate triangle (corners welded together) was dropped");
}

TEST(BadMesh, TriangleWithTwoEqualCornersIsDropped) {
    ImportReport report;
    const Model m = import_mesh(mesh("two-equal.obj", "v 0 0 0\nv 1 0 0\nv 0 0 0\nf 1 2 3\n"), {}, report);
    EXPECT_EQ(m.node_count(), 2u);
    EXPECT_TRUE(m.faces.empty());
    ASSERT_EQ(report.warnings.size(), 2u);
    // The two nodes left have no spring between them: two islands, both free-falling points.
    EXPECT_EQ(report.warnings[1],
              "2 islands (parts no spring joins; nodes: 1, 1), 2 of them single nodes without springs (free-falling "
              "points): each moves on its own; --islands largest keeps the largest, --islands connect joins them "
              "with springs");
}

TEST(BadMesh, ZeroAreaTriangleIsKeptWithZeroNormals) {
    // Three distinct corners on one line: springs along the line, a face of zero
    // area whose normal is zero, not NaN.
    const Model m = import_mesh(mesh("collinear.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n"));
    EXPECT_EQ(m.node_count(), 3u);
    EXPECT_EQ(m.springs.size(), 3u);
    EXPECT_EQ(m.faces.size(), 1u);
    runs_finite(m);
}

TEST(BadMesh, NonManifoldEdgeSharedByThreeTriangles) {
    ImportOptions options;
    options.bend = true;
    const Model m = import_mesh(mesh("fin.obj",
                                     "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\n"
                                     "f 1 2 3\nf 2 1 4\nf 1 2 5\n"),
                                options);
    EXPECT_EQ(m.node_count(), 5u);
    EXPECT_EQ(m.faces.size(), 3u);
    EXPECT_NO_THROW(validate(m));
    runs_finite(m);
}

TEST(BadMesh, DuplicateFacesGiveOneSetOfSprings) {
    const Model m = import_mesh(mesh("twice.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 3\n"));
    EXPECT_EQ(m.springs.size(), 3u);  // springs are unique; both faces stay for drawing
    EXPECT_EQ(m.faces.size(), 2u);
}

TEST(BadMesh, HugeCoordinates) {
    // Before this check the weld tolerance (relative to the bounding box) merged
    // the whole mesh into one node without a word. One vertex far out of a mesh
    // of metres is no matter of scale: a corrupt file (the vertex named).
    const fs::path f = mesh("huge.obj", "v 0 0 0\nv 1e30 0 0\nv 0 1 0\nf 1 2 3\n");
    EXPECT_EQ(import_error(f), f.string() +
                                   ": vertex 1 (counted from 0 as read, each position once) is at (1e+30, 0, 0), beyond +-1e+09 m, where half "
                                   "the vertices are within 1 m of the origin; vertices beyond +-1e+09 m or not "
                                   "finite: 1 of 3: the file looks corrupt or truncated");
}

TEST(BadMesh, AMeshLargeAsAWholeIsToldTheScaleThatFits) {
    // Every vertex some 1e9 m out: the unit, not the file, is wrong, and --scale
    // 0.3 (1e9 / 3e9, rounded down) brings the farthest within bounds.
    const fs::path f = mesh("large.obj", "v 0 0 0\nv 3e9 0 0\nv 0 2e9 0\nv 2e9 2e9 1\nf 1 2 3\nf 2 4 3\n");
    const std::string message = ": vertex 1 (counted from 0 as read, each position once) is at (3e+09, 0, 0), beyond +-1e+09 m, and half the "
                                "vertices lie beyond 2e+09 m of the origin: the mesh is too large as a whole; give its "
                                "unit (--units) or scale it down (--scale 0.3 or less)";
    EXPECT_EQ(import_error(f), f.string() + message);
    ImportOptions options;
    options.scale = 0.3;
    EXPECT_EQ(import_mesh(f, options).node_count(), 4u);
    // Read in kilometres, it is told in metres what --scale fits then.
    options = {};
    options.units = 1000.0;
    try {
        import_mesh(f, options);
        ADD_FAILURE() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  f.string() + ": vertex 1 (counted from 0 as read, each position once) is at (3e+09, 0, 0) in the file's units, 3e+12 m "
                               "with the unit and --scale, beyond +-1e+09 m, and half the vertices lie beyond 2e+12 m "
                               "of the origin: the mesh is too large as a whole; give its unit (--units) or scale it "
                               "down (--scale 0.0003 or less)");
    }
    // A coordinate past what a unit mix-up explains (mm read as km: 1e6 x the
    // bound) is no matter of scale, even where all vertices are that far out.
    const fs::path g = mesh("absurd.obj", "v 2e15 0 0\nv 3e15 0 0\nv 2e15 1e15 0\nf 1 2 3\n");
    EXPECT_EQ(import_error(g), g.string() +
                                   ": vertex 0 (counted from 0 as read, each position once) is at (2e+15, 0, 0), beyond +-1e+09 m, where half "
                                   "the vertices are within 2e+15 m of the origin; vertices beyond +-1e+09 m or not "
                                   "finite: 3 of 3: the file looks corrupt or truncated");
}

TEST(BadMesh, NaNCoordinate) {
    const fs::path f = mesh("nan.obj", "v 0 0 0\nv 0 0 nan\nv 0 1 0\nf 1 2 3\n");
    EXPECT_EQ(import_error(f), f.string() + ": vertex 1 (counted from 0 as read, each position once) is at (nan, nan, nan), not all finite "
                                            "numbers; "
                                            "vertices beyond +-1e+09 m or not finite: 1 of 3: the file looks "
                                            "corrupt or truncated");
}

TEST(BadMesh, FaceIndexOutOfRange) {
    const fs::path f = mesh("index.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n");
    EXPECT_EQ(import_error(f), f.string() + ": cannot import: OBJ: vertex index out of range");
}

TEST(BadMesh, DirectoryAndMissingFile) {
    const fs::path dir = mesh("x.obj", "").parent_path() / "folder.obj";
    fs::create_directories(dir);
    EXPECT_EQ(import_error(dir), dir.string() + ": is a directory, not a mesh file");
    EXPECT_EQ(import_error("/nonexistent/mesh.obj"), "/nonexistent/mesh.obj: no such file");
}

// Out of memory while importing names the file (the isolated importer says the
// same of its memory limit).
TEST(BadMesh, OutOfMemoryNamesTheFile) {
    if (springkit::test::kSanitizerShadowMemory) GTEST_SKIP() << "the sanitizer needs terabytes of address space";
    std::string obj;
    for (int y = 0; y <= 300; ++y)
        for (int x = 0; x <= 300; ++x) obj += "v " + std::to_string(x) + " " + std::to_string(y) + " 0\n";
    for (int y = 0; y < 300; ++y)
        for (int x = 0; x < 300; ++x) {
            const int a = y * 301 + x + 1;
            obj += "f " + std::to_string(a) + " " + std::to_string(a + 1) + " " + std::to_string(a + 302) + "\n";
        }
    const fs::path f = mesh("big-grid.obj", obj);
    EXPECT_EQ(springkit::test::error_with_memory_left(std::size_t{4} << 20, [&] { import_mesh(f); }),
              f.string() + ": out of memory while importing the mesh");
}
