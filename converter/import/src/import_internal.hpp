// springkit::import — what the importer's own files share.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "springkit/import.hpp"

struct aiScene;
struct aiMesh;

namespace springkit::detail {

/// import_mesh for a child process that exits right after answering
/// (import_isolated.cpp): Assimp's scene is left for the exit to reclaim, and
/// only the parameters are validated: the parent validates the whole model it
/// receives, with the same messages.
Model import_mesh_then_exit(const std::filesystem::path& path, const ImportOptions& options, ImportReport& report);

/// For a glTF or GLB file (told by its content, whatever its name): checks that
/// every accessor lies within its bufferView, every bufferView within its
/// buffer and every buffer within the bytes that hold it (gltf_check.cpp), and
/// throws springkit::Error naming the file and the accessor, bufferView or
/// buffer otherwise. Assimp reads these numbers unchecked. Other files pass.
void check_gltf_layout(const std::filesystem::path& path);

/// Every mesh instance of the scene in world space, before welding. Flat arrays:
/// a million-triangle mesh must not cost a million small allocations.
struct Soup {
    std::vector<Vec3> positions;         ///< one per source vertex (all instances)
    /// UVs if any mesh has them: per source vertex ({0, 0} where a mesh has none),
    /// or, when corner_uvs is set, a table that corner_uvs indexes.
    std::vector<TexCoord> uvs;
    std::vector<std::uint32_t> corners;  ///< source vertex indices of every polygon (>= 3 corners), back to back
    /// Empty: a corner's UV is uvs[its source vertex]. Else, per corner (parallel
    /// to corners), the index of its UV in uvs (an OBJ file's own vt numbering).
    std::vector<std::uint32_t> corner_uvs;
    std::vector<std::uint32_t> polygon_start{0};  ///< polygon p is corners[polygon_start[p], polygon_start[p + 1])
    std::vector<std::array<std::uint32_t, 2>> lines;
    std::vector<std::string> textures;   ///< diffuse textures met, in order
    /// The first texture when the file embeds it (aiScene::mTextures): its bytes as
    /// an image file, and the format ("png", "jpg"); empty if it is not embedded.
    std::string embedded_texture, embedded_texture_format;
    std::string embedded_texture_problem;  ///< why an embedded texture could not be taken
    /// Skinning, gathered with ImportOptions::bone_anchors (bones.cpp): per bone
    /// its motion through the clip from the rest pose as an anchor track, in the
    /// file's units; and each vertex weight (source vertex, bone, weight).
    std::vector<AnchorTrack> bone_tracks;
    struct BoneWeight {
        std::uint32_t vertex = 0, bone = 0;
        float weight = 0.0f;
    };
    std::vector<BoneWeight> bone_weights;

    std::size_t polygon_count() const { return polygon_start.size() - 1; }
};

/// An OBJ file read by read_plain_obj, its faces in file order. Its o, g, usemtl
/// and mtllib lines cut the faces into runs (faces with none of those lines
/// between them): Assimp puts each run whole into one mesh, and decides which
/// mesh, and the meshes' order and materials, from those lines alone.
struct PlainObj {
    std::vector<Vec3> positions;            ///< the v lines
    std::vector<TexCoord> texcoords;        ///< the vt lines
    std::vector<std::uint32_t> corners;     ///< the position index of each face corner
    std::vector<std::uint32_t> corner_uvs;  ///< the texcoord index of each corner; empty: no corner names one
    std::vector<std::uint32_t> face_start{0};  ///< face f is corners[face_start[f], face_start[f + 1])
    std::vector<std::uint32_t> run_start{0};   ///< run r is faces [run_start[r], run_start[r + 1])
    /// The o, g, usemtl and mtllib lines in file order, each run replaced by one
    /// triangle whose vertices have x = the run's number: read by Assimp, it tells
    /// where each run goes.
    std::string outline;

    std::size_t run_count() const { return run_start.size() - 1; }
};

/// Reads an OBJ file that keeps to the subset nearly every exporter writes
/// (v with 3 numbers, vt with 2 or 3, vn; f with 3 or more corners in the forms
/// v, v/t, v//n, v/t/n, with UVs on all corners or none; comments, s, o, g,
/// usemtl and mtllib lines) in one pass. Returns nullopt for any file outside
/// the subset, or not readable, or with an index out of range: Assimp then reads
/// it (and names any error). Never throws for the file's content.
std::optional<PlainObj> read_plain_obj(const std::filesystem::path& path);

/// The soup Assimp's OBJ importer would give for `obj` when its meshes hold the
/// runs in `order` (each run once): the same numbers bit for bit (Assimp's way of
/// reading decimals is reproduced), and the corners in the same order. Assimp
/// hands back one vertex per corner; the weld numbers distinct positions by
/// first appearance, so the soup lists each position once, at its first use,
/// which gives the same nodes in the same order.
Soup plain_obj_soup(PlainObj&& obj, const std::vector<std::uint32_t>& order);

/// For an error message: the line of what an importer child printed on stderr
/// that says what went wrong (a sanitizer's "ERROR:" line, else the first line
/// with text) and the line after it, joined by " | ", with bytes outside printable
/// ASCII as \xNN, at most `limit` bytes, " ..." when more was printed (`total`
/// bytes in all). Empty when nothing was printed.
std::string stderr_excerpt(std::string_view printed, std::uint64_t total, std::size_t limit = 300);

/// The parts of a model that no chain of springs joins (islands.cpp).
struct Islands {
    std::vector<std::size_t> sizes;      ///< nodes per island, largest first
    std::vector<std::uint32_t> of_node;  ///< each node's island (0 = the largest)
};
Islands find_islands(const Model& model);
/// Drops every node outside island 0 with its springs, faces and anchors;
/// returns how many nodes it dropped.
std::size_t keep_largest_island(Model& model, const Islands& islands);
/// Joins every island to the largest (and those joined before it, largest
/// first) by springs from its `springs_per_island` nodes nearest to them, each to
/// its nearest node there (distinct ones); returns how many springs it added.
std::size_t connect_islands(Model& model, const Islands& islands, int springs_per_island);

/// The bones of `mesh`, whose vertices are soup vertices from `base` on, into
/// soup.bone_tracks and soup.bone_weights, each bone's track baked from
/// `scene`'s clip options.animation; the mesh's weighted vertices are moved to
/// where its bones draw them at rest (bones.cpp). Fails naming the file for a
/// clip that is not in the file or too long to bake.
void gather_bones(const std::filesystem::path& path, const aiScene& scene, const aiMesh& mesh, std::size_t base,
                  const ImportOptions& options, Soup& soup, ImportReport& report);
/// Anchors every node weighted to one bone by at least options.bone_anchors
/// on that bone's track (node_of: soup vertex -> node), the tracks' positions
/// times `scale` (what the vertices were scaled by); only tracks that drive an
/// anchor are kept. Returns how many anchors it added.
std::size_t add_bone_anchors(Model& model, const Soup& soup, const std::vector<std::uint32_t>& node_of, double scale,
                             const ImportOptions& options, ImportReport& report);

/// The image the scene embeds for texture `name` ("*0", or a file name an FBX
/// file stores with its content) into soup.embedded_texture (textures.cpp):
/// compressed images as their bytes, raw ARGB8888 texels as a PNG file;
/// soup.embedded_texture_problem says why not when it cannot be taken.
void take_embedded_texture(const aiScene& scene, const std::string& name, Soup& soup);

/// Finds the texture the mesh at `mesh` names (`name`, backslashes already made
/// slashes) and sets model.texture to it, relative to options.texture_folder when
/// that is set (textures.cpp): as named (relative to the mesh's folder, or absolute
/// on this machine), else by its file name next to the mesh or in a textures/ or
/// Textures/ folder there, else by a case-insensitive match of the name. Only a
/// regular file is taken, and only when its header's size is within
/// texture_limits.hpp; report.texture_source says how it was found, a warning
/// what went wrong.
void set_texture(const std::filesystem::path& mesh, const std::string& name, const ImportOptions& options,
                 Model& model, ImportReport& report);

}  // namespace springkit::detail
