// springkit — scenes with colliders: a model, the colliders it meets and how
// the kinematic ones move. Tests, benchmarks and samples/game build them; each
// states the answer its test checks.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "springkit/colliders.hpp"
#include "springkit/model.hpp"

namespace springkit {

/// A closed UV sphere of springs (no inner nodes) for pressure: edges of every
/// quad, one diagonal, springs skipping a ring and a segment; faces outward.
struct GasBallSpec {
    float radius = 0.3f;    ///< m
    int rings = 10;         ///< latitude bands (>= 3)
    int segments = 16;      ///< longitude segments (>= 3)
    Vec3 center{0.0f, 1.0f, 0.0f};
};
Model make_gas_ball(const GasBallSpec& spec = {}, const Parameters& params = {});

struct ColliderScene {
    std::string name;
    Model model;
    std::shared_ptr<ColliderSet> colliders;
    /// Moves the kinematic colliders for the frame starting at `time` s that
    /// lasts frame_dt s (call before each step); empty: nothing moves.
    std::function<void(ColliderSet&, double time, float frame_dt)> drive;
};

/// A columns x columns cloth (2 m square, node radius 1 cm) dropped from 0.1 m
/// above a sphere of radius 0.5 m at the origin: at rest its centre node lies
/// on top of the sphere at y = 0.51 m.
ColliderScene cloth_over_sphere(int columns = 33);
/// A jelly (0.2 m) on the landing of a staircase of 6 steps (a static triangle
/// mesh, 0.25 m deep, 0.15 m high, the landing at x < 0) above the floor y = 0;
/// give it a push along +x (Simulation::add_velocity) and it tumbles down.
ColliderScene jelly_down_stairs();
/// Height of the staircase's surface at x (m): what no jelly node goes below.
float staircase_height(float x);
/// A rope of 41 nodes, 2 m long, laid across a capsule (radius 0.1 m, axis along z,
/// centre at height 1 m): it comes to rest hanging over it, its middle at 1.1 m + r.
ColliderScene rope_over_capsule();
/// A gas ball (radius 0.3 m, 1 kPa) on the floor squeezed between two boxes that
/// close from 0.45 m to 0.2 m off its centre from 1 s to 2 s.
ColliderScene balloon_between_boxes();
/// A jelly at rest on a frictionless floor, hit along +x by a box paddle moving at
/// 3 m/s for 0.25 s (then it stops).
ColliderScene jelly_and_paddle();

}  // namespace springkit
