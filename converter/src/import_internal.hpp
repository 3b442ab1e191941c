// springkit::import — what the importer's own files share.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "springkit/import.hpp"

namespace springkit::detail {

/// import_mesh for a child process that exits right after answering
/// (import_isolated.cpp): Assimp's scene is left for the exit to reclaim, and
/// only the parameters are validated: the parent validates the whole model it
/// receives, with the same messages.
Model import_mesh_then_exit(const std::filesystem::path& path, const ImportOptions& options, ImportReport& report);

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

    std::size_t polygon_count() const { return polygon_start.size() - 1; }
};

/// An OBJ file read by read_plain_obj: its geometry, and the statements that
/// decide its material (for Assimp to resolve the texture exactly as it would).
struct PlainObj {
    Soup soup;
    /// The corners as Assimp would hand them back (one vertex per face corner):
    /// what ImportReport::input_vertices counts.
    std::size_t assimp_vertices = 0;
    /// The file's o, g, usemtl and mtllib lines (all before its first face), each
    /// ending in '\n': they decide the meshes and the material of the faces.
    std::string statements;
};

/// Reads an OBJ file that keeps to the subset nearly every exporter writes
/// (v with 3 numbers, vt with 2 or 3, vn; f with 3 or more corners in the forms
/// v, v/t, v//n, v/t/n, with UVs on all corners or none; comments, s lines, and
/// o, g, usemtl, mtllib lines before the first face), and gives the same
/// geometry as Assimp's OBJ importer: the same numbers bit for bit (its way of
/// reading decimals, reproduced), and the nodes in the order of their first use
/// by the faces (Assimp hands back one vertex per corner in face order; the weld
/// numbers distinct positions by first appearance). Returns nullopt for any
/// file outside the subset, or not readable, or with an index out of range:
/// Assimp then reads it (and names any error). Never throws for the file's
/// content.
std::optional<PlainObj> read_plain_obj(const std::filesystem::path& path);

}  // namespace springkit::detail
