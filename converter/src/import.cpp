// springkit::import — Assimp scene -> Model, in this process.
//
// Stages: read the scene -> gather every mesh instance with its node transform
// baked in (a "soup" of corners) -> weld corners into nodes by position ->
// triangulate polygons into faces -> one spring per unique edge -> optional
// bend, shear and volume springs -> parameters and anchors -> validate.
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>
#include <unordered_map>

#include "springkit/builders.hpp"
#include "springkit/error.hpp"
#include "springkit/import.hpp"

namespace springkit {

namespace {

std::uint64_t mix(std::uint64_t x);

/// Every mesh instance of the scene in world space, before welding.
struct Soup {
    std::vector<Vec3> positions;                 ///< one per source vertex (all instances)
    std::vector<std::optional<TexCoord>> uvs;    ///< per source vertex, if the mesh has UVs
    std::vector<std::vector<std::uint32_t>> polygons;  ///< source vertex indices, >= 3 corners
    std::vector<std::array<std::uint32_t, 2>> lines;
    std::vector<std::string> textures;           ///< diffuse textures met, in order
};

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
    throw Error(path.string() + ": " + what);
}

/// FBX stores its unit in the scene metadata: UnitScaleFactor is centimetres per
/// file unit (1 = cm, 100 = m). Other formats leave it out (already metres or unitless).
double unit_to_metres(const aiScene& scene) {
    const aiMetadata* meta = scene.mMetaData;
    if (meta == nullptr) return 1.0;
    for (unsigned i = 0; i < meta->mNumProperties; ++i) {
        if (std::strcmp(meta->mKeys[i].C_Str(), "UnitScaleFactor") != 0) continue;
        const aiMetadataEntry& e = meta->mValues[i];
        double cm = 0.0;
        if (e.mData == nullptr) return 1.0;
        switch (e.mType) {
            case AI_DOUBLE: cm = *static_cast<const double*>(e.mData); break;
            case AI_FLOAT: cm = *static_cast<const float*>(e.mData); break;
            case AI_INT32: cm = *static_cast<const std::int32_t*>(e.mData); break;
            default: return 1.0;
        }
        return std::isfinite(cm) && cm > 0.0 ? cm / 100.0 : 1.0;
    }
    return 1.0;
}

std::string diffuse_texture(const aiScene& scene, unsigned material) {
    if (material >= scene.mNumMaterials || scene.mMaterials[material] == nullptr) return {};
    const aiMaterial& m = *scene.mMaterials[material];
    aiString file;
    for (aiTextureType type : {aiTextureType_DIFFUSE, aiTextureType_BASE_COLOR}) {
        if (m.GetTextureCount(type) > 0 && m.GetTexture(type, 0, &file) == aiReturn_SUCCESS && file.length > 0)
            return file.C_Str();
    }
    return {};
}

void gather_mesh(const std::filesystem::path& path, const aiScene& scene, const aiMesh& mesh,
                 const aiMatrix4x4& transform, Soup& soup) {
    const std::size_t base = soup.positions.size();
    if (base + mesh.mNumVertices > 0xF0000000u) fail(path, "too many vertices");
    if (mesh.mNumVertices > 0 && mesh.mVertices == nullptr) fail(path, "a mesh has no vertex array");
    if (mesh.mNumFaces > 0 && mesh.mFaces == nullptr) fail(path, "a mesh has no face array");
    const aiVector3D* uv = mesh.mTextureCoords[0];
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
        const aiVector3D p = transform * mesh.mVertices[v];
        soup.positions.push_back({p.x, p.y, p.z});
        if (uv != nullptr)
            soup.uvs.emplace_back(TexCoord{uv[v].x, uv[v].y});
        else
            soup.uvs.emplace_back();
    }
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const aiFace& face = mesh.mFaces[f];
        if (face.mNumIndices > 0 && face.mIndices == nullptr) fail(path, "face without indices");
        std::vector<std::uint32_t> corners;
        corners.reserve(face.mNumIndices);
        for (unsigned c = 0; c < face.mNumIndices; ++c) {
            if (face.mIndices[c] >= mesh.mNumVertices)
                fail(path, "mesh '" + std::string(mesh.mName.C_Str()) + "' face " + std::to_string(f) +
                               " uses vertex " + std::to_string(face.mIndices[c]) + " of " +
                               std::to_string(mesh.mNumVertices));
            corners.push_back(static_cast<std::uint32_t>(base + face.mIndices[c]));
        }
        // Point primitives need nothing: every vertex becomes (or welds into) a node.
        if (corners.size() == 2)
            soup.lines.push_back({corners[0], corners[1]});
        else if (corners.size() >= 3)
            soup.polygons.push_back(std::move(corners));
    }
    const std::string texture = diffuse_texture(scene, mesh.mMaterialIndex);
    if (!texture.empty() && std::find(soup.textures.begin(), soup.textures.end(), texture) == soup.textures.end())
        soup.textures.push_back(texture);
}

Soup gather_scene(const std::filesystem::path& path, const aiScene& scene, ImportReport& report) {
    Soup soup;
    struct Item {
        const aiNode* node;
        aiMatrix4x4 transform;
        int depth;
    };
    std::vector<Item> stack{{scene.mRootNode, scene.mRootNode->mTransformation, 0}};
    while (!stack.empty()) {
        const Item item = stack.back();
        stack.pop_back();
        if (item.depth > 1000) fail(path, "node hierarchy deeper than 1000 levels");
        if ((item.node->mNumMeshes > 0 && item.node->mMeshes == nullptr) ||
            (item.node->mNumChildren > 0 && item.node->mChildren == nullptr))
            fail(path, "node '" + std::string(item.node->mName.C_Str()) + "' has a missing array");
        for (unsigned i = 0; i < item.node->mNumMeshes; ++i) {
            const unsigned index = item.node->mMeshes[i];
            if (index >= scene.mNumMeshes || scene.mMeshes[index] == nullptr)
                fail(path, "node '" + std::string(item.node->mName.C_Str()) + "' refers to missing mesh " +
                               std::to_string(index));
            gather_mesh(path, scene, *scene.mMeshes[index], item.transform, soup);
            ++report.meshes;
        }
        // Children pushed in reverse so they are visited in file order.
        for (unsigned c = item.node->mNumChildren; c-- > 0;) {
            const aiNode* child = item.node->mChildren[c];
            if (child != nullptr) stack.push_back({child, item.transform * child->mTransformation, item.depth + 1});
        }
    }
    report.input_vertices = soup.positions.size();
    return soup;
}

/// Welds corners into nodes. Exact duplicates first (most of them: Assimp hands
/// back one vertex per face corner), by a hash of the coordinates' bits; then the
/// distinct positions, in order of first appearance, join the first node within
/// `tolerance` (a spatial hash of cells). tolerance 0 welds exact duplicates
/// only, a negative one nothing. Returns the node of each corner.
std::vector<std::uint32_t> weld(const std::vector<Vec3>& positions, double tolerance, std::vector<Vec3>& nodes) {
    const std::size_t n = positions.size();
    std::vector<std::uint32_t> node_of(n);
    if (tolerance < 0.0) {
        nodes = positions;
        for (std::size_t i = 0; i < n; ++i) node_of[i] = static_cast<std::uint32_t>(i);
        return node_of;
    }
    using Key = std::array<std::uint32_t, 3>;
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            return static_cast<std::size_t>(mix(mix(mix(k[0]) ^ k[1]) ^ k[2]));
        }
    };
    auto bits = [](float f) { return std::bit_cast<std::uint32_t>(f == 0.0f ? 0.0f : f); };  // -0 == +0
    std::unordered_map<Key, std::uint32_t, KeyHash> exact;
    exact.reserve(n / 2 + 16);
    std::vector<Vec3> unique;
    std::vector<std::uint32_t> unique_of(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3& p = positions[i];
        auto [it, fresh] = exact.try_emplace(Key{bits(p.x), bits(p.y), bits(p.z)}, static_cast<std::uint32_t>(unique.size()));
        if (fresh) unique.push_back(p);
        unique_of[i] = it->second;
    }
    exact = {};

    std::vector<std::uint32_t> node_of_unique(unique.size());
    if (tolerance == 0.0) {
        nodes = std::move(unique);
        for (std::size_t u = 0; u < node_of_unique.size(); ++u) node_of_unique[u] = static_cast<std::uint32_t>(u);
    } else {
        using Cell = std::array<std::int64_t, 3>;
        struct CellHash {
            std::size_t operator()(const Cell& c) const {
                return static_cast<std::size_t>(mix(mix(mix(static_cast<std::uint64_t>(c[0])) ^
                                                        static_cast<std::uint64_t>(c[1])) ^
                                                    static_cast<std::uint64_t>(c[2])));
            }
        };
        // Cells 2 x tolerance wide: a position's tolerance ball reaches at most the
        // neighbour on its nearer side along each axis, so 8 cells hold every
        // candidate. Each cell is a linked list through `next` (no allocation per cell).
        constexpr std::uint32_t none = 0xFFFFFFFFu;
        std::unordered_map<Cell, std::uint32_t, CellHash> head;
        head.reserve(unique.size() + 16);
        std::vector<std::uint32_t> next;
        next.reserve(unique.size());
        const double size = 2.0 * tolerance, tol2 = tolerance * tolerance;
        for (std::size_t u = 0; u < unique.size(); ++u) {
            const Vec3& p = unique[u];
            const double coord[3] = {p.x / size, p.y / size, p.z / size};
            Cell c, side;
            for (int k = 0; k < 3; ++k) {
                const double f = std::floor(coord[k]);
                c[k] = static_cast<std::int64_t>(f);
                side[k] = coord[k] - f < 0.5 ? -1 : 1;
            }
            std::uint32_t found = none;
            for (int corner = 0; corner < 8 && found == none; ++corner) {
                const Cell at{c[0] + (corner & 1 ? side[0] : 0), c[1] + (corner & 2 ? side[1] : 0),
                              c[2] + (corner & 4 ? side[2] : 0)};
                auto it = head.find(at);
                if (it == head.end()) continue;
                for (std::uint32_t node = it->second; node != none; node = next[node]) {
                    const Vec3 diff = nodes[node] - p;
                    if (double(diff.x) * diff.x + double(diff.y) * diff.y + double(diff.z) * diff.z <= tol2) {
                        found = node;
                        break;
                    }
                }
            }
            if (found == none) {
                found = static_cast<std::uint32_t>(nodes.size());
                nodes.push_back(p);
                auto [it, fresh] = head.try_emplace(c, found);
                next.push_back(fresh ? none : it->second);
                it->second = found;
            }
            node_of_unique[u] = found;
        }
    }
    for (std::size_t i = 0; i < n; ++i) node_of[i] = node_of_unique[unique_of[i]];
    return node_of;
}

/// Model files are JSON, which holds UTF-8 only; names from corrupt files may not be.
bool valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (len == 0 || i + len > s.size()) return false;
        for (std::size_t k = 1; k < len; ++k)
            if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
        i += len;
    }
    return true;
}

/// Newell's normal of a polygon (robust for non-planar and concave polygons).
Vec3 polygon_normal(const std::vector<Vec3>& pts) {
    Vec3 n{};
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const Vec3& a = pts[i];
        const Vec3& b = pts[(i + 1) % pts.size()];
        n += Vec3{(a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y)};
    }
    return n;
}

/// Splits a polygon (corner positions) into triangles of corner indices: quads
/// along the diagonal that keeps both halves facing the same way (shorter one
/// when both do), larger polygons by ear clipping in their plane.
std::vector<std::array<std::size_t, 3>> triangulate(const std::vector<Vec3>& pts) {
    const std::size_t n = pts.size();
    if (n == 3) return {{0, 1, 2}};
    const Vec3 normal = polygon_normal(pts);
    if (n == 4) {
        auto facing = [&](std::size_t a, std::size_t b, std::size_t c) {
            return dot(cross(pts[b] - pts[a], pts[c] - pts[a]), normal) > 0.0f;
        };
        const bool d02 = facing(0, 1, 2) && facing(0, 2, 3);
        const bool d13 = facing(1, 2, 3) && facing(1, 3, 0);
        const bool use13 = d13 && (!d02 || length(pts[3] - pts[1]) < length(pts[2] - pts[0]));
        if (use13) return {{1, 2, 3}, {1, 3, 0}};
        return {{0, 1, 2}, {0, 2, 3}};
    }
    std::vector<std::size_t> ring(n);
    for (std::size_t i = 0; i < n; ++i) ring[i] = i;
    std::vector<std::array<std::size_t, 3>> tris;
    // Ear clipping is O(n^3) at worst: huge polygons (caps of thousands of
    // corners, or corrupt files) are fanned instead.
    const std::size_t guard_limit = n > 512 ? 0 : n * n;
    auto inside = [&](const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
        return dot(cross(b - a, p - a), normal) >= 0 && dot(cross(c - b, p - b), normal) >= 0 &&
               dot(cross(a - c, p - c), normal) >= 0;
    };
    std::size_t guard = 0;
    while (ring.size() > 3 && guard < guard_limit) {
        ++guard;
        bool clipped = false;
        for (std::size_t i = 0; i < ring.size(); ++i) {
            const std::size_t ia = ring[(i + ring.size() - 1) % ring.size()], ib = ring[i],
                              ic = ring[(i + 1) % ring.size()];
            const Vec3 &a = pts[ia], &b = pts[ib], &c = pts[ic];
            if (dot(cross(b - a, c - b), normal) <= 0) continue;  // reflex corner
            bool ear = true;
            for (std::size_t j : ring)
                if (j != ia && j != ib && j != ic && inside(pts[j], a, b, c)) ear = false;
            if (!ear) continue;
            tris.push_back({ia, ib, ic});
            ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(i));
            clipped = true;
            break;
        }
        if (!clipped) break;  // degenerate polygon: fan the rest
    }
    for (std::size_t i = 1; i + 1 < ring.size(); ++i) tris.push_back({ring[0], ring[i], ring[i + 1]});
    return tris;
}

std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) {
    return (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
}

/// splitmix64: a fixed, portable hash so volume springs are the same on every platform.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

}  // namespace

std::size_t add_bend_springs(Model& model, float k) {
    SpringSet springs(model);
    // Each interior edge joins two triangles; a spring between their far corners
    // resists folding about the edge (the bend springs of a cloth).
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> opposite;
    for (const Face& f : model.faces)
        for (int e = 0; e < 3; ++e)
            opposite[pair_key(f.node[e], f.node[(e + 1) % 3])].push_back(f.node[(e + 2) % 3]);
    std::vector<std::uint64_t> keys;
    keys.reserve(opposite.size());
    for (const auto& entry : opposite) keys.push_back(entry.first);
    std::sort(keys.begin(), keys.end());  // deterministic spring order
    std::size_t added = 0;
    for (std::uint64_t key : keys) {
        const auto& o = opposite[key];
        for (std::size_t i = 0; i < o.size(); ++i)
            for (std::size_t j = i + 1; j < o.size(); ++j)
                if (springs.add(o[i], o[j], k)) ++added;
    }
    return added;
}

std::size_t add_volume_springs(Model& model, int per_node, float k) {
    // Oliveira's converted jelly (Figure 12) folds because a surface of springs
    // only holds edge lengths. Springs from every node to a few far nodes span
    // the inside like the body diagonals of his Figure 8, so a dent or a fold
    // stretches them. Partners are picked by a fixed hash among nodes at least
    // 40% of the farthest bounding-box corner away, which keeps the springs long
    // (across the volume) and their directions varied.
    const std::size_t n = model.node_count();
    if (n < 3 || per_node <= 0) return 0;
    SpringSet springs(model);
    const Bounds box = bounds(model);
    std::vector<int> degree(n, 0);
    const int max_degree = 3 * per_node;
    std::size_t added = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3 p = model.positions[i];
        float reach = 0.0f;
        for (int c = 0; c < 8; ++c) {
            const Vec3 corner{c & 1 ? box.max.x : box.min.x, c & 2 ? box.max.y : box.min.y,
                              c & 4 ? box.max.z : box.min.z};
            reach = std::max(reach, length(corner - p));
        }
        const float min_distance = 0.4f * reach;
        int made = 0;
        for (std::uint64_t attempt = 0; attempt < std::uint64_t(per_node) * 32 && made < per_node && degree[i] < max_degree;
             ++attempt) {
            const auto j = static_cast<std::uint32_t>(mix((std::uint64_t{i} << 20) ^ attempt) % n);
            if (j == i || degree[j] >= max_degree || length(model.positions[j] - p) < min_distance) continue;
            if (springs.add(static_cast<std::uint32_t>(i), j, k)) {
                ++degree[i];
                ++degree[j];
                ++made;
                ++added;
            }
        }
    }
    return added;
}

namespace {

Model soup_to_model(const std::filesystem::path& path, Soup& soup, const ImportOptions& options,
                    ImportReport& report) {
    if (soup.positions.empty()) fail(path, "the scene has no vertices (no meshes to convert)");
    const double scale = report.unit_scale * options.scale;
    for (Vec3& p : soup.positions) {
        p = p * static_cast<float>(scale);
        if (!is_finite(p)) fail(path, "a vertex position is not a finite number");
        // Beyond this the weld tolerance (relative to the bounding box) swallows the
        // mesh and float physics cannot work; the model file refuses it too.
        const float largest = std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)});
        if (largest > kMaxCoordinate) {
            std::ostringstream out;
            out << "a vertex coordinate of " << largest << " m (after unit conversion and scale) is beyond +-"
                << kMaxCoordinate << " m; scale the mesh down (--scale)";
            fail(path, out.str());
        }
    }

    Model model;
    model.name = path.stem().string();
    if (!valid_utf8(model.name)) model.name = "mesh";
    if (options.k) model.params.k = *options.k;
    if (options.energy_loss) model.params.energy_loss = *options.energy_loss;
    if (options.mass) model.params.mass = *options.mass;
    model.params.spring_damping = options.spring_damping;
    if (options.ground) model.params.ground = Ground{.height = *options.ground};

    // Weld, relative to the bounding box of everything that was read.
    Model all;
    all.positions = soup.positions;
    const double diagonal = bounds(all).diagonal();
    const double tolerance = options.weld < 0 ? -1.0 : options.weld * diagonal;
    const std::vector<std::uint32_t> node_of = weld(soup.positions, tolerance, model.positions);
    all = {};

    // Texcoords stay per face corner; identical ones are stored once.
    const bool any_uv = std::any_of(soup.uvs.begin(), soup.uvs.end(), [](const auto& uv) { return uv.has_value(); });
    std::unordered_map<std::uint64_t, std::uint32_t> texcoord_index;
    auto texcoord = [&](std::uint32_t vertex) -> std::uint32_t {
        if (!any_uv) return 0;
        const TexCoord t = soup.uvs[vertex].value_or(TexCoord{});
        const std::uint64_t key = (std::uint64_t{std::bit_cast<std::uint32_t>(t.u)} << 32) |
                                  std::bit_cast<std::uint32_t>(t.v);
        auto [it, inserted] = texcoord_index.emplace(key, static_cast<std::uint32_t>(model.texcoords.size()));
        if (inserted) model.texcoords.push_back(t);
        return it->second;
    };

    // Faces, and the quads whose second diagonal a shear spring takes.
    std::size_t degenerate = 0;
    std::vector<std::array<std::uint32_t, 4>> quads;
    std::vector<Vec3> pts;
    for (const auto& polygon : soup.polygons) {
        pts.clear();
        for (std::uint32_t v : polygon) pts.push_back(model.positions[node_of[v]]);
        for (const auto& t : triangulate(pts)) {
            Face f;
            for (int c = 0; c < 3; ++c) {
                f.node[c] = node_of[polygon[t[c]]];
                f.texcoord[c] = texcoord(polygon[t[c]]);
            }
            if (f.node[0] == f.node[1] || f.node[1] == f.node[2] || f.node[0] == f.node[2]) {
                ++degenerate;
                continue;
            }
            model.faces.push_back(f);
        }
        if (polygon.size() == 4)
            quads.push_back({node_of[polygon[0]], node_of[polygon[1]], node_of[polygon[2]], node_of[polygon[3]]});
    }
    report.faces = model.faces.size();
    if (degenerate > 0)
        report.warnings.push_back(std::to_string(degenerate) +
                                  " degenerate triangles (corners welded together) were dropped");

    // One spring per unique edge, then the lines of line sets (strings).
    SpringSet springs(model);
    for (const Face& f : model.faces)
        for (int e = 0; e < 3; ++e)
            if (springs.add(f.node[e], f.node[(e + 1) % 3])) ++report.edge_springs;
    for (const auto& line : soup.lines)
        if (springs.add(node_of[line[0]], node_of[line[1]])) ++report.line_springs;

    const float extra_k =
        options.extra_spring_k_factor == 1.0f ? 0.0f : options.extra_spring_k_factor * model.params.k;
    if (options.shear)
        for (const auto& q : quads) {
            if (springs.add(q[0], q[2], extra_k)) ++report.shear_springs;
            if (springs.add(q[1], q[3], extra_k)) ++report.shear_springs;
        }
    if (options.bend) report.bend_springs = add_bend_springs(model, extra_k);
    if (options.volume) report.volume_springs = add_volume_springs(model, options.volume_springs, extra_k);

    report.welded_vertices = soup.positions.size() - model.positions.size();

    if (!soup.textures.empty()) {
        std::string name = soup.textures.front();
        std::replace(name.begin(), name.end(), '\\', '/');  // files written on Windows
        if (name.front() == '*')
            report.warnings.push_back("the texture is embedded in the file (" + name + "); the model has none");
        else if (!valid_utf8(name))
            report.warnings.push_back("the texture path is not valid UTF-8; the model has none");
        else {
            const std::filesystem::path texture(name);
            model.texture =
                (texture.is_absolute() ? texture : path.parent_path() / texture).lexically_normal().generic_string();
        }
        if (soup.textures.size() > 1)
            report.warnings.push_back("the meshes use " + std::to_string(soup.textures.size()) +
                                      " textures; the model keeps the first, " + name);
    }
    if (!model.texture.empty() && !any_uv) model.texture.clear();

    for (const std::string& selector : options.anchors) {
        try {
            report.anchors += apply_anchor_selector(model, selector);
        } catch (const Error& e) {
            fail(path, e.what());
        }
    }
    validate(model, path.string());
    return model;
}

}  // namespace

Model import_mesh(const std::filesystem::path& path, const ImportOptions& options, ImportReport& report) {
    report = {};
    if (!(options.scale > 0.0) || !std::isfinite(options.scale)) fail(path, "scale must be a positive number");
    if (!std::isfinite(options.weld) || options.weld >= 1.0) fail(path, "weld tolerance must be below 1 (relative to the bounding-box diagonal)");
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) fail(path, "no such file");
    if (std::filesystem::is_directory(path, ec)) fail(path, "is a directory, not a mesh file");

    Assimp::Importer importer;
    // Keep lines and points (Assimp may drop them with SortByPType otherwise).
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, 0);
    // No aiProcess_ValidateDataStructure: it refuses meshes without faces (point
    // clouds), which we convert; gather_scene checks every index and pointer.
    const aiScene* scene = importer.ReadFile(path.string(), 0);
    if (scene == nullptr) {
        std::string why = importer.GetErrorString();
        if (why == "std::bad_alloc") throw std::bad_alloc();  // Assimp caught it; the caller knows the limit
        if (why.empty()) why = "Assimp could not read it";
        fail(path, "cannot import: " + why);
    }
    if (scene->mRootNode == nullptr) fail(path, "the scene has no root node");
    if (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) fail(path, "the scene is incomplete (no meshes to convert)");
    report.unit_scale = options.unit_to_metres ? unit_to_metres(*scene) : 1.0;
    Soup soup = gather_scene(path, *scene, report);
    importer.FreeScene();
    return soup_to_model(path, soup, options, report);
}

Model import_mesh(const std::filesystem::path& path, const ImportOptions& options) {
    ImportReport report;
    return import_mesh(path, options, report);
}

}  // namespace springkit
