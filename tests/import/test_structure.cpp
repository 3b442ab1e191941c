// springkit::import: the structural springs chosen from the mesh (closed,
// flat sheet, open and curved, faceless) and the resolution-independent
// material (total mass, area density, stretch stiffness).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "springkit/import.hpp"
#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
namespace fs = std::filesystem;
using springkit::test::error_of;

namespace {

fs::path write(const std::string& name, const std::string& text) {
    return springkit::test::scratch_file("test-structure", name, text);
}

fs::path sample_mesh(const char* name) { return fs::path(SPRINGKIT_SOURCE_DIR) / "samples/meshes" / name; }

/// A square grid of `cells` x `cells` quads, `side` m wide, in the plane z = 0
/// (x right, y up, the top row at y = 0), written as triangles.
std::string grid_obj(int cells, double side) {
    std::string obj;
    char line[96];
    for (int r = 0; r <= cells; ++r)
        for (int c = 0; c <= cells; ++c) {
            std::snprintf(line, sizeof line, "v %.9g %.9g 0\n", side * c / cells, -side * r / cells);
            obj += line;
        }
    for (int r = 0; r < cells; ++r)
        for (int c = 0; c < cells; ++c) {
            const int a = r * (cells + 1) + c + 1, b = a + 1, d = a + cells + 1, e = d + 1;
            std::snprintf(line, sizeof line, "f %d %d %d\nf %d %d %d\n", a, d, b, b, d, e);
            obj += line;
        }
    return obj;
}

/// Half of a UV sphere (an open bowl): rings of `segments` vertices from the
/// pole down to the equator, which is its rim.
std::string bowl_obj(int rings, int segments) {
    std::string obj = "v 0 1 0\n";
    char line[128];
    for (int r = 1; r <= rings; ++r)
        for (int s = 0; s < segments; ++s) {
            const double polar = 1.5707963267948966 * r / rings, azimuth = 6.283185307179586 * s / segments;
            std::snprintf(line, sizeof line, "v %.9g %.9g %.9g\n", std::sin(polar) * std::cos(azimuth),
                          std::cos(polar), std::sin(polar) * std::sin(azimuth));
            obj += line;
        }
    auto at = [segments](int r, int s) { return 2 + (r - 1) * segments + (s % segments); };
    for (int s = 0; s < segments; ++s) obj += "f 1 " + std::to_string(at(1, s + 1)) + " " + std::to_string(at(1, s)) + "\n";
    for (int r = 1; r < rings; ++r)
        for (int s = 0; s < segments; ++s)
            obj += "f " + std::to_string(at(r, s)) + " " + std::to_string(at(r, s + 1)) + " " +
                   std::to_string(at(r + 1, s + 1)) + " " + std::to_string(at(r + 1, s)) + "\n";
    return obj;
}

}  // namespace

TEST(Structure, AClosedMeshGetsVolumeSpringsAndKeepsItsShape) {
    for (const char* name : {"cube.obj", "uv_sphere.obj"}) {
        ImportReport report;
        const Model m = import_mesh(sample_mesh(name), {}, report);
        EXPECT_GT(report.volume_springs, 0u) << name;
        EXPECT_EQ(report.bend_springs + report.shear_springs, 0u) << name;
        EXPECT_EQ(report.structure.rfind("volume (a closed surface", 0), 0u) << report.structure;
        EXPECT_LT(shape_error(m), 0.02) << name;
        const SurfaceShape shape = surface_shape(m);
        EXPECT_TRUE(shape.closed()) << name;
        EXPECT_EQ(shape.boundary_edges, 0u) << name;
        EXPECT_EQ(shape.edges, report.edge_springs) << name;
    }
}

TEST(Structure, AFlatSheetGetsBendShearAndVolumeSprings) {
    // The sample cloth: 16 x 16 quads. Its shear springs are the second
    // diagonal of each quad, its bend springs join the far corners of each pair
    // of triangles.
    ImportReport report;
    const Model m = import_mesh(sample_mesh("cloth.obj"), {}, report);
    EXPECT_EQ(report.shear_springs, 16u * 16u);
    EXPECT_GT(report.bend_springs, 0u);
    EXPECT_GT(report.volume_springs, 0u);
    EXPECT_EQ(report.structure.rfind("bend + shear + volume (an open flat sheet: 64 edges on its rim", 0), 0u)
        << report.structure;
    // Bend and shear springs alone leave it folded: no spring in its plane
    // resists a fold to first order.
    ImportOptions sheet;
    sheet.structure = ImportOptions::Structure::sheet;
    EXPECT_GT(shape_error(import_mesh(sample_mesh("cloth.obj"), sheet)), 0.02);
    // The same springs as asking for them.
    ImportOptions asked;
    asked.bend = asked.shear = asked.volume = true;
    ImportReport asked_report;
    ImportOptions no_elements;  // asked for, the springs come without volume elements
    no_elements.volume_elements = false;
    EXPECT_EQ(import_mesh(sample_mesh("cloth.obj"), asked, asked_report),
              import_mesh(sample_mesh("cloth.obj"), no_elements));
    EXPECT_TRUE(asked_report.structure.empty());
    EXPECT_LT(shape_error(m), 0.02);
}

TEST(Structure, AnOpenCurvedShellGetsVolumeSprings) {
    ImportReport report;
    const Model m = import_mesh(write("bowl.obj", bowl_obj(6, 16)), {}, report);
    const SurfaceShape shape = surface_shape(m);
    EXPECT_EQ(shape.boundary_edges, 16u);  // the rim
    EXPECT_FALSE(shape.closed());
    EXPECT_FALSE(shape.flat());
    EXPECT_GT(report.volume_springs, 0u);
    EXPECT_EQ(report.structure, "volume (an open surface that is not flat: 16 of its 272 edges on a rim, nodes up to 18% of "
                                "the diagonal off a plane)")
        << report.structure;
    EXPECT_LT(shape_error(m), 0.02);
}

TEST(Structure, FlatnessIsTheLargestDistanceFromTheBestPlane) {
    // A unit square with one corner lifted by h: the best plane splits it, and
    // a far corner is about h / 4 from it; the diagonal is about sqrt(2).
    Model m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0.01f}};
    m.faces = {Face{{0, 1, 2}, {0, 0, 0}}, Face{{0, 2, 3}, {0, 0, 0}}};
    const SurfaceShape shape = surface_shape(m);
    EXPECT_NEAR(shape.flatness, 0.0025 / std::sqrt(2.0), 1e-4);
    EXPECT_EQ(shape.edges, 5u);
    EXPECT_EQ(shape.boundary_edges, 4u);
    EXPECT_EQ(shape.nonmanifold_edges, 0u);
}

TEST(Structure, LinesAndPointsGetNone) {
    ImportReport report;
    const Model m = import_mesh(write("polyline.obj", "v 0 0 0\nv 1 0 0\nv 2 1 0\nl 1 2 3\n"), {}, report);
    EXPECT_EQ(m.springs.size(), 2u);
    EXPECT_EQ(report.structure, "none (no faces: lines keep their own springs and bend as strings do, no shape to keep)");
    // Points alone: the summary says it is a point cloud.
    const Model points = import_mesh(write("points.obj", "v 0 0 0\nv 1 0 0\nv 2 1 0\np 1 2 3\n"), {}, report);
    EXPECT_EQ(points.springs.size(), 0u);
    EXPECT_EQ(report.structure, "none (no faces and no lines: a point cloud of 3 free nodes, no shape to keep)");
}

namespace {

/// A closed cone of `segments` sides: apex, base centre and a ring, so that the
/// apex and the centre are each held by `segments` edge springs.
std::string cone_obj(int segments) {
    std::string obj = "v 0 1 0\nv 0 0 0\n";
    char line[96];
    for (int i = 0; i < segments; ++i) {
        const double a = 6.283185307179586 * i / segments;
        std::snprintf(line, sizeof line, "v %.9g 0 %.9g\n", std::cos(a), std::sin(a));
        obj += line;
    }
    for (int i = 0; i < segments; ++i) {
        const int here = 3 + i, next = 3 + (i + 1) % segments;
        obj += "f 1 " + std::to_string(next) + " " + std::to_string(here) + "\nf 2 " + std::to_string(here) + " " +
               std::to_string(next) + "\n";
    }
    return obj;
}

}  // namespace

// A node held by many springs (the apex of a 120-sided cone: dt omega_max 2.2 at
// the default substep) blows up under the shape test; the converter shortens
// the substep until dt omega_max is at most kSubstepOmegaTarget, and says so.
TEST(Structure, AStiffNodeGetsAShorterSubstep) {
    const fs::path cone = write("cone.obj", cone_obj(120));
    ImportReport report;
    const Model m = import_mesh(cone, {}, report);
    EXPECT_LT(m.params.max_substep, Parameters{}.max_substep);
    EXPECT_LE(frequency_stability(m).omega_dt, kSubstepOmegaTarget);
    EXPECT_GT(frequency_stability(m).omega_dt, 0.9 * kSubstepOmegaTarget) << "no shorter than needed";
    EXPECT_EQ(report.substep.find(" s (dt omega_max would be 2."), 5u) << report.substep;
    EXPECT_LT(shape_error(m), 0.02);
    // Given, it is kept: and the model blows up in the shape test.
    ImportOptions given;
    given.parameters.set(*find_parameter("max_substep"), {.number = 0.002f});
    const Model kept = import_mesh(cone, given, report);
    EXPECT_EQ(kept.params.max_substep, 0.002f);
    EXPECT_TRUE(report.substep.empty());
    EXPECT_THROW(shape_error(kept), SimulationError);
    // The sample cube needs none.
    EXPECT_EQ(import_mesh(sample_mesh("cube.obj"), {}, report).params.max_substep, Parameters{}.max_substep);
    EXPECT_TRUE(report.substep.empty());
}

TEST(Structure, EdgesSheetAndSolidAreChosenOnRequest) {
    const fs::path cube = sample_mesh("cube.obj");
    ImportOptions o;
    o.structure = ImportOptions::Structure::edges;
    ImportReport report;
    Model m = import_mesh(cube, o, report);
    EXPECT_EQ(m.springs.size(), report.edge_springs);
    EXPECT_TRUE(report.structure.empty());
    o.structure = ImportOptions::Structure::sheet;
    import_mesh(cube, o, report);
    EXPECT_GT(report.bend_springs, 0u);
    EXPECT_GT(report.shear_springs, 0u);
    EXPECT_EQ(report.volume_springs, 0u);
    o.structure = ImportOptions::Structure::solid;
    import_mesh(cube, o, report);
    EXPECT_EQ(report.bend_springs + report.shear_springs, 0u);
    EXPECT_GT(report.volume_springs, 0u);
    // A flag wins over the structure: exactly what was asked for.
    o.bend = true;
    import_mesh(cube, o, report);
    EXPECT_GT(report.bend_springs, 0u);
    EXPECT_EQ(report.volume_springs + report.shear_springs, 0u);
}

namespace {

/// How far the lowest node of a cloth converted from a `cells` x `cells` grid
/// (1 m square, hung by its top row) drops below its rest height once it has
/// settled, m. The material is given as a user gives it to convert.
double hanging_drop(int cells, bool material) {
    ImportOptions o;
    o.anchors = {"+y:0.01%"};
    o.structure = ImportOptions::Structure::edges;  // the membrane alone
    auto set = [&o](const char* row, float value) { o.parameters.set(*find_parameter(row), {.number = value}); };
    if (material) {
        set("total_mass", 0.5f);          // kg: 0.5 kg/m^2
        set("stretch_stiffness", 25.0f);  // N/m: stretches 0.5 x 9.81 / (2 x 25) = 10 cm
    }
    // k dt^2 / m = 25 x (5e-4)^2 / 7.6e-5 = 0.08 for the 80 x 80 grid's lightest
    // nodes; strongly damped to settle within the run.
    set("max_substep", 5e-4f);
    set("energy_loss", 0.9f);
    const Model m = import_mesh(write("grid" + std::to_string(cells) + ".obj", grid_obj(cells, 1.0)), o);
    EXPECT_EQ(m.anchors.size(), std::size_t(cells + 1));
    Simulation sim(m);
    for (int f = 0; f < 240; ++f) sim.step(1.0f / 60.0f);
    float lowest = 0.0f;
    for (const Vec3& p : sim.positions()) lowest = std::min(lowest, p.y);
    return -1.0 - double(lowest);
}

}  // namespace

TEST(Material, AClothHangsAsDeepAtTwoResolutions) {
    // Hung by its top edge, a sheet of area density rho and stretch stiffness S
    // stretches by rho g L^2 / (2 S) = 0.098 m (less: the triangles' diagonals
    // and the sideways pull of Poisson's ratio 1/3 stiffen it). Per-node mass and
    // one k: the 80 x 80 grid is 16 times as heavy and hangs far deeper.
    const double coarse = hanging_drop(20, true), fine = hanging_drop(80, true);
    EXPECT_NEAR(fine, coarse, 0.05 * coarse) << "20 x 20: " << coarse << " m, 80 x 80: " << fine << " m";
    EXPECT_NEAR(coarse, 0.098, 0.3 * 0.098);
    const double coarse_plain = hanging_drop(20, false), fine_plain = hanging_drop(80, false);
    EXPECT_GT(fine_plain, 2.0 * coarse_plain);
}

TEST(Material, TheFileKeepsWhatTheUserGave) {
    ImportOptions o;
    o.parameters.set(*find_parameter("area_density"), {.number = 0.2f});
    o.parameters.set(*find_parameter("stretch_stiffness"), {.number = 300.0f});
    const Model m = import_mesh(write("grid4.obj", grid_obj(4, 2.0)), o);
    EXPECT_EQ(m.params.area_density, 0.2f);
    EXPECT_EQ(m.params.stretch_stiffness, 300.0f);
    double total = 0.0;
    for (float mass : m.masses) total += mass;
    EXPECT_NEAR(total, 0.2 * 4.0, 1e-5);
    const Model again = model_from_json(model_to_json(m));
    EXPECT_EQ(again, m);
    // Re-deriving from the file gives the same masses and k.
    Model rederived = again;
    derive_material(rederived);
    EXPECT_EQ(rederived, m);
}

TEST(Material, DensityNeedsAClosedMesh) {
    ImportOptions o;
    o.parameters.set(*find_parameter("density"), {.number = 1000.0f});
    const fs::path sheet = write("grid2.obj", grid_obj(2, 1.0));
    EXPECT_EQ(error_of([&] { import_mesh(sheet, o); }).rfind(sheet.string() + ": /parameters/density: density needs "
                                                                              "a closed face mesh (a volume): face ",
                                                             0),
              0u);
    // The sample cube is 1 m on a side: 1 m^3 of water weighs 1000 kg.
    const Model cube = import_mesh(sample_mesh("cube.obj"), o);
    double total = 0.0;
    for (float mass : cube.masses) total += mass;
    EXPECT_NEAR(total, 1000.0 * enclosed_volume(cube), 0.01);
    EXPECT_NEAR(enclosed_volume(cube), 1.0, 1e-5);
}

// Assimp's MDC spider (722 nodes, thin legs): perturbed by a tenth of its size
// with springs alone it settles as its mirror image (every spring length
// kept, 15.7% from its rest shape, 0.12% from its mirror image); with the volume
// elements the converter adds when asked it comes back to its own handedness.
TEST(Structure, VolumeElementsKeepAModelFromSettlingAsItsMirrorImage) {
    const fs::path mdc = "/usr/share/assimp/models/MDC/spider.mdc";
    if (!fs::exists(mdc)) GTEST_SKIP() << "assimp-testmodels is not installed";
    ImportReport report;
    ImportOptions without;
    without.volume_elements = false;  // --no-volume-elements
    const Model plain = import_mesh(mdc, without, report);
    EXPECT_EQ(report.volume_elements, 0u);
    EXPECT_EQ(report.volume_elements_why, "left out: --no-volume-elements");
    EXPECT_TRUE(plain.volume_elements.empty());
    const ShapeErrors mirrored = shape_errors(plain, 1);
    EXPECT_GT(mirrored.error, 0.02);
    EXPECT_LT(mirrored.mirrored, 0.005);

    const Model m = import_mesh(mdc, {}, report);  // the default: elements
    EXPECT_EQ(report.volume_elements, m.volume_elements.size());
    EXPECT_EQ(report.volume_elements_why, "signed volumes: springs alone cannot tell the shape from its mirror image");
    // Each element is rooted (its first node) at a node that no element before
    // it has as a corner, and every node is a corner of at least one: at least
    // a quarter of the nodes, fewer than there are nodes.
    std::vector<int> corner_of(m.node_count(), 0);
    for (const VolumeElement& e : m.volume_elements) {
        EXPECT_EQ(corner_of[e.node[0]], 0);
        for (std::uint32_t v : e.node) ++corner_of[v];
    }
    EXPECT_EQ(std::count(corner_of.begin(), corner_of.end(), 0), 0);
    EXPECT_GE(m.volume_elements.size(), m.node_count() / 4);
    EXPECT_LT(m.volume_elements.size(), m.node_count());
    // As stiff as the volume springs (their k is the model's k here).
    EXPECT_FLOAT_EQ(m.params.volume_stiffness, m.params.k);
    for (const VolumeElement& e : m.volume_elements)
        EXPECT_FLOAT_EQ(e.rest, static_cast<float>(signed_volume(m.positions[e.node[0]], m.positions[e.node[1]],
                                                                 m.positions[e.node[2]], m.positions[e.node[3]])));
    const ShapeErrors kept = shape_errors(m, 1);
    EXPECT_LT(kept.error, 0.005);
    EXPECT_GT(kept.mirrored, 0.02);
    // --volume adds exactly the volume springs.
    ImportOptions volume;
    volume.volume = true;
    EXPECT_TRUE(import_mesh(mdc, volume, report).volume_elements.empty());
}

namespace {

/// A closed box of `rings` square rings of 4 nodes, `side` m wide, spaced
/// `length` / (rings - 1) along x, its ends capped: a rod or a plank.
std::string box_obj(int rings, double length, double side_y, double side_z) {
    std::string obj;
    char line[128];
    for (int r = 0; r < rings; ++r) {
        const double x = length * r / (rings - 1);
        std::snprintf(line, sizeof line, "v %.9g 0 0\nv %.9g %.9g 0\nv %.9g %.9g %.9g\nv %.9g 0 %.9g\n", x, x, side_y,
                      x, side_y, side_z, x, side_z);
        obj += line;
    }
    for (int r = 0; r + 1 < rings; ++r)
        for (int c = 0; c < 4; ++c) {
            const int a = 4 * r + c + 1, b = 4 * r + (c + 1) % 4 + 1;
            obj += "f " + std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(b + 4) + " " +
                   std::to_string(a + 4) + "\n";
        }
    const int last = 4 * (rings - 1);
    obj += "f 4 3 2 1\nf " + std::to_string(last + 1) + " " + std::to_string(last + 2) + " " +
           std::to_string(last + 3) + " " + std::to_string(last + 4) + "\n";
    return obj;
}

}  // namespace

// A plank 91.5 x 1 x 4 m of 8 nodes: no tetrahedron across it is as wide as
// the full bound asks (sqrt(sum |g_i|^2) about 0.06 l^2, against 0.2), so the
// bounds are asked in the share its box allows; in a set of at most 64 nodes
// every node roots an element.
TEST(Structure, ThinAndSmallBodiesGetVolumeElements) {
    ImportReport report;
    const Model plank = import_mesh(write("plank.obj", box_obj(2, 91.5, 1.0, 4.0)), {}, report);
    ASSERT_EQ(plank.node_count(), 8u);
    EXPECT_EQ(report.volume_elements, 8u);
    ASSERT_EQ(plank.volume_elements.size(), 8u);
    for (std::uint32_t i = 0; i < 8; ++i) EXPECT_EQ(plank.volume_elements[i].node[0], i);
    for (const VolumeElement& e : plank.volume_elements) EXPECT_NE(e.rest, 0.0f);
    // A rod 120 x 1 x 1 m of 61 rings (244 nodes): elements along it hold its
    // bends better than its volume springs alone, which lie nearly along it.
    const Model rod = import_mesh(write("rod.obj", box_obj(61, 120.0, 1.0, 1.0)), {}, report);
    ASSERT_EQ(rod.node_count(), 244u);
    EXPECT_GE(rod.volume_elements.size(), rod.node_count() / 4);
    EXPECT_LT(rod.volume_elements.size(), rod.node_count() / 2);
    ImportOptions without;
    without.volume_elements = false;
    const Model bare = import_mesh(write("rod.obj", box_obj(61, 120.0, 1.0, 1.0)), without);
    for (unsigned seed : {1u, 2u, 3u}) {
        const double with = shape_error(rod, seed), plain = shape_error(bare, seed);
        EXPECT_LT(with, 0.01) << seed;
        EXPECT_LT(with, 0.8 * plain) << seed;
    }
}

// A flat sheet's elements have a rest volume of 0: they keep four nodes in one
// plane, which holds a fold to first order.
TEST(Structure, AFlatSheetsVolumeElementsKeepItFlat) {
    ImportReport report;
    const Model m = import_mesh(sample_mesh("cloth.obj"), {}, report);
    ASSERT_GT(m.volume_elements.size(), 0u);
    EXPECT_EQ(report.volume_elements_why,
              "of rest volume 0: they keep the sheet flat, which springs in its plane do only at second order");
    for (const VolumeElement& e : m.volume_elements) EXPECT_EQ(e.rest, 0.0f);
    ImportOptions without;
    without.volume_elements = false;
    const Model bare = import_mesh(sample_mesh("cloth.obj"), without);
    for (unsigned seed : {1u, 2u}) {
        const double with = shape_error(m, seed), plain = shape_error(bare, seed);
        EXPECT_LT(with, 0.008) << seed;
        EXPECT_LT(with, 0.75 * plain) << seed;
    }
}

// A "triangle" whose three nodes lie on one line (Assimp's number_formats.obj)
// has no area: its springs hold its middle node on the line only at third
// order, and no spring or tetrahedron among three nodes can do better.
TEST(Structure, FacesOnOneLineGetNone) {
    ImportReport report;
    const Model m = import_mesh(write("line-triangle.obj", "v 0 0 0\nv 1 2 3\nv -1 -2 -3\nf 1 2 3\n"), {}, report);
    EXPECT_EQ(m.faces.size(), 1u);
    EXPECT_EQ(m.springs.size(), 3u);
    EXPECT_TRUE(m.volume_elements.empty());
    EXPECT_EQ(report.structure.rfind("none (faces without area: every node within ", 0), 0u) << report.structure;
    EXPECT_NE(report.structure.find("of the diagonal of one line, which its springs hold straight only at third "
                                    "order: it bends as a string does, no shape to keep)"),
              std::string::npos)
        << report.structure;
    // Straightness: a node h off the line through the other two, -1..1 on x:
    // the best line is x (for small h) through the centroid at y = h / 3, so
    // the node is 2h / 3 from it, over the diagonal sqrt(4 + h^2).
    Model t;
    const float h = 0.03f;
    t.positions = {{-1, 0, 0}, {1, 0, 0}, {0, h, 0}};
    t.faces = {Face{{0, 1, 2}, {0, 0, 0}}};
    EXPECT_NEAR(surface_shape(t).straightness, (2.0 * h / 3.0) / std::sqrt(4.0 + double(h) * h), 1e-6);
    EXPECT_FALSE(surface_shape(t).straight());
}

// A two-sided triangle is closed (each edge joins two faces): volume springs,
// but three nodes span no tetrahedron, and the summary says why there is none.
TEST(Structure, ThreeNodesGetNoVolumeElementAndTheSummarySaysWhy) {
    ImportReport report;
    const Model m = import_mesh(write("two-sided.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 3 2\n"), {}, report);
    EXPECT_EQ(report.structure.rfind("volume (a closed surface", 0), 0u) << report.structure;
    EXPECT_TRUE(m.volume_elements.empty());
    EXPECT_EQ(report.volume_elements_why,
              "no four nodes far enough apart span a tetrahedron wide enough: a thin or tiny mesh");
}
