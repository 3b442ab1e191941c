// springkit — collider shapes, their signed distances, and collider sets.
//
// Signed distance functions after Quilez ("distance functions", box and
// capsule) and Hart ("Sphere tracing", 1996) for the sweep along a node's
// motion; the convex hull's planes are found by brute force (every triple of
// points whose plane has all points on one side), which is why hulls are small.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "collision/collider_geometry.hpp"
#include "collision/triangle_mesh.hpp"
#include "springkit/error.hpp"

namespace springkit {

namespace {

[[noreturn]] void collider_error(const Collider& c, std::size_t index, const std::string& what) {
    std::string name = "collider " + std::to_string(index);
    if (!c.name.empty()) name += " (\"" + c.name + "\")";
    throw Error(name + ", " + collider_shape_name(c.shape) + ": " + what);
}

std::string number(float v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

void check_positive(const Collider& c, std::size_t index, const char* what, float v) {
    if (!std::isfinite(v) || !(v > 0.0f))
        collider_error(c, index, std::string(what) + " must be a finite number > 0 (got " + number(v) + ")");
}

void check_pose(const Transform& pose, const std::string& who) {
    if (!is_finite(pose.position) || !is_unit(pose.rotation))
        throw Error(who + ": the pose must be a finite position and a unit quaternion");
}

// The hull's face planes: for every triple of points whose plane has all
// points on one side (within a tolerance relative to the hull's size), that
// plane facing out; duplicates (coplanar triples of one face) dropped.
std::vector<std::array<float, 4>> hull_planes(std::span<const Vec3> points) {
    std::vector<std::array<float, 4>> planes;
    float size = 0.0f;
    for (const Vec3& p : points) size = std::max(size, length(p - points[0]));
    const float tolerance = 1e-5f * size;
    const std::size_t n = points.size();
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            for (std::size_t k = j + 1; k < n; ++k) {
                Vec3 normal = cross(points[j] - points[i], points[k] - points[i]);
                const float len = length(normal);
                if (!(len > tolerance * size)) continue;
                normal = normal * (1.0f / len);
                float offset = dot(normal, points[i]);
                bool above = false, below = false;
                for (const Vec3& p : points) {
                    const float d = dot(normal, p) - offset;
                    above = above || d > tolerance;
                    below = below || d < -tolerance;
                }
                if (above && below) continue;
                if (above) {
                    normal = -normal;
                    offset = -offset;
                }
                const bool known = std::any_of(planes.begin(), planes.end(), [&](const std::array<float, 4>& q) {
                    return dot(normal, Vec3{q[0], q[1], q[2]}) > 1.0f - 1e-5f && std::abs(q[3] - offset) <= tolerance;
                });
                if (!known) planes.push_back({normal.x, normal.y, normal.z, offset});
            }
    return planes;
}

}  // namespace

const char* collider_shape_name(ColliderShape shape) {
    switch (shape) {
        case ColliderShape::plane: return "plane";
        case ColliderShape::sphere: return "sphere";
        case ColliderShape::capsule: return "capsule";
        case ColliderShape::box: return "box";
        case ColliderShape::convex_hull: return "convex_hull";
        case ColliderShape::triangle_mesh: return "triangle_mesh";
    }
    return "?";
}

void check_collider(const Collider& c, std::size_t index) {
    switch (c.shape) {
        case ColliderShape::plane: break;
        case ColliderShape::sphere: check_positive(c, index, "radius", c.radius); break;
        case ColliderShape::capsule:
            check_positive(c, index, "radius", c.radius);
            check_positive(c, index, "half_height", c.half_height);
            break;
        case ColliderShape::box:
            check_positive(c, index, "half_extents x", c.half_extents.x);
            check_positive(c, index, "half_extents y", c.half_extents.y);
            check_positive(c, index, "half_extents z", c.half_extents.z);
            break;
        case ColliderShape::convex_hull:
            if (c.points.size() < 4) collider_error(c, index, "a hull needs at least 4 points (got " + std::to_string(c.points.size()) + ")");
            if (c.points.size() > kMaxHullPoints)
                collider_error(c, index, "a hull takes at most " + std::to_string(kMaxHullPoints) + " points (got " +
                                             std::to_string(c.points.size()) + ")");
            for (std::size_t i = 0; i < c.points.size(); ++i)
                if (!is_finite(c.points[i])) collider_error(c, index, "point " + std::to_string(i) + " is not finite");
            if (c.planes.size() < 4) collider_error(c, index, "the points are flat: the hull has no volume");
            break;
        case ColliderShape::triangle_mesh:
            if (!c.mesh) collider_error(c, index, "no mesh");
            break;
    }
    if (!is_finite(c.pose.position) || !is_unit(c.pose.rotation))
        collider_error(c, index, "the pose must be a finite position and a unit quaternion");
    auto check_surface = [&](const char* what, float v, float max) {
        if (!std::isfinite(v) || v < 0.0f || v > max)
            collider_error(c, index, std::string(what) + " must be in [0, " + number(max) + "] (got " + number(v) + ")");
    };
    check_surface("static_friction", c.static_friction, std::numeric_limits<float>::max());
    check_surface("dynamic_friction", c.dynamic_friction, c.static_friction);
    check_surface("restitution", c.restitution, 1.0f);
}

Collider plane_collider(Vec3 normal, float offset) {
    // The frame's +y turned onto the normal, its origin at offset along it.
    const float len = length(normal);
    if (!is_finite(normal) || !(len > 0.0f) || !std::isfinite(offset))
        throw Error("plane collider: the normal must be finite and non-zero and the offset finite");
    const Vec3 n = normal * (1.0f / len);
    const Vec3 up{0.0f, 1.0f, 0.0f};
    const Vec3 axis = cross(up, n);
    const float c = std::clamp(dot(up, n), -1.0f, 1.0f);
    Collider out;
    out.shape = ColliderShape::plane;
    out.pose.rotation = length(axis) > 1e-6f ? quat_from_axis_angle(axis, std::acos(c))
                        : (c > 0.0f ? Quat{} : Quat{0.0f, 1.0f, 0.0f, 0.0f});
    out.pose.position = n * offset;
    return out;
}

namespace {

// A collider of `shape` with what `set` gives it, checked.
template <class Set>
Collider checked(ColliderShape shape, Set&& set) {
    Collider out;
    out.shape = shape;
    set(out);
    check_collider(out, 0);
    return out;
}

}  // namespace

Collider sphere_collider(float radius) {
    return checked(ColliderShape::sphere, [&](Collider& c) { c.radius = radius; });
}

Collider capsule_collider(float half_height, float radius) {
    return checked(ColliderShape::capsule, [&](Collider& c) {
        c.radius = radius;
        c.half_height = half_height;
    });
}

Collider box_collider(Vec3 half_extents) {
    return checked(ColliderShape::box, [&](Collider& c) { c.half_extents = half_extents; });
}

Collider convex_hull_collider(std::span<const Vec3> points) {
    return checked(ColliderShape::convex_hull, [&](Collider& c) {
        c.points.assign(points.begin(), points.end());
        if (c.points.size() >= 4 && c.points.size() <= kMaxHullPoints &&
            std::all_of(c.points.begin(), c.points.end(), [](const Vec3& p) { return is_finite(p); }))
            c.planes = hull_planes(c.points);
    });
}

Collider mesh_collider(std::shared_ptr<const TriangleMesh> mesh) {
    return checked(ColliderShape::triangle_mesh, [&](Collider& c) { c.mesh = std::move(mesh); });
}

namespace detail {

Vec3 bounding_centre(const Collider& c) {
    if (c.shape == ColliderShape::triangle_mesh) return (c.mesh->nodes[0].lo + c.mesh->nodes[0].hi) * 0.5f;
    return {};
}

float bounding_radius(const Collider& c) {
    switch (c.shape) {
        case ColliderShape::plane: return std::numeric_limits<float>::infinity();
        case ColliderShape::sphere: return c.radius;
        case ColliderShape::capsule: return c.half_height + c.radius;
        case ColliderShape::box: return length(c.half_extents);
        case ColliderShape::convex_hull: {
            float r = 0.0f;
            for (const Vec3& p : c.points) r = std::max(r, length(p));
            return r;
        }
        case ColliderShape::triangle_mesh: return 0.5f * length(c.mesh->nodes[0].hi - c.mesh->nodes[0].lo);
    }
    return 0.0f;
}


SurfacePoint local_distance(const Collider& c, Vec3 p, float limit, std::uint32_t* mesh_hint) {
    switch (c.shape) {
        case ColliderShape::plane: return {p.y, {0.0f, 1.0f, 0.0f}};
        case ColliderShape::sphere: {
            const float r = length(p);
            return {r - c.radius, r > 0.0f ? p * (1.0f / r) : Vec3{0.0f, 1.0f, 0.0f}};
        }
        case ColliderShape::capsule: {
            const Vec3 axis_point{0.0f, std::clamp(p.y, -c.half_height, c.half_height), 0.0f};
            const Vec3 d = p - axis_point;
            const float r = length(d);
            return {r - c.radius, r > 0.0f ? d * (1.0f / r) : Vec3{1.0f, 0.0f, 0.0f}};
        }
        case ColliderShape::box: {
            // Quilez: outside, the distance to the box clamped; inside, the
            // nearest face (the largest of the negative face distances).
            const Vec3 q{std::abs(p.x) - c.half_extents.x, std::abs(p.y) - c.half_extents.y,
                         std::abs(p.z) - c.half_extents.z};
            const Vec3 outside{std::max(q.x, 0.0f), std::max(q.y, 0.0f), std::max(q.z, 0.0f)};
            const float out_len = length(outside);
            if (out_len > 0.0f) {
                const Vec3 n{std::copysign(outside.x, p.x), std::copysign(outside.y, p.y),
                             std::copysign(outside.z, p.z)};
                return {out_len, n * (1.0f / out_len)};
            }
            if (q.x >= q.y && q.x >= q.z) return {q.x, {std::copysign(1.0f, p.x), 0.0f, 0.0f}};
            if (q.y >= q.z) return {q.y, {0.0f, std::copysign(1.0f, p.y), 0.0f}};
            return {q.z, {0.0f, 0.0f, std::copysign(1.0f, p.z)}};
        }
        case ColliderShape::convex_hull: {
            SurfacePoint best{-std::numeric_limits<float>::max(), {}};
            for (const auto& plane : c.planes) {
                const Vec3 n{plane[0], plane[1], plane[2]};
                const float d = dot(n, p) - plane[3];
                if (d > best.distance) best = {d, n};
            }
            return best;
        }
        case ColliderShape::triangle_mesh: {
            float d = 0.0f;
            Vec3 point, face_normal;
            if (!c.mesh->closest(p, limit, d, point, face_normal, mesh_hint)) return {limit + 1.0f, {0.0f, 1.0f, 0.0f}};
            // Two-sided: the normal points from the surface to p (the face's
            // normal, on p's side, when p lies on the surface).
            const Vec3 away = p - point;
            if (d > 1e-7f) return {d, away * (1.0f / d)};
            return {d, dot(face_normal, away) < 0.0f ? -face_normal : face_normal};
        }
    }
    return {};
}

bool local_sweep(const Collider& c, Vec3 a, Vec3 b, float radius, float& t) {
    const Vec3 dir = b - a;
    const float len = length(dir);
    if (!(len > 0.0f)) return false;
    if (c.shape == ColliderShape::triangle_mesh) {
        Vec3 face_normal;
        return c.mesh->first_crossing(a, b, t, face_normal);
    }
    // A 1-Lipschitz distance d: every point of the segment is at least
    // (d(a) + d(b) - len) / 2 from the surface, so nothing to find when that
    // exceeds the radius (the common case, two evaluations).
    const float da = local_distance(c, a, 0.0f).distance, db = local_distance(c, b, 0.0f).distance;
    if ((da + db - len) * 0.5f > radius) return false;
    // Sphere tracing: step by the distance to the inflated surface; no step
    // can pass it. Grazing paths that need more steps are left to the end
    // point's test.
    const float tolerance = 1e-4f * std::max(radius, 1e-2f);
    float s = 0.0f;
    for (int i = 0; i < 48 && s <= len; ++i) {
        const float d = local_distance(c, a + dir * (s / len), 0.0f).distance - radius;
        if (d <= tolerance) {
            t = s / len;
            return true;
        }
        s += d;
    }
    return false;
}

}  // namespace detail

SurfacePoint distance(const Collider& collider, Vec3 p) {
    SurfacePoint s = detail::local_distance(collider, detail::to_local(collider.pose, p),
                                            std::numeric_limits<float>::max());
    s.normal = detail::to_world_direction(collider.pose, s.normal);
    return s;
}

std::vector<std::size_t> points_inside(const ColliderSet& set, std::span<const Vec3> points) {
    std::vector<std::size_t> inside(set.size(), 0);
    for (ColliderId id = 0; id < set.size(); ++id) {
        const Collider& c = set[id];
        if (c.shape == ColliderShape::triangle_mesh) continue;
        // Points outside the bounding sphere are outside: no distance needed.
        const Vec3 centre = c.pose.position + detail::to_world_direction(c.pose, detail::bounding_centre(c));
        const float radius = detail::bounding_radius(c);
        for (const Vec3& p : points) {
            const Vec3 d = p - centre;
            if (std::isfinite(radius) && dot(d, d) > radius * radius) continue;
            inside[id] += distance(c, p).distance < 0.0f;
        }
    }
    return inside;
}

ColliderId ColliderSet::add(Collider collider) {
    if (collider.shape == ColliderShape::convex_hull && collider.planes.empty() && collider.points.size() >= 4 &&
        collider.points.size() <= kMaxHullPoints)
        collider.planes = hull_planes(collider.points);
    check_collider(collider, colliders_.size());
    colliders_.push_back(std::move(collider));
    motions_.push_back({colliders_.back().pose, {}, {}, 0.0f});
    return static_cast<ColliderId>(colliders_.size() - 1);
}

const Collider& ColliderSet::operator[](ColliderId id) const {
    if (id >= colliders_.size()) throw Error("ColliderSet: collider index " + std::to_string(id) + " out of range");
    return colliders_[id];
}

const ColliderSet::Motion& ColliderSet::motion(ColliderId id) const {
    (void)(*this)[id];
    return motions_[id];
}

void ColliderSet::set_transform(ColliderId id, const Transform& pose) {
    (void)(*this)[id];
    check_pose(pose, "ColliderSet::set_transform");
    colliders_[id].pose = pose;
    motions_[id] = {pose, {}, {}, 0.0f};
}

void ColliderSet::move_to(ColliderId id, const Transform& to, float seconds) {
    (void)(*this)[id];
    check_pose(to, "ColliderSet::move_to");
    if (!std::isfinite(seconds) || !(seconds > 0.0f))
        throw Error("ColliderSet::move_to: seconds must be a finite number > 0 (got " + number(seconds) + ")");
    const Transform from = colliders_[id].pose;
    // The turn from -> to as an axis and angle (the shorter way round).
    Quat turn = to.rotation * conjugate(from.rotation);
    if (turn.w < 0.0f) turn = {-turn.w, -turn.x, -turn.y, -turn.z};
    const Vec3 u{turn.x, turn.y, turn.z};
    const float s = length(u);
    const float angle = 2.0f * std::atan2(s, turn.w);
    const Vec3 omega = s > 0.0f ? u * (angle / (s * seconds)) : Vec3{};
    motions_[id] = {from, (to.position - from.position) * (1.0f / seconds), omega, seconds};
    colliders_[id].pose = to;
}

Transform ColliderSet::pose_at(ColliderId id, float time) const {
    const Motion& m = motion(id);
    if (m.seconds == 0.0f || time >= m.seconds) return colliders_[id].pose;
    const float t = std::max(time, 0.0f);
    const float w = length(m.angular_velocity);
    const Quat turn = w > 0.0f ? quat_from_axis_angle(m.angular_velocity, w * t) : Quat{};
    return {m.from.position + m.linear_velocity * t, normalized(turn * m.from.rotation)};
}

Vec3 ColliderSet::linear_velocity(ColliderId id) const { return motion(id).linear_velocity; }
Vec3 ColliderSet::angular_velocity(ColliderId id) const { return motion(id).angular_velocity; }

}  // namespace springkit
