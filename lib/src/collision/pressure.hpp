// springkit — the gas inside a closed face mesh (private).
#pragma once

#include <string>

#include "springkit/model.hpp"

namespace springkit::detail {

/// Empty when the model's faces close a volume (every edge shared by exactly
/// two faces that run along it in opposite directions); else what is wrong,
/// naming a face and the edge ("face 12: edge 3-4 belongs to no other face").
std::string open_mesh_problem(const Model& model);

/// Throws springkit::Error ("<context>: /parameters/pressure: pressure needs
/// a closed face mesh: ...") when params.pressure > 0 and the model's faces
/// do not close a volume.
void check_pressure_mesh(const Model& model, const Parameters& params, const std::string& context);

}  // namespace springkit::detail
