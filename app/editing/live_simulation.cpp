// springkit-editor — the live simulation.
#include "editing/live_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "editing/document.hpp"
#include "springkit/error.hpp"
#include "view/camera.hpp"

namespace springkit::editor {

void LiveSimulation::restart(const Model& model) {
    auto next_model = std::make_unique<Model>(model);
    auto next_sim = std::make_unique<Simulation>(*next_model);  // validates; may throw
    sim_ = std::move(next_sim);
    model_ = std::move(next_model);
    attach_colliders();
    error_.clear();
    energy_.clear();
    record_energy();
    start_recording();
}

void LiveSimulation::start_recording() {
    pending_forces_.clear();
    pull_.reset();
    unreplayable_ = false;
    recording_.start(*sim_);
    frame_ = 0;
}

void LiveSimulation::attach_colliders() {
    if (sim_) sim_->set_colliders(colliders_ && colliders_->size() > 0 ? colliders_ : nullptr);
}

void LiveSimulation::set_colliders(const std::vector<Collider>& colliders, float seconds) {
    // Only poses changed: move the set's colliders (the simulation shares it).
    bool poses_only = colliders_ && colliders_->size() == colliders.size() && seconds > 0.0f;
    for (std::size_t i = 0; poses_only && i < colliders.size(); ++i) {
        Collider posed = (*colliders_)[static_cast<ColliderId>(i)];
        posed.pose = colliders[i].pose;
        poses_only = same_collider(posed, colliders[i]);
    }
    if (poses_only) {
        for (std::size_t i = 0; i < colliders.size(); ++i) {
            const auto id = static_cast<ColliderId>(i);
            if ((*colliders_)[id].pose == colliders[i].pose) continue;
            colliders_->move_to(id, colliders[i].pose, seconds);
            colliders_moving_ = true;
        }
        // The frames recorded so far ran against the colliders where they were:
        // replaying them now would not give the same frames, so the recording
        // starts again here, and the sweeping step keeps its whole state.
        if (colliders_moving_ && sim_) {
            start_recording();
            unreplayable_ = true;
        }
        return;
    }
    auto set = std::make_shared<ColliderSet>();
    for (const Collider& c : colliders) set->add(c);
    colliders_ = std::move(set);
    colliders_moving_ = false;
    attach_colliders();
    if (sim_) start_recording();  // as above: the past frames met other colliders
}

void LiveSimulation::update_model(const Model& model) {
    if (!sim_ || !error_.empty() || model.node_count() != model_->node_count()) {
        restart(model);
        return;
    }
    // An edit of the parameters alone (a slider) that leaves k and mass, which
    // belong to the prepared body, changes the running instance in place: the
    // same result as a new simulation carried over, without a new layout.
    const Parameters& body_params = sim_->model().params;
    if (model.params.k == body_params.k && model.params.mass == body_params.mass) {
        Model same_params = model;
        same_params.params = model_->params;
        if (same_params == *model_) {
            sim_->set_parameters(model.params);  // validates; may throw, changing nothing
            model_->params = model.params;
            start_recording();
            return;
        }
    }
    auto next_model = std::make_unique<Model>(model);
    auto next_sim = std::make_unique<Simulation>(*next_model);  // validates; may throw
    next_sim->carry_state_from(*sim_);
    sim_ = std::move(next_sim);
    model_ = std::move(next_model);
    start_recording();
    attach_colliders();
}

void LiveSimulation::step(float frame_dt) {
    if (!sim_ || !error_.empty()) return;
    // Resumed from an earlier frame: the run goes another way from there.
    if (frame_) recording_.truncate_after(*frame_);
    // A pulled frame runs one substep a step, the pull worked out before each
    // (pull_node()): as many steps as the frame has substeps (Simulation::step's count).
    std::uint32_t pieces = 1;
    if (pull_ && frame_dt > 0.0f)
        pieces = static_cast<std::uint32_t>(
            std::min<std::uint64_t>(substeps_per_frame(frame_dt, sim_->parameters().max_substep), 1'000'000));
    const float piece_dt = frame_dt / static_cast<float>(pieces);
    try {
        for (std::uint32_t piece = 0; piece < pieces; ++piece) {
            if (pull_) apply_pull(piece, pieces);
            sim_->step(piece_dt);
        }
    } catch (const SimulationError& e) {
        pull_.reset();
        error_ = e.what();
        frame_.reset();
        return;
    }
    pull_.reset();
    if (colliders_moving_) {
        // The sweep was this step's; the colliders stand still at its end.
        for (ColliderId id = 0; id < colliders_->size(); ++id) colliders_->set_transform(id, (*colliders_)[id].pose);
        colliders_moving_ = false;
    }
    record_energy();
    recording_.record(*sim_, frame_dt, pending_forces_, unreplayable_ || !frame_, pieces);
    pending_forces_.clear();
    unreplayable_ = false;
    frame_ = recording_.last_frame();
}

void LiveSimulation::reset() {
    if (!sim_) return;
    sim_->reset();
    error_.clear();
    energy_.clear();
    record_energy();
    start_recording();
}

bool LiveSimulation::show_frame(std::uint64_t frame) {
    if (!sim_ || !error_.empty() || !recording_.has(frame)) return false;
    if (frame_ == frame) return true;
    try {
        recording_.rebuild(*sim_, frame, frame_);
    } catch (const Error& e) {  // a replayed step failed as it did not when recorded: a bug guard
        error_ = e.what();
        frame_.reset();
        return false;
    }
    pending_forces_.clear();
    pull_.reset();
    unreplayable_ = false;
    frame_ = frame;
    return true;
}

Alarm frequency_alarm(const FrequencyStability& f) {
    if (f.above_limit()) return Alarm::bad;
    return f.near_limit() ? Alarm::warn : Alarm::good;
}

double LiveSimulation::energy_scale() const {
    if (!sim_) return 0.0;
    const Model& m = *model_;
    double speed = 1.0;
    for (const Anchor& a : m.anchors) {
        if (a.drive == AnchorDrive::velocity) speed = std::max(speed, static_cast<double>(length(a.velocity)));
        if (a.drive == AnchorDrive::circle)
            speed = std::max(speed, std::abs(static_cast<double>(a.angular_speed)) *
                                        length(m.positions[a.node] - a.center));
        if (a.drive == AnchorDrive::track)
            speed = std::max(speed, track_speed_bound(m.anchor_tracks[a.track], m.positions[a.node]));
    }
    // Drives changed while it runs (Garrido's keys) count as they are now.
    for (std::size_t a = 0; a < m.anchors.size(); ++a)
        if (m.anchors[a].drive == AnchorDrive::circle)
            speed = std::max(speed, std::abs(static_cast<double>(sim_->anchor_angular_speed(a))) *
                                        sim_->anchor_circle_radius(a));
    const Parameters& p = sim_->parameters();
    speed = std::max(speed, static_cast<double>(length(p.wind) + length(p.gust.velocity)));
    const double size = std::max(static_cast<double>(bounds(m).diagonal()), 1e-3);
    return sim_->total_mass() * (static_cast<double>(length(p.gravity)) * size + 0.5 * speed * speed);
}

RunHealth LiveSimulation::health() const {
    RunHealth h;
    if (!sim_) return h;
    if (!error_.empty()) {
        h.alarm = Alarm::bad;
        h.text = "EXPLODED: " + error_;
        return h;
    }
    const double mass = sim_->total_mass();
    const Vec3 momentum = sim_->linear_momentum();
    const double bulk = mass > 0.0 ? static_cast<double>(dot(momentum, momentum)) / (2.0 * mass) : 0.0;
    h.internal_kinetic = std::max(0.0, sim_->kinetic_energy() - bulk);
    h.energy_scale = energy_scale();
    const auto positions = sim_->positions();
    const auto& springs = model_->springs;
    for (std::uint32_t i = 0; i < springs.size(); ++i) {
        if (springs[i].kind == SpringKind::rope) continue;
        const double strain = (length(positions[springs[i].b] - positions[springs[i].a]) - springs[i].rest) /
                              springs[i].rest;
        if (strain > h.max_strain) {
            h.max_strain = strain;
            h.worst_spring = i;
        }
    }
    char text[200];
    if (h.internal_kinetic > 20.0 * h.energy_scale) {
        h.alarm = Alarm::bad;
        std::snprintf(text, sizeof text, "UNSTABLE: %.3g J of internal motion, %.0fx what a calm run has",
                      h.internal_kinetic, h.internal_kinetic / h.energy_scale);
    } else if (h.max_strain > 1.0) {
        h.alarm = h.max_strain > 2.0 ? Alarm::bad : Alarm::warn;
        std::snprintf(text, sizeof text, "%s: spring %u stretched to %.1fx its rest length",
                      h.max_strain > 2.0 ? "TORN" : "over-stretched", h.worst_spring, 1.0 + h.max_strain);
    } else {
        std::snprintf(text, sizeof text, "calm: largest stretch %+.1f%%", 100.0 * h.max_strain);
    }
    h.text = text;
    return h;
}

void LiveSimulation::record_energy() {
    // First record after a (re)start: the sweep starts at the nodes' place.
    const Bounds now = sim_->bounds();
    motion_ = energy_.empty() ? now : merged(motion_, now);
    energy_.push_back(static_cast<float>(sim_->kinetic_energy()));
    if (energy_.size() > kHistory) energy_.pop_front();
}

std::optional<std::size_t> LiveSimulation::anchor_of(std::uint32_t node) const {
    if (!model_) return std::nullopt;
    for (std::size_t a = 0; a < model_->anchors.size(); ++a)
        if (model_->anchors[a].node == node) return a;
    return std::nullopt;
}

void LiveSimulation::pull_node(std::uint32_t node, Vec3 target, Vec3 target_velocity, float frame_dt) {
    if (!sim_ || !error_.empty() || node >= model_->node_count() || !(frame_dt > 0.0f)) return;
    if (auto anchor = anchor_of(node)) {
        sim_->set_anchor_position(*anchor, target);
        unreplayable_ = true;
        return;
    }
    pull_ = Pull{node, target, target_velocity, frame_dt};
}

void LiveSimulation::apply_pull(std::uint32_t piece, std::uint32_t pieces) {
    const Pull& p = *pull_;
    const float m = model_->node_mass(p.node);
    const float k = 0.5f * m / (p.frame_dt * p.frame_dt);
    const float c = (pieces > 1 ? 1.5f : 1.2f) * m / p.frame_dt;
    Vec3 force = (p.target - sim_->positions()[p.node]) * k + (p.target_velocity - sim_->velocities()[p.node]) * c;
    const float limit = static_cast<float>(max_pull_force());
    const float size = length(force);
    if (size > limit) force = force * (limit / size);
    sim_->apply_force(p.node, force);
    pending_forces_.push_back({p.node, force, piece});
}

double LiveSimulation::max_pull_force() const {
    return sim_ ? 2.0 * sim_->total_mass() * kStandardGravity : 0.0;
}

bool LiveSimulation::move_anchor(std::uint32_t node, Vec3 delta) {
    if (!sim_ || !error_.empty() || node >= model_->node_count()) return false;
    auto anchor = anchor_of(node);
    if (!anchor) return false;
    sim_->set_anchor_position(*anchor, sim_->positions()[node] + delta);
    unreplayable_ = true;
    return true;
}

std::optional<std::size_t> LiveSimulation::sole_velocity_anchor() const {
    if (!model_) return std::nullopt;
    std::optional<std::size_t> found;
    for (std::size_t a = 0; a < model_->anchors.size(); ++a) {
        if (model_->anchors[a].drive != AnchorDrive::velocity) continue;
        if (found) return std::nullopt;
        found = a;
    }
    return found;
}

bool LiveSimulation::drive_anchor(std::size_t anchor, Vec3 velocity) {
    if (!sim_ || !error_.empty() || anchor >= model_->anchors.size() ||
        model_->anchors[anchor].drive != AnchorDrive::velocity)
        return false;
    sim_->set_anchor_velocity(anchor, velocity);
    unreplayable_ = true;
    return true;
}

std::optional<std::size_t> LiveSimulation::first_circle_anchor() const {
    if (!model_) return std::nullopt;
    for (std::size_t a = 0; a < model_->anchors.size(); ++a)
        if (model_->anchors[a].drive == AnchorDrive::circle) return a;
    return std::nullopt;
}

bool LiveSimulation::set_circle_drives(float radius, float angular_speed) {
    if (!sim_ || !error_.empty() || !first_circle_anchor()) return false;
    for (std::size_t a = 0; a < model_->anchors.size(); ++a)
        if (model_->anchors[a].drive == AnchorDrive::circle) sim_->set_anchor_circle(a, radius, angular_speed);
    unreplayable_ = true;
    return true;
}

}  // namespace springkit::editor
