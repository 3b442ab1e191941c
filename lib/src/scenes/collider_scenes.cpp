// springkit — scenes with colliders (collider_scenes.hpp). The dimensions and
// materials are ours, chosen so that each scene has a known answer.
#include "springkit/collider_scenes.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "springkit/builders.hpp"
#include "springkit/error.hpp"

namespace springkit {

namespace {

std::shared_ptr<ColliderSet> with(std::initializer_list<Collider> colliders) {
    auto set = std::make_shared<ColliderSet>();
    for (const Collider& c : colliders) set->add(c);
    return set;
}

Collider named(Collider c, const char* name, float static_friction, float dynamic_friction) {
    c.name = name;
    c.static_friction = static_friction;
    c.dynamic_friction = dynamic_friction;
    return c;
}

Collider floor_plane(float friction) { return named(plane_collider({0, 1, 0}, 0.0f), "floor", friction, friction); }

constexpr int kSteps = 6;
constexpr float kStepDepth = 0.25f, kStepHeight = 0.15f;

}  // namespace

Model make_gas_ball(const GasBallSpec& spec, const Parameters& params) {
    if (!(spec.rings >= 3 && spec.segments >= 3 && spec.radius > 0.0f))
        throw Error("gas ball: needs at least 3 rings and 3 segments and a radius > 0 m");
    Model m;
    m.name = "gas ball";
    m.params = params;
    const float pi = std::numbers::pi_v<float>;
    const int rings = spec.rings, segs = spec.segments;
    m.positions.push_back(spec.center + Vec3{0, spec.radius, 0});
    for (int r = 1; r < rings; ++r) {
        const float theta = pi * static_cast<float>(r) / static_cast<float>(rings);
        for (int s = 0; s < segs; ++s) {
            const float phi = 2.0f * pi * static_cast<float>(s) / static_cast<float>(segs);
            m.positions.push_back(spec.center + Vec3{std::sin(theta) * std::cos(phi), std::cos(theta),
                                                     std::sin(theta) * std::sin(phi)} * spec.radius);
        }
    }
    m.positions.push_back(spec.center - Vec3{0, spec.radius, 0});
    const auto bottom = static_cast<std::uint32_t>(m.positions.size() - 1);
    auto node = [&](int r, int s) -> std::uint32_t {
        if (r <= 0) return 0;
        if (r >= rings) return bottom;
        return static_cast<std::uint32_t>(1 + (r - 1) * segs + ((s % segs) + segs) % segs);
    };
    SpringSet springs(m);
    auto face = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        if (a == b || b == c || a == c) return;
        const Vec3 n = cross(m.positions[b] - m.positions[a], m.positions[c] - m.positions[a]);
        if (dot(n, m.positions[a] - spec.center) < 0.0f) std::swap(b, c);
        m.faces.push_back({{a, b, c}, {0, 0, 0}});
    };
    for (int r = 0; r < rings; ++r)
        for (int s = 0; s < segs; ++s) {
            const std::uint32_t a = node(r, s), b = node(r, s + 1), c = node(r + 1, s), d = node(r + 1, s + 1);
            springs.add(a, b);
            springs.add(a, c);
            springs.add(b, c);
            springs.add(a, node(r + 2, s));
            springs.add(a, node(r, s + 2));
            face(a, c, b);
            face(b, c, d);
        }
    return m;
}

ColliderScene cloth_over_sphere(int columns) {
    Parameters p;
    p.k = 1500.0f;
    p.mass = 0.03f;
    p.energy_loss = 0.98f;
    p.node_radius = 0.01f;
    ClothSpec spec;
    spec.columns = spec.rows = columns;
    spec.origin = {-1.0f, 0.61f, -1.0f};
    spec.anchors = ClothAnchors::none;
    return {"cloth over sphere", make_cloth(spec, p),
            with({named(sphere_collider(0.5f), "sphere", 0.6f, 0.5f)}), {}};
}

float staircase_height(float x) {
    // Step i (0 = the top) spans x in [i d, (i + 1) d) at height (kSteps - i) h.
    if (x < 0.0f) return kSteps * kStepHeight;
    const int step = static_cast<int>(std::floor(x / kStepDepth));
    return step >= kSteps ? 0.0f : static_cast<float>(kSteps - step) * kStepHeight;
}

ColliderScene jelly_down_stairs() {
    // Treads and risers as one mesh, from x = -1 (the landing) down to the floor.
    std::vector<Vec3> v;
    std::vector<std::array<std::uint32_t, 3>> t;
    auto quad = [&](Vec3 a, Vec3 b, Vec3 c, Vec3 d) {  // a b c d counter-clockwise seen from outside
        const auto i = static_cast<std::uint32_t>(v.size());
        v.insert(v.end(), {a, b, c, d});
        t.push_back({i, i + 1, i + 2});
        t.push_back({i, i + 2, i + 3});
    };
    const float z0 = -1.0f, z1 = 1.0f;
    for (int i = -1; i < kSteps; ++i) {
        const float x0 = i < 0 ? -1.0f : static_cast<float>(i) * kStepDepth;
        const float x1 = static_cast<float>(i + 1) * kStepDepth;
        const float y = static_cast<float>(kSteps - std::max(i, 0)) * kStepHeight;
        quad({x0, y, z1}, {x1, y, z1}, {x1, y, z0}, {x0, y, z0});  // tread
        const float below = static_cast<float>(kSteps - i - 1) * kStepHeight;
        if (i >= 0) quad({x1, below, z1}, {x1, y, z1}, {x1, y, z0}, {x1, below, z0});  // riser
    }
    Parameters p;
    p.k = 3000.0f;
    p.energy_loss = 0.995f;
    p.node_radius = 0.01f;
    Model jelly = make_jelly({.nx = 5, .ny = 5, .nz = 5, .size = 0.2f, .origin = {-0.25f, 0.91f, -0.1f}}, p);
    Collider stairs = named(mesh_collider(make_triangle_mesh(std::move(v), std::move(t))), "stairs", 0.3f, 0.2f);
    stairs.restitution = 0.3f;
    return {"jelly down stairs", std::move(jelly), with({stairs, floor_plane(0.3f)}), {}};
}

ColliderScene rope_over_capsule() {
    Parameters p;
    p.k = 1000.0f;
    p.mass = 0.02f;
    p.energy_loss = 0.97f;
    p.node_radius = 0.005f;
    Model rope = make_string({.nodes = 41, .length = 2.0f, .start = {-1.0f, 1.2f, 0.0f}, .anchor_first = false}, p);
    Collider capsule = named(capsule_collider(0.5f, 0.1f), "bar", 0.4f, 0.3f);
    capsule.pose = {{0.0f, 1.0f, 0.0f}, quat_from_axis_angle({1, 0, 0}, std::numbers::pi_v<float> / 2)};
    return {"rope over capsule", std::move(rope), with({capsule}), {}};
}

ColliderScene balloon_between_boxes() {
    Parameters p;
    p.k = 2000.0f;
    p.mass = 0.02f;
    p.energy_loss = 0.98f;
    p.max_substep = 0.001f;
    p.node_radius = 0.005f;
    // A ball of volume V0 = 4/3 pi r^3 holding 1 kPa: pressure = 1000 V0.
    const float r = 0.3f;
    p.pressure = 1000.0f * 4.0f / 3.0f * std::numbers::pi_v<float> * r * r * r;
    Model ball = make_gas_ball({.radius = r, .center = {0.0f, r + 0.01f, 0.0f}}, p);
    const float gap = 0.45f, squeezed = 0.2f;
    Collider left = named(box_collider({0.1f, 0.5f, 0.5f}), "left box", 0.5f, 0.4f);
    Collider right = left;
    right.name = "right box";
    left.pose.position = {-gap - 0.1f, 0.5f, 0.0f};
    right.pose.position = {gap + 0.1f, 0.5f, 0.0f};
    ColliderScene scene{"balloon between boxes", std::move(ball), with({left, right, floor_plane(0.5f)}), {}};
    scene.drive = [=](ColliderSet& set, double time, float dt) {
        // Still for the first second (the gas inflates the ball), then closing over one.
        const auto at = [&](double t) {
            return gap - (gap - squeezed) * static_cast<float>(std::clamp(t - 1.0, 0.0, 1.0));
        };
        const float x = at(time + dt) + 0.1f;
        set.move_to(0, {{-x, 0.5f, 0.0f}, {}}, dt);
        set.move_to(1, {{x, 0.5f, 0.0f}, {}}, dt);
    };
    return scene;
}

ColliderScene jelly_and_paddle() {
    Parameters p;
    p.k = 2000.0f;
    p.energy_loss = 1.0f;
    p.node_radius = 0.005f;
    Model jelly = make_jelly({.nx = 4, .ny = 4, .nz = 4, .size = 0.3f, .origin = {0.0f, 0.005f, -0.15f}}, p);
    Collider paddle = named(box_collider({0.05f, 0.3f, 0.3f}), "paddle", 0.0f, 0.0f);
    paddle.pose.position = {-0.1f, 0.3f, 0.0f};
    ColliderScene scene{"jelly and paddle", std::move(jelly), with({paddle, floor_plane(0.0f)}), {}};
    scene.drive = [](ColliderSet& set, double time, float dt) {
        const auto x = [](double t) { return -0.1f + 3.0f * static_cast<float>(std::min(t, 0.25)); };
        set.move_to(0, {{x(time + dt), 0.3f, 0.0f}, {}}, dt);
    };
    return scene;
}

}  // namespace springkit
