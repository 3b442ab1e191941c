// springkit — scene files (springkit/scene_file.hpp, docs/FILE_FORMAT.md,
// "Scene file"): a ColliderSet from its JSON text and back.
//
// The reader checks what it can name precisely itself (types, the kind, the
// quaternion, sizes before they are allocated) at the field's JSON pointer, and
// leaves the shapes' own rules (dimensions > 0, a hull with volume, friction
// and restitution ranges) to check_collider() and the shape makers, whose
// message it prefixes with the collider's pointer: one rule, one place.
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <system_error>

#include "collision/triangle_mesh.hpp"
#include "files/json_reader.hpp"
#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "springkit/printable.hpp"
#include "springkit/scene_file.hpp"

namespace springkit {

using nlohmann::json;

namespace {

constexpr ColliderShape kShapes[] = {ColliderShape::plane, ColliderShape::sphere, ColliderShape::capsule,
                                     ColliderShape::box, ColliderShape::convex_hull, ColliderShape::triangle_mesh};

class SceneReader {
public:
    SceneReader(std::string name, const SceneMeshLoader& meshes, std::filesystem::path folder)
        : name_(std::move(name)), meshes_(meshes), folder_(std::move(folder)) {}

    [[noreturn]] void fail(const std::string& where, const std::string& what) const {
        throw Error(name_ + ": " + where + ": " + what);
    }

    const json& member(const json& object, const std::string& where, const char* key) const {
        const auto it = object.find(key);
        if (it == object.end()) fail(where, std::string("missing field \"") + key + "\"");
        return *it;
    }
    const json* optional(const json& object, const char* key) const {
        const auto it = object.find(key);
        return it == object.end() ? nullptr : &*it;
    }
    float number(const json& v, const std::string& where) const {
        float f = 0.0f;
        if (const std::string problem = detail::float_from_json(v, f); !problem.empty()) fail(where, problem);
        return f;
    }
    const json& array(const json& v, const std::string& where, std::size_t size) const {
        if (!v.is_array()) fail(where, std::string("expected an array, found ") + v.type_name());
        if (size != 0 && v.size() != size)
            fail(where, "expected " + std::to_string(size) + " numbers, found " + std::to_string(v.size()));
        return v;
    }
    Vec3 vec(const json& v, const std::string& where) const {
        const json& a = array(v, where, 3);
        return {number(a[0], where + "/0"), number(a[1], where + "/1"), number(a[2], where + "/2")};
    }
    // A flat array of triples, at most `max` of them: checked before allocating.
    const json& triples(const json& v, const std::string& where, std::size_t max, const char* what) const {
        const json& a = array(v, where, 0);
        if (a.size() % 3 != 0) fail(where, "length " + std::to_string(a.size()) + " is not a multiple of 3");
        if (a.size() / 3 > max)
            fail(where, std::to_string(a.size() / 3) + " " + what + " are more than the limit of " + std::to_string(max));
        return a;
    }

    Transform pose(const json& v, const std::string& where) const {
        if (!v.is_object()) fail(where, std::string("expected an object, found ") + v.type_name());
        Transform t;
        t.position = vec(member(v, where, "position"), where + "/position");
        const std::string at = where + "/rotation";
        const json& q = array(member(v, where, "rotation"), at, 4);
        t.rotation = {number(q[0], at + "/0"), number(q[1], at + "/1"), number(q[2], at + "/2"), number(q[3], at + "/3")};
        const double n = double(t.rotation.w) * t.rotation.w + double(t.rotation.x) * t.rotation.x +
                         double(t.rotation.y) * t.rotation.y + double(t.rotation.z) * t.rotation.z;
        if (!(std::abs(n - 1.0) <= kUnitQuaternionTolerance))
            fail(at, "expected a unit quaternion [w, x, y, z] (its length is " + std::to_string(std::sqrt(n)) + ")");
        return t;
    }

    ColliderShape kind(const json& v, const std::string& where) const {
        if (v.is_string())
            for (const ColliderShape s : kShapes)
                if (v.get<std::string>() == collider_shape_name(s)) return s;
        fail(where, "unknown collider kind " + printable(v.dump(), 60) +
                        " (expected plane, sphere, capsule, box, convex_hull or triangle_mesh)");
    }

    // The shape's geometry from its fields, built by the shape makers.
    Collider geometry(ColliderShape shape, const json& o, const std::string& at) const {
        switch (shape) {
            case ColliderShape::plane: {
                Collider c;
                c.shape = ColliderShape::plane;
                return c;
            }
            case ColliderShape::sphere: return sphere_collider(number(member(o, at, "radius"), at + "/radius"));
            case ColliderShape::capsule:
                return capsule_collider(number(member(o, at, "half_height"), at + "/half_height"),
                                        number(member(o, at, "radius"), at + "/radius"));
            case ColliderShape::box: return box_collider(vec(member(o, at, "half_extents"), at + "/half_extents"));
            case ColliderShape::convex_hull: {
                const std::string where = at + "/points";
                const json& points = array(member(o, at, "points"), where, 0);
                if (points.size() > kMaxHullPoints)
                    fail(where, std::to_string(points.size()) + " points are more than a hull takes (" +
                                    std::to_string(kMaxHullPoints) + ")");
                std::vector<Vec3> p;
                for (std::size_t i = 0; i < points.size(); ++i) p.push_back(vec(points[i], where + "/" + std::to_string(i)));
                return convex_hull_collider(p);
            }
            case ColliderShape::triangle_mesh: {
                if (const json* file = optional(o, "file")) return mesh_file(*file, o, at);
                const json& v = triples(member(o, at, "vertices"), at + "/vertices", kMaxSceneMeshVertices, "vertices");
                const json& t = triples(member(o, at, "triangles"), at + "/triangles", kMaxSceneMeshTriangles, "triangles");
                std::vector<Vec3> vertices(v.size() / 3);
                for (std::size_t i = 0; i < vertices.size(); ++i) {
                    const std::string w = at + "/vertices/";
                    vertices[i] = {number(v[3 * i], w + std::to_string(3 * i)), number(v[3 * i + 1], w + std::to_string(3 * i + 1)),
                                   number(v[3 * i + 2], w + std::to_string(3 * i + 2))};
                }
                std::vector<std::array<std::uint32_t, 3>> triangles(t.size() / 3);
                for (std::size_t i = 0; i < t.size(); ++i) {
                    if (!t[i].is_number_unsigned() || t[i].get<std::uint64_t>() >= vertices.size())
                        fail(at + "/triangles/" + std::to_string(i),
                             "expected a vertex index below " + std::to_string(vertices.size()) + ", found " +
                                 printable(t[i].dump(), 60));
                    triangles[i / 3][i % 3] = t[i].get<std::uint32_t>();
                }
                return mesh_collider(make_triangle_mesh(std::move(vertices), std::move(triangles)));
            }
        }
        fail(at, "unknown collider kind");
    }

    // A triangle mesh read from the mesh file `file` names (relative to the
    // scene file's folder) by the loader. Every failure names the scene file,
    // the field's pointer and the mesh file.
    Collider mesh_file(const json& file, const json& o, const std::string& at) const {
        namespace fs = std::filesystem;
        const std::string where = at + "/file";
        if (!file.is_string() || file.get<std::string>().empty())
            fail(where, std::string("expected a mesh file name, found ") + printable(file.dump(), 60));
        if (optional(o, "vertices") || optional(o, "triangles"))
            fail(where, "a triangle mesh has a file or vertices and triangles, not both");
        const fs::path path = (folder_ / fs::path(file.get<std::string>())).lexically_normal();
        const std::string shown = printable(path.string(), 200);
        std::error_code ec;
        if (!fs::exists(path, ec)) fail(where, "mesh file " + shown + " does not exist");
        if (!fs::is_regular_file(path, ec)) fail(where, "mesh file " + shown + " is not a regular file");
        if (!meshes_)
            fail(where, "mesh file " + shown +
                            ": nothing here reads mesh files (springkit::import's scene_mesh_loader() does; "
                            "springkit simulate --scene and the editor use it)");
        std::shared_ptr<const TriangleMesh> mesh;
        try {
            mesh = meshes_(path);
        } catch (const Error& e) {
            // "stairs.obj: what is wrong": the file is named once, here.
            std::string what = e.what();
            if (what.rfind(path.string() + ": ", 0) == 0) what.erase(0, path.string().size() + 2);
            fail(where, "mesh file " + shown + ": " + what);
        }
        if (!mesh || triangle_count(*mesh) == 0) fail(where, "mesh file " + shown + " has no triangles");
        Collider c = mesh_collider(std::move(mesh));
        c.mesh_file = path;
        return c;
    }

    Collider collider(const json& o, std::size_t index) const {
        const std::string at = "/colliders/" + std::to_string(index);
        if (!o.is_object()) fail(at, std::string("expected an object, found ") + o.type_name());
        std::string name;
        if (const json* v = optional(o, "name")) {
            if (!v->is_string()) fail(at + "/name", std::string("expected a string, found ") + v->type_name());
            name = v->get<std::string>();
        }
        // From here on messages name the collider as well as its place.
        const std::string who = name.empty() ? at : at + " (\"" + printable(name, 60) + "\")";
        try {
            const ColliderShape shape = kind(member(o, at, "kind"), at + "/kind");
            Collider c = geometry(shape, o, at);
            c.name = name;
            c.pose = pose(member(o, at, "pose"), at + "/pose");
            if (const json* f = optional(o, "friction")) {
                if (!f->is_object()) fail(at + "/friction", std::string("expected an object, found ") + f->type_name());
                c.static_friction = number(member(*f, at + "/friction", "static"), at + "/friction/static");
                c.dynamic_friction = number(member(*f, at + "/friction", "dynamic"), at + "/friction/dynamic");
            }
            if (const json* r = optional(o, "restitution")) c.restitution = number(*r, at + "/restitution");
            check_collider(c, index);
            return c;
        } catch (const Error& e) {
            // "collider 2 ("paddle"), sphere: radius must be ..." from the shape's
            // own checks: keep what is wrong, name the place the reader's way.
            std::string what = e.what();
            if (what.rfind(name_ + ": ", 0) == 0) {  // the reader's own message, at the field
                if (name.empty()) throw;
                throw Error(what + " (collider \"" + printable(name, 60) + "\")");
            }
            const auto colon = what.find(": ");
            if (colon != std::string::npos) what = what.substr(colon + 2);
            throw Error(name_ + ": " + who + ": " + what);
        }
    }

    ColliderSet scene(const json& root) const {
        if (!root.is_object()) fail("/", "expected a JSON object (a springkit scene)");
        const json& format = member(root, "/", "format");
        if (!format.is_string() || format.get<std::string>() != "springkit-scene")
            fail("/format", "not a springkit scene (\"format\" must be \"springkit-scene\")");
        const json& version = member(root, "/", "version");
        if (!version.is_number_integer()) fail("/version", "expected an integer");
        if (version.is_number_unsigned() && version.get<std::uint64_t>() > std::uint64_t(kSceneFormatVersion))
            fail("/version", "scene format version " + version.dump() + " is newer than this springkit reads (" +
                                 std::to_string(kSceneFormatVersion) + "); update springkit");
        if (version.get<std::int64_t>() < 1) fail("/version", "invalid scene format version " + version.dump());
        const json& colliders = array(member(root, "/", "colliders"), "/colliders", 0);
        if (colliders.size() > kMaxSceneColliders)
            fail("/colliders", std::to_string(colliders.size()) + " colliders are more than the limit of " +
                                   std::to_string(kMaxSceneColliders));
        ColliderSet set;
        for (std::size_t i = 0; i < colliders.size(); ++i) set.add(collider(colliders[i], i));
        return set;
    }

private:
    std::string name_;
    const SceneMeshLoader& meshes_;
    std::filesystem::path folder_;
};

// The writer: each float as its shortest exact text (std::to_chars).
class SceneWriter {
public:
    explicit SceneWriter(std::filesystem::path folder) : folder_(std::move(folder)) {}

    void number(float v) {
        // "-0" would read back as the integer 0: negative zero keeps its sign as a decimal.
        if (v == 0.0f && std::signbit(v)) {
            out_ += "-0.0";
            return;
        }
        char buffer[32];
        out_.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, v).ptr);
    }
    void vec(Vec3 v) {
        out_ += '[';
        number(v.x);
        out_ += ", ";
        number(v.y);
        out_ += ", ";
        number(v.z);
        out_ += ']';
    }
    void key(const char* k) { out_ += std::string(",\n      \"") + k + "\": "; }

    void collider(const Collider& c) {
        out_ += "    {\"kind\": \"";
        out_ += collider_shape_name(c.shape);
        out_ += "\"";
        key("name");
        out_ += json(c.name).dump(-1, ' ', false, json::error_handler_t::replace);
        key("pose");
        out_ += "{\"position\": ";
        vec(c.pose.position);
        out_ += ", \"rotation\": [";
        const float q[4] = {c.pose.rotation.w, c.pose.rotation.x, c.pose.rotation.y, c.pose.rotation.z};
        for (int i = 0; i < 4; ++i) {
            if (i) out_ += ", ";
            number(q[i]);
        }
        out_ += "]}";
        switch (c.shape) {
            case ColliderShape::plane: break;
            case ColliderShape::sphere: key("radius"); number(c.radius); break;
            case ColliderShape::capsule:
                key("half_height");
                number(c.half_height);
                key("radius");
                number(c.radius);
                break;
            case ColliderShape::box: key("half_extents"); vec(c.half_extents); break;
            case ColliderShape::convex_hull:
                key("points");
                out_ += '[';
                for (std::size_t i = 0; i < c.points.size(); ++i) {
                    if (i) out_ += ", ";
                    vec(c.points[i]);
                }
                out_ += ']';
                break;
            case ColliderShape::triangle_mesh: {
                if (!c.mesh_file.empty()) {
                    key("file");
                    out_ += json(relative_to_folder(c.mesh_file).generic_string())
                                .dump(-1, ' ', false, json::error_handler_t::replace);
                    break;
                }
                key("vertices");
                out_ += '[';
                const char* separator = "";
                for (const Vec3& v : c.mesh->vertices)
                    for (const float x : {v.x, v.y, v.z}) {
                        out_ += separator;
                        number(x);
                        separator = ", ";
                    }
                out_ += ']';
                key("triangles");
                out_ += '[';
                separator = "";
                for (const auto& t : c.mesh->triangles)
                    for (const std::uint32_t i : t) {
                        out_ += separator;
                        out_ += std::to_string(i);
                        separator = ", ";
                    }
                out_ += ']';
                break;
            }
        }
        key("friction");
        out_ += "{\"static\": ";
        number(c.static_friction);
        out_ += ", \"dynamic\": ";
        number(c.dynamic_friction);
        out_ += '}';
        key("restitution");
        number(c.restitution);
        out_ += '}';
    }

    std::string scene(const ColliderSet& set) {
        out_ = "{\n  \"format\": \"springkit-scene\",\n  \"version\": " + std::to_string(kSceneFormatVersion) +
               ",\n  \"colliders\": [";
        for (ColliderId i = 0; i < set.size(); ++i) {
            out_ += i ? ",\n" : "\n";
            collider(set[i]);
        }
        out_ += set.size() ? "\n  ]\n}\n" : "]\n}\n";
        return std::move(out_);
    }

private:
    // The mesh file as the scene names it: relative to the scene's folder when
    // both are (after making them absolute) on one tree, else absolute.
    std::filesystem::path relative_to_folder(const std::filesystem::path& file) const {
        namespace fs = std::filesystem;
        std::error_code ec;
        const fs::path from = fs::absolute(folder_.empty() ? fs::path(".") : folder_, ec).lexically_normal();
        const fs::path to = fs::absolute(file, ec).lexically_normal();
        if (ec) return file;
        const fs::path relative = to.lexically_relative(from);
        return relative.empty() ? to : relative;
    }

    std::filesystem::path folder_;
    std::string out_;
};

}  // namespace

ColliderSet scene_from_json(std::string_view text, const std::string& name, const SceneMeshLoader& meshes,
                            const std::filesystem::path& folder) {
    const json root = detail::parse_json(text, name);
    try {
        return SceneReader(name, meshes, folder).scene(root);
    } catch (const json::exception& e) {
        throw Error(name + ": unexpected value: " + printable(e.what(), 200));
    }
}

std::string scene_to_json(const ColliderSet& scene, const std::filesystem::path& folder) {
    return SceneWriter(folder).scene(scene);
}

ColliderSet load_scene(const std::filesystem::path& path, const SceneMeshLoader& meshes) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (fs::exists(status) && !fs::is_regular_file(status))
        throw Error(path.string() + ": not a regular file (a scene file is read whole)");
    if (fs::is_regular_file(status)) {
        const auto size = fs::file_size(path, ec);
        if (!ec && size > kMaxSceneFileBytes)
            throw Error(path.string() + ": " + std::to_string(size) + " bytes are more than a scene file may have (" +
                        std::to_string(kMaxSceneFileBytes) + ")");
    }
    const std::string text = read_file(path, [&](std::string_view start) {
        const auto first = start.find_first_not_of(" \t\r\n");
        if (first != std::string_view::npos && start[first] != '{')
            throw Error(path.string() + ": not a springkit scene (a scene file is a JSON object)");
    });
    return scene_from_json(text, path.string(), meshes, path.parent_path());
}

void save_scene(const ColliderSet& scene, const std::filesystem::path& path) {
    write_file_atomically(path, scene_to_json(scene, path.parent_path()));
}

}  // namespace springkit
