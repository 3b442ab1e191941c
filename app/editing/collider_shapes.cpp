// springkit-editor — the editor's colliders (collider_shapes.hpp).
#include "editing/collider_shapes.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <sstream>
#include <system_error>
#include <numbers>

#include "springkit/error.hpp"

namespace springkit::editor {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;

const char* shape_label(ColliderShape shape) {
    switch (shape) {
        case ColliderShape::plane: return "plane";
        case ColliderShape::sphere: return "sphere";
        case ColliderShape::capsule: return "capsule";
        case ColliderShape::box: return "box";
        case ColliderShape::convex_hull: return "hull";
        case ColliderShape::triangle_mesh: return "mesh";
    }
    return "collider";
}

// Appends a vertex in the collider's frame, placed by its pose.
struct MeshBuilder {
    ColliderMesh& mesh;
    const Transform& pose;
    std::uint32_t vertex(Vec3 p, Vec3 n) {
        mesh.positions.push_back(apply(pose, p));
        mesh.normals.push_back(rotate(pose.rotation, n));
        return static_cast<std::uint32_t>(mesh.positions.size() - 1);
    }
    void triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c) { mesh.indices.insert(mesh.indices.end(), {a, b, c}); }
    void quad(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
        triangle(a, b, c);
        triangle(a, c, d);
    }
};

// A sphere of `radius` whose upper half is lifted by `lift` and lower half
// lowered by it: a sphere for lift 0, a capsule along y otherwise.
void rounded(MeshBuilder& b, float radius, float lift) {
    constexpr int kRings = 16, kSegments = 24;  // kRings even: the equator is a ring
    std::vector<std::pair<float, float>> rings;  // (polar angle, y offset)
    for (int i = 0; i <= kRings / 2; ++i) rings.emplace_back(kPi * static_cast<float>(i) / kRings, lift);
    for (int i = kRings / 2; i <= kRings; ++i) rings.emplace_back(kPi * static_cast<float>(i) / kRings, -lift);
    const auto first = static_cast<std::uint32_t>(b.mesh.positions.size());
    for (const auto& [theta, offset] : rings)
        for (int j = 0; j <= kSegments; ++j) {
            const float phi = 2.0f * kPi * static_cast<float>(j) / kSegments;
            const Vec3 n{std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi)};
            b.vertex(n * radius + Vec3{0.0f, offset, 0.0f}, n);
        }
    const auto row = static_cast<std::uint32_t>(kSegments + 1);
    for (std::uint32_t i = 0; i + 1 < rings.size(); ++i)
        for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(kSegments); ++j) {
            const std::uint32_t a = first + i * row + j;
            b.quad(a, a + 1, a + row + 1, a + row);
        }
}

void box(MeshBuilder& b, Vec3 h) {
    for (int axis = 0; axis < 3; ++axis)
        for (float sign : {-1.0f, 1.0f}) {
            auto unit = [](int i, float value) {
                return Vec3{i == 0 ? value : 0.0f, i == 1 ? value : 0.0f, i == 2 ? value : 0.0f};
            };
            const Vec3 n = unit(axis, sign);
            // Two directions spanning the face, u x v = +axis: wound outward on the + face.
            const Vec3 u = unit((axis + 1) % 3, 1.0f), v = unit((axis + 2) % 3, sign);
            const Vec3 c{n.x * h.x, n.y * h.y, n.z * h.z};
            const Vec3 du{u.x * h.x, u.y * h.y, u.z * h.z}, dv{v.x * h.x, v.y * h.y, v.z * h.z};
            b.quad(b.vertex(c - du - dv, n), b.vertex(c + du - dv, n), b.vertex(c + du + dv, n), b.vertex(c - du + dv, n));
        }
}

void hull(MeshBuilder& b, const Collider& c) {
    float scale = 0.0f;
    for (const Vec3& p : c.points) scale = std::max(scale, length(p));
    const float tolerance = 1e-4f * std::max(scale, 1e-3f);
    for (const auto& plane : c.planes) {
        const Vec3 n{plane[0], plane[1], plane[2]};
        std::vector<Vec3> face;
        for (const Vec3& p : c.points)
            if (std::abs(dot(n, p) - plane[3]) <= tolerance) face.push_back(p);
        if (face.size() < 3) continue;
        Vec3 centre{};
        for (const Vec3& p : face) centre += p;
        centre = centre * (1.0f / static_cast<float>(face.size()));
        const Vec3 u = normalized(face[0] - centre);
        const Vec3 v = cross(n, u);
        std::sort(face.begin(), face.end(), [&](const Vec3& p, const Vec3& q) {
            return std::atan2(dot(p - centre, v), dot(p - centre, u)) < std::atan2(dot(q - centre, v), dot(q - centre, u));
        });
        const std::uint32_t hub = b.vertex(centre, n);
        std::vector<std::uint32_t> ring;
        for (const Vec3& p : face) ring.push_back(b.vertex(p, n));
        for (std::size_t i = 0; i < ring.size(); ++i) b.triangle(hub, ring[i], ring[(i + 1) % ring.size()]);
    }
}

void triangles(MeshBuilder& b, const TriangleMesh& mesh) {
    const auto vertices = mesh_vertices(mesh);
    for (const auto& t : mesh_triangles(mesh)) {
        const Vec3 &p = vertices[t[0]], &q = vertices[t[1]], &r = vertices[t[2]];
        const Vec3 n = normalized(cross(q - p, r - p));
        b.triangle(b.vertex(p, n), b.vertex(q, n), b.vertex(r, n));
    }
}

}  // namespace

Collider default_collider(ColliderShape shape, const Bounds& box_bounds, std::size_t index) {
    const Vec3 extent = box_bounds.max - box_bounds.min;
    const float size = std::max({extent.x, extent.y, extent.z, 0.1f});
    const float r = 0.125f * size;  // a quarter of the longest side across
    const Vec3 bottom{(box_bounds.min.x + box_bounds.max.x) * 0.5f, box_bounds.min.y,
                      (box_bounds.min.z + box_bounds.max.z) * 0.5f};
    Collider c;
    switch (shape) {
        case ColliderShape::plane:
            c = plane_collider({0.0f, 1.0f, 0.0f}, 0.0f);
            c.pose.position = {bottom.x, bottom.y - 0.05f * size, bottom.z};
            break;
        case ColliderShape::sphere:
            c = sphere_collider(r);
            c.pose.position = bottom - Vec3{0.0f, r, 0.0f};
            break;
        case ColliderShape::capsule:
            // Lying along x: its frame's y turned onto x.
            c = capsule_collider(r, 0.5f * r);
            c.pose.rotation = quat_from_axis_angle({0.0f, 0.0f, 1.0f}, 0.5f * kPi);
            c.pose.position = bottom - Vec3{0.0f, 0.5f * r, 0.0f};
            break;
        case ColliderShape::box:
            c = box_collider({r, r, r});
            c.pose.position = bottom - Vec3{0.0f, r, 0.0f};
            break;
        case ColliderShape::convex_hull: {
            const Vec3 points[] = {{r, 0, 0}, {-r, 0, 0}, {0, r, 0}, {0, -r, 0}, {0, 0, r}, {0, 0, -r}};
            c = convex_hull_collider(points);
            c.pose.position = bottom - Vec3{0.0f, r, 0.0f};
            break;
        }
        case ColliderShape::triangle_mesh:
            throw Error("a triangle mesh collider comes from a mesh file");
    }
    c.name = std::string(shape_label(shape)) + " " + std::to_string(index);
    return c;
}

Collider hull_around_nodes(std::span<const Vec3> positions, std::span<const std::uint32_t> nodes) {
    if (nodes.size() < 4) throw Error("a hull needs at least 4 selected nodes (" + std::to_string(nodes.size()) + " selected)");
    Vec3 centre{};
    for (std::uint32_t n : nodes) centre += positions[n];
    centre = centre * (1.0f / static_cast<float>(nodes.size()));
    std::vector<Vec3> points;
    if (nodes.size() <= kMaxHullPoints) {
        for (std::uint32_t n : nodes) points.push_back(positions[n] - centre);
    } else {
        // The node furthest out along each of 64 directions spread over the sphere
        // (a Fibonacci lattice), each taken once.
        std::vector<std::uint32_t> chosen;
        const float golden = kPi * (3.0f - std::sqrt(5.0f));
        for (std::size_t k = 0; k < kMaxHullPoints; ++k) {
            const float y = 1.0f - 2.0f * (static_cast<float>(k) + 0.5f) / kMaxHullPoints;
            const float ring = std::sqrt(std::max(0.0f, 1.0f - y * y));
            const Vec3 d{ring * std::cos(golden * static_cast<float>(k)), y, ring * std::sin(golden * static_cast<float>(k))};
            std::uint32_t best = nodes[0];
            for (std::uint32_t n : nodes)
                if (dot(positions[n] - centre, d) > dot(positions[best] - centre, d)) best = n;
            if (std::find(chosen.begin(), chosen.end(), best) == chosen.end()) chosen.push_back(best);
        }
        for (std::uint32_t n : chosen) points.push_back(positions[n] - centre);
    }
    Collider c = convex_hull_collider(points);
    c.pose.position = centre;
    c.name = "hull of " + std::to_string(nodes.size()) + " nodes";
    return c;
}

Collider mesh_collider_from_model(const Model& model) {
    if (model.faces.empty()) throw Error(model.name + ": the mesh has no faces to collide with");
    const Bounds box = bounds(model);
    const Vec3 centre = (box.min + box.max) * 0.5f;
    std::vector<Vec3> vertices;
    vertices.reserve(model.positions.size());
    for (const Vec3& p : model.positions) vertices.push_back(p - centre);
    std::vector<std::array<std::uint32_t, 3>> faces;
    faces.reserve(model.faces.size());
    for (const Face& f : model.faces) faces.push_back({f.node[0], f.node[1], f.node[2]});
    Collider c = mesh_collider(make_triangle_mesh(std::move(vertices), std::move(faces)));
    c.pose.position = centre;
    c.name = model.name.empty() ? std::string("mesh") : model.name;
    return c;
}

ColliderMesh collider_mesh(const Collider& c, Vec3 center, float extent) {
    ColliderMesh mesh;
    MeshBuilder b{mesh, c.pose};
    switch (c.shape) {
        case ColliderShape::plane: {
            // The point of the plane nearest `center`, in the plane's frame.
            const Vec3 local = rotate(conjugate(c.pose.rotation), center - c.pose.position);
            const float h = 0.5f * extent;
            const Vec3 up{0.0f, 1.0f, 0.0f};
            b.quad(b.vertex({local.x - h, 0.0f, local.z - h}, up), b.vertex({local.x - h, 0.0f, local.z + h}, up),
                   b.vertex({local.x + h, 0.0f, local.z + h}, up), b.vertex({local.x + h, 0.0f, local.z - h}, up));
            break;
        }
        case ColliderShape::sphere: rounded(b, c.radius, 0.0f); break;
        case ColliderShape::capsule: rounded(b, c.radius, c.half_height); break;
        case ColliderShape::box: box(b, c.half_extents); break;
        case ColliderShape::convex_hull: hull(b, c); break;
        case ColliderShape::triangle_mesh:
            if (c.mesh) triangles(b, *c.mesh);
            break;
    }
    return mesh;
}

std::optional<float> ray_collider(const Collider& collider, Vec3 origin, Vec3 direction, float max_distance) {
    if (collider.shape == ColliderShape::plane) {
        // Exact: where the ray crosses y = 0 of the plane's frame, coming from above.
        const Vec3 n = rotate(collider.pose.rotation, {0.0f, 1.0f, 0.0f});
        const float along = dot(direction, n);
        const float height = dot(origin - collider.pose.position, n);
        if (height <= 0.0f || along >= 0.0f) return std::nullopt;
        const float t = -height / along;
        return t <= max_distance ? std::optional<float>(t) : std::nullopt;
    }
    float t = 0.0f;
    const float epsilon = 1e-4f * std::max(max_distance, 1.0f);
    for (int i = 0; i < 256 && t <= max_distance; ++i) {
        const float d = distance(collider, origin + direction * t).distance;
        if (d < epsilon) return t;
        t += d;
    }
    return std::nullopt;
}

std::string points_text(std::span<const Vec3> points) {
    std::string text;
    for (const Vec3& p : points) {
        const float xyz[3] = {p.x, p.y, p.z};
        for (int i = 0; i < 3; ++i) {
            char number[32];
            const auto end = std::to_chars(number, number + sizeof number, xyz[i]).ptr;
            text.append(number, end);
            text += i == 2 ? '\n' : ' ';
        }
    }
    return text;
}

std::vector<Vec3> parse_points(const std::string& text) {
    std::vector<Vec3> points;
    std::size_t start = 0;
    for (int line_number = 1; start < text.size(); ++line_number) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        std::string spaced = line;
        std::replace(spaced.begin(), spaced.end(), ',', ' ');
        std::istringstream in(spaced);
        std::string word;
        std::vector<float> numbers;
        bool bad = false;
        while (in >> word) {
            float v = 0.0f;
            const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
            bad = bad || ec != std::errc{} || ptr != word.data() + word.size() || !std::isfinite(v);
            numbers.push_back(v);
        }
        if (numbers.empty() && !bad) continue;  // a blank line
        if (bad || numbers.size() != 3)
            throw Error("line " + std::to_string(line_number) + ": expected x y z, got \"" + line + "\"");
        points.push_back({numbers[0], numbers[1], numbers[2]});
    }
    return points;
}

Quat quat_from_euler_degrees(Vec3 degrees) {
    const float k = kPi / 180.0f;
    const Quat qx = quat_from_axis_angle({1, 0, 0}, degrees.x * k);
    const Quat qy = quat_from_axis_angle({0, 1, 0}, degrees.y * k);
    const Quat qz = quat_from_axis_angle({0, 0, 1}, degrees.z * k);
    return normalized(qz * qy * qx);
}

Vec3 euler_degrees(const Quat& q) {
    // R = Rz(c) Ry(b) Rx(a): the angles of the rotation matrix of q.
    const float a = std::atan2(2.0f * (q.w * q.x + q.y * q.z), 1.0f - 2.0f * (q.x * q.x + q.y * q.y));
    const float b = std::asin(std::clamp(2.0f * (q.w * q.y - q.z * q.x), -1.0f, 1.0f));
    const float c = std::atan2(2.0f * (q.w * q.z + q.x * q.y), 1.0f - 2.0f * (q.y * q.y + q.z * q.z));
    const float k = 180.0f / kPi;
    return {a * k, b * k, c * k};
}

}  // namespace springkit::editor
