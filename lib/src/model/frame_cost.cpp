// springkit — frame_cost (springkit/frame_cost.hpp).
#include "springkit/frame_cost.hpp"

#include <algorithm>
#include <cmath>

#include "simulation/implicit_solver.hpp"

namespace springkit {

FrameCost frame_cost(const Model& model) {
    FrameCost cost;
    std::uint64_t hooke = 0, ropes = 0;
    for (const Spring& s : model.springs) (s.kind == SpringKind::hooke ? hooke : ropes)++;
    cost.substeps = substeps_per_frame(1.0f / 60.0f, model.params.max_substep);
    cost.spring_visits = cost.substeps * hooke;
    cost.rope_visits = cost.substeps * static_cast<std::uint64_t>(std::max(0, model.params.rope_iterations)) * ropes;
    cost.element_visits = cost.substeps * model.volume_elements.size();
    cost.self_collision_node_visits = model.params.self_collision_distance > 0.0f ? cost.substeps * model.node_count() : 0;
    // Costs every integrator has: rope passes, elements (the implicit one takes
    // them as loads each substep) and self-collision.
    const double shared_seconds = static_cast<double>(cost.rope_visits) * kSecondsPerRopeVisit +
                                  static_cast<double>(cost.element_visits) * kSecondsPerElementVisit +
                                  static_cast<double>(cost.self_collision_node_visits) * kSecondsPerSelfCollisionNodeVisit;
    if (model.params.integrator == Integrator::implicit) {
        const std::uint64_t iterations =
            cost.substeps * static_cast<std::uint64_t>(std::max(1, model.params.implicit_iterations));
        cost.implicit_node_iterations = iterations * model.node_count();
        const detail::GlobalStepSize global = detail::global_step_size(model);
        cost.implicit_factor_entries = global.factor_entries;
        cost.implicit_matrix_entries = global.matrix_entries;
        cost.implicit_iterates = global.iterates;
        const double global_seconds =
            global.iterates ? kConjugateGradientIterations * static_cast<double>(global.matrix_entries) * kSecondsPerMatrixEntry
                            : static_cast<double>(global.factor_entries) * kSecondsPerFactorEntry;
        if (model.params.strain_limit > 0.0f)
            cost.strain_limit_visits =
                cost.substeps * static_cast<std::uint64_t>(std::max(0, model.params.strain_limit_passes)) * hooke;
        cost.seconds = static_cast<double>(iterations) *
                           (static_cast<double>(hooke) * kSecondsPerImplicitSpring + global_seconds) +
                       static_cast<double>(cost.strain_limit_visits) * kSecondsPerStrainLimitVisit + shared_seconds;
    } else {
        cost.seconds = static_cast<double>(cost.spring_visits) * kSecondsPerSpringVisit + shared_seconds;
    }
    return cost;
}

}  // namespace springkit
