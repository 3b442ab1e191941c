// springkit — drawing ropes: smooth curves and textured tubes through a rope's
// nodes, for games and the editor. Runtime helpers; the physics does not use them.
//
//   const springkit::Tube& t = model.tubes[0];
//   springkit::TubeMesh mesh = springkit::make_tube(sim.positions(), t);
//   draw(mesh.positions, mesh.normals, mesh.texcoords, mesh.indices);
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "springkit/model.hpp"

namespace springkit {

/// The Source engine's rope smoothing: a uniform Catmull-Rom spline through the
/// nodes, with `subdivisions` points inserted between each two neighbours at
/// t = (i + 1) / (subdivisions + 1) along the segment (control points previous,
/// current, next and next-next node; past the ends the end segment is mirrored).
/// The result passes through every node and has (n - 1)(subdivisions + 1) + 1
/// points; fewer than 2 nodes come back unchanged. Throws springkit::Error for
/// subdivisions < 0.
std::vector<Vec3> catmull_rom_subdivide(std::span<const Vec3> nodes, int subdivisions);

/// An open tube (no end caps) as an indexed triangle list.
struct TubeMesh {
    std::vector<Vec3> positions;         ///< m; rings of sides + 1 vertices (the seam is doubled for texcoords)
    std::vector<Vec3> normals;           ///< unit, pointing away from the curve
    std::vector<TexCoord> texcoords;     ///< u = around (0..1), v = along, arc length / circumference
    std::vector<std::uint32_t> indices;  ///< 3 per triangle, counter-clockwise seen from outside
};

/// Most vertices the tube meshes of one model may have together: about 56 bytes
/// each with their share of the indices, so some 235 MB. Model validation refuses
/// a model beyond it, and make_tube a tube beyond it, before allocating: a path
/// of repeated nodes in a small file would otherwise ask for gigabytes.
inline constexpr std::uint64_t kMaxTubeMeshVertices = std::uint64_t{1} << 22;

/// The vertices make_tube(positions, tube) gives, from the counts alone: a path of
/// N nodes subdivided is P = (N - 1)(subdivisions + 1) + 1 points, each a ring of
/// sides + 1 vertices. 0 for a tube make_tube refuses (fewer than 2 nodes, sides < 3
/// or subdivisions < 0).
std::uint64_t tube_mesh_vertices(const Tube& tube);

/// Garrido's "future works": rings of vertices around a curve, texture-mapped.
/// Each point of `path` gets a ring of radius `radius` perpendicular to the
/// curve; the rings are oriented by parallel transport, so the tube does not twist
/// where the curve bends. A path of P points gives P (sides + 1) vertices and
/// 2 sides (P - 1) triangles. Throws springkit::Error for fewer than 2 points,
/// sides < 3 or radius <= 0.
TubeMesh make_tube(std::span<const Vec3> path, float radius, int sides);

/// The tube a model describes (Model::tubes): its path of nodes, taken from
/// `positions` (a Simulation's or the model's), subdivided and wrapped. Throws
/// springkit::Error for a node out of range or a mesh of more than
/// kMaxTubeMeshVertices vertices.
TubeMesh make_tube(std::span<const Vec3> positions, const Tube& tube);

}  // namespace springkit
