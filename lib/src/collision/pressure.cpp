// springkit — pressure: an ideal gas inside a closed face mesh (balloons,
// inflatables, soft balls), as Jolt's SoftBodySharedSettings mPressure and
// Bullet's btSoftBody kPR do.
//
// The gas holds p V = n R T with n R T = Parameters::pressure (J) at a fixed
// temperature, so p = pressure / V with V the volume the faces enclose now,
// V = sum over faces (a . (b x c)) / 6 (divergence theorem, Zhang and Chen
// 2001). Each face is pushed along its area vector A = (b - a) x (c - a) / 2
// by p A, a third on each corner. On a closed mesh that is exactly the force
// of the potential -pressure ln V (dV/da summed over a's faces equals the
// sum of their A / 3), so with no damping the energy
// kinetic + springs + gravity - pressure ln V stays constant.
#include "collision/pressure.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "simulation/simulation_impl.hpp"
#include "springkit/error.hpp"

namespace springkit {

namespace detail {

std::string open_mesh_problem(const Model& model) {
    if (model.faces.empty()) return "the model has no faces";
    // Each directed edge a -> b once; its reverse from exactly one other face.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> directed;
    for (std::size_t f = 0; f < model.faces.size(); ++f) {
        const auto& face = model.faces[f];
        for (int e = 0; e < 3; ++e) {
            const std::uint32_t a = face.node[e], b = face.node[(e + 1) % 3];
            if (!directed.emplace(std::pair{a, b}, f).second)
                return "face " + std::to_string(f) + ": edge " + std::to_string(a) + "-" + std::to_string(b) +
                       " runs the same way in face " + std::to_string(directed[{a, b}]) +
                       " (faces turned inconsistently or more than two on an edge)";
        }
    }
    for (const auto& [edge, f] : directed)
        if (!directed.contains({edge.second, edge.first}))
            return "face " + std::to_string(f) + ": edge " + std::to_string(edge.first) + "-" +
                   std::to_string(edge.second) + " belongs to no other face (the mesh has a hole)";
    return {};
}

void check_pressure_mesh(const Model& model, const Parameters& params, const std::string& context) {
    if (!(params.pressure > 0.0f)) return;
    const std::string problem = open_mesh_problem(model);
    if (!problem.empty())
        throw Error((context.empty() ? std::string() : context + ": ") +
                    "/parameters/pressure: pressure needs a closed face mesh: " + problem);
}

}  // namespace detail

void Simulation::Impl::stage_pressure(const StageArgs&) {
    if (!(params_.pressure > 0.0f)) return;
    const auto& faces = model_->faces;
    double six_volume = 0.0;
    for (const auto& face : faces)
        six_volume += static_cast<double>(dot(x_.get(face.node[0]), cross(x_.get(face.node[1]), x_.get(face.node[2]))));
    if (!(six_volume != 0.0)) return;  // flattened: no direction to push in
    // p / 6 per corner: A / 3 = (b - a) x (c - a) / 6. A mesh turned inside
    // out has V < 0 and inward area vectors: the signs cancel.
    const auto per_corner = static_cast<float>(static_cast<double>(params_.pressure) / six_volume);
    for (const auto& face : faces) {
        const Vec3 a = x_.get(face.node[0]);
        const Vec3 f = cross(x_.get(face.node[1]) - a, x_.get(face.node[2]) - a) * per_corner;
        for (std::uint32_t corner : face.node) f_.set(corner, f_.get(corner) + f);
    }
}

}  // namespace springkit
