// springkit — the triangle mesh collider: an AABB tree over the triangles,
// nearest-point and segment queries (Ericson, "Real-Time Collision Detection",
// 2005: 5.1.5 closest point on a triangle, 6.1 bounding volume hierarchies;
// Moller and Trumbore 1997 for the segment against a triangle).
#include "collision/triangle_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "springkit/error.hpp"

namespace springkit {

namespace {

Vec3 min3(Vec3 a, Vec3 b) { return {std::min(a.x, b.x), std::min(a.y, b.y), std::min(a.z, b.z)}; }
Vec3 max3(Vec3 a, Vec3 b) { return {std::max(a.x, b.x), std::max(a.y, b.y), std::max(a.z, b.z)}; }

// Squared distance from p to the box [lo, hi] (0 inside).
float box_distance_squared(Vec3 p, Vec3 lo, Vec3 hi) {
    const float dx = std::max({lo.x - p.x, 0.0f, p.x - hi.x});
    const float dy = std::max({lo.y - p.y, 0.0f, p.y - hi.y});
    const float dz = std::max({lo.z - p.z, 0.0f, p.z - hi.z});
    return dx * dx + dy * dy + dz * dz;
}

// Ericson 5.1.5: the point of triangle abc nearest to p, by Voronoi regions.
Vec3 closest_on_triangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c) {
    const Vec3 ab = b - a, ac = c - a, ap = p - a;
    const float d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) return a;
    const Vec3 bp = p - b;
    const float d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) return b;
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) return a + ab * (d1 / (d1 - d3));
    const Vec3 cp = p - c;
    const float d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) return c;
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) return a + ac * (d2 / (d2 - d6));
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f)
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    const float denom = 1.0f / (va + vb + vc);
    return a + ab * (vb * denom) + ac * (vc * denom);
}

// The segment a -> b against the box: whether their bounding boxes overlap
// (cheap and conservative; the triangles decide).
bool segment_may_hit(Vec3 a, Vec3 b, Vec3 lo, Vec3 hi) {
    const Vec3 slo = min3(a, b), shi = max3(a, b);
    return slo.x <= hi.x && shi.x >= lo.x && slo.y <= hi.y && shi.y >= lo.y && slo.z <= hi.z && shi.z >= lo.z;
}

}  // namespace

TriangleMesh::TriangleMesh(std::vector<Vec3> v, std::vector<std::array<std::uint32_t, 3>> t)
    : vertices(std::move(v)), triangles(std::move(t)) {
    if (triangles.empty()) throw Error("triangle mesh collider: the mesh has no triangles");
    for (std::size_t i = 0; i < vertices.size(); ++i)
        if (!is_finite(vertices[i]))
            throw Error("triangle mesh collider: vertex " + std::to_string(i) + " is not a finite point");
    for (std::size_t i = 0; i < triangles.size(); ++i)
        for (std::uint32_t corner : triangles[i])
            if (corner >= vertices.size())
                throw Error("triangle mesh collider: triangle " + std::to_string(i) + " has vertex index " +
                            std::to_string(corner) + " out of range (" + std::to_string(vertices.size()) +
                            " vertices)");
    std::vector<Vec3> centres(triangles.size());
    tri_order.resize(triangles.size());
    for (std::uint32_t i = 0; i < triangles.size(); ++i) {
        const auto& tri = triangles[i];
        centres[i] = (vertices[tri[0]] + vertices[tri[1]] + vertices[tri[2]]) * (1.0f / 3.0f);
        tri_order[i] = i;
    }
    nodes.reserve(2 * triangles.size() / kLeafSize + 1);
    build(0, static_cast<std::uint32_t>(triangles.size()), centres);
    slots.resize(triangles.size());
    for (std::size_t s = 0; s < slots.size(); ++s) {
        const auto& tri = triangles[tri_order[s]];
        const Vec3 a = vertices[tri[0]], b = vertices[tri[1]], c = vertices[tri[2]];
        slots[s] = {a, b, c, normalized(cross(b - a, c - a))};
    }
    for (const Vec3 corner : vertices)
        largest_coordinate = std::max({largest_coordinate, std::abs(corner.x), std::abs(corner.y), std::abs(corner.z)});
}

std::uint32_t TriangleMesh::build(std::uint32_t first, std::uint32_t count, std::vector<Vec3>& centres) {
    const auto index = static_cast<std::uint32_t>(nodes.size());
    nodes.push_back({});
    Vec3 lo = vertices[triangles[tri_order[first]][0]], hi = lo;
    Vec3 clo = centres[tri_order[first]], chi = clo;
    for (std::uint32_t i = first; i < first + count; ++i) {
        for (std::uint32_t corner : triangles[tri_order[i]]) {
            lo = min3(lo, vertices[corner]);
            hi = max3(hi, vertices[corner]);
        }
        clo = min3(clo, centres[tri_order[i]]);
        chi = max3(chi, centres[tri_order[i]]);
    }
    nodes[index].lo = lo;
    nodes[index].hi = hi;
    if (count <= kLeafSize) {
        nodes[index].first = first;
        nodes[index].count = count;
        return index;
    }
    // Median split along the longest axis of the centres' box: a balanced tree
    // of depth log2(n / kLeafSize), whatever the mesh.
    const Vec3 extent = chi - clo;
    const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
    auto key = [&](std::uint32_t tri) {
        const Vec3 c = centres[tri];
        return axis == 0 ? c.x : (axis == 1 ? c.y : c.z);
    };
    const std::uint32_t half = count / 2;
    std::nth_element(tri_order.begin() + first, tri_order.begin() + first + half, tri_order.begin() + first + count,
                     [&](std::uint32_t l, std::uint32_t r) { return key(l) < key(r) || (key(l) == key(r) && l < r); });
    build(first, half, centres);
    const std::uint32_t second = build(first + half, count - half, centres);
    nodes[index].second = second;
    return index;
}

bool TriangleMesh::closest(Vec3 p, float limit, float& distance, Vec3& point, Vec3& face_normal,
                           std::uint32_t* hint) const {
    // The answer is the last triangle, in the tree's depth-first order, whose
    // squared distance d2 is the least (ties go to the later one). A box is
    // skipped only when it is farther than best by more than rounding can
    // explain (the box holds its triangles, so in exact arithmetic its
    // distance is at most theirs): every triangle with d2 <= best at the time
    // is visited. Hence starting best at a hinted triangle's d2 (>= the least)
    // instead of limit^2 visits fewer boxes yet ends on the same triangle.
    // Rounding: the nearest point q of a triangle is off by e, a few ulps of
    // the coordinates (e < 1e-6 s, s the largest coordinate of p or the mesh),
    // so its d2 = |p - q|^2 is off by at most 2 |p - q| e + e^2: within
    // d2 / 256 when |p - q| >= 512 e, else within 1025 e^2 < (40 e)^2.
    float best = limit * limit;
    const float scale = 4e-5f * std::max({largest_coordinate, std::abs(p.x), std::abs(p.y), std::abs(p.z)});
    const float absolute = scale * scale;
    auto slack = [absolute](float b) { return b + b * (1.0f / 256.0f) + absolute; };
    if (hint != nullptr && *hint < slots.size()) {
        const Slot& s = slots[*hint];
        if (!(s.normal == Vec3{})) {
            const Vec3 d = p - closest_on_triangle(p, s.a, s.b, s.c);
            best = std::min(best, dot(d, d));
        }
    }
    bool found = false;
    std::uint32_t found_slot = 0;
    std::uint32_t stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const Node& node = nodes[stack[--top]];
        if (box_distance_squared(p, node.lo, node.hi) > slack(best)) continue;
        if (node.count == 0) {
            const auto self = static_cast<std::uint32_t>(&node - nodes.data());
            stack[top++] = node.second;
            stack[top++] = self + 1;  // the left child first
            continue;
        }
        for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
            const Slot& s = slots[i];
            const Vec3 q = closest_on_triangle(p, s.a, s.b, s.c);
            const Vec3 d = p - q;
            const float d2 = dot(d, d);
            if (d2 <= best) {
                if (s.normal == Vec3{}) continue;  // a degenerate triangle has no surface
                best = d2;
                point = q;
                face_normal = s.normal;
                found = true;
                found_slot = i;
            }
        }
    }
    if (found) {
        distance = std::sqrt(best);
        if (hint != nullptr) *hint = found_slot;
    }
    return found;
}

bool TriangleMesh::first_crossing(Vec3 a, Vec3 b, float& t_hit, Vec3& face_normal) const {
    const Vec3 dir = b - a;
    float best = 2.0f;
    std::uint32_t stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const Node& node = nodes[stack[--top]];
        if (!segment_may_hit(a, a + dir * std::min(best, 1.0f), node.lo, node.hi)) continue;
        if (node.count == 0) {
            const auto self = static_cast<std::uint32_t>(&node - nodes.data());
            stack[top++] = node.second;
            stack[top++] = self + 1;
            continue;
        }
        for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
            const Slot& s = slots[i];
            const Vec3 v0 = s.a, e1 = s.b - v0, e2 = s.c - v0;
            // Moller-Trumbore: a + t dir = v0 + u e1 + v e2.
            const Vec3 pv = cross(dir, e2);
            const float det = dot(e1, pv);
            if (std::abs(det) < 1e-20f) continue;
            const float inv = 1.0f / det;
            const Vec3 tv = a - v0;
            const float u = dot(tv, pv) * inv;
            if (u < 0.0f || u > 1.0f) continue;
            const Vec3 qv = cross(tv, e1);
            const float v = dot(dir, qv) * inv;
            if (v < 0.0f || u + v > 1.0f) continue;
            const float t = dot(e2, qv) * inv;
            if (t < 0.0f || t > 1.0f || t >= best) continue;
            best = t;
            face_normal = s.normal;
        }
    }
    if (best > 1.0f) return false;
    t_hit = best;
    return true;
}

std::shared_ptr<const TriangleMesh> make_triangle_mesh(std::vector<Vec3> vertices,
                                                       std::vector<std::array<std::uint32_t, 3>> triangles) {
    return std::make_shared<const TriangleMesh>(std::move(vertices), std::move(triangles));
}

std::size_t triangle_count(const TriangleMesh& mesh) { return mesh.triangles.size(); }
std::span<const Vec3> mesh_vertices(const TriangleMesh& mesh) { return mesh.vertices; }
std::span<const std::array<std::uint32_t, 3>> mesh_triangles(const TriangleMesh& mesh) { return mesh.triangles; }

}  // namespace springkit
