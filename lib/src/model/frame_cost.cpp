// springkit — frame_cost (springkit/frame_cost.hpp).
#include "springkit/frame_cost.hpp"

#include <algorithm>
#include <cmath>

namespace springkit {

FrameCost frame_cost(const Model& model) {
    FrameCost cost;
    std::uint64_t hooke = 0, ropes = 0;
    for (const Spring& s : model.springs) (s.kind == SpringKind::hooke ? hooke : ropes)++;
    // As Simulation::step divides a frame: the fewest substeps of at most max_substep.
    const double frame = 1.0 / 60.0;
    cost.substeps = std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(std::ceil(frame / static_cast<double>(model.params.max_substep) - 1e-6)));
    cost.spring_visits = cost.substeps * hooke;
    cost.rope_visits = cost.substeps * static_cast<std::uint64_t>(std::max(0, model.params.rope_iterations)) * ropes;
    const double ropes_seconds = static_cast<double>(cost.rope_visits) * kSecondsPerRopeVisit;
    if (model.params.integrator == Integrator::implicit) {
        cost.implicit_node_iterations = cost.substeps *
                                        static_cast<std::uint64_t>(std::max(1, model.params.implicit_iterations)) *
                                        model.node_count();
        cost.seconds = static_cast<double>(cost.implicit_node_iterations) * kSecondsPerImplicitNodeIteration +
                       ropes_seconds;
    } else {
        cost.seconds = static_cast<double>(cost.spring_visits) * kSecondsPerSpringVisit + ropes_seconds;
    }
    return cost;
}

}  // namespace springkit
