// springkit — rays against a model's faces or nodes (raycast.hpp).
#include "springkit/raycast.hpp"

#include <cmath>
#include <string>

#include "springkit/error.hpp"

namespace springkit {

namespace {

// Doubles inside: a float ray meeting a float triangle is then solved with
// rounding far below the inputs' own, so a hit on a plane lands on it.
struct D3 {
    double x, y, z;
};
D3 d3(const Vec3& v) { return {v.x, v.y, v.z}; }
D3 operator-(const D3& a, const D3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double dot(const D3& a, const D3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 cross(const D3& a, const D3& b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }

struct Ray {
    D3 origin, dir;  // dir of unit length
    double max;
};

Vec3 to_vec(const D3& v) { return {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)}; }

// The unit normal turned against the ray, so a two-sided surface shows the side the ray met.
Vec3 facing(D3 n, const D3& dir) {
    const double len = std::sqrt(dot(n, n));
    if (dot(n, dir) > 0.0) n = {-n.x, -n.y, -n.z};
    return len > 0.0 ? to_vec({n.x / len, n.y / len, n.z / len}) : Vec3{};
}

// Möller and Trumbore (1997): solve origin + t dir = (1 - u - v) p0 + u p1 + v p2
// by Cramer's rule with the scalar triple products sharing pvec = dir x e2 and
// qvec = s x e1, s = origin - p0; det = e1 . pvec. Both signs of det are kept
// (no culling), and det ~ 0 (the ray in the plane, or a degenerate face) misses.
std::optional<RayHit> faces(const Model& model, std::span<const Vec3> positions, const Ray& ray) {
    std::optional<RayHit> best;
    double best_t = ray.max;
    for (std::size_t f = 0; f < model.faces.size(); ++f) {
        const Face& face = model.faces[f];
        const D3 p0 = d3(positions[face.node[0]]);
        const D3 e1 = d3(positions[face.node[1]]) - p0, e2 = d3(positions[face.node[2]]) - p0;
        const D3 pvec = cross(ray.dir, e2);
        const double det = dot(e1, pvec);
        // Relative to the edges' size: |det| = |e1| |e2| |sin| |cos| of the angles
        // involved, so this refuses rays within about 1e-7 rad of the plane.
        if (!(det * det > 1e-14 * dot(e1, e1) * dot(e2, e2))) continue;  // also NaN corners
        const double inv = 1.0 / det;
        const D3 s = ray.origin - p0;
        const double u = dot(s, pvec) * inv;
        if (u < 0.0 || u > 1.0) continue;
        const D3 qvec = cross(s, e1);
        const double v = dot(ray.dir, qvec) * inv;
        if (v < 0.0 || u + v > 1.0) continue;
        const double t = dot(e2, qvec) * inv;
        if (t < 0.0 || t > best_t || (best && t == best_t)) continue;  // an edge shared: the first face
        best_t = t;
        RayHit hit;
        hit.distance = static_cast<float>(t);
        hit.point = to_vec({ray.origin.x + t * ray.dir.x, ray.origin.y + t * ray.dir.y, ray.origin.z + t * ray.dir.z});
        hit.face = static_cast<std::uint32_t>(f);
        hit.u = static_cast<float>(u);
        hit.v = static_cast<float>(v);
        hit.normal = facing(cross(e1, e2), ray.dir);
        best = hit;
    }
    return best;
}

double default_radius(const Model& model) {
    double sum = 0.0;
    for (const Spring& s : model.springs) sum += s.rest;
    const double mean = model.springs.empty() ? 0.0 : sum / static_cast<double>(model.springs.size());
    return mean > 0.0 && std::isfinite(mean) ? kRaycastNodeRadiusShare * mean : 0.01;
}

// |origin + t dir - c|^2 = r^2 with |dir| = 1: t^2 + 2 b t + (|s|^2 - r^2) = 0,
// s = origin - c, b = s . dir; the smaller root is where the ray enters.
std::optional<RayHit> nodes(std::span<const Vec3> positions, const Ray& ray, double radius) {
    std::optional<RayHit> best;
    double best_t = ray.max;
    for (std::size_t n = 0; n < positions.size(); ++n) {
        const D3 c = d3(positions[n]);
        const D3 s = ray.origin - c;
        const double b = dot(s, ray.dir);
        const double disc = b * b - (dot(s, s) - radius * radius);
        if (!(disc >= 0.0)) continue;  // also NaN positions
        const double root = std::sqrt(disc);
        double t = -b - root;
        if (t < 0.0) t = -b + root;  // inside the sphere: where the ray leaves it
        if (t < 0.0 || t > best_t || (best && t == best_t)) continue;
        best_t = t;
        const D3 point{ray.origin.x + t * ray.dir.x, ray.origin.y + t * ray.dir.y, ray.origin.z + t * ray.dir.z};
        RayHit hit;
        hit.distance = static_cast<float>(t);
        hit.point = to_vec(point);
        hit.node = static_cast<std::uint32_t>(n);
        hit.normal = facing(point - c, ray.dir);
        best = hit;
    }
    return best;
}

std::string vec_text(const Vec3& v) {
    return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

}  // namespace

std::optional<RayHit> raycast(const Model& model, std::span<const Vec3> positions, Vec3 origin, Vec3 direction,
                              float max_distance, float node_radius) {
    if (positions.size() != model.node_count())
        throw Error("raycast: " + std::to_string(positions.size()) + " positions for a model of " +
                    std::to_string(model.node_count()) + " nodes");
    if (!is_finite(origin)) throw Error("raycast: the origin " + vec_text(origin) + " is not finite");
    if (!is_finite(direction)) throw Error("raycast: the direction " + vec_text(direction) + " is not finite");
    const D3 dir = d3(direction);
    const double len = std::sqrt(dot(dir, dir));
    if (!(len > 0.0)) throw Error("raycast: the direction is zero; a ray needs a direction to go in");
    if (!(max_distance >= 0.0f))
        throw Error("raycast: max_distance must be >= 0 (got " + std::to_string(max_distance) + ")");
    if (!(node_radius >= 0.0f) || std::isinf(node_radius))
        throw Error("raycast: node_radius must be finite and >= 0 (got " + std::to_string(node_radius) + ")");
    const Ray ray{d3(origin), {dir.x / len, dir.y / len, dir.z / len}, max_distance};
    if (!model.faces.empty()) return faces(model, positions, ray);
    return nodes(positions, ray, node_radius > 0.0f ? node_radius : default_radius(model));
}

}  // namespace springkit
