// springkit — anchors that follow game objects: set_anchor_target() and
// set_anchor_group_target(). A target given before a step is reached at the
// end of that step's last substep, the anchor moving there evenly across the
// substeps from where it was when the step began. A handle moved once a frame
// and applied only at the frame's start would lag a frame behind it and jump a
// frame's motion in one substep; spread over the substeps, the anchored node
// moves with the handle's velocity, which the springs then see.
//
// Points are interpolated linearly. A group of anchors moved by one rigid frame
// (a cape's shoulders on a turning character) follows the frame interpolated
// as a rigid motion, its position linearly and its rotation by slerp, so that
// the anchors keep their mutual distances through the frame: anchor i sits at
//   T(t)(r_i) + (1 - t) o_i,  T(t) = (lerp(p0, p1, t), slerp(q0, q1, t)),
// r_i its node's rest position (the model's), T0 the frame it last followed
// (its placement at first) and o_i = x_i(0) - T0(r_i) the offset of where it
// actually is, faded out over the frame (0 for an anchor that only ever
// followed its group).
#include <string>

#include "simulation/simulation_impl.hpp"
#include "springkit/error.hpp"

namespace springkit {

namespace {

Vec3 lerp(Vec3 a, Vec3 b, float t) { return a * (1.0f - t) + b * t; }

}  // namespace

void Simulation::Impl::clear_anchor_targets() {
    targets_.assign(model_->anchors.size(), AnchorTarget{});
    targeted_.clear();
}

void Simulation::Impl::set_anchor_target(std::size_t anchor, Vec3 target) {
    if (anchor >= targets_.size())
        throw Error("Simulation::set_anchor_target: anchor " + std::to_string(anchor) + " is out of range (the model has " +
                    std::to_string(targets_.size()) + " anchors)");
    if (!is_finite(target)) throw Error("Simulation::set_anchor_target: the target is not finite");
    wake();
    AnchorTarget& t = targets_[anchor];
    if (!t.pending) targeted_.push_back(static_cast<std::uint32_t>(anchor));
    t.pending = true;
    t.group = false;
    t.to = target;
}

void Simulation::Impl::set_anchor_group_target(std::span<const std::size_t> anchors, const Transform& frame) {
    detail::check_transform(frame, "Simulation::set_anchor_group_target");
    for (std::size_t anchor : anchors)
        if (anchor >= targets_.size())
            throw Error("Simulation::set_anchor_group_target: anchor " + std::to_string(anchor) +
                        " is out of range (the model has " + std::to_string(targets_.size()) + " anchors)");
    wake();
    for (std::size_t anchor : anchors) {
        AnchorTarget& t = targets_[anchor];
        if (!t.pending) targeted_.push_back(static_cast<std::uint32_t>(anchor));
        t.pending = true;
        t.group = true;
        t.frame_to = frame;
        t.to = apply(frame, model_->positions[model_->anchors[anchor].node]);
    }
}

void Simulation::Impl::begin_anchor_targets(std::uint64_t substeps) {
    if (targeted_.empty()) return;
    target_substeps_ = substeps;
    target_substep_ = 0;
    for (std::uint32_t i : targeted_) {
        AnchorTarget& t = targets_[i];
        const std::uint32_t node = model_->anchors[i].node;
        t.from = x_.get(node);
        if (t.group) {
            t.frame_from = anchor_frame_[i];
            t.offset = t.from - apply(t.frame_from, model_->positions[node]);
        }
    }
}

// After the drives ("anchors" stage): the targeted anchors are put where the
// fraction t = substep / substeps of the way puts them; the last substep puts
// them at the target exactly. Their velocity is the motion over this substep
// divided by its length (for a point, (to - from) / the frame's simulated time).
void Simulation::Impl::apply_anchor_targets(float dt) {
    ++target_substep_;
    const bool last = target_substep_ == target_substeps_;
    const float n = static_cast<float>(target_substeps_);
    const float t = static_cast<float>(target_substep_) / n;
    const float t_before = static_cast<float>(target_substep_ - 1) / n;
    for (std::uint32_t i : targeted_) {
        const AnchorTarget& target = targets_[i];
        const std::uint32_t node = model_->anchors[i].node;
        Vec3 position = target.to;
        Vec3 velocity{};
        if (!target.group) {
            if (!last) position = lerp(target.from, target.to, t);
            velocity = (target.to - target.from) * (1.0f / (dt * n));
        } else {
            const Vec3 rest = model_->positions[node];
            const auto at = [&](float s) {
                const Transform frame{lerp(target.frame_from.position, target.frame_to.position, s),
                                      slerp(target.frame_from.rotation, target.frame_to.rotation, s)};
                return apply(frame, rest) + target.offset * (1.0f - s);
            };
            if (!last) position = at(t);
            const Vec3 before = target_substep_ == 1 ? target.from : at(t_before);
            velocity = (position - before) * (1.0f / dt);
        }
        x_.set(node, position);
        set_previous(node, position - velocity * dt);
        v_.set(node, velocity);
    }
}

// The drives go on from the targets, as after set_anchor_position(): a fixed
// or velocity drive from the target, a circle drive starting its circle there.
void Simulation::Impl::end_anchor_targets() {
    if (targeted_.empty()) return;
    for (std::uint32_t i : targeted_) {
        AnchorTarget& t = targets_[i];
        AnchorState& state = anchor_state_[i];
        state.origin = t.to;
        state.angle = 0.0;
        if (t.group) anchor_frame_[i] = t.frame_to;
        t.pending = false;
    }
    targeted_.clear();
}

}  // namespace springkit
