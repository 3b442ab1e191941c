// springkit — resolution-independent material: node masses and spring
// stiffness derived from what an object is made of, not from its mesh.
//
// A per-node mass and one k make a mesh converted at four times the
// resolution sixteen times as heavy and, for a sheet, as stiff as before only
// by accident of the arrangement. The material rows of Parameters (total_mass,
// density, area_density, stretch_stiffness; 0 = not given) say what the object
// is; derive_material() turns them into masses and k for the mesh at hand, so
// the same object converted at two resolutions sags and swings alike.
//
//  - Mass: the total (total_mass, or area_density x the faces' area, or
//    density x the volume the faces close) is spread over the nodes by the
//    area around each (a third of each face it is a corner of: lumped mass, as
//    finite elements lump a linear triangle's mass), or along the springs (half
//    of each spring it ends) for a mesh without faces.
//  - Stiffness: a sheet of stretch stiffness S (Young's modulus x thickness,
//    N/m) is approximated by springs of k = S sum_T |T| / |e|^2 over the faces
//    T that share edge e (Van Gelder 1998, "Approximate simulation of elastic
//    membranes by triangulated spring meshes", J. Graphics Tools 3(2)): on a
//    grid of right triangles of side h an axis edge gets k = S whatever h, and
//    a strip then stretches by F L / (S W) at any resolution. A spring that is
//    no face edge (bend, shear, volume) gets k = S a / rest^2, a the mean area
//    around its two ends, so that however many there are they add the same
//    stiffness at any resolution; without faces (lines) k = S.
#pragma once

#include <string>

#include "springkit/model.hpp"

namespace springkit {

/// True when any material row of the parameters is set (above 0).
bool has_material(const Parameters& params);

/// Sets model.masses and every spring's k from the material rows of
/// model.params (rows at 0 leave masses, or k, as they are). Throws
/// springkit::Error naming `context` and the row when density is set and the
/// faces do not close a volume, or when the mesh has no area for area_density.
void derive_material(Model& model, const std::string& context = {});

/// The volume the model's faces enclose, m^3 (|sum of p0 . (p1 x p2)| / 6,
/// exact for a closed, consistently oriented face mesh).
double enclosed_volume(const Model& model);

/// The total area of the model's faces, m^2.
double surface_area(const Model& model);

}  // namespace springkit
