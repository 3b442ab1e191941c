// springkit — scaled instances: a prepared body at uniform scale s, for
// Simulation(body, placement, scale). A scale changes the body's rest shape,
// which the kernel reads from the body (rest lengths in its spring values, rest
// positions for reset(), circle centres, tethers), so a scaled instance runs a
// scaled copy of the body: every length times s, the masses and the springs'
// k as the model states them. The layout (spring runs, face runs, which
// springs are uniform) depends on the nodes' numbering only and is copied, not
// derived again: O(nodes + springs).
//
// With masses and k unchanged, a scaled body is not a similar one: a spring
// stretched by gravity stretches by m g / k whatever its rest length, so a
// hanging chain at scale s sags by the same metres, a smaller share of its
// length when s > 1. Scale masses (Model::masses) or k (set_stiffness_scale())
// as the game wants the larger body to behave.
#include <cmath>

#include "simulation/simulation_impl.hpp"

namespace springkit {

std::shared_ptr<const PreparedBody> PreparedBody::scaled(float s) const {
    auto copy = std::make_shared<PreparedBody>(*this);
    Model& m = copy->model;
    // The rest lengths as a model with these lengths would hold them: rest * s,
    // then k * (rest * s), rounded as prepare() rounds them.
    for (Vec3& p : m.positions) p = p * s;
    for (Spring& spring : m.springs) spring.rest *= s;
    for (Anchor& a : m.anchors) a.center = a.center * s;
    // A track's frame taken to the scaled body: rotate(q, s r) + s p.
    for (AnchorTrack& track : m.anchor_tracks)
        for (TrackKey& key : track.keys) key.position = key.position * s;
    for (Tether& t : m.tethers) {
        t.point = t.point * s;
        t.length *= s;
    }
    for (Tube& tube : m.tubes) tube.radius *= s;
    // Volumes scale by s^3, the gradients (areas) by s^2, so 1 / sum |g|^2 by
    // s^-4: derived again from the scaled positions, as prepare() would.
    for (VolumeElement& e : m.volume_elements) e.rest *= s * s * s;
    copy->volume_elements = detail::volume_element_arrays(m);
    for (float& rest : copy->run_rest) rest *= s;
    auto values = std::make_shared<detail::SpringValues>(*springs);
    for (detail::SpringRun& run : values->runs) {
        run.rest *= s;
        run.k_rest = run.k * run.rest;
    }
    for (std::size_t i = 0; i < values->run_k_rest.size(); ++i)
        values->run_k_rest[i] = values->run_k[i] * copy->run_rest[i];
    for (float& rest : copy->loose_rest) rest *= s;
    for (std::size_t i = 0; i < values->loose_count; ++i)
        values->loose.k_rest[i] = values->loose.k[i] * copy->loose_rest[i];
    copy->springs = std::move(values);
    // The runaway bound's lengths: the box, and the speeds that scale with it.
    copy->diagonal = bounds(m).diagonal();
    if (diagonal > 0.0) copy->spring_speed = spring_speed * (copy->diagonal / diagonal);
    copy->drive_speed = fastest_drive(m);
    copy->scale = scale * s;
    return copy;
}

}  // namespace springkit
