// springkit — what one frame of a model costs, from its counts: for `info`, and
// for a tool that wants to warn before running a model that cannot keep up.
#pragma once

#include <cstdint>

#include "springkit/model.hpp"

namespace springkit {

/// The work of one 1/60 s frame on one thread.
struct FrameCost {
    std::uint64_t substeps = 0;       ///< ceil((1/60 s) / max_substep), as Simulation::step takes them
    std::uint64_t spring_visits = 0;  ///< substeps x Hooke springs
    std::uint64_t rope_visits = 0;    ///< substeps x rope_iterations x rope constraints
    /// The implicit integrator's work: substeps x implicit_iterations x nodes;
    /// 0 for the explicit integrators. Each iteration is a local step over
    /// the Hooke springs and a global step: a back-substitution through a
    /// factor of implicit_factor_entries entries (the symbolic analysis of the
    /// model's matrix finds them; a cloth's grow with its nodes, a converted
    /// solid's, whose volume springs join far nodes, several times faster),
    /// or, when implicit_iterates (a factor past the bounds the integrator
    /// keeps to), conjugate gradients over the matrix's implicit_matrix_entries.
    /// Its time replaces the spring visits' when the integrator is implicit.
    std::uint64_t implicit_node_iterations = 0;
    std::uint64_t implicit_factor_entries = 0;
    std::uint64_t implicit_matrix_entries = 0;
    bool implicit_iterates = false;
    /// substeps x Model::volume_elements.
    std::uint64_t element_visits = 0;
    /// The implicit integrator's strain limit (Parameters::strain_limit > 0):
    /// substeps x strain_limit_passes x Hooke springs; 0 otherwise.
    std::uint64_t strain_limit_visits = 0;
    /// substeps x nodes when Parameters::self_collision_distance > 0: every node
    /// looks for the nodes near it each substep.
    std::uint64_t self_collision_node_visits = 0;
    /// The frame's time on one thread of the machine docs/PERFORMANCE.md measured
    /// ("Cost per frame"), from the counts above: an order of magnitude, not a
    /// promise (attachments, pressure, colliders, normals and other machines
    /// differ).
    double seconds = 0.0;
    /// Whether `seconds` fits in the 1/60 s a frame has.
    bool real_time() const { return seconds <= 1.0 / 60.0; }
};

/// Seconds one spring visit (one Hooke spring in one substep) and one rope visit
/// (one rope constraint in one relaxation pass) took on one thread: the CPU-time
/// medians of BM_Cloth<256>/1 and BM_RopeChain (tests/bench/bench_runtime.cpp),
/// rounded up. Rope constraints run one after another (each moves the nodes the
/// next reads), springs in vectorised batches: hence the factor of about 7.
inline constexpr double kSecondsPerSpringVisit = 1.2e-9;
inline constexpr double kSecondsPerRopeVisit = 8e-9;
/// Seconds of one iteration of the implicit integrator per Hooke spring (its
/// local step) and per entry of the factor (the back-substitution reads each
/// twice), fitted to the 64 x 64 cloth and the converted duck and rounded up
/// (docs/PERFORMANCE.md, "The implicit integrator's cost in info"); and, for a
/// model whose global step iterates, the conjugate-gradient iterations a
/// global step takes (to a residual of 1e-6: 10-25 on the 2-cylinder engine)
/// and the seconds per matrix entry of each.
inline constexpr double kSecondsPerImplicitSpring = 5e-9;
inline constexpr double kSecondsPerFactorEntry = 6e-10;
inline constexpr double kConjugateGradientIterations = 20.0;
inline constexpr double kSecondsPerMatrixEntry = 1.5e-9;
/// Seconds of one volume element in one substep (four corners gathered, the
/// volume's gradient, four forces scattered), of one spring in one pass of the
/// strain limit, and of one node's search for its neighbours in one substep of
/// self-collision: the differences between a model's frame with and without the
/// feature, per item, rounded up (docs/PERFORMANCE.md, "Cost per frame").
inline constexpr double kSecondsPerElementVisit = 1.5e-8;
inline constexpr double kSecondsPerStrainLimitVisit = 7e-10;
inline constexpr double kSecondsPerSelfCollisionNodeVisit = 1e-7;

FrameCost frame_cost(const Model& model);

}  // namespace springkit
