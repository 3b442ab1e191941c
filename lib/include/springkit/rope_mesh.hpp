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

/// Garrido's "future works": rings of vertices around a curve, texture-mapped.
/// Each point of `path` gets a ring of radius `radius` perpendicular to the
/// curve; the rings are oriented by parallel transport, so the tube does not twist
/// where the curve bends. A path of P points gives P (sides + 1) vertices and
/// 2 sides (P - 1) triangles. Throws springkit::Error for fewer than 2 points,
/// sides < 3 or radius <= 0.
TubeMesh make_tube(std::span<const Vec3> path, float radius, int sides);

/// The tube a model describes (Model::tubes): its path of nodes, taken from
/// `positions` (a Simulation's or the model's), subdivided and wrapped. Throws
/// springkit::Error for a node out of range.
TubeMesh make_tube(std::span<const Vec3> positions, const Tube& tube);

}  // namespace springkit
