// Drawing ropes: Catmull-Rom subdivision (Source engine) and tube meshes (Garrido).
#include <gtest/gtest.h>

#include <cmath>

#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
using springkit::test::error_of;

namespace {

std::vector<Vec3> zigzag() { return {{0, 0, 0}, {1, 0.5f, 0}, {2, 0, 0.3f}, {3, 0.8f, 0}, {4, 0, 0}}; }

}  // namespace

TEST(RopeMesh, CatmullRomHasNMinusOneTimesSPlusOnePlusOnePointsThroughEveryNode) {
    const std::vector<Vec3> nodes = zigzag();
    for (int s : {0, 1, 2, 5}) {
        const std::vector<Vec3> curve = catmull_rom_subdivide(nodes, s);
        ASSERT_EQ(curve.size(), (nodes.size() - 1) * (s + 1) + 1) << "subdivisions " << s;
        for (std::size_t i = 0; i < nodes.size(); ++i) EXPECT_EQ(curve[i * (s + 1)], nodes[i]);
    }
}

TEST(RopeMesh, CatmullRomOfEvenlySpacedPointsOnALineStaysEvenlySpaced) {
    const std::vector<Vec3> nodes = {{0, 0, 0}, {1, 1, 0}, {2, 2, 0}, {3, 3, 0}};
    const std::vector<Vec3> curve = catmull_rom_subdivide(nodes, 3);
    for (std::size_t i = 0; i < curve.size(); ++i) {
        EXPECT_NEAR(curve[i].x, 0.25f * static_cast<float>(i), 1e-5);
        EXPECT_NEAR(curve[i].y, curve[i].x, 1e-5);
    }
}

TEST(RopeMesh, CatmullRomPointsSitAtOneThirdAndTwoThirdsForTwoSubdivisions) {
    // Source engine: t = (i + 1) / (subdivisions + 1), control points previous,
    // current, next and next-next node. Nodes on y = x^2 at x = -1, 0, 1, 2.
    const std::vector<Vec3> nodes = {{-1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {2, 4, 0}};
    const std::vector<Vec3> curve = catmull_rom_subdivide(nodes, 2);
    auto basis = [](float p0, float p1, float p2, float p3, float t) {
        return 0.5f * (2 * p1 + (p2 - p0) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t * t +
                       (-p0 + 3 * p1 - 3 * p2 + p3) * t * t * t);
    };
    EXPECT_NEAR(curve[4].x, 1.0f / 3.0f, 1e-5);  // segment 1 (node 1 to node 2), t = 1/3
    EXPECT_NEAR(curve[4].y, basis(1, 0, 1, 4, 1.0f / 3.0f), 1e-5);
    EXPECT_NEAR(curve[5].y, basis(1, 0, 1, 4, 2.0f / 3.0f), 1e-5);
    // y = x^2 is a parabola: uniform Catmull-Rom reproduces it inside (x = 1/3 -> 1/9).
    EXPECT_NEAR(curve[4].y, 1.0f / 9.0f, 1e-5);
}

TEST(RopeMesh, TubeHasRingsOfSidesPlusOneVerticesAndTwoTrianglesPerSide) {
    const std::vector<Vec3> path = catmull_rom_subdivide(zigzag(), 2);  // 13 points
    const TubeMesh mesh = make_tube(path, 0.05f, 8);
    EXPECT_EQ(mesh.positions.size(), 13u * 9u);
    EXPECT_EQ(mesh.normals.size(), 13u * 9u);
    EXPECT_EQ(mesh.texcoords.size(), 13u * 9u);
    EXPECT_EQ(mesh.indices.size(), 3u * 2u * 8u * 12u);
    for (std::uint32_t i : mesh.indices) ASSERT_LT(i, mesh.positions.size());
}

TEST(RopeMesh, TubeNormalsPointOutwardAndTrianglesFaceThem) {
    const std::vector<Vec3> path = catmull_rom_subdivide(zigzag(), 3);
    const float radius = 0.05f;
    const TubeMesh mesh = make_tube(path, radius, 7);
    const std::size_t ring = 8;
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        const Vec3 from_axis = mesh.positions[v] - path[v / ring];
        EXPECT_NEAR(length(from_axis), radius, 1e-5);
        EXPECT_NEAR(length(mesh.normals[v]), 1.0f, 1e-5);
        EXPECT_GT(dot(mesh.normals[v], from_axis), 0.99f * radius);
    }
    for (std::size_t t = 0; t < mesh.indices.size(); t += 3) {
        const Vec3 a = mesh.positions[mesh.indices[t]], b = mesh.positions[mesh.indices[t + 1]],
                   c = mesh.positions[mesh.indices[t + 2]];
        EXPECT_GT(dot(cross(b - a, c - a), mesh.normals[mesh.indices[t]]), 0.0f) << "triangle " << t / 3;
    }
}

TEST(RopeMesh, TubeFollowsTheRopeAndItsRingsStayPerpendicular) {
    // A hanging Source rope: every ring is centred on its curve point and lies
    // across the curve; the texture runs along it by arc length.
    Model m = make_source_rope({.segments = 10, .slack = 0.5f});
    Simulation sim(m);
    for (int i = 0; i < 60; ++i) sim.step(1.0f / 60.0f);
    Tube tube{.nodes = {}, .radius = 0.02f, .sides = 6, .subdivisions = 2};
    for (std::uint32_t i = 0; i <= 10; ++i) tube.nodes.push_back(i);
    const TubeMesh mesh = make_tube(sim.positions(), tube);
    const std::vector<Vec3> path = catmull_rom_subdivide(sim.positions(), 2);
    ASSERT_EQ(mesh.positions.size(), path.size() * 7);
    for (std::size_t i = 0; i < path.size(); ++i) {
        Vec3 centre{};
        for (std::size_t j = 0; j < 6; ++j) centre += mesh.positions[i * 7 + j] * (1.0f / 6.0f);
        EXPECT_NEAR(length(centre - path[i]), 0.0f, 1e-5) << "ring " << i;
        const Vec3 along = normalized(path[std::min(i + 1, path.size() - 1)] - path[i > 0 ? i - 1 : 0]);
        EXPECT_NEAR(dot(mesh.normals[i * 7], along), 0.0f, 1e-4) << "ring " << i;
        if (i > 0) {
            EXPECT_GT(mesh.texcoords[i * 7].v, mesh.texcoords[(i - 1) * 7].v);
        }
    }
    EXPECT_EQ(mesh.texcoords[6].u, 1.0f);  // the seam vertex closes the ring
}

TEST(RopeMesh, BadInputIsRefusedWithAMessage) {
    const std::vector<Vec3> one = {{0, 0, 0}};
    EXPECT_EQ(error_of([&] { make_tube(one, 0.1f, 8); }), "make_tube: a tube needs at least 2 points");
    EXPECT_EQ(error_of([&] { make_tube(zigzag(), 0.1f, 2); }), "make_tube: a tube needs at least 3 sides");
    EXPECT_EQ(error_of([&] { make_tube(zigzag(), 0.0f, 8); }), "make_tube: radius must be > 0 m");
    EXPECT_EQ(error_of([&] { make_tube(zigzag(), Tube{.nodes = {2, 9}}); }),
              "make_tube: tube node 9 is out of range (5 positions)");
    EXPECT_EQ(error_of([&] { catmull_rom_subdivide(zigzag(), -1); }),
              "catmull_rom_subdivide: subdivisions must be >= 0");
}

TEST(RopeMesh, VertexCountComesFromTheCountsAlone) {
    const Tube t{.nodes = {0, 1, 2, 3, 4}, .radius = 0.1f, .sides = 8, .subdivisions = 2};
    // (5 - 1)(2 + 1) + 1 = 13 points, rings of 9.
    EXPECT_EQ(tube_mesh_vertices(t), 117u);
    EXPECT_EQ(make_tube(zigzag(), t).positions.size(), 117u);
    EXPECT_EQ(tube_mesh_vertices(Tube{.nodes = {0}}), 0u);
    // Counts whose product passes 2^64 saturate instead of wrapping to a small number.
    EXPECT_EQ(tube_mesh_vertices(Tube{.nodes = {0, 1}, .sides = 2147483647, .subdivisions = 2147483647}),
              (std::uint64_t{2147483648} + 1) * 2147483648u);
}

// A path that repeats two nodes 40,000 times with the largest subdivisions and
// sides: (79999 * 33 + 1) * 65 = 171,597,920 vertices, some 9.6 GB of mesh from a
// file of a few hundred kB. Refused before anything is allocated.
TEST(RopeMesh, RepeatedPathIsRefusedBeforeAllocating) {
    Tube t{.nodes = {}, .radius = 0.1f, .sides = 64, .subdivisions = 32};
    for (int i = 0; i < 40000; ++i) t.nodes.insert(t.nodes.end(), {0, 1});
    EXPECT_EQ(tube_mesh_vertices(t), 171597920u);
    const std::vector<Vec3> ends = {{0, 0, 0}, {1, 0, 0}};
    EXPECT_EQ(error_of([&] { make_tube(ends, t); }),
              "make_tube: a tube of 80000 nodes, 32 subdivisions and 64 sides would have 171597920 vertices, "
              "more than 4194304");
    Model m;
    m.positions = ends;
    m.tubes = {Tube{.nodes = {0, 1}, .sides = 64, .subdivisions = 32}, t};
    EXPECT_EQ(error_of([&] { validate(m, "rope.json"); }),
              "rope.json: /tubes/1/nodes: the tube's mesh would have 171597920 vertices (80000 nodes, 32 "
              "subdivisions, 64 sides), the tubes before it 2210, more than the 4194304 a model's tubes may have; "
              "use fewer nodes, subdivisions or sides");
}
