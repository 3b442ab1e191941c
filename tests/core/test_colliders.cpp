// Colliders: the shapes' signed distances against closed forms, their errors,
// and the contact stage against known answers (friction on a slope,
// restitution, tunnelling, kinematic colliders, contact impulses).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <numbers>
#include <random>

#include "collision/triangle_mesh.hpp"
#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
using springkit::test::error_of;

namespace {

// One free node at p, no springs: the contact stage alone.
Model one_node(Vec3 p, Parameters params = {}) {
    Model m;
    m.positions = {p};
    params.energy_loss = 1.0f;
    m.params = params;
    return m;
}

// An n x n grid of 0.1 m cells in the x-z plane, its heights bump sin(7 i + 3 j).
struct Terrain {
    std::vector<Vec3> v;
    std::vector<std::array<std::uint32_t, 3>> t;
};
Terrain terrain(int n, float bump) {
    Terrain g;
    for (int i = 0; i <= n; ++i)
        for (int j = 0; j <= n; ++j)
            g.v.push_back({static_cast<float>(i) * 0.1f, bump * std::sin(static_cast<float>(i * 7 + j * 3)),
                           static_cast<float>(j) * 0.1f});
    const auto m = static_cast<std::uint32_t>(n);
    for (std::uint32_t i = 0; i < m; ++i)
        for (std::uint32_t j = 0; j < m; ++j) {
            const std::uint32_t a = i * (m + 1) + j, b = a + 1, c = a + m + 1, d = c + 1;
            g.t.push_back({a, b, c});
            g.t.push_back({b, d, c});
        }
    return g;
}

std::shared_ptr<const TriangleMesh> unit_square_mesh() {
    // The square [0, 1] x [0, 1] in the plane y = 0, normal +y.
    return make_triangle_mesh({{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}}, {{{0, 2, 1}}, {{0, 3, 2}}});
}

}  // namespace

TEST(ColliderShapes, SignedDistancesMatchClosedForms) {
    Collider s = sphere_collider(0.5f);
    s.pose.position = {1, 2, 3};
    EXPECT_FLOAT_EQ(distance(s, {1, 4, 3}).distance, 1.5f);
    EXPECT_FLOAT_EQ(distance(s, {1, 2, 3.25f}).distance, -0.25f);
    EXPECT_FLOAT_EQ(distance(s, {1, 4, 3}).normal.y, 1.0f);

    const Collider c = capsule_collider(1.0f, 0.25f);  // segment y in [-1, 1]
    EXPECT_FLOAT_EQ(distance(c, {2, 0.5f, 0}).distance, 1.75f);
    EXPECT_FLOAT_EQ(distance(c, {0, 3, 0}).distance, 1.75f);
    EXPECT_FLOAT_EQ(distance(c, {0, -1.1f, 0}).distance, -0.15f);

    Collider b = box_collider({1, 2, 3});
    EXPECT_FLOAT_EQ(distance(b, {4, 0, 0}).distance, 3.0f);
    EXPECT_FLOAT_EQ(distance(b, {4, 6, 0}).distance, 5.0f);  // the corner region: |(3, 4)|
    EXPECT_FLOAT_EQ(distance(b, {0, 1.5f, 0}).distance, -0.5f);
    EXPECT_FLOAT_EQ(distance(b, {0, 1.5f, 0}).normal.y, 1.0f);
    // Turned 90 degrees about z: its x half-extent now lies along y.
    b.pose.rotation = quat_from_axis_angle({0, 0, 1}, std::numbers::pi_v<float> / 2);
    EXPECT_NEAR(distance(b, {0, 3, 0}).distance, 2.0f, 1e-5f);
    EXPECT_NEAR(distance(b, {3, 0, 0}).distance, 1.0f, 1e-5f);

    // A plane of any orientation: n . x <= offset inside.
    const Collider p = plane_collider({1, 1, 0}, std::sqrt(2.0f));
    EXPECT_NEAR(distance(p, {3, 1, 7}).distance, 2.0f * std::sqrt(2.0f) - std::sqrt(2.0f), 1e-5f);
    EXPECT_NEAR(distance(p, {3, 1, 7}).normal.x, std::sqrt(0.5f), 1e-6f);
    EXPECT_NEAR(distance(plane_collider({0, -1, 0}, 0.0f), {0, -2, 0}).distance, 2.0f, 1e-6f);

    // A hull of a cube's corners (and inner points, which it ignores) is the box.
    std::vector<Vec3> corners;
    for (int i = 0; i < 8; ++i) corners.push_back({i & 1 ? 1.0f : -1.0f, i & 2 ? 2.0f : -2.0f, i & 4 ? 3.0f : -3.0f});
    corners.push_back({0.1f, 0.2f, 0.3f});
    const Collider h = convex_hull_collider(corners);
    EXPECT_EQ(h.planes.size(), 6u);
    const Collider unturned = box_collider({1, 2, 3});
    for (const Vec3 q : {Vec3{4, 0, 0}, Vec3{0, 1.5f, 0}, Vec3{0.2f, -1, 2.5f}, Vec3{0, 0, -7}})
        EXPECT_NEAR(distance(h, q).distance, distance(unturned, q).distance, 1e-5f);

    // The mesh: unsigned, to the nearest triangle.
    const Collider m = mesh_collider(unit_square_mesh());
    EXPECT_NEAR(distance(m, {0.5f, 0.3f, 0.5f}).distance, 0.3f, 1e-6f);
    EXPECT_NEAR(distance(m, {0.5f, -0.3f, 0.5f}).distance, 0.3f, 1e-6f);
    EXPECT_NEAR(distance(m, {0.5f, -0.3f, 0.5f}).normal.y, -1.0f, 1e-6f);
    EXPECT_NEAR(distance(m, {2, 0, 0.5f}).distance, 1.0f, 1e-6f);
}

TEST(ColliderShapes, MeshHierarchyFindsWhatBruteForceFinds) {
    // A bumpy 40 x 40 terrain: the tree's nearest point equals the minimum over
    // every triangle for random points.
    const Terrain grid = terrain(40, 0.2f);
    const std::vector<Vec3>& v = grid.v;
    const std::vector<std::array<std::uint32_t, 3>>& t = grid.t;
    const Collider mesh = mesh_collider(make_triangle_mesh(v, t));
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-0.5f, 4.5f);
    for (int k = 0; k < 200; ++k) {
        const Vec3 q{u(rng), u(rng) * 0.3f, u(rng)};
        float best = 1e30f;
        for (const auto& tri : t) {
            // Distance to one triangle: a mesh collider of that triangle alone.
            const Collider one = mesh_collider(make_triangle_mesh({v[tri[0]], v[tri[1]], v[tri[2]]}, {{{0, 1, 2}}}));
            best = std::min(best, distance(one, q).distance);
        }
        EXPECT_FLOAT_EQ(distance(mesh, q).distance, best) << k;
        if (k == 20) break;  // brute force is slow; 21 points, each against 3200 triangles
    }
}

TEST(ColliderShapes, MeshSearchHintNeverChangesTheAnswer) {
    // TriangleMesh::closest with a hint (the contact stage passes each node's
    // last triangle) must find what it finds without one, to the bit: on a flat
    // grid, where points above shared edges and corners are equally near to
    // several triangles, and on the bumpy terrain.
    for (const float bump : {0.0f, 0.2f}) {
        const Terrain grid = terrain(20, bump);
        const std::vector<std::array<std::uint32_t, 3>>& t = grid.t;
        const TriangleMesh mesh(grid.v, t);
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> u(-0.2f, 2.2f);
        std::uniform_int_distribution<std::uint32_t> slot(0, static_cast<std::uint32_t>(t.size() - 1));
        auto bits = [](Vec3 a) {
            std::array<std::uint32_t, 3> out;
            std::memcpy(out.data(), &a, sizeof out);
            return out;
        };
        for (int k = 0; k < 400; ++k) {
            // Every other point above a grid vertex or an edge's middle: ties.
            Vec3 q{u(rng), u(rng) * 0.1f, u(rng)};
            if (k % 2 == 0) {
                q.x = static_cast<float>(static_cast<int>(q.x * 20.0f)) * 0.05f;
                q.z = static_cast<float>(static_cast<int>(q.z * 20.0f)) * 0.05f;
            }
            const float limit = 0.3f;
            float d0 = 0.0f;
            Vec3 p0, n0;
            const bool f0 = mesh.closest(q, limit, d0, p0, n0);
            std::uint32_t answer = TriangleMesh::kLeafSize * 1000000u;
            if (f0) {
                ASSERT_TRUE(mesh.closest(q, limit, d0, p0, n0, &answer));
            }
            for (const std::uint32_t hint : {answer, slot(rng), slot(rng), 0xffffffffu}) {
                std::uint32_t h = hint;
                float d1 = 0.0f;
                Vec3 p1, n1;
                ASSERT_EQ(mesh.closest(q, limit, d1, p1, n1, &h), f0) << k;
                if (!f0) continue;
                EXPECT_EQ(std::bit_cast<std::uint32_t>(d1), std::bit_cast<std::uint32_t>(d0)) << k;
                EXPECT_EQ(bits(p1), bits(p0)) << k;
                EXPECT_EQ(bits(n1), bits(n0)) << k;
                EXPECT_EQ(h, answer) << k;
            }
        }
    }
}

// points_inside counts by signed distance: a sphere of radius 1 moved to x = 5,
// a box turned 90 degrees about y (its long side then along z), a plane y <= 0;
// a triangle mesh has no inside.
TEST(ColliderShapes, PointsInsideAreCountedPerCollider) {
    ColliderSet set;
    Collider sphere = sphere_collider(1.0f);
    sphere.pose.position = {5, 0, 0};
    set.add(sphere);
    Collider box = box_collider({2.0f, 0.5f, 0.5f});
    box.pose.rotation = {std::sqrt(0.5f), 0, std::sqrt(0.5f), 0};
    set.add(box);
    set.add(plane_collider({0, 1, 0}, 0.0f));
    set.add(mesh_collider(make_triangle_mesh({{-9, 0, -9}, {9, 0, -9}, {0, 0, 9}}, {{{0, 1, 2}}})));
    const std::vector<Vec3> points = {
        {5, 0.5f, 0},      // in the sphere, above the plane
        {5.9f, -0.1f, 0},  // in the sphere, below the plane
        {6.5f, 0, 0},      // beyond the sphere, on the plane (distance 0: not inside)
        {0, 0.2f, 1.5f},   // in the turned box (its 2 m half-side along z)
        {1.5f, 0.2f, 0},   // outside it: along x it is 0.5 m
        {0, -3, 0},        // below the plane only
    };
    EXPECT_EQ(points_inside(set, points), (std::vector<std::size_t>{2, 1, 2, 0}));
}

TEST(ColliderShapes, BadShapesNameTheCollider) {
    EXPECT_EQ(error_of([] { sphere_collider(0.0f); }),
              "collider 0, sphere: radius must be a finite number > 0 (got 0)");
    EXPECT_EQ(error_of([] { capsule_collider(NAN, 1.0f); }),
              "collider 0, capsule: half_height must be a finite number > 0 (got nan)");
    EXPECT_EQ(error_of([] { convex_hull_collider({}); }),
              "collider 0, convex_hull: a hull needs at least 4 points (got 0)");
    const std::vector<Vec3> flat{{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}};
    EXPECT_EQ(error_of([&] { convex_hull_collider(flat); }),
              "collider 0, convex_hull: the points are flat: the hull has no volume");
    EXPECT_EQ(error_of([] { make_triangle_mesh({{0, 0, 0}}, {{{0, 1, 2}}}); }),
              "triangle mesh collider: triangle 0 has vertex index 1 out of range (1 vertices)");
    ColliderSet set;
    set.add(sphere_collider(1.0f));
    Collider paddle = box_collider({1, 1, 1});
    paddle.name = "paddle";
    paddle.pose.position.x = NAN;
    EXPECT_EQ(error_of([&] { set.add(paddle); }),
              "collider 1 (\"paddle\"), box: the pose must be a finite position and a unit quaternion");
    paddle.pose.position.x = 0.0f;
    paddle.restitution = 1.5f;
    EXPECT_EQ(error_of([&] { set.add(paddle); }), "collider 1 (\"paddle\"), box: restitution must be in [0, 1] (got 1.5)");
    EXPECT_EQ(error_of([&] { set.move_to(0, {}, 0.0f); }),
              "ColliderSet::move_to: seconds must be a finite number > 0 (got 0)");
}

TEST(Contacts, NodeRestsOnASphereAtItsRadius) {
    Parameters p;
    p.node_radius = 0.02f;
    Simulation sim(one_node({0, 2, 0}, p));
    auto set = std::make_shared<ColliderSet>();
    set->add(sphere_collider(1.0f));
    sim.set_colliders(set);
    for (int i = 0; i < 120; ++i) sim.step(1.0f / 60.0f);
    EXPECT_NEAR(sim.positions()[0].y, 1.02f, 1e-6f);
    EXPECT_LT(length(sim.velocities()[0]), 1e-6f);
    // Resting: the sphere's impulse over the step holds the weight, m g dt.
    ASSERT_EQ(sim.contacts().size(), 1u);
    EXPECT_NEAR(sim.contacts()[0].impulse.y, 0.05f * 9.81f / 60.0f, 1e-5f);
    EXPECT_NEAR(sim.contacts()[0].normal.y, 1.0f, 1e-6f);
}

TEST(Contacts, CoulombFrictionOnASlope) {
    // A node on a plane tilted by theta: it stays when tan(theta) <= mu_s and
    // otherwise slides with a = g (sin(theta) - mu_d cos(theta)).
    const float theta = 0.4f;  // tan = 0.423
    const Vec3 normal{-std::sin(theta), std::cos(theta), 0.0f};
    for (const float mu_s : {0.5f, 0.3f}) {
        Simulation sim(one_node(Vec3{} + normal * 1e-3f));
        auto set = std::make_shared<ColliderSet>();
        Collider slope = plane_collider(normal, 0.0f);
        slope.static_friction = mu_s;
        slope.dynamic_friction = 0.2f;
        set->add(slope);
        sim.set_colliders(set);
        sim.step(1.0f / 60.0f);
        const Vec3 start = sim.positions()[0];
        const float v0 = length(sim.velocities()[0]);
        for (int i = 0; i < 60; ++i) sim.step(1.0f / 60.0f);
        const Vec3 moved = sim.positions()[0] - start;
        if (mu_s == 0.5f) {
            EXPECT_LT(length(moved), 1e-6f);
            EXPECT_LT(length(sim.velocities()[0]), 1e-6f);
        } else {
            const float a = 9.81f * (std::sin(theta) - 0.2f * std::cos(theta));
            EXPECT_NEAR(length(sim.velocities()[0]) - v0, a, 0.01f * a);
            EXPECT_NEAR(length(moved), v0 + 0.5f * a, 0.02f * a);
            EXPECT_NEAR(dot(moved, normal), 0.0f, 1e-5f);  // along the slope
        }
    }
}
