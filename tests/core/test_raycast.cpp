// raycast (springkit/raycast.hpp): answers worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "springkit/springkit.hpp"

using namespace springkit;

namespace {

constexpr Vec3 kDown{0, -1, 0};

// A unit square in the plane y = height, x and z in [0, 1], cut along its
// diagonal: face 0 = (0,0) (1,0) (1,1) in (x, z), where z <= x; face 1 the rest.
void add_square(Model& m, float height) {
    const auto first = static_cast<std::uint32_t>(m.positions.size());
    m.positions.insert(m.positions.end(), {{0, height, 0}, {1, height, 0}, {1, height, 1}, {0, height, 1}});
    m.faces.push_back({{first, first + 1, first + 2}});
    m.faces.push_back({{first, first + 2, first + 3}});
}

Model square(float height) {
    Model m;
    add_square(m, height);
    return m;
}

}  // namespace

TEST(Raycast, StraightDownOntoASquareHitsAtItsHeightOnTheExpectedFace) {
    const Model m = square(0.75f);
    const auto hit = raycast(m, m.positions, {0.75f, 5.0f, 0.25f}, kDown, 100.0f);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->face, 0u);
    EXPECT_FALSE(hit->node.has_value());
    EXPECT_FLOAT_EQ(hit->distance, 4.25f);
    EXPECT_EQ(hit->point.y, 0.75f);
    EXPECT_FLOAT_EQ(hit->point.x, 0.75f);
    EXPECT_FLOAT_EQ(hit->point.z, 0.25f);
    // x = u + v, z = v on face 0.
    EXPECT_FLOAT_EQ(hit->u, 0.5f);
    EXPECT_FLOAT_EQ(hit->v, 0.25f);
    EXPECT_EQ(hit->normal, (Vec3{0, 1, 0})) << "towards the ray";

    const auto other = raycast(m, m.positions, {0.25f, 5.0f, 0.75f}, kDown, 100.0f);
    ASSERT_TRUE(other.has_value());
    EXPECT_EQ(other->face, 1u);
}

TEST(Raycast, BothSidesOfAFaceAreHit) {
    const Model m = square(0.75f);
    const auto hit = raycast(m, m.positions, {0.75f, -2.0f, 0.25f}, {0, 1, 0}, 100.0f);
    ASSERT_TRUE(hit.has_value());
    EXPECT_FLOAT_EQ(hit->distance, 2.75f);
    EXPECT_EQ(hit->normal, (Vec3{0, -1, 0})) << "the side the ray met";
}

TEST(Raycast, AClothOfTheBuilderIsHitOnItsPlaneInsideTheFaceFound) {
    const Model cloth = make_cloth({.columns = 9, .rows = 7});  // flat at y = 1, x and z in [-1, 1]
    const Vec3 origin{0.13f, 3.0f, -0.41f};
    const auto hit = raycast(cloth, cloth.positions, origin, kDown, 10.0f);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->point.y, 1.0f);
    EXPECT_FLOAT_EQ(hit->distance, 2.0f);
    ASSERT_TRUE(hit->face.has_value());
    const Face& f = cloth.faces[*hit->face];
    const Vec3 p0 = cloth.positions[f.node[0]], p1 = cloth.positions[f.node[1]], p2 = cloth.positions[f.node[2]];
    const Vec3 at = (1.0f - hit->u - hit->v) * p0 + hit->u * p1 + hit->v * p2;
    EXPECT_NEAR(at.x, origin.x, 1e-6);
    EXPECT_NEAR(at.z, origin.z, 1e-6);
    EXPECT_GE(hit->u, 0.0f);
    EXPECT_GE(hit->v, 0.0f);
    EXPECT_LE(hit->u + hit->v, 1.0f);
}

TEST(Raycast, ARayMissingTheModelFindsNothing) {
    const Model m = square(0.75f);
    EXPECT_FALSE(raycast(m, m.positions, {5, 5, 5}, kDown, 100.0f).has_value()) << "beside it";
    EXPECT_FALSE(raycast(m, m.positions, {0.5f, 5, 0.5f}, {0, 1, 0}, 100.0f).has_value()) << "away from it";
    EXPECT_FALSE(raycast(m, m.positions, {-1, 0.75f, 0.5f}, {1, 0, 0}, 100.0f).has_value()) << "in its plane";
}

TEST(Raycast, MaxDistanceIsRespectedAndTheDirectionNeedNotBeUnit) {
    const Model m = square(0.75f);
    const Vec3 origin{0.75f, 5.0f, 0.25f};
    EXPECT_FALSE(raycast(m, m.positions, origin, kDown, 4.0f).has_value());
    EXPECT_TRUE(raycast(m, m.positions, origin, kDown, 4.25f).has_value()) << "the end is included";
    const auto far = raycast(m, m.positions, origin, {0, -10, 0}, std::numeric_limits<float>::infinity());
    ASSERT_TRUE(far.has_value());
    EXPECT_FLOAT_EQ(far->distance, 4.25f) << "metres, not multiples of the direction";
}

TEST(Raycast, TheNearerOfTwoLayersIsHit) {
    Model m = square(0.75f);  // faces 0, 1
    add_square(m, 0.25f);     // faces 2, 3
    const auto from_above = raycast(m, m.positions, {0.75f, 5.0f, 0.25f}, kDown, 100.0f);
    ASSERT_TRUE(from_above.has_value());
    EXPECT_EQ(from_above->face, 0u);
    EXPECT_EQ(from_above->point.y, 0.75f);
    const auto from_below = raycast(m, m.positions, {0.75f, -1.0f, 0.25f}, {0, 1, 0}, 100.0f);
    ASSERT_TRUE(from_below.has_value());
    EXPECT_EQ(from_below->face, 2u);
    EXPECT_EQ(from_below->point.y, 0.25f);
    const auto between = raycast(m, m.positions, {0.75f, 0.5f, 0.25f}, kDown, 100.0f);
    ASSERT_TRUE(between.has_value());
    EXPECT_EQ(between->face, 2u) << "only what lies ahead counts";
}

TEST(Raycast, ARopeWithoutFacesIsHitOnTheNearestNodeSphere) {
    // Nodes at x = 0, 0.5, 1, 1.5, 2: springs of rest 0.5, default radius 0.125.
    const Model rope = make_string({.nodes = 5, .length = 2.0f});
    ASSERT_TRUE(rope.faces.empty());
    const float r = kRaycastNodeRadiusShare * 0.5f;
    const Vec3 origin{1.0f, 3.0f, 0.0f};  // |d| = 3 above node 2
    const auto hit = raycast(rope, rope.positions, origin, kDown, 100.0f);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->node, 2u);
    EXPECT_FALSE(hit->face.has_value());
    EXPECT_FLOAT_EQ(hit->distance, 3.0f - r);
    EXPECT_EQ(hit->normal, (Vec3{0, 1, 0}));
    const auto wide = raycast(rope, rope.positions, origin, kDown, 100.0f, 0.2f);
    ASSERT_TRUE(wide.has_value());
    EXPECT_FLOAT_EQ(wide->distance, 2.8f);
    // Along the rope from beyond its end: node 4 (x = 2) first.
    const auto along = raycast(rope, rope.positions, {5, 0, 0}, {-1, 0, 0}, 100.0f);
    ASSERT_TRUE(along.has_value());
    EXPECT_EQ(along->node, 4u);
    EXPECT_FLOAT_EQ(along->distance, 3.0f - r);
    // Between two nodes, 0.25 from each: wider than the default radius.
    EXPECT_FALSE(raycast(rope, rope.positions, {0.25f, 3.0f, 0.0f}, kDown, 100.0f).has_value());
}

TEST(Raycast, TakesASimulationsModelAndPositions) {
    const Model cloth = make_cloth({.columns = 5, .rows = 5});  // the simulation keeps a reference
    Simulation sim(cloth);
    const auto hit = raycast(sim.model(), sim.positions(), {0.1f, 2.0f, 0.1f}, kDown, 10.0f);
    ASSERT_TRUE(hit.has_value());
    EXPECT_FLOAT_EQ(hit->distance, 1.0f);
}

TEST(Raycast, MeaninglessCallsThrow) {
    const Model m = square(0.75f);
    try {
        raycast(m, m.positions, {0, 5, 0}, {0, 0, 0}, 10.0f);
        FAIL() << "a zero direction";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("direction is zero"), std::string::npos) << e.what();
    }
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_THROW(raycast(m, m.positions, {nan, 5, 0}, kDown, 10.0f), Error) << "a NaN origin is a bug upstream";
    EXPECT_THROW(raycast(m, m.positions, {0, 5, 0}, {0, nan, 0}, 10.0f), Error);
    EXPECT_THROW(raycast(m, m.positions, {0, 5, 0}, kDown, nan), Error);
    EXPECT_THROW(raycast(m, m.positions, {0, 5, 0}, kDown, -1.0f), Error);
    EXPECT_THROW(raycast(m, std::span<const Vec3>(m.positions).first(3), {0, 5, 0}, kDown, 10.0f), Error);
}

TEST(Raycast, NonFinitePositionsAreNeverHit) {
    Model m = square(0.75f);
    std::vector<Vec3> blown = m.positions;
    blown[1].y = std::numeric_limits<float>::quiet_NaN();  // face 0 and face 1 share node 0 and 2, not 1
    const auto hit = raycast(m, blown, {0.75f, 5.0f, 0.25f}, kDown, 100.0f);
    EXPECT_FALSE(hit.has_value()) << "face 0 has a NaN corner; face 1 is not under the ray";
    EXPECT_TRUE(raycast(m, blown, {0.25f, 5.0f, 0.75f}, kDown, 100.0f).has_value());
}
