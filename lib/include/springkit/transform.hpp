// springkit — a rigid placement: a unit quaternion and a translation. Where an
// instance of a prepared body stands in the world (Simulation(body, transform),
// Simulation::teleport()). Rigid only: a scale changes the body's rest
// lengths and is chosen when an instance is made (Simulation(body, transform,
// scale)).
#pragma once

#include <cmath>

#include "springkit/vec3.hpp"

namespace springkit {

/// A rotation as a unit quaternion w + (x, y, z). Identity by default.
struct Quat {
    float w = 1.0f;
    float x = 0.0f;
    float y = 0.0f;
    float z = 0.0f;
    friend constexpr bool operator==(const Quat&, const Quat&) = default;
};

/// |q|^2.
constexpr float squared_norm(const Quat& q) { return q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z; }

/// How far |q|^2 may lie from 1 for q to count as a unit quaternion: a rotation
/// given to teleport(), a collider's pose, a scene file's rotation.
inline constexpr float kUnitQuaternionTolerance = 1e-4f;

/// q is a unit quaternion within kUnitQuaternionTolerance (false for NaN or infinity).
inline bool is_unit(const Quat& q) { return std::fabs(squared_norm(q) - 1.0f) <= kUnitQuaternionTolerance; }

/// The rotation by `angle` rad around `axis` (any length > 0; normalised here),
/// right-handed. A zero axis gives the identity.
inline Quat quat_from_axis_angle(const Vec3& axis, float angle) {
    const Vec3 u = normalized(axis);
    const float s = std::sin(0.5f * angle);
    return {std::cos(0.5f * angle), u.x * s, u.y * s, u.z * s};
}

/// q scaled to unit length (the identity for a zero q).
inline Quat normalized(const Quat& q) {
    const float n = std::sqrt(squared_norm(q));
    if (!(n > 0.0f)) return {};
    const float s = 1.0f / n;
    return {q.w * s, q.x * s, q.y * s, q.z * s};
}

/// The rotation b then a (Hamilton product a b).
constexpr Quat operator*(const Quat& a, const Quat& b) {
    return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}

/// The inverse rotation of a unit quaternion.
constexpr Quat conjugate(const Quat& q) { return {q.w, -q.x, -q.y, -q.z}; }

/// v rotated by the unit quaternion q: v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z).
/// The identity returns v bit for bit (every added term is exactly 0).
constexpr Vec3 rotate(const Quat& q, const Vec3& v) {
    const Vec3 u{q.x, q.y, q.z};
    const Vec3 t = cross(u, v) * 2.0f;
    return v + t * q.w + cross(u, t);
}

/// The rotation a fraction t in [0, 1] of the way from a to b along the
/// shorter arc, at constant angular speed (Shoemake's slerp, "Animating
/// rotation with quaternion curves", SIGGRAPH 1985): a sin((1 - t) theta) /
/// sin theta + b' sin(t theta) / sin theta, cos theta = a . b', b' = +-b on
/// a's side. Nearly equal rotations (cos theta > 0.9995) are lerped and
/// normalised, where the sines lose their digits. t = 0 gives a, t = 1 gives b'
/// up to rounding.
inline Quat slerp(const Quat& a, const Quat& b, float t) {
    float d = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
    const float sign = d < 0.0f ? -1.0f : 1.0f;
    d *= sign;
    const Quat c{b.w * sign, b.x * sign, b.y * sign, b.z * sign};
    float wa = 1.0f - t, wb = t;
    if (d <= 0.9995f) {
        const float theta = std::acos(d);
        const float s = std::sin(theta);
        wa = std::sin((1.0f - t) * theta) / s;
        wb = std::sin(t * theta) / s;
    }
    const Quat q{wa * a.w + wb * c.w, wa * a.x + wb * c.x, wa * a.y + wb * c.y, wa * a.z + wb * c.z};
    return d <= 0.9995f ? q : normalized(q);
}

/// A rigid placement: a point p of the body goes to rotate(rotation, p) + position.
struct Transform {
    Vec3 position{};
    Quat rotation{};
    friend constexpr bool operator==(const Transform&, const Transform&) = default;
};

/// Where the transform puts the point p.
constexpr Vec3 apply(const Transform& t, const Vec3& p) { return rotate(t.rotation, p) + t.position; }

}  // namespace springkit
