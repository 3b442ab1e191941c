// springkit — volume elements: tetrahedra that keep their signed volume
// (Model::volume_elements, Parameters::volume_stiffness).
//
// A spring network keeps lengths, and a mirrored shape has every length of
// the shape, so a body pushed far enough (through its own thickness) can
// settle as its mirror image. The signed volume of a tetrahedron a, b, c, d,
// V = (b - a) . ((c - a) x (d - a)) / 6, changes sign in a mirror: it is the
// one quantity here with a handedness. Each element has the energy
//
//   E = k (V - V0)^2 / (2 G),   G = sum_i |dV/dx_i|^2 at the rest positions
//
// (Teschner, Heidelberger, Mueller, Gross 2004, "A versatile and robust model
// for geometrically complex deformable solids": their volume constraint
// C = V - V0 with E = k C^2 / 2; the division by G is how XPBD scales a
// constraint by its gradient, Macklin, Mueller, Chentanez 2016, and makes k
// the stiffness along the gradient, as a spring's k is along the spring).
// With 6 dV/db = (c - a) x (d - a) = g_b, and g_c, g_d in turn, and
// g_a = -(g_b + g_c + g_d) (V does not change when all four move alike), the
// force on corner i is -dE/dx_i = -k (6V - 6V0) / (36 G) g_i. The forces sum
// to zero and, V being invariant under rotation, so do their torques: the
// element moves no body as a whole. An inverted element (V = -V0) is pushed
// along its gradient until V = V0 again: V = 0 is no barrier.
//
// Pulled larger than at rest, the gradient grows with the faces' areas and
// with it the stiffness along it, k |g now|^2 / |g rest|^2: four times k for
// faces twice their rest area, which an explicit step tuned to the springs
// (the converter's substep) does not follow once a body is perturbed by a
// tenth of its size. So the sum is taken now where it is larger than at rest:
// the force stays along the gradient, towards V0, never stiffer than k (as
// XPBD, which divides by the gradient now); it is the exact gradient of E
// wherever the faces are no larger than at rest.
#include <algorithm>
#include <cmath>
#include <limits>

#include "simulation/simulation_impl.hpp"

namespace springkit {

namespace detail {

std::vector<float> volume_element_scales(const Model& model) {
    std::vector<float> scales(model.volume_elements.size());
    for (std::size_t i = 0; i < scales.size(); ++i) {
        const VolumeElement& e = model.volume_elements[i];
        const Vec3 a = model.positions[e.node[0]];
        const Vec3 d1 = model.positions[e.node[1]] - a, d2 = model.positions[e.node[2]] - a,
                   d3 = model.positions[e.node[3]] - a;
        const Vec3 g1 = cross(d2, d3), g2 = cross(d3, d1), g3 = cross(d1, d2), g0 = -(g1 + g2 + g3);
        // 36 G = sum |g_i|^2 (validate() refuses four nodes on a line, where it is 0).
        const double sum = double(dot(g0, g0)) + double(dot(g1, g1)) + double(dot(g2, g2)) + double(dot(g3, g3));
        // (Held within float: an element a few nanometres across would overflow it.)
        scales[i] = sum > 0.0 ? static_cast<float>(std::min(1.0 / sum, double(std::numeric_limits<float>::max()))) : 0.0f;
    }
    return scales;
}

}  // namespace detail

void Simulation::Impl::stage_volume_elements(const StageArgs&) {
    const float k = params_.volume_stiffness * stiffness_scale_;
    if (!(k > 0.0f)) return;
    // One thread, in the elements' order: the sums into f_ do not depend on
    // the threads.
    const auto& elements = model_->volume_elements;
    const std::vector<float>& scales = b_->volume_scales;
    for (std::size_t i = 0; i < elements.size(); ++i) {
        const VolumeElement& e = elements[i];
        const Vec3 a = x_.get(e.node[0]);
        const Vec3 d1 = x_.get(e.node[1]) - a, d2 = x_.get(e.node[2]) - a, d3 = x_.get(e.node[3]) - a;
        const Vec3 g1 = cross(d2, d3), g2 = cross(d3, d1), g3 = cross(d1, d2), g0 = -(g1 + g2 + g3);
        const float six_v = dot(d1, g1);
        const float now = dot(g0, g0) + dot(g1, g1) + dot(g2, g2) + dot(g3, g3);
        const float scale = now * scales[i] > 1.0f ? 1.0f / now : scales[i];
        const float s = -k * (six_v - 6.0f * e.rest) * scale;
        const Vec3 f1 = g1 * s, f2 = g2 * s, f3 = g3 * s;
        f_.set(e.node[0], f_.get(e.node[0]) - (f1 + f2 + f3));
        f_.set(e.node[1], f_.get(e.node[1]) + f1);
        f_.set(e.node[2], f_.get(e.node[2]) + f2);
        f_.set(e.node[3], f_.get(e.node[3]) + f3);
    }
}

}  // namespace springkit
