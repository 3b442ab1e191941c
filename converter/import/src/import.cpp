// springkit::import — Assimp scene -> Model, in this process.
//
// Stages: read the scene -> gather every mesh instance with its node transform
// baked in (a "soup" of corners) -> weld corners into nodes by position ->
// triangulate polygons into faces -> one spring per unique edge -> optional
// bend, shear and volume springs -> parameters and anchors -> validate.
#include <assimp/DefaultIOSystem.h>
#include <assimp/Importer.hpp>
#include <assimp/MemoryIOWrapper.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/version.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <future>
#include <limits>
#include <system_error>
#include <memory>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "springkit/builders.hpp"
#include "springkit/error.hpp"
#include "springkit/import.hpp"
#include "springkit/locality.hpp"
#include "springkit/material.hpp"
#include "springkit/printable.hpp"
#include "import_internal.hpp"

namespace springkit {

namespace {

std::uint64_t mix(std::uint64_t x);

using detail::Soup;

/// Makes room for `more` elements, growing geometrically (a scene of many small
/// meshes must not reallocate on each).
template <class T>
void reserve_more(std::vector<T>& v, std::size_t more) {
    if (v.capacity() - v.size() < more) v.reserve(std::max(v.size() + more, 2 * v.capacity()));
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
    throw Error(path.string() + ": " + what);
}

/// FBX stores its unit in the scene metadata: UnitScaleFactor is centimetres per
/// file unit (1 = cm, 100 = m). Other formats leave it out (already metres or
/// unitless): nothing then, nor for a factor that is no finite number > 0.
std::optional<double> unit_to_metres(const aiScene& scene) {
    const aiMetadata* meta = scene.mMetaData;
    if (meta == nullptr) return std::nullopt;
    for (unsigned i = 0; i < meta->mNumProperties; ++i) {
        if (std::strcmp(meta->mKeys[i].C_Str(), "UnitScaleFactor") != 0) continue;
        const aiMetadataEntry& e = meta->mValues[i];
        double cm = 0.0;
        if (e.mData == nullptr) return std::nullopt;
        switch (e.mType) {
            case AI_DOUBLE: cm = *static_cast<const double*>(e.mData); break;
            case AI_FLOAT: cm = *static_cast<const float*>(e.mData); break;
            case AI_INT32: cm = *static_cast<const std::int32_t*>(e.mData); break;
            default: return std::nullopt;
        }
        if (std::isfinite(cm) && cm > 0.0) return cm / 100.0;
        return std::nullopt;
    }
    return std::nullopt;
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
    reserve_more(soup.positions, mesh.mNumVertices);
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
        const aiVector3D p = transform * mesh.mVertices[v];
        soup.positions.push_back({p.x, p.y, p.z});
    }
    // Vertices of meshes without UVs get {0, 0}, as the model gives them.
    if (uv != nullptr && mesh.mNumVertices > 0 && soup.uvs.empty()) soup.uvs.resize(base);
    if (uv != nullptr || !soup.uvs.empty()) {
        reserve_more(soup.uvs, mesh.mNumVertices);
        for (unsigned v = 0; v < mesh.mNumVertices; ++v)
            soup.uvs.push_back(uv != nullptr ? TexCoord{uv[v].x, uv[v].y} : TexCoord{});
    }
    reserve_more(soup.corners, 3 * std::size_t{mesh.mNumFaces});
    reserve_more(soup.polygon_start, mesh.mNumFaces);
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const aiFace& face = mesh.mFaces[f];
        if (face.mNumIndices > 0 && face.mIndices == nullptr) fail(path, "face without indices");
        for (unsigned c = 0; c < face.mNumIndices; ++c)
            if (face.mIndices[c] >= mesh.mNumVertices)
                fail(path, "mesh '" + std::string(mesh.mName.C_Str()) + "' face " + std::to_string(f) +
                               " uses vertex " + std::to_string(face.mIndices[c]) + " of " +
                               std::to_string(mesh.mNumVertices));
        // Point primitives need nothing: every vertex becomes (or welds into) a node.
        if (face.mNumIndices == 2) {
            soup.lines.push_back({static_cast<std::uint32_t>(base + face.mIndices[0]),
                                  static_cast<std::uint32_t>(base + face.mIndices[1])});
        } else if (face.mNumIndices >= 3) {
            for (unsigned c = 0; c < face.mNumIndices; ++c)
                soup.corners.push_back(static_cast<std::uint32_t>(base + face.mIndices[c]));
            if (soup.corners.size() > 0xFFFFFFF0u) fail(path, "too many polygon corners");
            soup.polygon_start.push_back(static_cast<std::uint32_t>(soup.corners.size()));
        }
    }
    const std::string texture = diffuse_texture(scene, mesh.mMaterialIndex);
    if (!texture.empty() && std::find(soup.textures.begin(), soup.textures.end(), texture) == soup.textures.end())
        soup.textures.push_back(texture);
}

Soup gather_scene(const std::filesystem::path& path, const aiScene& scene, ImportReport& report,
                  const ImportOptions& options) {
    Soup soup;
    // What a spring model cannot carry is said, not dropped silently.
    std::size_t bones = 0;
    for (unsigned m = 0; m < scene.mNumMeshes; ++m)
        if (scene.mMeshes != nullptr && scene.mMeshes[m] != nullptr) bones += scene.mMeshes[m]->mNumBones;
    report.bones = bones;
    report.animations = scene.mNumAnimations;
    const bool skinning = options.bone_anchors > 0.0;
    if ((bones > 0 || scene.mNumAnimations > 0) && !skinning)
        report.warnings.push_back(counted(bones, "bone") + " and " + counted(scene.mNumAnimations, "animation") +
                                  " were dropped (use --bone-anchors): the model is its rest pose, "
                                  "without skinning");
    if (skinning && bones == 0)
        report.warnings.push_back("--bone-anchors: the file has no bones; no node follows one");
    else if (skinning && scene.mNumAnimations == 0)
        report.warnings.push_back("--bone-anchors: the file has no animation; the bone anchors hold the rest pose");
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
            const std::size_t base = soup.positions.size();
            gather_mesh(path, scene, *scene.mMeshes[index], item.transform, soup);
            if (skinning)
                detail::gather_bones(path, scene, *scene.mMeshes[index], base, options, soup, report);
            ++report.meshes;
        }
        // Children pushed in reverse so they are visited in file order.
        for (unsigned c = item.node->mNumChildren; c-- > 0;) {
            const aiNode* child = item.node->mChildren[c];
            if (child != nullptr) stack.push_back({child, item.transform * child->mTransformation, item.depth + 1});
        }
    }
    report.input_vertices = soup.positions.size();
    if (!soup.textures.empty()) detail::take_embedded_texture(scene, soup.textures.front(), soup);
    return soup;
}

/// An index from keys to uint32 values for the bulk stages of a convert (millions
/// of entries): open addressing with linear probing over a power-of-two table of
/// 8-byte slots (32 bits of the key's hash as a tag, and the value), grown at half
/// load. The caller keeps the keys (a value indexes them) and says whether a
/// value's key is the one looked for. std::unordered_map's node per entry and
/// its pointer chasing would make the weld the slowest stage after the parse.
/// Results never depend on the hash: only on the order of the calls.
class HashIndex {
public:
    static constexpr std::uint32_t none = 0xFFFFFFFFu;

    explicit HashIndex(std::size_t expected) : slots_(std::bit_ceil(std::max<std::size_t>(64, 2 * expected))) {}

    void prefetch(std::uint64_t hash) const { __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]); }

    /// The value of the key with this hash that `same(value)` accepts, or nullptr.
    template <class Same>
    std::uint32_t* find(std::uint64_t hash, Same same) {
        const auto tag = static_cast<std::uint32_t>(hash >> 32);
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
            Slot& s = slots_[i];
            if (s.value == none) return nullptr;
            if (s.tag == tag && same(s.value)) return &s.value;
        }
    }

    /// Adds a key that is not in the index; `hash_of(value)` rehashes the keys
    /// already in when the table grows.
    template <class HashOf>
    void insert(std::uint64_t hash, std::uint32_t value, HashOf hash_of) {
        if (2 * (size_ + 1) > slots_.size()) {
            std::vector<Slot> old(2 * slots_.size());
            old.swap(slots_);
            for (const Slot& s : old)
                if (s.value != none) place(hash_of(s.value), s.value);
        }
        place(hash, value);
        ++size_;
    }

private:
    struct Slot {
        std::uint32_t tag = 0;
        std::uint32_t value = none;
    };
    void place(std::uint64_t hash, std::uint32_t value) {
        const std::size_t mask = slots_.size() - 1;
        std::size_t i = hash & mask;
        while (slots_[i].value != none) i = (i + 1) & mask;
        slots_[i] = {static_cast<std::uint32_t>(hash >> 32), value};
    }
    std::vector<Slot> slots_;
    std::size_t size_ = 0;
};

/// How far ahead the bulk loops prefetch their hash slots (random accesses into
/// tables larger than the caches).
constexpr std::size_t kPrefetchAhead = 16;

/// Numbers the distinct keys of `items` in order of first appearance: returns the
/// number of each item's key and puts the first item of each key in `distinct`.
/// key_of(item) is a key with ==, hash_of(key) its 64-bit hash. Hashes are computed
/// kPrefetchAhead items early, when their slot is prefetched.
template <class T, class KeyOf, class HashOf>
std::vector<std::uint32_t> number_distinct(const std::vector<T>& items, KeyOf key_of, HashOf hash_of,
                                           std::vector<T>& distinct) {
    const std::size_t n = items.size();
    std::vector<std::uint32_t> number(n);
    distinct.clear();
    distinct.reserve(n / 4 + 16);
    HashIndex index(n / 4 + 16);
    auto hash_of_distinct = [&](std::uint32_t d) { return hash_of(key_of(distinct[d])); };
    constexpr std::size_t kRing = 2 * kPrefetchAhead;
    std::array<std::uint64_t, kRing> ring{};
    auto prepare = [&](std::size_t i) {
        ring[i % kRing] = hash_of(key_of(items[i]));
        index.prefetch(ring[i % kRing]);
    };
    for (std::size_t i = 0; i < std::min(kPrefetchAhead, n); ++i) prepare(i);
    for (std::size_t i = 0; i < n; ++i) {
        if (i + kPrefetchAhead < n) prepare(i + kPrefetchAhead);
        const auto key = key_of(items[i]);
        const std::uint64_t hash = ring[i % kRing];
        if (const std::uint32_t* d = index.find(hash, [&](std::uint32_t v) { return key_of(distinct[v]) == key; })) {
            number[i] = *d;
        } else {
            number[i] = static_cast<std::uint32_t>(distinct.size());
            distinct.push_back(items[i]);
            index.insert(hash, number[i], hash_of_distinct);
        }
    }
    return number;
}

/// Welds corners into nodes. Exact duplicates first (most of them: Assimp hands
/// back one vertex per face corner), by a hash of the coordinates' bits; then the
/// distinct positions, in order of first appearance, join the first node within
/// `tolerance` (a spatial hash of cells). tolerance 0 welds exact duplicates
/// only, a negative one nothing. Returns the node of each corner.
std::vector<std::uint32_t> weld(const std::vector<Vec3>& positions, double tolerance, std::vector<Vec3>& nodes) {
    const std::size_t n = positions.size();
    if (tolerance < 0.0) {
        nodes = positions;
        std::vector<std::uint32_t> node_of(n);
        for (std::size_t i = 0; i < n; ++i) node_of[i] = static_cast<std::uint32_t>(i);
        return node_of;
    }
    using Key = std::array<std::uint32_t, 3>;
    auto key_of = [](const Vec3& p) {
        auto bits = [](float f) { return std::bit_cast<std::uint32_t>(f == 0.0f ? 0.0f : f); };  // -0 == +0
        return Key{bits(p.x), bits(p.y), bits(p.z)};
    };
    auto hash_key = [](const Key& k) {
        return mix(((std::uint64_t{k[0]} << 32) | k[1]) ^ (std::uint64_t{k[2]} * 0x9E3779B97F4A7C15ull));
    };
    // The distinct positions in order of first appearance, as first read (-0 kept).
    std::vector<std::uint32_t> node_of = number_distinct(positions, key_of, hash_key, nodes);
    if (tolerance == 0.0) return node_of;

    // Cells 2 x tolerance wide: a position's tolerance ball reaches at most the
    // neighbour on its nearer side along each axis, so 8 cells hold every
    // candidate. Each cell is a linked list through `next` (newest node first).
    using Cell = std::array<std::int64_t, 3>;
    const double size = 2.0 * tolerance, tol2 = tolerance * tolerance;
    auto cell_of = [size](const Vec3& p, Cell* side) {
        const double coord[3] = {p.x / size, p.y / size, p.z / size};
        Cell c;
        for (int k = 0; k < 3; ++k) {
            const double f = std::floor(coord[k]);
            c[k] = static_cast<std::int64_t>(f);
            if (side != nullptr) (*side)[k] = coord[k] - f < 0.5 ? -1 : 1;
        }
        return c;
    };
    auto hash_cell = [](const Cell& c) {
        std::uint64_t h = static_cast<std::uint64_t>(c[0]) * 0x9E3779B97F4A7C15ull ^
                          static_cast<std::uint64_t>(c[1]) * 0xC2B2AE3D27D4EB4Full ^
                          static_cast<std::uint64_t>(c[2]) * 0x165667B19E3779F9ull;
        h ^= h >> 29;
        h *= 0xBF58476D1CE4E5B9ull;
        return h ^ (h >> 32);
    };
    std::vector<Vec3> welded;  // the nodes
    welded.reserve(nodes.size());
    std::vector<std::uint32_t> next;  // per node: the next (older) node of its cell
    next.reserve(nodes.size());
    HashIndex head(nodes.size() / 2 + 16);  // cell -> its newest node
    // Most of the 8 cells searched are empty: a bitmap of 2^24 bits (2 MiB) by
    // hash says so without a random access into `head`.
    std::vector<std::uint64_t> occupied(std::size_t{1} << 18, 0);
    auto bit_of = [](std::uint64_t hash) { return hash >> 40; };
    auto head_of = [&](const Cell& c, std::uint64_t hash) -> std::uint32_t* {
        const std::uint64_t bit = bit_of(hash);
        if (!(occupied[bit >> 6] >> (bit & 63) & 1)) return nullptr;
        return head.find(hash, [&](std::uint32_t node) { return cell_of(welded[node], nullptr) == c; });
    };
    auto hash_of_node = [&](std::uint32_t node) { return hash_cell(cell_of(welded[node], nullptr)); };
    // The 8 cells of a position (its own first), hashed kPrefetchAhead positions
    // early so that their bitmap words and the own cell's slot are cached in time.
    struct Probe {
        Cell at[8];
        std::uint64_t hash[8];
    };
    constexpr std::size_t kRing = 2 * kPrefetchAhead;
    std::vector<Probe> ring(kRing);
    auto prepare = [&](std::size_t u) {
        Probe& probe = ring[u % kRing];
        Cell side;
        const Cell c = cell_of(nodes[u], &side);
        for (int corner = 0; corner < 8; ++corner) {
            probe.at[corner] = {c[0] + (corner & 1 ? side[0] : 0), c[1] + (corner & 2 ? side[1] : 0),
                                c[2] + (corner & 4 ? side[2] : 0)};
            probe.hash[corner] = hash_cell(probe.at[corner]);
            __builtin_prefetch(&occupied[bit_of(probe.hash[corner]) >> 6]);
        }
        head.prefetch(probe.hash[0]);
    };
    const std::size_t unique_count = nodes.size();
    for (std::size_t u = 0; u < std::min(kPrefetchAhead, unique_count); ++u) prepare(u);
    std::vector<std::uint32_t> node_of_unique(unique_count);
    for (std::size_t u = 0; u < unique_count; ++u) {
        if (u + kPrefetchAhead < unique_count) prepare(u + kPrefetchAhead);
        const Probe& probe = ring[u % kRing];
        const Vec3 p = nodes[u];
        std::uint32_t found = HashIndex::none;
        for (int corner = 0; corner < 8 && found == HashIndex::none; ++corner) {
            const std::uint32_t* first = head_of(probe.at[corner], probe.hash[corner]);
            if (first == nullptr) continue;
            for (std::uint32_t node = *first; node != HashIndex::none; node = next[node]) {
                const Vec3 diff = welded[node] - p;
                if (double(diff.x) * diff.x + double(diff.y) * diff.y + double(diff.z) * diff.z <= tol2) {
                    found = node;
                    break;
                }
            }
        }
        if (found == HashIndex::none) {
            found = static_cast<std::uint32_t>(welded.size());
            welded.push_back(p);
            const std::uint64_t hash = probe.hash[0];
            if (std::uint32_t* newest = head_of(probe.at[0], hash)) {
                next.push_back(*newest);
                *newest = found;
            } else {
                next.push_back(HashIndex::none);
                head.insert(hash, found, hash_of_node);
                occupied[bit_of(hash) >> 6] |= std::uint64_t{1} << (bit_of(hash) & 63);
            }
        }
        node_of_unique[u] = found;
    }
    nodes = std::move(welded);
    for (std::size_t i = 0; i < n; ++i) node_of[i] = node_of_unique[node_of[i]];
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

/// splitmix64: a fixed, portable hash so volume springs are the same on every platform.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

}  // namespace

namespace {

/// The face edges grouped by node pair: group g holds the far corners (the
/// corner opposite the edge) of the faces sharing its edge, far[start[g] ..
/// start[g + 1]), in face order; groups come in increasing (lower, upper) node
/// order. Linear time: face edges are bucketed by their lower node (a counting
/// sort, stable in face order) and each bucket, a handful of edges, sorted by
/// upper node.
struct EdgeGroups {
    std::vector<std::uint32_t> start{0};
    std::vector<std::uint32_t> far;
    std::size_t count() const { return start.size() - 1; }
};

EdgeGroups group_face_edges(const Model& model) {
    const std::size_t n = model.node_count(), edges = 3 * model.faces.size();
    if (edges >= 0xFFFFFFF0u) throw Error("too many faces (" + std::to_string(model.faces.size()) + ")");
    auto node = [&](std::size_t e, int c) { return model.faces[e / 3].node[(e + c) % 3]; };
    std::vector<std::uint32_t> bucket_start(n + 1, 0);
    for (std::size_t e = 0; e < edges; ++e) ++bucket_start[std::min(node(e, 0), node(e, 1)) + 1];
    for (std::size_t i = 0; i < n; ++i) bucket_start[i + 1] += bucket_start[i];
    std::vector<std::uint32_t> bucket(edges);
    {
        std::vector<std::uint32_t> fill(bucket_start.begin(), bucket_start.end() - 1);
        for (std::size_t e = 0; e < edges; ++e)
            bucket[fill[std::min(node(e, 0), node(e, 1))]++] = static_cast<std::uint32_t>(e);
    }
    EdgeGroups groups;
    groups.far.reserve(edges);
    groups.start.reserve(edges / 2 + 2);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> in_bucket;  // (upper node, edge)
    for (std::size_t v = 0; v < n; ++v) {
        in_bucket.clear();
        for (std::uint32_t j = bucket_start[v]; j < bucket_start[v + 1]; ++j)
            in_bucket.emplace_back(std::max(node(bucket[j], 0), node(bucket[j], 1)), bucket[j]);
        std::sort(in_bucket.begin(), in_bucket.end());
        for (std::size_t j = 0; j < in_bucket.size(); ++j) {
            if (j > 0 && in_bucket[j].first != in_bucket[j - 1].first)
                groups.start.push_back(static_cast<std::uint32_t>(groups.far.size()));
            groups.far.push_back(node(in_bucket[j].second, 2));
        }
        if (!in_bucket.empty()) groups.start.push_back(static_cast<std::uint32_t>(groups.far.size()));
    }
    return groups;
}

/// The eigenvectors of the smallest and the largest eigenvalue of a symmetric
/// 3x3 matrix (cyclic Jacobi).
struct ExtremeEigenvectors {
    Vec3 least, most;
};
ExtremeEigenvectors extreme_eigenvectors(double a[3][3]) {
    double v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int sweep = 0; sweep < 50; ++sweep) {
        const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        if (off < 1e-300) break;
        for (int p = 0; p < 3; ++p)
            for (int q = p + 1; q < 3; ++q) {
                if (std::abs(a[p][q]) < 1e-300) continue;
                const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
                const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 3; ++k) {
                    const double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; ++k) {
                    const double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; ++k) {
                    const double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    int least = 0, most = 0;
    for (int i = 1; i < 3; ++i) {
        if (a[i][i] < a[least][least]) least = i;
        if (a[i][i] > a[most][most]) most = i;
    }
    return {{float(v[0][least]), float(v[1][least]), float(v[2][least])},
            {float(v[0][most]), float(v[1][most]), float(v[2][most])}};
}

}  // namespace

SurfaceShape surface_shape(const Model& model) {
    SurfaceShape shape;
    const EdgeGroups groups = group_face_edges(model);
    shape.edges = groups.count();
    for (std::size_t g = 0; g < groups.count(); ++g) {
        const std::uint32_t faces = groups.start[g + 1] - groups.start[g];
        shape.boundary_edges += faces == 1;
        shape.nonmanifold_edges += faces > 2;
    }
    const std::size_t n = model.node_count();
    const double diagonal = bounds(model).diagonal();
    if (n == 0 || !(diagonal > 0.0)) return shape;
    double c[3] = {0, 0, 0};
    for (const Vec3& p : model.positions) c[0] += p.x, c[1] += p.y, c[2] += p.z;
    for (double& x : c) x /= double(n);
    double cov[3][3] = {};
    for (const Vec3& p : model.positions) {
        const double d[3] = {p.x - c[0], p.y - c[1], p.z - c[2]};
        for (int r = 0; r < 3; ++r)
            for (int k = 0; k < 3; ++k) cov[r][k] += d[r] * d[k];
    }
    // The directions of least spread (the plane's normal) and of most (the line's axis).
    const auto [normal, axis] = extreme_eigenvectors(cov);
    double farthest = 0.0, off_line = 0.0;
    for (const Vec3& p : model.positions) {
        const double d[3] = {p.x - c[0], p.y - c[1], p.z - c[2]};
        farthest = std::max(farthest, std::abs(d[0] * normal.x + d[1] * normal.y + d[2] * normal.z));
        const double along = d[0] * axis.x + d[1] * axis.y + d[2] * axis.z;
        const double across[3] = {d[0] - along * axis.x, d[1] - along * axis.y, d[2] - along * axis.z};
        off_line = std::max(off_line, std::sqrt(across[0] * across[0] + across[1] * across[1] + across[2] * across[2]));
    }
    shape.flatness = farthest / diagonal;
    shape.straightness = off_line / diagonal;
    return shape;
}

StructureChoice choose_structure(const Model& model, const SurfaceShape& shape) {
    StructureChoice choice;
    char why[256];
    if (model.faces.empty()) {
        choice.why = "none (no faces: lines keep their own springs and bend as strings do, no shape to keep)";
    } else if (shape.straight()) {
        std::snprintf(why, sizeof why, "none (faces without area: every node within %.2g%% of the diagonal of one "
                      "line, which its springs hold straight only at third order: it bends as a string does, no "
                      "shape to keep)", 100.0 * shape.straightness);
        choice.why = why;
    } else if (shape.closed()) {
        choice.volume = true;
        std::snprintf(why, sizeof why, "volume (a closed surface: each of its %zu edges joins two faces or more)",
                      shape.edges);
        choice.why = why;
    } else if (shape.flat()) {
        choice.bend = choice.shear = choice.volume = choice.flat_sheet = true;
        std::snprintf(why, sizeof why, "bend + shear + volume (an open flat sheet: %zu edges on its rim, every node "
                      "within %.2g%% of the diagonal of one plane)", shape.boundary_edges, 100.0 * shape.flatness);
        choice.why = why;
    } else {
        choice.volume = true;
        std::snprintf(why, sizeof why, "volume (an open surface that is not flat: %zu of its %zu edges on a rim, "
                      "nodes up to %.2g%% of the diagonal off a plane)", shape.boundary_edges, shape.edges,
                      100.0 * shape.flatness);
        choice.why = why;
    }
    return choice;
}

namespace {

/// A time step rounded down to two significant digits, so that a chosen
/// max_substep reads well in the file and the summary.
double round_down_2(double dt) {
    const double unit = std::pow(10.0, std::floor(std::log10(dt)) - 1.0);
    return std::floor(dt / unit * (1.0 + 1e-9)) * unit;
}

}  // namespace

double choose_substep(const Model& model, double* omega_dt, double* damped) {
    if (omega_dt != nullptr) *omega_dt = 0.0;
    if (damped != nullptr) *damped = 0.0;
    const Integrator integrator = model.params.integrator;
    if (integrator != Integrator::symplectic_euler && integrator != Integrator::verlet) return 0.0;
    // A few iterations on a big mesh: its volume springs make each a pass of
    // cache misses, and its highest modes lie close together.
    const FrequencyStability f = frequency_stability(model, 6);
    if (omega_dt != nullptr) *omega_dt = f.omega_dt;
    if (damped != nullptr) *damped = f.damped;
    // The substep scaled by s: omega_dt by s, damping_dt by s.
    double s = f.omega_dt > kSubstepOmegaTarget ? kSubstepOmegaTarget / f.omega_dt : 1.0;
    if (f.damped > kSubstepDampedTarget) {
        // The root of (s w)^2 + 2 s g = L, w = omega_dt, g = damping_dt, in the form
        // that loses no digits when the damping dominates.
        const double w2 = f.omega_dt * f.omega_dt, g = f.damping_dt, target = kSubstepDampedTarget;
        s = std::min(s, target / (g + std::sqrt(g * g + target * w2)));
    }
    if (!(s < 1.0)) return 0.0;
    return std::max(double(kMinSubstep), round_down_2(double(model.params.max_substep) * s));
}

double ground_sink_depth(const Model& model, double repulsion, std::size_t* nodes) {
    if (nodes != nullptr) *nodes = 0;
    const std::size_t n = model.node_count();
    const double g = length(model.params.gravity);
    double mass = 0.0;
    for (std::size_t i = 0; i < n; ++i) mass += model.node_mass(i);
    if (n == 0 || !(mass * g > 0.0) || !(repulsion > 0.0)) return 0.0;
    double lowest = std::numeric_limits<double>::infinity();
    for (const Vec3& p : model.positions) lowest = std::min(lowest, double(p.y));
    std::vector<std::uint32_t> order(n);
    for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return model.positions[a].y != model.positions[b].y ? model.positions[a].y < model.positions[b].y : a < b;
    });
    // Standing level as a rigid body: with the lowest c nodes below d,
    // repulsion (c d - sum of their h) = weight, d = (weight / repulsion + sum) / c,
    // valid while d <= the next node's height.
    const double load = mass * g / repulsion;
    double sum = 0.0, level = 0.0;
    std::size_t c = 0;
    while (c < n) {
        sum += double(model.positions[order[c++]].y) - lowest;
        level = (load + sum) / double(c);
        if (c == n || level <= double(model.positions[order[c]].y) - lowest) break;
    }
    if (nodes != nullptr) *nodes = c;
    // A soft body does not share its weight evenly: where walls stand on the
    // rim of a floor, the rim carries more than the middle. kGroundUnevenLoad
    // covers that.
    return kGroundUnevenLoad * level;
}

namespace {

/// The node pairs of a model's springs, for adding springs without repeating
/// one (what SpringSet does): open addressing with linear probing over a
/// power-of-two table of pair keys (min << 32 | max; 0, a node paired with
/// itself, marks an empty slot), grown at half load. One set serves every
/// structural stage of a convert, which adds millions of springs to a big mesh.
class PairSet {
public:
    explicit PairSet(Model& model) : model_(model) {
        grow(std::bit_ceil(std::max<std::size_t>(64, 4 * model.springs.size())));
        const std::vector<Spring>& springs = model.springs;
        for (std::size_t i = 0; i < springs.size(); ++i) {
            if (const std::size_t j = i + kPrefetchAhead; j < springs.size()) prefetch(springs[j].a, springs[j].b);
            insert(springs[i].a, springs[i].b);
        }
    }

    /// Adds a Hooke spring a-b at its current length; false if a == b or the pair has one.
    bool add(std::uint32_t a, std::uint32_t b, float k) {
        if (a == b || !insert(a, b)) return false;
        model_.springs.push_back({a, b, length(model_.positions[b] - model_.positions[a]), k});
        return true;
    }

    /// Starts fetching the slot where the pair a-b is looked for.
    void prefetch(std::uint32_t a, std::uint32_t b) const {
        __builtin_prefetch(&slots_[mix(key(a, b)) & (slots_.size() - 1)]);
    }

private:
    static std::uint64_t key(std::uint32_t a, std::uint32_t b) {
        return (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
    }
    bool insert(std::uint32_t a, std::uint32_t b) {
        if (a == b) return false;
        const std::uint64_t key = PairSet::key(a, b);
        if (2 * (size_ + 1) > slots_.size()) grow(2 * slots_.size());
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = mix(key) & mask;; i = (i + 1) & mask) {
            if (slots_[i] == key) return false;
            if (slots_[i] == 0) {
                slots_[i] = key;
                ++size_;
                return true;
            }
        }
    }
    void grow(std::size_t slots) {
        std::vector<std::uint64_t> old(slots, 0);
        old.swap(slots_);
        const std::size_t mask = slots_.size() - 1;
        for (std::uint64_t key : old) {
            if (key == 0) continue;
            std::size_t i = mix(key) & mask;
            while (slots_[i] != 0) i = (i + 1) & mask;
            slots_[i] = key;
        }
    }
    Model& model_;
    std::vector<std::uint64_t> slots_;
    std::size_t size_ = 0;
};

std::size_t add_bend_springs(Model& model, PairSet& springs, float k) {
    // Each interior edge joins two triangles; a spring between their far corners
    // resists folding about the edge (the bend springs of a cloth). Edges in
    // increasing node-pair order, their faces in face order.
    const EdgeGroups groups = group_face_edges(model);
    std::size_t added = 0;
    for (std::size_t g = 0; g < groups.count(); ++g)
        for (std::uint32_t i = groups.start[g]; i < groups.start[g + 1]; ++i)
            for (std::uint32_t j = i + 1; j < groups.start[g + 1]; ++j)
                if (springs.add(groups.far[i], groups.far[j], k)) ++added;
    return added;
}

std::size_t add_volume_springs(Model& model, PairSet& springs, int per_node, float k);

}  // namespace

std::size_t add_bend_springs(Model& model, float k) {
    PairSet springs(model);
    return add_bend_springs(model, springs, k);
}

std::size_t add_volume_springs(Model& model, int per_node, float k) {
    PairSet springs(model);
    return add_volume_springs(model, springs, per_node, k);
}

namespace {

/// The bounding box of `nodes` (all of the model's when null; at least one).
Bounds bounds_of(const Model& model, const std::vector<std::uint32_t>* nodes) {
    if (nodes == nullptr) return bounds(model);
    Bounds box{model.positions[nodes->front()], model.positions[nodes->front()]};
    for (std::uint32_t i : *nodes) box.include(model.positions[i]);
    return box;
}

/// The distance from p to the farthest corner of `box`.
float farthest_corner(const Bounds& box, const Vec3& p) {
    float reach = 0.0f;
    for (int c = 0; c < 8; ++c) {
        const Vec3 corner{c & 1 ? box.max.x : box.min.x, c & 2 ? box.max.y : box.min.y, c & 4 ? box.max.z : box.min.z};
        reach = std::max(reach, length(corner - p));
    }
    return reach;
}

/// Volume springs among `nodes` (all of the model's when null), within their
/// own bounding box: see add_volume_springs below.
std::size_t add_volume_springs_among(Model& model, PairSet& springs, const std::vector<std::uint32_t>* nodes,
                                     int per_node, float k, std::vector<int>& degree) {
    const std::size_t n = nodes != nullptr ? nodes->size() : model.node_count();
    if (n < 3 || per_node <= 0) return 0;
    auto node = [nodes](std::size_t a) { return nodes != nullptr ? (*nodes)[a] : static_cast<std::uint32_t>(a); };
    const Bounds box = bounds_of(model, nodes);
    const int max_degree = 3 * per_node;
    model.springs.reserve(model.springs.size() + n * static_cast<std::size_t>(per_node));  // at most per_node a node
    const std::uint64_t attempts = std::uint64_t(per_node) * 32;
    auto partner = [&](std::uint32_t i, std::uint64_t attempt) { return node(mix((std::uint64_t{i} << 20) ^ attempt) % n); };
    // The partners a node tries are known in advance (a fixed hash of the node
    // and the attempt) and lie anywhere in the model: the first few a node
    // tries, which are most of those it takes, have their position, degree and
    // pair slot fetched kAhead nodes early rather than waited for one by one.
    constexpr std::size_t kAhead = 4;
    const std::uint64_t fetched = std::min<std::uint64_t>(attempts, std::uint64_t(per_node) + 2);
    auto prefetch = [&](std::size_t a) {
        const std::uint32_t i = node(a);
        for (std::uint64_t attempt = 0; attempt < fetched; ++attempt) {
            const std::uint32_t j = partner(i, attempt);
            __builtin_prefetch(&model.positions[j]);
            __builtin_prefetch(&degree[j]);
            springs.prefetch(i, j);
        }
    };
    for (std::size_t a = 0; a < std::min(kAhead, n); ++a) prefetch(a);
    std::size_t added = 0;
    for (std::size_t a = 0; a < n; ++a) {
        if (a + kAhead < n) prefetch(a + kAhead);
        const std::uint32_t i = node(a);
        const Vec3 p = model.positions[i];
        const float min_distance = 0.4f * farthest_corner(box, p);
        int made = 0;
        for (std::uint64_t attempt = 0; attempt < attempts && made < per_node && degree[i] < max_degree; ++attempt) {
            const std::uint32_t j = partner(i, attempt);
            if (j == i || degree[j] >= max_degree || length(model.positions[j] - p) < min_distance) continue;
            if (springs.add(i, j, k)) {
                ++degree[i];
                ++degree[j];
                ++made;
                ++added;
            }
        }
    }
    return added;
}

std::size_t add_volume_springs(Model& model, PairSet& springs, int per_node, float k) {
    // Oliveira's converted jelly (Figure 12) folds because a surface of springs
    // only holds edge lengths. Springs from every node to a few far nodes span
    // the inside like the body diagonals of his Figure 8, so a dent or a fold
    // stretches them. Partners are picked by a fixed hash among nodes at least
    // 40% of the farthest bounding-box corner away, which keeps the springs long
    // (across the volume) and their directions varied.
    std::vector<int> degree(model.node_count(), 0);
    return add_volume_springs_among(model, springs, nullptr, per_node, k, degree);
}

/// The volume elements' stiffness relative to the mean k of the volume springs:
/// as stiff, so that parts folded against each other are pushed back as hard
/// as a dent is (a tenth of it left the parts of a folded body half restored).
constexpr double kVolumeElementStiffness = 1.0;
/// The most volume elements one node is a corner of.
constexpr int kMaxElementsPerNode = 8;
/// Past this many explicit substeps a 1/60 s frame the conversion warns: a
/// 64 x 64 cloth's 9 (Tunca's 2 ms) take about 0.13 ms, so 100 substeps of a
/// mesh of a few thousand nodes take milliseconds of a 16.7 ms frame.
constexpr double kMostSubstepsPerFrame = 100.0;

/// Whether the tetrahedron a, b, c, d is wide for its length:
/// sqrt(sum_i |g_i|^2) >= 0.2 l^2, with g_i twice its faces' area vectors and
/// l its longest edge (1.7 l^2 for a regular one, about l^2 for four nodes
/// spread on a plane, small when they lie near one line). Its stiffness is
/// k / sum |g_i|^2 at rest times sum |g_i|^2 now (VolumeElement), and pulled
/// off its line a narrow one's faces grow from nearly nothing: hundreds of
/// times k, which the explicit step cannot follow. width() is
/// sqrt(sum_i |g_i|^2) / l^2; `share` (at most 1) lowers the bound for a thin
/// body, across which no tetrahedron is wide (add_volume_elements_among).
double width(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
    const auto [g0, g1, g2, g3] = signed_volume_gradients(a, b, c, d);
    const double g = double(dot(g0, g0)) + double(dot(g1, g1)) + double(dot(g2, g2)) + double(dot(g3, g3));
    const Vec3 d1 = b - a, d2 = c - a, d3 = d - a;
    double longest = std::max({dot(d1, d1), dot(d2, d2), dot(d3, d3)});
    for (const Vec3& e : {d2 - d1, d3 - d1, d3 - d2}) longest = std::max(longest, double(dot(e, e)));
    return longest > 0.0 ? std::sqrt(g) / longest : 0.0;
}
bool wide_enough(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d, double share) {
    return width(a, b, c, d) >= 0.2 * share;
}

/// The four nodes of an element in increasing order: the key that keeps the
/// same tetrahedron from being added twice.
struct ElementKey {
    std::array<std::uint32_t, 4> nodes;
    friend bool operator==(const ElementKey&, const ElementKey&) = default;
};
struct ElementKeyHash {
    std::size_t operator()(const ElementKey& k) const {
        return static_cast<std::size_t>(mix((std::uint64_t{k.nodes[0]} << 32 | k.nodes[1]) ^
                                            mix(std::uint64_t{k.nodes[2]} << 32 | k.nodes[3])));
    }
};
using ElementSet = std::unordered_set<ElementKey, ElementKeyHash>;

/// Volume elements (signed-volume tetrahedra, VolumeElement) among `nodes`
/// (all of the model's when null), so that every node is a corner of at least
/// one: in node order, each node not yet a corner roots one element (every
/// node, in a set of at most kEveryNodeUpTo nodes: cheap, and a small body
/// has few elements to hold its thin directions), with three partners picked
/// by a fixed hash among the nodes at least 40% of the farthest bounding-box
/// corner away (as its volume springs are, so that the
/// tetrahedron spans the body), preferring for the first kFreshAttempts tries
/// nodes that are no corner yet. A mirror image turns every element over, so
/// one element a node suffices to tell it apart; each element is a pass of
/// cache misses (its corners lie across the body), so fewer elements are a
/// cheaper step: about 0.4 a node instead of one. Of the triples of up to 6
/// partners, the one whose corner at i is least flat is kept: the largest
/// 6|V| / (|d1| |d2| |d3|) (sin of the corner's solid angle, in the sense of
/// the triple product; 0.71 in a regular tetrahedron), if at least 0.001.
/// Springs keep lengths, which a mirror image keeps too; these keep the signed
/// volume, which it turns over. The element must also be wide (wide_enough()).
/// The least flat corners reach for the body's extremes, so a node is in at
/// most kMaxElementsPerNode elements (`degree`), as volume springs are capped:
/// each adds up to the element's k to the stiffness on its node.
/// With `flat_sheet` (the nodes of a flat sheet, whose tetrahedra have no
/// volume) the widest triple is kept instead (width(), at least 0.2) with a
/// rest volume of 0: such an element keeps its four nodes in one plane, and a
/// node moved off the sheet changes its volume to first order (by its
/// gradient, the normal times twice the opposite face's area), where springs
/// in the plane resist only at second order (see choose_structure).
std::size_t add_volume_elements_among(Model& model, const std::vector<std::uint32_t>* nodes, ElementSet& seen,
                                      std::vector<int>& degree, bool flat_sheet) {
    const std::size_t n = nodes != nullptr ? nodes->size() : model.node_count();
    if (n < 4) return 0;
    auto node = [nodes](std::size_t a) { return nodes != nullptr ? (*nodes)[a] : static_cast<std::uint32_t>(a); };
    const Bounds box = bounds_of(model, nodes);
    constexpr int kPartners = 6;
    constexpr std::uint64_t kFreshAttempts = 32;
    constexpr std::size_t kEveryNodeUpTo = 64;
    constexpr double kMinSine = 1e-3;
    // A thin body (a rod, a plank: sides s0 <= s1 <= s2 of its box) has no
    // wide tetrahedron: one spanning it has faces of about s1 s2 and a volume
    // of about s0 s1 s2, so width and sine are asked in those shares
    // (s1 / s2 and s0 s1 / s2^2, times 4 and 16 so that a body of sides within
    // 1:4 of each other is asked the full bounds). Without elements such a
    // body's bends are held only by springs nearly along it. A flat one
    // (s0 < 0.1% of s2) is not: its tetrahedra have no volume to keep.
    double side[3] = {box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z};
    std::sort(side, side + 3);
    const bool thin = side[0] >= 1e-3 * side[2] && side[2] > 0.0;  // and not flat
    const double width_share = thin ? std::min(1.0, 4.0 * side[1] / side[2]) : 1.0;
    const double min_sine = kMinSine * (thin ? std::min(1.0, 16.0 * side[0] * side[1] / (side[2] * side[2])) : 1.0);
    std::size_t added = 0;
    for (std::size_t a = 0; a < n; ++a) {
        const std::uint32_t i = node(a);
        if (degree[i] >= kMaxElementsPerNode || (n > kEveryNodeUpTo && degree[i] > 0)) continue;
        const Vec3 p = model.positions[i];
        const float min_distance = 0.4f * farthest_corner(box, p);
        std::uint32_t partner[kPartners];
        int partners = 0;
        for (std::uint64_t attempt = 0; attempt < 64 && partners < kPartners; ++attempt) {
            const std::uint32_t j = node(mix((std::uint64_t{i} << 20) ^ attempt ^ 0x7e7a00000000ull) % n);
            if (j == i || degree[j] >= kMaxElementsPerNode || (attempt < kFreshAttempts && degree[j] > 0) ||
                length(model.positions[j] - p) < min_distance ||
                std::find(partner, partner + partners, j) != partner + partners)
                continue;
            partner[partners++] = j;
        }
        double best = flat_sheet ? 0.2 : min_sine;
        bool found = false;
        std::array<std::uint32_t, 3> chosen{};
        for (int x = 0; x < partners; ++x)
            for (int y = x + 1; y < partners; ++y)
                for (int z = y + 1; z < partners; ++z) {
                    if (flat_sheet) {
                        const double w = width(p, model.positions[partner[x]], model.positions[partner[y]],
                                               model.positions[partner[z]]);
                        if (w > best) {
                            best = w;
                            found = true;
                            chosen = {partner[x], partner[y], partner[z]};
                        }
                        continue;
                    }
                    const Vec3 d1 = model.positions[partner[x]] - p, d2 = model.positions[partner[y]] - p,
                               d3 = model.positions[partner[z]] - p;
                    if (!wide_enough(p, model.positions[partner[x]], model.positions[partner[y]],
                                     model.positions[partner[z]], width_share))
                        continue;
                    const double lengths = double(length(d1)) * length(d2) * length(d3);
                    const double sine = std::abs(6.0 * signed_volume(p, model.positions[partner[x]],
                                                                     model.positions[partner[y]],
                                                                     model.positions[partner[z]])) /
                                        lengths;
                    if (lengths > 0.0 && sine > best) {
                        best = sine;
                        found = true;
                        chosen = {partner[x], partner[y], partner[z]};
                    }
                }
        if (!found) continue;
        VolumeElement e;
        e.node[0] = i;
        for (int c = 0; c < 3; ++c) e.node[c + 1] = chosen[static_cast<std::size_t>(c)];
        e.rest = flat_sheet ? 0.0f
                            : static_cast<float>(signed_volume(p, model.positions[e.node[1]],
                                                               model.positions[e.node[2]], model.positions[e.node[3]]));
        ElementKey key{{e.node[0], e.node[1], e.node[2], e.node[3]}};
        std::sort(key.nodes.begin(), key.nodes.end());
        if ((!flat_sheet && e.rest == 0.0f) || !seen.insert(key).second) continue;
        for (std::uint32_t v : e.node) ++degree[v];
        model.volume_elements.push_back(e);
        ++added;
    }
    return added;
}

/// Volume elements as add_part_volume_springs places volume springs: over the
/// whole model, or within each part of 4 nodes or more.
std::size_t add_volume_elements(Model& model, bool by_part, bool flat_sheet) {
    ElementSet seen;
    std::vector<int> degree(model.node_count(), 0);
    if (!by_part) return add_volume_elements_among(model, nullptr, seen, degree, flat_sheet);
    const detail::Islands islands = detail::find_islands(model);
    if (islands.sizes.size() <= 1) return add_volume_elements_among(model, nullptr, seen, degree, flat_sheet);
    std::vector<std::vector<std::uint32_t>> parts(islands.sizes.size());
    for (std::size_t i = 0; i < model.node_count(); ++i)
        parts[islands.of_node[i]].push_back(static_cast<std::uint32_t>(i));
    std::size_t added = 0;
    for (const auto& part : parts) added += add_volume_elements_among(model, &part, seen, degree, flat_sheet);
    return added;
}

/// Volume springs for a model of several parts that no edge joins (islands):
/// within each part of 4 nodes or more (over the part's own bounding box, so a
/// small part is held by springs across itself), then, with `join`, across the
/// whole model, which joins the parts. One cap of 3 `per_node` volume springs
/// per node covers both passes, so that no node is held by twice as many.
std::size_t add_part_volume_springs(Model& model, PairSet& springs, int per_node, float k, bool join) {
    const detail::Islands islands = detail::find_islands(model);
    if (islands.sizes.size() <= 1) return add_volume_springs(model, springs, per_node, k);
    std::size_t added = 0;
    std::vector<std::vector<std::uint32_t>> parts(islands.sizes.size());
    for (std::size_t i = 0; i < model.node_count(); ++i)
        parts[islands.of_node[i]].push_back(static_cast<std::uint32_t>(i));
    std::vector<int> degree(model.node_count(), 0);
    for (const auto& part : parts)
        if (part.size() >= 4) added += add_volume_springs_among(model, springs, &part, per_node, k, degree);
    return added + (join ? add_volume_springs_among(model, springs, nullptr, per_node, k, degree) : 0);
}

}  // namespace

namespace {

/// The distinct UVs of a soup in order of first appearance (bit patterns: -0
/// and +0 differ, as texcoords are stored), and the number of each vertex's UV.
struct DistinctUvs {
    std::vector<TexCoord> values;
    std::vector<std::uint32_t> of_vertex;
};

DistinctUvs distinct_uvs(const std::vector<TexCoord>& uvs) {
    auto key_of = [](const TexCoord& t) {
        return (std::uint64_t{std::bit_cast<std::uint32_t>(t.u)} << 32) | std::bit_cast<std::uint32_t>(t.v);
    };
    DistinctUvs out;
    out.of_vertex = number_distinct(uvs, key_of, mix, out.values);
    return out;
}

/// Runs `job` on a second thread, or when none can be started (a tight memory
/// limit), when its result is asked for.
template <class F>
auto start_job(F job) {
    try {
        return std::async(std::launch::async, job);
    } catch (const std::system_error&) {
        return std::async(std::launch::deferred, job);
    }
}

/// One spring per unique edge of the faces, in the order SpringSet::add would
/// add them (face by face, edges 0-1, 1-2, 2-0, first appearance wins), in
/// linear time without a hash: the edges are bucketed by their lower node (a
/// counting sort; neighbouring faces share buckets, so the accesses stay local)
/// and each bucket, a handful of edges, is searched for repeats.
std::size_t add_edge_springs(Model& model) {
    const std::size_t n = model.node_count(), edges = 3 * model.faces.size();
    if (edges >= HashIndex::none) throw Error("too many faces (" + std::to_string(model.faces.size()) + ")");
    auto lower = [&](std::size_t e) {
        const Face& f = model.faces[e / 3];
        return std::min(f.node[e % 3], f.node[(e + 1) % 3]);
    };
    auto upper = [&](std::size_t e) {
        const Face& f = model.faces[e / 3];
        return std::max(f.node[e % 3], f.node[(e + 1) % 3]);
    };
    std::vector<std::uint32_t> start(n + 1, 0);
    for (std::size_t e = 0; e < edges; ++e) ++start[lower(e) + 1];
    for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
    std::vector<std::uint32_t> bucket(edges);
    {
        std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
        for (std::size_t e = 0; e < edges; ++e) bucket[fill[lower(e)]++] = static_cast<std::uint32_t>(e);
    }
    std::vector<std::uint8_t> first(edges, 0);  // is edge e the first of its pair?
    std::vector<std::pair<std::uint32_t, std::uint32_t>> big;  // (upper, edge) of a crowded bucket
    std::size_t unique = 0;
    for (std::size_t node = 0; node < n; ++node) {
        const std::uint32_t* b = bucket.data() + start[node];
        const std::size_t size = start[node + 1] - start[node];
        if (size <= 32) {  // entries are in edge order: an edge is first unless an earlier one matches
            std::uint32_t seen[32];
            for (std::size_t j = 0; j < size; ++j) {
                seen[j] = upper(b[j]);
                bool repeat = false;
                for (std::size_t k = 0; k < j && !repeat; ++k) repeat = seen[k] == seen[j];
                first[b[j]] = !repeat;
                unique += !repeat;
            }
        } else {  // a fan around one node: sort instead of the quadratic search
            big.clear();
            for (std::size_t j = 0; j < size; ++j) big.emplace_back(upper(b[j]), b[j]);
            std::sort(big.begin(), big.end());
            for (std::size_t j = 0; j < size; ++j)
                if (j == 0 || big[j].first != big[j - 1].first) {
                    first[big[j].second] = 1;
                    ++unique;
                }
        }
    }
    model.springs.reserve(model.springs.size() + unique);
    for (std::size_t e = 0; e < edges; ++e) {
        if (!first[e]) continue;
        const Face& f = model.faces[e / 3];
        const std::uint32_t a = f.node[e % 3], b = f.node[(e + 1) % 3];
        model.springs.push_back({a, b, length(model.positions[b] - model.positions[a])});
    }
    return unique;
}

/// The ground's repulsion for a model standing on it (ImportOptions::ground_depth).
/// The ground pushes each node below it up by repulsion x its depth, so the weight
/// W rests on the lowest nodes: a model standing level that sinks d carries
/// W = repulsion x sum of max(0, d - h) over its nodes, and ground_sink_depth
/// bounds the deepest node by kGroundUnevenLoad d; repulsion = W / that sum at
/// d = depth / kGroundUnevenLoad keeps it within `depth`. A node stays stable while repulsion
/// x dt^2 / m <= kStabilityWarning (the criterion of stability_estimate), which
/// caps it; the report then says how deep the model sinks and what max_substep
/// would allow the depth asked for.
void set_ground_repulsion(Model& model, const ImportOptions& options, double longest_side, ImportReport& report) {
    Ground& ground = *model.params.ground;
    const ParameterInfo* row = find_parameter("ground/repulsion");
    double mass = 0.0, lightest = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < model.node_count(); ++i) {
        mass += model.node_mass(i);
        lightest = std::min(lightest, double(model.node_mass(i)));
    }
    const double weight = mass * length(model.params.gravity);
    if (row == nullptr || options.parameters.find(*row) == nullptr) {
        const double depth = options.ground_depth > 0.0 ? options.ground_depth : 0.01 * longest_side;
        // The implicit integrator keeps its nodes above the ground by a
        // projection and reads no repulsion: the one written is for the
        // explicit integrators at their default substep, and nothing is to be
        // said of the substep.
        const bool projected = model.params.integrator == Integrator::implicit;
        const double dt = projected ? Parameters{}.max_substep : model.params.max_substep;
        const double stable = kStabilityWarning * lightest / (dt * dt);
        const double lowest = ground.height;
        // Level at depth / kGroundUnevenLoad, so that uneven loads stay within depth.
        const double level = depth / kGroundUnevenLoad;
        double under = 0.0;  // sum of max(0, level - h) over the nodes
        for (const Vec3& p : model.positions) under += std::max(0.0, level - (double(p.y) - lowest));
        const double needed = under > 0.0 ? weight / under : stable;
        const double floor = Ground{}.repulsion;
        const double repulsion = std::min(std::max(needed, floor), std::max(stable, floor));
        ground.repulsion = static_cast<float>(repulsion);
        if (!projected && needed > std::max(stable, floor) * 1.001)
            report.ground_substep = round_down_2(dt * std::sqrt(std::max(stable, floor) / needed));
    }
    report.ground_repulsion = ground.repulsion;
    report.ground_sink = ground_sink_depth(model, ground.repulsion, &report.ground_nodes);
}

std::string file_unit_text(double metres_per_unit) {
    char unit[128];
    std::snprintf(unit, sizeof unit, "the file's unit, %g m (FBX UnitScaleFactor)", metres_per_unit);
    return unit;
}

/// Why vertex `bad` cannot be taken, in one line: the vertex, its coordinates
/// and whether the file looks corrupt or the mesh is large as a whole.
/// `positions` before `bad` are in metres already, from `bad` on as read
/// (`read`: vertex `bad` as read); `scale` takes them to metres, `user_scale`
/// is the --scale part of it. A coordinate that is not a number, or one past
/// kMaxCoordinate that is also far out of the mesh's own scale (more than
/// kOutlierFactor times the distance from the origin within which half the
/// vertices lie, or past what a unit mix-up explains, mm read as km:
/// kUnitFactor x kMaxCoordinate), comes from a corrupt or truncated file
/// (Assimp reads the missing end of a binary PLY as garbage floats, 1e19 and
/// such): --scale would not help there. Otherwise the mesh is large as a whole
/// and the --scale that brings the coordinate within bounds is named.
std::string bad_vertex_text(const std::vector<Vec3>& positions, std::size_t bad, Vec3 read, double scale,
                            double user_scale) {
    constexpr double kOutlierFactor = 1e3, kUnitFactor = 1e6;
    // |largest coordinate| (infinity for one that is not finite).
    auto reach_of = [](Vec3 p) {
        return is_finite(p) ? std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)})
                            : std::numeric_limits<float>::infinity();
    };
    // The vertices in metres (as the caller's loop would make them), each
    // position once, numbered in the order read: Assimp's OBJ reader gives a
    // vertex per face corner, springkit's one per position, and both give the
    // same distinct positions in the same order (the weld's exact duplicates).
    std::vector<Vec3> metric(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i)
        metric[i] = i < bad ? positions[i] : positions[i] * static_cast<float>(scale);
    std::vector<Vec3> distinct;
    const std::uint32_t index = weld(metric, 0.0, distinct)[bad];
    // How many are out of bounds, and the median reach.
    std::vector<float> reach;
    reach.reserve(distinct.size());
    std::size_t out_of_bounds = 0;
    for (const Vec3& p : distinct) {
        const float r = reach_of(p);
        if (!(r <= kMaxCoordinate)) ++out_of_bounds;
        if (std::isfinite(r)) reach.push_back(r);
    }
    float median = 0.0f;
    if (!reach.empty()) {
        std::nth_element(reach.begin(), reach.begin() + reach.size() / 2, reach.end());
        median = reach[reach.size() / 2];
    }
    std::ostringstream out;
    out.precision(3);
    std::ostringstream others;
    others << "; vertices beyond +-" << kMaxCoordinate << " m or not finite: " << out_of_bounds << " of "
           << distinct.size();
    out << "vertex " << index << " (counted from 0 as read, each position once) is at (" << read.x << ", " << read.y << ", " << read.z
        << ")";
    if (!is_finite(read)) {
        out << ", not all finite numbers" << others.str() << ": the file looks corrupt or truncated";
        return out.str();
    }
    const double metres = static_cast<double>(reach_of(read)) * scale;
    if (scale != 1.0) out << " in the file's units, " << metres << " m with the unit and --scale";
    out << ", beyond +-" << kMaxCoordinate << " m";
    if (metres > kOutlierFactor * median || metres > kUnitFactor * kMaxCoordinate) {
        out << ", where half the vertices are within " << median << " m of the origin" << others.str()
            << ": the file looks corrupt or truncated";
        return out.str();
    }
    // The --scale that brings it within bounds, one significant digit, rounded down.
    const double needed = user_scale * kMaxCoordinate / metres;
    const double step = std::pow(10.0, std::floor(std::log10(needed)));
    out << ", and half the vertices lie beyond " << median
        << " m of the origin: the mesh is too large as a whole; give its unit (--units) or scale it down (--scale "
        << std::floor(needed / step) * step << " or less)";
    return out.str();
}

Model soup_to_model(const std::filesystem::path& path, Soup& soup, const ImportOptions& options,
                    ImportReport& report, bool for_parent) {
    if (soup.positions.empty()) fail(path, "the scene has no vertices (no meshes to convert)");
    char unit[128];
    if (options.units > 0.0) {
        report.unit_scale = options.units;
        std::snprintf(unit, sizeof unit, "given: %g m per unit", options.units);
        report.unit = unit;
    } else if (report.unit_scale != 1.0) {
        report.unit = file_unit_text(report.unit_scale);
    }
    double scale = report.unit_scale * options.scale;
    // The longest side of the bounding box, in the file's coordinates.
    Vec3 low = soup.positions[0], high = low;
    for (const Vec3& p : soup.positions) {
        low = {std::min(low.x, p.x), std::min(low.y, p.y), std::min(low.z, p.z)};
        high = {std::max(high.x, p.x), std::max(high.y, p.y), std::max(high.z, p.z)};
    }
    const double side = std::max({double(high.x) - low.x, double(high.y) - low.y, double(high.z) - low.z});
    if (options.size > 0.0 && side > 0.0 && std::isfinite(side)) scale = options.size / side;
    // Outside 1 cm to 100 m a model was most likely read in the wrong unit (an
    // FBX without UnitScaleFactor in cm, a CAD file in mm).
    const double metres = side * scale;
    if (options.size <= 0.0 && std::isfinite(metres) && metres > 0.0 && (metres < 0.01 || metres > 100.0)) {
        char warning[256];
        std::snprintf(warning, sizeof warning,
                      "the model is %.3g m across (unit: %s), outside 1 cm to 100 m: if its unit is another, "
                      "give --units mm|cm|in|ft|m, or --size METRES",
                      metres, report.unit.c_str());
        report.warnings.push_back(warning);
    }
    for (std::size_t i = 0; i < soup.positions.size(); ++i) {
        Vec3& p = soup.positions[i];
        const Vec3 read = p;
        p = p * static_cast<float>(scale);
        // Beyond kMaxCoordinate the weld tolerance (relative to the bounding box)
        // swallows the mesh and float physics cannot work; the model file refuses
        // it too.
        if (!is_finite(p) || std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)}) > kMaxCoordinate)
            fail(path, bad_vertex_text(soup.positions, i, read, scale, options.scale));
    }

    Model model;
    model.name = path.stem().string();
    if (!valid_utf8(model.name)) model.name = "mesh";
    model.params.spring_damping = options.spring_damping;
    // A ground at the bottom exists before the overrides, so that its other rows
    // (repulsion, friction) apply to it; its height is set once the nodes are known.
    if (options.ground_at_bottom) model.params.ground = Ground{};
    options.parameters.apply(model.params);

    // Weld, relative to the bounding box of everything that was read.
    Bounds box{soup.positions[0], soup.positions[0]};
    for (const Vec3& p : soup.positions) box.include(p);
    const double tolerance = options.weld < 0 ? -1.0 : options.weld * box.diagonal();
    std::future<DistinctUvs> uv_job;
    if (!soup.uvs.empty()) uv_job = start_job([&soup] { return distinct_uvs(soup.uvs); });
    const std::vector<std::uint32_t> node_of = weld(soup.positions, tolerance, model.positions);
    // Bone anchors before the islands and selectors: the nodes are still
    // numbered as the weld left them (node_of), and a selector never anchors
    // a node twice.
    if (!soup.bone_tracks.empty()) report.anchors += detail::add_bone_anchors(model, soup, node_of, scale, options, report);
    if (options.ground_at_bottom) {
        float lowest = model.positions[0].y;
        for (const Vec3& p : model.positions) lowest = std::min(lowest, p.y);
        model.params.ground->height = lowest;
    }

    // Texcoords stay per face corner; identical ones are stored once, numbered in
    // the order the faces first use them: the distinct UVs (numbered per source
    // vertex, on a second thread while the weld runs) are renumbered as the faces
    // meet them.
    const bool any_uv = !soup.uvs.empty();
    DistinctUvs uvs = uv_job.valid() ? uv_job.get() : DistinctUvs{};
    std::vector<std::uint32_t> texcoord_of_uv(uvs.values.size(), HashIndex::none);
    auto texcoord = [&](std::uint32_t uv) -> std::uint32_t {
        if (!any_uv) return 0;
        std::uint32_t& t = texcoord_of_uv[uvs.of_vertex[uv]];
        if (t == HashIndex::none) {
            t = static_cast<std::uint32_t>(model.texcoords.size());
            model.texcoords.push_back(uvs.values[uvs.of_vertex[uv]]);
        }
        return t;
    };

    // Faces, and the quads whose second diagonal a shear spring takes.
    const bool given = options.bend || options.shear || options.volume;
    const bool may_shear = options.shear || (!given && (options.structure == ImportOptions::Structure::automatic ||
                                                        options.structure == ImportOptions::Structure::sheet));
    std::size_t degenerate = 0;
    std::vector<std::array<std::uint32_t, 4>> quads;
    std::vector<Vec3> pts;
    const std::size_t polygons = soup.polygon_count();
    model.faces.reserve(soup.corners.size() - 2 * polygons);  // a polygon of k corners makes k - 2 triangles
    model.texcoords.reserve(uvs.values.size());
    // A corner's UV: that of its source vertex, or the one the file gives it.
    const std::vector<std::uint32_t>& uv_of_corner = soup.corner_uvs.empty() ? soup.corners : soup.corner_uvs;
    auto add_face = [&](std::size_t first, std::size_t c0, std::size_t c1, std::size_t c2) {
        Face f;
        const std::size_t corner[3] = {first + c0, first + c1, first + c2};
        for (int c = 0; c < 3; ++c) {
            f.node[c] = node_of[soup.corners[corner[c]]];
            f.texcoord[c] = texcoord(uv_of_corner[corner[c]]);
        }
        if (f.node[0] == f.node[1] || f.node[1] == f.node[2] || f.node[0] == f.node[2])
            ++degenerate;
        else
            model.faces.push_back(f);
    };
    for (std::size_t p = 0; p < polygons; ++p) {
        const std::size_t first = soup.polygon_start[p];
        const std::uint32_t* polygon = soup.corners.data() + first;
        const std::size_t size = soup.polygon_start[p + 1] - first;
        if (size == 3) {
            add_face(first, 0, 1, 2);
            continue;
        }
        pts.clear();
        for (std::size_t c = 0; c < size; ++c) pts.push_back(model.positions[node_of[polygon[c]]]);
        for (const auto& t : triangulate(pts)) add_face(first, t[0], t[1], t[2]);
        if (size == 4 && may_shear)
            quads.push_back({node_of[polygon[0]], node_of[polygon[1]], node_of[polygon[2]], node_of[polygon[3]]});
    }
    report.faces = model.faces.size();
    if (degenerate > 0)
        report.warnings.push_back(counted(degenerate, "degenerate triangle") + " (corners welded together) " +
                                  (degenerate == 1 ? "was" : "were") + " dropped");

    // Each spring keeps what it stands for (Spring::role), so the editor can show
    // and filter edge, shear, bend and volume springs apart.
    std::size_t untagged = model.springs.size();
    auto tag_new_springs = [&](SpringRole role) {
        for (std::size_t i = untagged; i < model.springs.size(); ++i) model.springs[i].role = role;
        untagged = model.springs.size();
    };
    // One spring per unique edge, then the lines of line sets (strings).
    report.edge_springs = add_edge_springs(model);
    // The structural springs: those asked for, or what the mesh needs.
    StructureChoice structure{options.bend, options.shear, options.volume, false, {}};
    if (!given) switch (options.structure) {
            case ImportOptions::Structure::automatic:
                structure = choose_structure(model, surface_shape(model));
                if (model.faces.empty() && soup.lines.empty())
                    structure.why = "none (no faces and no lines: a point cloud of " +
                                    std::to_string(model.node_count()) + " free nodes, no shape to keep)";
                break;
            case ImportOptions::Structure::edges: break;
            case ImportOptions::Structure::sheet: structure.bend = structure.shear = true; break;
            case ImportOptions::Structure::solid: structure.volume = true; break;
        }
    report.structure = structure.why;
    std::optional<PairSet> springs;  // the pairs of the springs so far, when more may come
    if (!soup.lines.empty() || structure.shear || structure.bend || structure.volume) springs.emplace(model);
    for (const auto& line : soup.lines)
        if (springs->add(node_of[line[0]], node_of[line[1]], 0.0f)) ++report.line_springs;
    tag_new_springs(SpringRole::edge);

    const float extra_k =
        options.extra_spring_k_factor == 1.0f ? 0.0f : options.extra_spring_k_factor * model.params.k;
    if (structure.shear)
        for (const auto& q : quads) {
            if (springs->add(q[0], q[2], extra_k)) ++report.shear_springs;
            if (springs->add(q[1], q[3], extra_k)) ++report.shear_springs;
        }
    tag_new_springs(SpringRole::shear);
    if (structure.bend) report.bend_springs = add_bend_springs(model, *springs, extra_k);
    tag_new_springs(SpringRole::bend);
    // Volume springs across the whole model join its parts; when --islands says
    // how parts are to be joined (or dropped), chosen ones stay within each part.
    if (structure.volume)
        report.volume_springs = options.volume || options.islands == ImportOptions::Islands::keep
                                    ? add_volume_springs(model, *springs, options.volume_springs, extra_k)
                                    : add_part_volume_springs(model, *springs, options.volume_springs, extra_k, false);
    tag_new_springs(SpringRole::volume);
    // Volume elements where the converter chose volume springs itself (--volume
    // adds exactly those springs). Their force is explicit, also under the
    // implicit integrator, whose long substeps it would not follow: none there.
    if (structure.volume && !given) {
        if (!options.volume_elements) {
            report.volume_elements_why = "left out: --no-volume-elements";
        } else if (model.params.integrator == Integrator::implicit) {
            report.volume_elements_why = "their force is explicit, too stiff for the implicit integrator's substeps";
        } else {
            report.volume_elements = add_volume_elements(model, options.islands != ImportOptions::Islands::keep,
                                                         structure.flat_sheet);
            report.volume_elements_why =
                report.volume_elements == 0
                    ? "no four nodes far enough apart span a tetrahedron wide enough: a thin or tiny mesh"
                : structure.flat_sheet
                    ? "of rest volume 0: they keep the sheet flat, which springs in its plane do only at second order"
                    : "signed volumes: springs alone cannot tell the shape from its mirror image";
        }
    }

    report.welded_vertices = report.input_vertices - model.positions.size();

    // Islands, before anchors are chosen: a dropped island's nodes cannot be anchors.
    const detail::Islands islands = detail::find_islands(model);
    report.islands = islands.sizes;
    if (options.islands == ImportOptions::Islands::largest) report.dropped_nodes = detail::keep_largest_island(model, islands);
    if (options.islands == ImportOptions::Islands::connect) report.island_springs = detail::connect_islands(model, islands, 3);
    if (islands.sizes.size() > 1) {
        const std::size_t single = static_cast<std::size_t>(std::count(islands.sizes.begin(), islands.sizes.end(), 1u));
        std::string what = std::to_string(islands.sizes.size()) + " islands (parts no spring joins; nodes: " +
                           std::to_string(islands.sizes[0]);
        for (std::size_t k = 1; k < islands.sizes.size() && k < 5; ++k) what += ", " + std::to_string(islands.sizes[k]);
        what += islands.sizes.size() > 5 ? ", ...)" : ")";
        if (single == 1) what += ", 1 of them a single node without springs (a free-falling point)";
        if (single > 1) what += ", " + std::to_string(single) + " of them single nodes without springs (free-falling points)";
        if (options.islands == ImportOptions::Islands::keep)
            report.warnings.push_back(what + ": each moves on its own; --islands largest keeps the largest, "
                                             "--islands connect joins them with springs");
    }

    if (!soup.textures.empty()) {
        std::string name = soup.textures.front();
        std::replace(name.begin(), name.end(), '\\', '/');  // files written on Windows
        if (!soup.embedded_texture.empty()) {
            report.embedded_texture = std::move(soup.embedded_texture);
            report.embedded_texture_format = soup.embedded_texture_format;
        } else if (!soup.embedded_texture_problem.empty())
            report.warnings.push_back(soup.embedded_texture_problem);
        else if (name.front() == '*')
            report.warnings.push_back("the texture is embedded in the file (" + name + ") but the file holds no such "
                                      "image; the model has none");
        else if (!valid_utf8(name))
            report.warnings.push_back("the texture path is not valid UTF-8; the model has none");
        else
            detail::set_texture(path, name, options, model, report);
        if (soup.textures.size() > 1)
            report.warnings.push_back("the meshes use " + std::to_string(soup.textures.size()) +
                                      " textures; the model keeps the first, " + name);
    }
    if (!any_uv) {
        model.texture.clear();
        report.embedded_texture.clear();
    }

    for (const std::string& selector : options.anchors) {
        try {
            report.anchors += apply_anchor_selector(model, selector);
        } catch (const Error& e) {
            fail(path, e.what());
        }
    }
    if (!options.keep_order) reorder_for_locality(model);
    // The material, once the nodes and springs are final and numbered; the ground's
    // repulsion follows from the weight.
    if (has_material(model.params)) {
        try {
            derive_material(model);
        } catch (const Error& e) {
            fail(path, e.what());
        }
        if (model.params.stretch_stiffness > 0.0f && options.extra_spring_k_factor != 1.0f)
            report.warnings.push_back("--extra-k has no effect with a stretch stiffness: springs that are no face "
                                      "edge get k = stretch stiffness");
    }
    // The volume elements are kVolumeElementStiffness times as stiff as the
    // volume springs (their mean k, after the material), unless a stiffness was
    // given.
    const ParameterInfo* volume_row = find_parameter("volume_stiffness");
    if (!model.volume_elements.empty() && volume_row != nullptr && options.parameters.find(*volume_row) == nullptr) {
        double sum = 0.0;
        std::size_t count = 0;
        for (const Spring& s : model.springs)
            if (s.role == SpringRole::volume) sum += model.spring_k(s), ++count;
        model.params.volume_stiffness =
            static_cast<float>(kVolumeElementStiffness * (count > 0 ? sum / double(count) : double(model.params.k)));
    }
    // The substep the explicit step needs for this mesh, unless one was given;
    // then the ground's repulsion, which it bounds.
    const ParameterInfo* substep_row = find_parameter("max_substep");
    if (substep_row != nullptr && options.parameters.find(*substep_row) == nullptr) {
        const double before = model.params.max_substep;
        double omega_dt = 0.0, damped = 0.0;
        const double chosen = choose_substep(model, &omega_dt, &damped);
        if (chosen > 0.0) {
            model.params.max_substep = static_cast<float>(chosen);
            const bool damping = damped > kSubstepDampedTarget;
            char why[300];
            if (damping)
                std::snprintf(why, sizeof why,
                              "%.2g s (dt omega_max would be %.3g and (dt omega_max)^2 + 2 dt damping rate %.3g at "
                              "%.2g s: %s is stable below 2 and, with spring damping, 4, and a mesh pulled far from "
                              "rest needs a margin)",
                              chosen, omega_dt, damped, before, integrator_name(model.params.integrator));
            else
                std::snprintf(why, sizeof why,
                              "%.2g s (dt omega_max would be %.3g at %.2g s: %s is stable below 2, and a mesh pulled "
                              "far from rest needs a margin)",
                              chosen, omega_dt, before, integrator_name(model.params.integrator));
            report.substep = why;
            // At the shortest substep the files allow, still past the limits:
            // the model will explode whatever the substep.
            const double shrink = chosen / before;
            const double omega_there = omega_dt * shrink;
            const double damped_there = omega_there * omega_there + (damped - omega_dt * omega_dt) * shrink;
            const double per_frame = std::ceil((1.0 / 60.0) / chosen - 1e-9);
            if (omega_there >= 2.0 || damped_there >= FrequencyStability::kDampedLimit) {
                char warning[400];
                std::snprintf(warning, sizeof warning,
                              "the explicit step of this mesh is unstable even at the shortest substep, %.2g s "
                              "(dt omega_max %.3g, (dt omega_max)^2 + 2 dt damping rate %.3g there; stable below 2 "
                              "and 4): it will explode; its lightest nodes hang on its stiffest%s springs; "
                              "--integrator implicit is stable at one substep a frame%s",
                              chosen, omega_there, damped_there, damping ? " or most damped" : "",
                              damping ? ", or lower --damping" : "");
                report.warnings.push_back(warning);
            } else if (per_frame > kMostSubstepsPerFrame) {
                // More substeps a frame than a game can afford: the light nodes
                // between stiff springs ask for them; the implicit integrator does
                // not (a warning, since the model is what was asked for).
                char warning[400];
                std::snprintf(warning, sizeof warning,
                              "the explicit step of this mesh needs %.0f substeps a 1/60 s frame (substep %.2g s), "
                              "too many for real time: its lightest nodes hang on its stiffest%s springs; "
                              "--integrator implicit is stable at one substep a frame%s",
                              per_frame, chosen, damping ? " or most damped" : "",
                              damping ? ", or lower --damping" : "");
                report.warnings.push_back(warning);
            }
        } else if (model.params.integrator == Integrator::implicit && before >= kImplicitSubstep) {
            // ParameterOverrides::apply() lengthened it.
            report.substep = "1/60 s (one step a frame: the implicit integrator is stable for any k)";
        }
    }
    for (std::size_t i = 0; i < model.node_count(); ++i) report.total_mass += model.node_mass(i);
    if (!has_material(model.params)) {
        // No material can fill even its bounding box (each side taken as at
        // least a tenth of the longest, for sheets) at more than 20000 kg/m^3
        // (gold: 19300): the per-node mass is then far too heavy for the mesh.
        const Bounds b = bounds(model);
        const double longest = std::max({b.max.x - b.min.x, b.max.y - b.min.y, b.max.z - b.min.z});
        double volume = 1.0;
        for (double d : {b.max.x - b.min.x, b.max.y - b.min.y, b.max.z - b.min.z}) volume *= std::max(d, 0.1 * longest);
        if (volume > 0.0 && report.total_mass / volume > 20000.0) {
            char warning[320];
            std::snprintf(warning, sizeof warning,
                          "the model weighs %.4g kg (%.3g kg per node x %zu nodes), %.3g kg/m^3 over its bounding "
                          "box, heavier than any solid of its size: give its mass with --total-mass KG or "
                          "--density KG_PER_M3",
                          report.total_mass, double(model.params.mass), model.node_count(),
                          report.total_mass / volume);
            report.warnings.push_back(warning);
        }
    }
    if (options.ground_at_bottom) set_ground_repulsion(model, options, side * scale, report);

    // A child's parent validates the model it receives (the same checks, the same
    // messages naming the file); the parameters are checked here as they go
    // into the answer's JSON header.
    if (for_parent)
        validate_parameters(model.params, path.string());
    else
        validate(model, path.string());
    return model;
}

}  // namespace

namespace {

/// Serves one file's path from memory and every other path from the disk.
class OneFileInMemory : public Assimp::DefaultIOSystem {
public:
    OneFileInMemory(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {}
    bool Exists(const char* file) const override { return path_ == file || DefaultIOSystem::Exists(file); }
    Assimp::IOStream* Open(const char* file, const char* mode) override {
        if (path_ != file) return DefaultIOSystem::Open(file, mode);
        return new Assimp::MemoryIOStream(reinterpret_cast<const std::uint8_t*>(text_.data()), text_.size());
    }

private:
    std::string path_, text_;
};

/// Where Assimp would put each run of faces of a file read by read_plain_obj:
/// it reads the file's outline (its o, g, usemtl and mtllib lines, with one
/// triangle at x = r standing for run r), served under the file's own path so
/// that material libraries are found and read exactly as for the whole file.
/// Returns the runs in the order Assimp's meshes hold them, and sets the
/// textures and the mesh count; nullopt if Assimp cannot read the outline or
/// leaves out a run (the caller then lets Assimp read the whole file).
std::optional<std::vector<std::uint32_t>> place_runs(const std::filesystem::path& path, const detail::PlainObj& obj,
                                                     std::vector<std::string>& textures, ImportReport& report) {
    Assimp::Importer importer;
    importer.SetIOHandler(new OneFileInMemory(path.string(), obj.outline));
    const aiScene* scene = importer.ReadFile(path.string(), 0);
    if (scene == nullptr || scene->mRootNode == nullptr || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE))
        return std::nullopt;
    ImportReport outline_report;
    Soup outline = gather_scene(path, *scene, outline_report, ImportOptions{});
    std::vector<std::uint32_t> order;
    std::vector<bool> placed(obj.run_count(), false);
    for (std::size_t p = 0; p < outline.polygon_count(); ++p) {
        const float x = outline.positions[outline.corners[outline.polygon_start[p]]].x;
        const auto run = static_cast<std::uint32_t>(x);
        if (!(x >= 0.0f) || run >= placed.size() || float(run) != x || placed[run]) return std::nullopt;
        placed[run] = true;
        order.push_back(run);
    }
    if (order.size() != obj.run_count() || !outline.lines.empty()) return std::nullopt;
    textures = std::move(outline.textures);
    report.meshes = outline_report.meshes;
    return order;
}

bool has_obj_extension(const std::filesystem::path& path) {
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return extension == ".obj";
}

/// in_child: for a child process that answers its parent and exits (see
/// detail::import_mesh_then_exit).
Model import_file(const std::filesystem::path& path, const ImportOptions& options, ImportReport& report,
                  bool in_child) {
    const bool free_scene = !in_child;
    report = {};
    if (!(options.scale > 0.0) || !std::isfinite(options.scale)) fail(path, "scale must be a positive number");
    if (!std::isfinite(options.weld) || options.weld >= 1.0) fail(path, "weld tolerance must be below 1 (relative to the bounding-box diagonal)");
    if (!(options.bone_anchors >= 0.0 && options.bone_anchors <= 1.0))
        fail(path, "the bone weight threshold must be in (0, 1] (0 = no bone anchors), not " +
                       std::to_string(options.bone_anchors));
    if (!(options.bone_key_rate > 0.0 && options.bone_key_rate <= 1000.0))
        fail(path, "the bone key rate must be in (0, 1000] keys per second");
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) fail(path, "no such file");
    if (std::filesystem::is_directory(path, ec)) fail(path, "is a directory, not a mesh file");

    // (Without welding every corner is a node: Assimp's one vertex per corner.)
    if (options.fast_obj && options.weld >= 0.0 && has_obj_extension(path)) {
        if (std::optional<detail::PlainObj> obj = detail::read_plain_obj(path)) {
            std::vector<std::string> textures;
            if (const auto order = place_runs(path, *obj, textures, report)) {
                report.reader = "obj";
                report.input_vertices = obj->corners.size();  // Assimp's one vertex per corner
                Soup soup = detail::plain_obj_soup(std::move(*obj), *order);
                soup.textures = std::move(textures);
                return soup_to_model(path, soup, options, report, in_child);
            }
        }
        report = {};
    }

    // Freeing the scene of a million-triangle OBJ means a small array per face
    // handed back one by one: a process about to exit leaves that to the exit.
    std::unique_ptr<Assimp::Importer> owner = std::make_unique<Assimp::Importer>();
    Assimp::Importer& importer = *owner;
    if (!free_scene) static_cast<void>(owner.release());  // reclaimed when the process exits
    // Keep lines and points (Assimp may drop them with SortByPType otherwise).
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, 0);
    // No aiProcess_ValidateDataStructure: it refuses meshes without faces (point
    // clouds), which we convert; gather_scene checks every index and pointer.
    detail::check_gltf_layout(path);
    const aiScene* scene = importer.ReadFile(path.string(), 0);
    if (scene == nullptr) {
        std::string why = importer.GetErrorString();
        if (why == "std::bad_alloc") throw std::bad_alloc();  // Assimp caught it; the caller knows the limit
        if (why.empty()) why = "Assimp could not read it";
        fail(path, "cannot import: " + why);
    }
    if (scene->mRootNode == nullptr) fail(path, "the scene has no root node");
    if (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) fail(path, "the scene is incomplete (no meshes to convert)");
    // A file declaring metres (UnitScaleFactor 100) says so as much as one in cm.
    if (const std::optional<double> declared = unit_to_metres(*scene); declared && options.unit_to_metres) {
        report.unit_scale = *declared;
        report.unit = file_unit_text(*declared);
    } else if (declared) {
        char unit[160];
        std::snprintf(unit, sizeof unit, "metres (--no-unit-scale: the file's unit, %g m, ignored)", *declared);
        report.unit = unit;
    }
    Soup soup = gather_scene(path, *scene, report, options);
    if (free_scene) importer.FreeScene();
    return soup_to_model(path, soup, options, report, in_child);
}

}  // namespace

Model import_mesh(const std::filesystem::path& path, const ImportOptions& options, ImportReport& report) {
    try {
        return import_file(path, options, report, /*in_child=*/false);
    } catch (const std::bad_alloc&) {
        throw Error(path.string() + ": out of memory while importing the mesh");
    }
}

Model detail::import_mesh_then_exit(const std::filesystem::path& path, const ImportOptions& options,
                                    ImportReport& report) {
    return import_file(path, options, report, /*in_child=*/true);
}

Model import_mesh(const std::filesystem::path& path, const ImportOptions& options) {
    ImportReport report;
    return import_mesh(path, options, report);
}

std::string assimp_version() {
    return std::to_string(aiGetVersionMajor()) + "." + std::to_string(aiGetVersionMinor()) + "." +
           std::to_string(aiGetVersionPatch());
}

}  // namespace springkit
