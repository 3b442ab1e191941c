// Builders make the arrangements their sources describe.
#include <gtest/gtest.h>

#include <cmath>

#include "springkit/springkit.hpp"

using namespace springkit;

TEST(Builders, StringIsALineAnchoredAtItsFirstNode) {
    const Model m = make_string({.nodes = 5, .length = 2.0f});
    ASSERT_EQ(m.node_count(), 5u);
    ASSERT_EQ(m.springs.size(), 4u);
    for (const Spring& s : m.springs) EXPECT_FLOAT_EQ(s.rest, 0.5f);
    ASSERT_EQ(m.anchors.size(), 1u);
    EXPECT_EQ(m.anchors[0].node, 0u);
}

TEST(Builders, ClothHasStructuralShearAndBendSprings) {
    const int c = 6, r = 5;
    const Model m = make_cloth({.columns = c, .rows = r});
    const std::size_t structural = (c - 1) * r + c * (r - 1);
    const std::size_t shear = 2 * (c - 1) * (r - 1);
    const std::size_t bend = (c - 2) * r + c * (r - 2);
    EXPECT_EQ(m.springs.size(), structural + shear + bend);
    EXPECT_EQ(m.faces.size(), 2u * (c - 1) * (r - 1));
    EXPECT_EQ(m.texcoords.size(), static_cast<std::size_t>(c * r));
    validate(m);
}

TEST(Builders, GridSpringsOfOneShapeShareTheSpacingAsRestLength) {
    // Rest lengths come from the grid's spacing (dx = width / (columns - 1)),
    // not from float positions, which round differently at each node: every
    // spring of one shape has exactly the same rest length, the spacing's.
    const int c = 37, r = 29;
    const float width = 2.0f, height = 1.3f;
    const Model m = make_cloth({.columns = c, .rows = r, .width = width, .height = height});
    const double dx = width / static_cast<float>(c - 1), dz = height / static_cast<float>(r - 1);
    const auto exact = [&](double x, double z) { return static_cast<float>(std::sqrt(x * x + z * z)); };
    bool some_positions_differ = false;
    for (const Spring& s : m.springs) {
        const int columns_apart = std::abs(static_cast<int>(s.b % c) - static_cast<int>(s.a % c));
        const int rows_apart = std::abs(static_cast<int>(s.b / c) - static_cast<int>(s.a / c));
        EXPECT_EQ(s.rest, exact(columns_apart * dx, rows_apart * dz)) << s.a << "-" << s.b;
        some_positions_differ |= length(m.positions[s.b] - m.positions[s.a]) != s.rest;
    }
    EXPECT_TRUE(some_positions_differ);  // what the float positions alone would have given
    const float h = 0.25f / 3.0f;
    const Model jelly = make_jelly({.nx = 4, .ny = 3, .nz = 5, .size = 0.25f});
    for (const Spring& s : jelly.springs) {
        const double d = static_cast<double>(h) * std::sqrt(std::round(dot(jelly.positions[s.b] - jelly.positions[s.a],
                                                                        jelly.positions[s.b] - jelly.positions[s.a]) /
                                                                    (h * h)));
        EXPECT_EQ(s.rest, static_cast<float>(d)) << s.a << "-" << s.b;
    }
}

TEST(Builders, CenterSquareClothHasFourAnchors) {
    const Model m = make_cloth({.columns = 9, .rows = 9, .anchors = ClothAnchors::center_square});
    EXPECT_EQ(m.anchors.size(), 4u);
}

TEST(Builders, JellyCellsHaveEdgesFaceAndBodyDiagonals) {
    // One cell: 8 nodes, every pair connected = 12 edges + 12 face diagonals + 4 body diagonals.
    const Model one = make_jelly({.nx = 2, .ny = 2, .nz = 2});
    EXPECT_EQ(one.springs.size(), 28u);
    EXPECT_EQ(one.faces.size(), 12u);
    const Model m = make_jelly({.nx = 3, .ny = 3, .nz = 3});
    EXPECT_EQ(m.node_count(), 27u);
    validate(m);
}

TEST(Builders, JellySurfaceFacesPointOutward) {
    const Model m = make_jelly({.nx = 3, .ny = 4, .nz = 3});
    const Bounds b = bounds(m);
    const Vec3 center = (b.min + b.max) * 0.5f;
    for (const Face& f : m.faces) {
        const Vec3 p0 = m.positions[f.node[0]];
        const Vec3 n = cross(m.positions[f.node[1]] - p0, m.positions[f.node[2]] - p0);
        EXPECT_GT(dot(n, p0 - center), 0.0f);
    }
}

TEST(Builders, TuncaRopeHasTheTutorialsConstants) {
    const Model m = make_tunca_rope();
    EXPECT_EQ(m.node_count(), 80u);
    EXPECT_EQ(m.springs.size(), 79u);
    EXPECT_FLOAT_EQ(m.params.k, 10000.0f);
    EXPECT_FLOAT_EQ(m.params.mass, 0.05f);
    EXPECT_FLOAT_EQ(m.params.spring_damping, 0.2f);
    EXPECT_FLOAT_EQ(m.params.air_friction, 0.02f);
    ASSERT_TRUE(m.params.ground.has_value());
    EXPECT_FLOAT_EQ(m.params.ground->height, -1.5f);
    EXPECT_FLOAT_EQ(m.params.ground->repulsion, 100.0f);
    EXPECT_FLOAT_EQ(m.params.ground->friction, 0.2f);
    EXPECT_FLOAT_EQ(m.params.ground->absorption, 2.0f);
    EXPECT_EQ(m.anchors[0].drive, AnchorDrive::velocity);
}

TEST(Builders, SourceRopeSegmentsShareDistancePlusSlack) {
    const Model m = make_source_rope({.start = {0, 0, 0}, .end = {3, 0, 0}, .segments = 10, .slack = 1.0f});
    ASSERT_EQ(m.springs.size(), 10u);
    for (const Spring& s : m.springs) {
        EXPECT_EQ(s.kind, SpringKind::rope);
        EXPECT_FLOAT_EQ(s.rest, 0.4f);
    }
    EXPECT_EQ(m.anchors.size(), 2u);
}

TEST(Builders, BalloonStringHangsFromTheBottomPole) {
    const BalloonSpec spec;
    const Model m = make_balloon(spec);
    validate(m);
    const Vec3 end = m.positions[m.anchors.back().node];
    EXPECT_NEAR(end.y, spec.center.y - spec.radius - spec.string_length, 1e-4);
}
