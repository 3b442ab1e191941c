// springkit — the implicit integrator's data (Integrator::implicit): implicit
// Euler for mass-spring systems solved as an energy minimisation, after Liu,
// Bargteil, O'Brien and Kavan, "Fast Simulation of Mass-Spring Systems" (ACM
// TOG 32(6), 2013), the global step a sparse LDL^T factorisation (Eigen's
// SimplicialLDLT) factored once per layout.
// implicit_solver.cpp holds the maths.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace springkit {

class PreparedBody;

namespace detail {

struct SpringValues;

/// The sparse factorisation of the global step's matrix (implicit_solver.cpp).
struct GlobalFactor;

/// What the iterations read and never change: built from the model, the
/// substep h, the springs' k (stiffness scale included) and the air friction,
/// and built again when one of them changes (Simulation::Impl::implicit_pass()).
struct ImplicitLayout {
    float h = 0.0f;             ///< s, the substep it was built for
    float air_friction = 0.0f;  ///< N s/m, folded into the inertia term
    std::shared_ptr<const SpringValues> springs;  ///< the k it was built from
    // The Hooke springs, as arrays.
    std::vector<std::uint32_t> a, b;
    std::vector<float> k, rest;
    /// Node i's springs: entries node_first[i] .. node_first[i + 1] of
    /// node_entry, each 2 s for spring s's a end or 2 s + 1 for its b end.
    std::vector<std::uint32_t> node_first, node_entry;
    std::vector<double> mass;          ///< kg per node, m' = m + air_friction h
    std::vector<std::int32_t> unknown; ///< node -> row of the global system; -1 for an anchored node
    std::vector<std::uint32_t> node_of; ///< row -> node
    std::shared_ptr<const GlobalFactor> factor;  ///< LDL^T of M' + h^2 L over the free nodes
};

/// Per-instance scratch of the implicit step (copied with its instance).
struct ImplicitState {
    std::shared_ptr<const ImplicitLayout> layout;
    std::vector<double> start;     ///< x_n, 3 per node
    std::vector<double> target;    ///< M' y' + the anchors' pull, 3 per row (see implicit_pass())
    std::vector<double> current;   ///< the iterate, 3 per node (anchored nodes: their driven positions)
    std::vector<double> older;     ///< the iterate before it (Chebyshev weights)
    std::vector<double> direction; ///< k d per spring, 3 each: the local step's result
    std::vector<double> work;      ///< the global step's right-hand side, then its solution, in P's order
};

/// Builds the layout of a body's Hooke springs with these resolved k, for the
/// substep h (s) and this air friction (N s/m), and factors its matrix.
std::shared_ptr<const ImplicitLayout> build_implicit_layout(const PreparedBody& body,
                                                            std::shared_ptr<const SpringValues> springs, float h,
                                                            float air_friction);

}  // namespace detail
}  // namespace springkit
