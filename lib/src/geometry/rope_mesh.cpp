// springkit — Catmull-Rom rope smoothing (Source engine) and tube meshes
// (Garrido, "Possibility of Using Vertices and Triangle Mesh").
#include "springkit/rope_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <numbers>

#include "springkit/error.hpp"

namespace springkit {

namespace {

Vec3 catmull_rom(const Vec3& p0, const Vec3& p1, const Vec3& p2, const Vec3& p3, float t) {
    const float t2 = t * t, t3 = t2 * t;
    return (p1 * 2.0f + (p2 - p0) * t + (p0 * 2.0f - p1 * 5.0f + p2 * 4.0f - p3) * t2 +
            (p1 * 3.0f - p0 - p2 * 3.0f + p3) * t3) *
           0.5f;
}

// Any unit vector perpendicular to the unit vector t.
Vec3 perpendicular(const Vec3& t) {
    const Vec3 helper = std::abs(t.x) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
    return normalized(cross(t, helper));
}

}  // namespace

std::vector<Vec3> catmull_rom_subdivide(std::span<const Vec3> nodes, int subdivisions) {
    if (subdivisions < 0) throw Error("catmull_rom_subdivide: subdivisions must be >= 0");
    const std::size_t n = nodes.size();
    if (n < 2) return {nodes.begin(), nodes.end()};
    std::vector<Vec3> out;
    out.reserve((n - 1) * static_cast<std::size_t>(subdivisions + 1) + 1);
    auto node = [&](std::ptrdiff_t i) {  // mirrored past the ends
        if (i < 0) return nodes[0] * 2.0f - nodes[1];
        if (i >= static_cast<std::ptrdiff_t>(n)) return nodes[n - 1] * 2.0f - nodes[n - 2];
        return nodes[static_cast<std::size_t>(i)];
    };
    for (std::size_t i = 0; i + 1 < n; ++i) {
        out.push_back(nodes[i]);
        const auto k = static_cast<std::ptrdiff_t>(i);
        for (int s = 0; s < subdivisions; ++s) {
            const float t = static_cast<float>(s + 1) / static_cast<float>(subdivisions + 1);
            out.push_back(catmull_rom(node(k - 1), node(k), node(k + 1), node(k + 2), t));
        }
    }
    out.push_back(nodes[n - 1]);
    return out;
}

TubeMesh make_tube(std::span<const Vec3> path, float radius, int sides) {
    if (path.size() < 2) throw Error("make_tube: a tube needs at least 2 points");
    if (sides < 3) throw Error("make_tube: a tube needs at least 3 sides");
    if (!(radius > 0.0f)) throw Error("make_tube: radius must be > 0 m");
    const std::size_t points = path.size();
    const auto ring = static_cast<std::size_t>(sides) + 1;
    TubeMesh mesh;
    mesh.positions.reserve(points * ring);
    mesh.normals.reserve(points * ring);
    mesh.texcoords.reserve(points * ring);
    const float circumference = 2.0f * std::numbers::pi_v<float> * radius;

    Vec3 tangent{}, normal{};
    float along = 0.0f;
    for (std::size_t i = 0; i < points; ++i) {
        // Tangent from the neighbours (one-sided at the ends); a repeated point
        // keeps the previous tangent.
        const Vec3 ahead = path[std::min(i + 1, points - 1)] - path[i > 0 ? i - 1 : 0];
        const Vec3 t = normalized(ahead);
        if (length(t) > 0.0f) tangent = t;
        if (i == 0) {
            if (length(tangent) == 0.0f) tangent = {1, 0, 0};
            normal = perpendicular(tangent);
        } else {
            // Parallel transport: the previous normal, made perpendicular to the new tangent.
            along += length(path[i] - path[i - 1]);
            const Vec3 projected = normal - tangent * dot(normal, tangent);
            normal = length(projected) > 1e-6f ? normalized(projected) : perpendicular(tangent);
        }
        const Vec3 binormal = cross(tangent, normal);
        for (std::size_t j = 0; j < ring; ++j) {
            const float angle = 2.0f * std::numbers::pi_v<float> * static_cast<float>(j) / static_cast<float>(sides);
            const Vec3 out = normal * std::cos(angle) + binormal * std::sin(angle);
            mesh.positions.push_back(path[i] + out * radius);
            mesh.normals.push_back(out);
            mesh.texcoords.push_back({static_cast<float>(j) / static_cast<float>(sides), along / circumference});
        }
    }
    mesh.indices.reserve((points - 1) * static_cast<std::size_t>(sides) * 6);
    for (std::size_t i = 0; i + 1 < points; ++i)
        for (std::size_t j = 0; j < static_cast<std::size_t>(sides); ++j) {
            const auto a = static_cast<std::uint32_t>(i * ring + j), b = a + 1;
            const auto c = static_cast<std::uint32_t>(a + ring), d = c + 1;
            mesh.indices.insert(mesh.indices.end(), {a, b, c, b, d, c});
        }
    return mesh;
}

std::uint64_t tube_mesh_vertices(const Tube& tube) {
    if (tube.nodes.size() < 2 || tube.sides < 3 || tube.subdivisions < 0) return 0;
    // At most 2^32 nodes, 2^31 subdivisions and sides: the product fits in 64 bits
    // only up to 2^64, so it saturates at the largest value instead of wrapping.
    const std::uint64_t segments = tube.nodes.size() - 1;
    const auto per_segment = static_cast<std::uint64_t>(tube.subdivisions) + 1;
    const auto ring = static_cast<std::uint64_t>(tube.sides) + 1;
    const std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
    if (segments > (most - 1) / per_segment) return most;
    const std::uint64_t points = segments * per_segment + 1;
    return points > most / ring ? most : points * ring;
}

TubeMesh make_tube(std::span<const Vec3> positions, const Tube& tube) {
    if (const std::uint64_t vertices = tube_mesh_vertices(tube); vertices > kMaxTubeMeshVertices)
        throw Error("make_tube: a tube of " + std::to_string(tube.nodes.size()) + " nodes, " +
                    std::to_string(tube.subdivisions) + " subdivisions and " + std::to_string(tube.sides) +
                    " sides would have " + std::to_string(vertices) + " vertices, more than " +
                    std::to_string(kMaxTubeMeshVertices));
    std::vector<Vec3> path;
    path.reserve(tube.nodes.size());
    for (std::uint32_t node : tube.nodes) {
        if (node >= positions.size())
            throw Error("make_tube: tube node " + std::to_string(node) + " is out of range (" +
                        std::to_string(positions.size()) + " positions)");
        path.push_back(positions[node]);
    }
    return make_tube(catmull_rom_subdivide(path, tube.subdivisions), tube.radius, tube.sides);
}

}  // namespace springkit
