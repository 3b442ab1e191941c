// Placed instances: Simulation(body, transform), teleport() and the whole-body
// quantities (bounds, mass, centre of mass, momenta, impulses), checked
// against answers computed independently: the model moved by hand, J itself,
// I w summed from the nodes, the kinetic energy before a teleport.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "springkit/springkit.hpp"
#include "support/scattered.hpp"

using namespace springkit;

namespace {

void run(Simulation& sim, int frames) {
    for (int f = 0; f < frames; ++f) sim.step(1.0f / 60.0f);
}

/// The model moved by hand: every point of it through apply(), every direction
/// through rotate(). What a placed instance must step like.
Model moved_by_hand(Model m, const Transform& t) {
    for (Vec3& p : m.positions) p = apply(t, p);
    for (Anchor& a : m.anchors) {
        a.center = apply(t, a.center);
        a.axis = rotate(t.rotation, a.axis);
        a.velocity = rotate(t.rotation, a.velocity);
    }
    for (Tether& tether : m.tethers) tether.point = apply(t, tether.point);
    return m;
}

Model free_jelly() {
    JellySpec spec;
    spec.nx = spec.ny = spec.nz = 4;
    Parameters p;
    p.gravity = {0.0f, 0.0f, 0.0f};
    p.ground.reset();
    p.energy_loss = 1.0f;  // nothing outside the body: momentum is conserved
    p.air_friction = 0.0f;
    return make_jelly(spec, p);
}

struct Case {
    std::string name;
    Model model;
};

std::vector<Case> cases() {
    ClothSpec cloth;
    cloth.columns = cloth.rows = 12;
    return {{"cloth", make_cloth(cloth)},
            {"tunca rope", make_tunca_rope()},
            {"bead rope", make_bead_rope()},
            {"jump rope", make_jump_rope()},
            {"tethered bodies", make_tethered_bodies()},
            {"source rope", make_source_rope()}};
}

bool same_bits(std::span<const Vec3> a, std::span<const Vec3> b) {
    // memcmp of an empty span would be handed a null pointer.
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)) == 0);
}

double max_difference(std::span<const Vec3> a, std::span<const Vec3> b) {
    double worst = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, static_cast<double>(length(a[i] - b[i])));
    return worst;
}

}  // namespace

TEST(Transform, QuaternionBasics) {
    const Vec3 v{1.0f, 2.0f, 3.0f};
    EXPECT_EQ(rotate(Quat{}, v), v);  // the identity, bit for bit
    const Quat quarter = quat_from_axis_angle({0.0f, 0.0f, 2.0f}, std::numbers::pi_v<float> / 2.0f);
    const Vec3 turned = rotate(quarter, {1.0f, 0.0f, 0.0f});
    EXPECT_NEAR(turned.x, 0.0f, 1e-6f);
    EXPECT_NEAR(turned.y, 1.0f, 1e-6f);
    const Vec3 twice = rotate(quarter * quarter, {1.0f, 0.0f, 0.0f});
    EXPECT_NEAR(twice.x, -1.0f, 1e-6f);
    EXPECT_NEAR(twice.y, 0.0f, 1e-6f);
    const Vec3 back = rotate(conjugate(quarter), turned);
    EXPECT_NEAR(back.x, 1.0f, 1e-6f);
    const Quat n = normalized(Quat{2.0f, 0.0f, 0.0f, 0.0f});
    EXPECT_EQ(n, Quat{});
    EXPECT_EQ(apply(Transform{{1.0f, 0.0f, 0.0f}, {}}, v), (Vec3{2.0f, 2.0f, 3.0f}));
}

TEST(Transform, TranslatedInstanceStepsBitForBitLikeTheTranslatedModel) {
    const Transform t{{3.0f, 0.5f, -2.0f}, {}};
    for (const Case& c : cases()) {
        SCOPED_TRACE(c.name);
        Simulation placed(prepare(c.model), t);
        Simulation by_hand(moved_by_hand(c.model, t));
        EXPECT_TRUE(same_bits(placed.positions(), by_hand.positions()));
        run(placed, 60);
        run(by_hand, 60);
        EXPECT_TRUE(same_bits(placed.positions(), by_hand.positions()));
        EXPECT_TRUE(same_bits(placed.velocities(), by_hand.velocities()));
        EXPECT_TRUE(same_bits(placed.bead_positions(), by_hand.bead_positions()));
        EXPECT_TRUE(same_bits(placed.normals(), by_hand.normals()));
    }
}

TEST(Transform, RotatedInstanceStepsLikeTheRotatedModel) {
    const Transform t{{0.5f, 0.25f, 1.0f}, quat_from_axis_angle({0.2f, 1.0f, 0.1f}, 0.7f)};
    for (const Case& c : cases()) {
        SCOPED_TRACE(c.name);
        Simulation placed(prepare(c.model), t, {.threads = 2});
        Simulation by_hand(moved_by_hand(c.model, t));
        run(placed, 60);
        run(by_hand, 60);
        const Bounds box = by_hand.bounds();
        const double scale = std::max(1.0f, box.diagonal());
        EXPECT_LE(max_difference(placed.positions(), by_hand.positions()), 1e-6 * scale);
        EXPECT_LE(max_difference(placed.bead_positions(), by_hand.bead_positions()), 1e-6 * scale);
        EXPECT_EQ(placed.placement(), t);
    }
}

TEST(Transform, BoundsAndMassFollowThePlacement) {
    const Model m = free_jelly();
    const Transform t{{10.0f, 0.0f, 0.0f}, {}};
    const Simulation placed(prepare(m), t);
    const Bounds rest = bounds(m);
    const Bounds box = placed.bounds();
    EXPECT_EQ(box.min, rest.min + t.position);
    EXPECT_EQ(box.max, rest.max + t.position);
    double mass = 0.0;
    for (std::size_t i = 0; i < m.node_count(); ++i) mass += m.node_mass(i);
    EXPECT_DOUBLE_EQ(placed.total_mass(), mass);
    const Vec3 c = placed.center_of_mass();
    const Vec3 mid = (rest.min + rest.max) * 0.5f + t.position;  // a symmetric lattice
    EXPECT_NEAR(c.x, mid.x, 1e-5f);
    EXPECT_NEAR(c.y, mid.y, 1e-5f);
    EXPECT_NEAR(c.z, mid.z, 1e-5f);
}

TEST(Transform, ImpulseGivesTheFreeBodyMomentumJ) {
    Simulation sim(free_jelly());
    const Vec3 j{3.0f, -1.5f, 0.25f};
    sim.add_impulse(j);
    const Vec3 p = sim.linear_momentum();
    EXPECT_NEAR(p.x, j.x, 1e-5f);
    EXPECT_NEAR(p.y, j.y, 1e-5f);
    EXPECT_NEAR(p.z, j.z, 1e-5f);
    const Vec3 l = sim.angular_momentum();  // a push through the centre turns nothing
    EXPECT_NEAR(length(l), 0.0f, 1e-5f);
    // Without gravity or anything outside, the step keeps the momentum.
    run(sim, 30);
    const Vec3 after = sim.linear_momentum();
    EXPECT_NEAR(after.x, j.x, 1e-3f);
    EXPECT_NEAR(after.y, j.y, 1e-3f);
    EXPECT_NEAR(after.z, j.z, 1e-3f);
    // add_velocity adds M dv.
    const Vec3 dv{0.0f, 1.0f, 0.0f};
    sim.add_velocity(dv);
    EXPECT_NEAR(sim.linear_momentum().y, after.y + static_cast<float>(sim.total_mass()), 1e-3f);
}

TEST(Transform, ImpulseSkipsAnchoredNodes) {
    ClothSpec spec;
    spec.columns = spec.rows = 6;
    Simulation sim(make_cloth(spec));  // two pinned corners
    sim.add_impulse({1.0f, 0.0f, 0.0f});
    EXPECT_EQ(sim.velocities()[sim.model().anchors[0].node], (Vec3{}));
    EXPECT_NEAR(sim.linear_momentum().x, 1.0f, 1e-5f);
}

TEST(Transform, AngularMomentumOfARigidSpinIsIOmega) {
    Simulation sim(free_jelly());
    const Model& m = sim.model();
    const Vec3 c = sim.center_of_mass();
    const Vec3 w{0.3f, -1.2f, 0.8f};
    for (std::uint32_t i = 0; i < m.node_count(); ++i) sim.set_velocity(i, cross(w, m.positions[i] - c));
    // The inertia tensor about c, summed independently: I = sum m (r.r E - r r^T).
    std::array<std::array<double, 3>, 3> inertia{};
    for (std::size_t i = 0; i < m.node_count(); ++i) {
        const double r[3] = {static_cast<double>(m.positions[i].x) - c.x, static_cast<double>(m.positions[i].y) - c.y,
                             static_cast<double>(m.positions[i].z) - c.z};
        const double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) inertia[a][b] += m.node_mass(i) * ((a == b ? rr : 0.0) - r[a] * r[b]);
    }
    const double omega[3] = {w.x, w.y, w.z};
    const Vec3 l = sim.angular_momentum();
    const double got[3] = {l.x, l.y, l.z};
    for (int a = 0; a < 3; ++a) {
        const double expected = inertia[a][0] * omega[0] + inertia[a][1] * omega[1] + inertia[a][2] * omega[2];
        EXPECT_NEAR(got[a], expected, 1e-5 * (1.0 + std::fabs(expected))) << "component " << a;
    }
    EXPECT_NEAR(length(sim.linear_momentum()), 0.0f, 1e-5f);
}

TEST(Transform, TeleportKeepingVelocityKeepsEnergyAndTurnsMomentum) {
    Simulation sim(free_jelly());
    sim.add_velocity({1.0f, 0.5f, 0.0f});
    for (std::uint32_t i = 0; i < 8; ++i) sim.apply_force(i, {0.0f, 50.0f, 0.0f});
    run(sim, 20);
    const double energy = sim.kinetic_energy();
    const Vec3 p = sim.linear_momentum();
    const Transform to{{-4.0f, 2.0f, 7.0f}, quat_from_axis_angle({0.0f, 1.0f, 0.0f}, 1.1f)};
    sim.teleport(to, true);
    EXPECT_NEAR(sim.kinetic_energy(), energy, 1e-5 * energy);
    const Vec3 turned = rotate(to.rotation, p);
    const Vec3 now = sim.linear_momentum();
    EXPECT_NEAR(now.x, turned.x, 1e-5f);
    EXPECT_NEAR(now.y, turned.y, 1e-5f);
    EXPECT_NEAR(now.z, turned.z, 1e-5f);
    run(sim, 10);  // and steps on from there
    EXPECT_TRUE(std::isfinite(sim.kinetic_energy()));
    sim.teleport(to, false);  // already there: only the velocities go
    EXPECT_EQ(sim.kinetic_energy(), 0.0);
}

TEST(Transform, FallingClothTeleportedKeepsFallingFromTheNewPlace) {
    ClothSpec spec;
    spec.columns = spec.rows = 10;
    spec.anchors = ClothAnchors::none;
    const auto body = prepare(make_cloth(spec));
    Simulation moved(body), stayed(body);
    run(moved, 20);
    run(stayed, 20);
    const Vec3 shift{5.0f, 3.0f, 0.0f};
    moved.teleport({shift, {}}, true);
    EXPECT_TRUE(same_bits(moved.velocities(), stayed.velocities()));  // no rotation: velocities as they were
    run(moved, 20);
    run(stayed, 20);
    for (std::size_t i = 0; i < moved.positions().size(); ++i) {
        const Vec3 d = moved.positions()[i] - stayed.positions()[i] - shift;
        ASSERT_LE(length(d), 1e-4f) << "node " << i;
        ASSERT_LT(moved.velocities()[i].y, -1.0f) << "node " << i;  // still falling
    }
    // Without keeping the velocity it starts its fall over.
    moved.teleport({{}, {}}, false);
    EXPECT_EQ(moved.kinetic_energy(), 0.0);
    EXPECT_EQ(moved.placement(), Transform{});
}

TEST(Transform, DrivesAndTethersMoveWithTheInstance) {
    // A jump rope teleported twice ends where one placed there starts, turning
    // on circles of the same radius.
    const auto body = prepare(make_jump_rope());
    Simulation sim(body);
    run(sim, 30);
    const Transform a{{1.0f, 0.0f, 0.0f}, quat_from_axis_angle({0.0f, 1.0f, 0.0f}, 0.4f)};
    const Transform b{{0.0f, 0.0f, 2.0f}, quat_from_axis_angle({0.0f, 1.0f, 0.0f}, -0.9f)};
    sim.teleport(a, false);
    sim.teleport(b, false);
    EXPECT_EQ(sim.placement(), b);
    for (std::size_t i = 0; i < sim.model().anchors.size(); ++i) {
        if (sim.model().anchors[i].drive != AnchorDrive::circle) continue;
        Simulation fresh(body);
        EXPECT_NEAR(sim.anchor_circle_radius(i), fresh.anchor_circle_radius(i), 1e-5f);
    }
    sim.reset();  // the rest pose where it stands
    Simulation placed(body, b);
    EXPECT_LE(max_difference(sim.positions(), placed.positions()), 1e-5);
    run(sim, 30);
    run(placed, 30);
    EXPECT_LE(max_difference(sim.positions(), placed.positions()), 1e-4);

    // A tethered body stays within its rope's length of the moved point.
    const Model tethered = make_tethered_bodies();
    ASSERT_FALSE(tethered.tethers.empty());
    const Transform far{{20.0f, 0.0f, 0.0f}, {}};
    Simulation t_sim(prepare(tethered), far);
    run(t_sim, 120);
    for (const Tether& t : tethered.tethers)
        EXPECT_LE(length(t_sim.positions()[t.node] - apply(far, t.point)), t.length * 1.0001f);
}

TEST(Transform, BadTransformsAreRefusedChangingNothing) {
    Simulation sim(free_jelly());
    sim.add_velocity({1.0f, 0.0f, 0.0f});
    const std::vector<Vec3> before(sim.positions().begin(), sim.positions().end());
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_THROW(sim.teleport({{nan, 0.0f, 0.0f}, {}}, true), Error);
    EXPECT_THROW(sim.teleport({{}, Quat{2.0f, 0.0f, 0.0f, 0.0f}}, true), Error);
    EXPECT_THROW(sim.teleport({{}, Quat{0.0f, 0.0f, 0.0f, 0.0f}}, true), Error);
    EXPECT_THROW(Simulation(sim.body(), Transform{{}, Quat{0.5f, 0.0f, 0.0f, 0.0f}}), Error);
    EXPECT_THROW(sim.add_impulse({nan, 0.0f, 0.0f}), Error);
    EXPECT_TRUE(same_bits(sim.positions(), before));
    EXPECT_EQ(sim.placement(), Transform{});
    EXPECT_NEAR(sim.linear_momentum().x, static_cast<float>(sim.total_mass()), 1e-4f);
}

// Scaled instances (Simulation(body, placement, scale)).

namespace {

/// The model with every length times s, by hand: what a scaled instance runs.
Model scaled_by_hand(Model m, float s) {
    for (Vec3& p : m.positions) p = p * s;
    for (Spring& spring : m.springs) spring.rest *= s;
    for (Anchor& a : m.anchors) a.center = a.center * s;
    for (Tether& t : m.tethers) {
        t.point = t.point * s;
        t.length *= s;
    }
    for (Tube& tube : m.tubes) tube.radius *= s;
    return m;
}

}  // namespace

TEST(ScaledInstance, HangingChainStretchesByItsWeightFromTheScaledRestLengths) {
    // Node 0 anchored, 5 springs of rest 0.2 m straight down, at scale 2.5: rest
    // 0.5 m. At rest, spring j (from the top) holds the 5 - j nodes below it:
    // it is longer than its rest by (5 - j) m g / k (masses and k unscaled).
    Parameters p;
    p.energy_loss = 0.9f;
    const Model m = make_string({.nodes = 6, .length = 1.0f, .start = {0, 2, 0}, .direction = {0, -1, 0}}, p);
    const float s = 2.5f;
    const Transform at{{1.0f, 0.0f, 0.0f}, {}};
    Simulation sim(prepare(m), at, s);
    EXPECT_EQ(sim.scale(), s);
    EXPECT_EQ(sim.positions()[0], (Vec3{1.0f, 5.0f, 0.0f}));  // apply(at, s * (0, 2, 0))
    EXPECT_EQ(sim.positions()[5], (Vec3{1.0f, 2.5f, 0.0f}));
    run(sim, 600);
    const double weight_over_k = 0.05 * 9.81 / 1000.0;
    double y = 5.0;
    for (int j = 0; j < 5; ++j) {
        y -= 0.5 + (5 - j) * weight_over_k;
        EXPECT_NEAR(sim.positions()[static_cast<std::size_t>(j) + 1].y, y, 2e-5) << j;
        EXPECT_NEAR(sim.positions()[static_cast<std::size_t>(j) + 1].x, 1.0, 1e-6) << j;
    }
    // reset() returns to the scaled rest pose where the instance stands.
    sim.reset();
    EXPECT_EQ(sim.positions()[5], (Vec3{1.0f, 2.5f, 0.0f}));
}

TEST(ScaledInstance, StepsAsTheModelScaledByHand) {
    ClothSpec cloth;
    cloth.columns = cloth.rows = 12;
    const Transform at{{0.5f, 1.0f, -2.0f}, quat_from_axis_angle({0, 1, 0}, 0.7f)};
    // The cloth also with its nodes in scattered order: springs in no run.
    Model scattered = make_cloth(cloth);
    test::scatter_nodes(scattered, 9);
    scattered.name = "scattered cloth";
    const std::vector<Model> models{make_cloth(cloth), scattered, make_jump_rope(), make_tethered_bodies(),
                                    make_source_rope()};
    for (const Model& m : models) {
        for (const float s : {0.5f, 3.0f}) {
            SCOPED_TRACE(m.name + " at scale " + std::to_string(s));
            Simulation scaled(prepare(m), at, s, {.threads = 2});
            Simulation by_hand(prepare(scaled_by_hand(m, s)), at);
            EXPECT_EQ(scaled.model(), by_hand.model());
            run(scaled, 60);
            run(by_hand, 60);
            for (std::size_t i = 0; i < m.node_count(); ++i)
                ASSERT_EQ(scaled.positions()[i], by_hand.positions()[i]) << "node " << i;
            // Another instance of the scaled body is scaled too.
            Simulation again(scaled.body());
            EXPECT_EQ(again.scale(), s);
            EXPECT_EQ(again.positions()[0], by_hand.model().positions[0]);
        }
    }
}

TEST(ScaledInstance, BadScaleIsRefused) {
    const auto body = prepare(make_string({.nodes = 4}));
    try {
        Simulation sim(body, Transform{}, 0.0f);
        FAIL() << "expected an Error";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "Simulation: the scale must be finite and > 0 (got 0.000000)");
    }
    EXPECT_THROW(Simulation(body, Transform{}, std::numeric_limits<float>::infinity()), Error);
}
