// springkit — the runtime: one step as named stages over flat arrays.
#include "springkit/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "springkit/error.hpp"

namespace springkit {

namespace {

// Below this length a spring has no direction and exerts no force (Oliveira,
// listing 1: nulling the force keeps the model stable, a random kick does not).
constexpr float kSpringTolerance = 1e-9f;

// Rotates v around the unit axis by angle (Rodrigues' formula).
Vec3 rotate(const Vec3& v, const Vec3& axis, float angle) {
    const float c = std::cos(angle), s = std::sin(angle);
    return v * c + cross(axis, v) * s + axis * (dot(axis, v) * (1.0f - c));
}

}  // namespace

Simulation::Simulation(const Model& model) : model_(&model) {
    validate(model);
    const std::size_t n = model.node_count();
    inverse_mass_.resize(n);
    for (std::size_t i = 0; i < n; ++i) inverse_mass_[i] = 1.0f / model.node_mass(i);
    for (const Anchor& a : model.anchors) inverse_mass_[a.node] = 0.0f;

    spring_k_.resize(model.springs.size());
    for (std::size_t i = 0; i < model.springs.size(); ++i) {
        const Spring& s = model.springs[i];
        spring_k_[i] = model.spring_k(s);
        (s.kind == SpringKind::hooke ? hooke_ : ropes_).push_back(static_cast<std::uint32_t>(i));
    }
    build_face_adjacency();
    constant_external_.assign(n, Vec3{});
    for (const ConstantForce& c : model.constant_forces) constant_external_[c.node] += c.force;

    // A node faster than this is a runaway: 100 times the larger of 1 m/s, the
    // speed of a fall across the whole model, and the fastest anchor drive.
    const Bounds box = bounds(model);
    double speed = std::max(1.0, std::sqrt(2.0 * length(model.params.gravity) * box.diagonal()));
    for (const Anchor& a : model.anchors) {
        speed = std::max(speed, static_cast<double>(length(a.velocity)));
        if (a.drive == AnchorDrive::circle)
            speed = std::max(speed, std::abs(a.angular_speed) *
                                        static_cast<double>(length(model.positions[a.node] - a.center)));
    }
    speed_bound_ = 100.0 * speed;
    reset();
}

void Simulation::build_face_adjacency() {
    // Oliveira, "Texturing and Lighting": neighbour faces of each vertex are found
    // once at build time; each step only averages their normals.
    const Model& m = *model_;
    const std::size_t n = m.node_count();
    if (m.faces.empty()) return;
    node_face_start_.assign(n + 1, 0);
    for (const Face& f : m.faces)
        for (std::uint32_t v : f.node) ++node_face_start_[v + 1];
    for (std::size_t i = 0; i < n; ++i) node_face_start_[i + 1] += node_face_start_[i];
    node_faces_.resize(node_face_start_[n]);
    std::vector<std::uint32_t> fill(node_face_start_.begin(), node_face_start_.end() - 1);
    for (std::uint32_t fi = 0; fi < m.faces.size(); ++fi)
        for (std::uint32_t v : m.faces[fi].node) node_faces_[fill[v]++] = fi;
    face_normals_.resize(m.faces.size());
    normals_.resize(n);
}

void Simulation::reset() {
    const Model& m = *model_;
    positions_ = m.positions;
    previous_ = m.positions;
    velocities_.assign(m.node_count(), Vec3{});
    forces_.assign(m.node_count(), Vec3{});
    external_ = constant_external_;
    anchor_state_.clear();
    anchor_velocity_.clear();
    for (const Anchor& a : m.anchors) {
        anchor_state_.push_back({m.positions[a.node], 0.0f});
        anchor_velocity_.push_back(a.drive == AnchorDrive::velocity ? a.velocity : Vec3{});
    }
    bead_place_.clear();
    for (const Bead& b : m.beads) bead_place_.push_back(b.start);
    bead_speed_.assign(m.beads.size(), 0.0f);
    time_ = 0.0;
    substeps_ = 0;
    failure_.clear();
    wind_ = wind_at(m.params, 0.0);
    update_bead_positions();
    recompute_normals();
}

void Simulation::step(float frame_dt) {
    if (!failure_.empty()) throw SimulationError(failure_);
    if (!std::isfinite(frame_dt) || frame_dt < 0.0f)
        throw Error("Simulation::step: frame_dt must be a finite number >= 0 s");
    if (frame_dt == 0.0f) return;
    const float max_dt = model_->params.max_substep;
    const auto count = static_cast<std::uint64_t>(std::ceil(frame_dt / max_dt - 1e-6f));
    const std::uint64_t substeps = std::max<std::uint64_t>(1, count);
    const float dt = frame_dt / static_cast<float>(substeps);
    // Energy loss is defined per 1/60 s frame (Oliveira multiplies the velocity
    // once a frame); per substep that is energy_loss^(dt * 60), the same decay at
    // any substep size.
    const float keep = std::pow(model_->params.energy_loss, dt * 60.0f);
    wind_ = wind_at(model_->params, time_);  // gusts last seconds: once a frame is enough
    for (std::uint64_t i = 0; i < substeps; ++i) substep(dt, keep);
    external_ = constant_external_;
    time_ += frame_dt;
    check_state();
    update_bead_positions();
    recompute_normals();
}

void Simulation::substep(float dt, float velocity_keep) {
    accumulate_forces();
    apply_bead_loads();
    if (ropes_.empty()) {
        integrate(dt, velocity_keep);
    } else {
        // Constraint corrections become velocity too, so a rope pulled tight loses
        // its outward speed (the same idea as Builderboy's velocity constraint).
        integrate(dt, velocity_keep);
        std::vector<Vec3>& before = unconstrained_;
        before = positions_;
        solve_rope_constraints();
        if (model_->params.integrator != Integrator::verlet) {
            const float inv_dt = 1.0f / dt;
            for (std::size_t i = 0; i < positions_.size(); ++i)
                velocities_[i] += (positions_[i] - before[i]) * inv_dt;
        }
    }
    apply_tethers(dt);
    slide_beads(dt, velocity_keep);
    apply_anchors(dt);
    ++substeps_;
}

void Simulation::accumulate_forces() {
    const Model& m = *model_;
    const Parameters& p = m.params;
    const std::size_t n = positions_.size();
    for (std::size_t i = 0; i < n; ++i) {
        Vec3 f = external_[i] + p.gravity * m.node_mass(i);
        if (p.air_friction > 0.0f) f -= (velocities_[i] - wind_) * p.air_friction;
        if (p.ground && positions_[i].y < p.ground->height) {
            // Tunca's ground: sliding friction on the horizontal velocity, absorption of
            // downward speed only, and a spring-like push back up.
            const Ground& g = *p.ground;
            const Vec3& v = velocities_[i];
            f -= Vec3{v.x, 0.0f, v.z} * g.friction;
            if (v.y < 0.0f) f.y -= v.y * g.absorption;
            f.y += (g.height - positions_[i].y) * g.repulsion;
        }
        forces_[i] = f;
    }
    // Hooke springs: each computed once, +F on one end and -F on the other
    // (Oliveira's optimisation note), with Tunca's inner friction.
    const float damping = p.spring_damping;
    for (std::uint32_t si : hooke_) {
        const Spring& s = m.springs[si];
        const Vec3 d = positions_[s.b] - positions_[s.a];
        const float len = length(d);
        Vec3 f{};
        if (len > kSpringTolerance) f = d * (spring_k_[si] * (len - s.rest) / len);
        if (damping > 0.0f) f += (velocities_[s.b] - velocities_[s.a]) * damping;
        forces_[s.a] += f;
        forces_[s.b] -= f;
    }
}

void Simulation::integrate(float dt, float velocity_keep) {
    const std::size_t n = positions_.size();
    switch (model_->params.integrator) {
        case Integrator::explicit_euler:
            for (std::size_t i = 0; i < n; ++i) {
                positions_[i] += velocities_[i] * dt;
                velocities_[i] += forces_[i] * (inverse_mass_[i] * dt);
                velocities_[i] *= velocity_keep;
            }
            break;
        case Integrator::symplectic_euler:
            for (std::size_t i = 0; i < n; ++i) {
                velocities_[i] += forces_[i] * (inverse_mass_[i] * dt);
                velocities_[i] *= velocity_keep;
                positions_[i] += velocities_[i] * dt;
            }
            break;
        case Integrator::verlet: {
            // Source engine: pos + (pos - prev) * damping + accel * dt^2. (Valve's
            // code scales accel by dt^2 / 2, which halves gravity at steady fall;
            // we keep the exact position-Verlet form.)
            const float damping = model_->params.verlet_damping * velocity_keep;
            const float inv_dt = 1.0f / dt;
            for (std::size_t i = 0; i < n; ++i) {
                if (inverse_mass_[i] == 0.0f) continue;
                const Vec3 current = positions_[i];
                positions_[i] += (current - previous_[i]) * damping +
                                 forces_[i] * (inverse_mass_[i] * dt * dt);
                previous_[i] = current;
                velocities_[i] = (positions_[i] - current) * inv_dt;
            }
            break;
        }
    }
}

void Simulation::solve_rope_constraints() {
    // Source engine rope: a few relaxation passes that only shorten overlong
    // segments, splitting the correction by inverse mass (half each for equal
    // masses, as Valve does; none on an anchor).
    const Model& m = *model_;
    for (int pass = 0; pass < m.params.rope_iterations; ++pass) {
        for (std::uint32_t si : ropes_) {
            const Spring& s = m.springs[si];
            const Vec3 d = positions_[s.b] - positions_[s.a];
            const float len = length(d);
            if (len <= s.rest || len <= kSpringTolerance) continue;
            const float wa = inverse_mass_[s.a], wb = inverse_mass_[s.b];
            const float w = wa + wb;
            if (w == 0.0f) continue;
            const Vec3 correction = d * ((1.0f - s.rest / len) / w);
            positions_[s.a] += correction * wa;
            positions_[s.b] -= correction * wb;
        }
    }
}

void Simulation::apply_anchors(float dt) {
    const Model& m = *model_;
    for (std::size_t i = 0; i < m.anchors.size(); ++i) {
        const Anchor& a = m.anchors[i];
        AnchorState& state = anchor_state_[i];
        Vec3 position = state.origin;
        Vec3 velocity{};
        switch (a.drive) {
            case AnchorDrive::fixed:
                break;
            case AnchorDrive::velocity: {
                // Tunca's rope connection point: moved by its velocity, never below ground.
                Vec3& v = anchor_velocity_[i];
                state.origin += v * dt;
                if (m.params.ground && state.origin.y < m.params.ground->height) {
                    state.origin.y = m.params.ground->height;
                    v.y = 0.0f;
                }
                position = state.origin;
                velocity = v;
                break;
            }
            case AnchorDrive::circle: {
                const Vec3 axis = normalized(a.axis);
                state.angle += a.angular_speed * dt;
                const Vec3 arm = rotate(state.origin - a.center, axis, state.angle);
                position = a.center + arm;
                velocity = cross(axis, arm) * a.angular_speed;
                break;
            }
        }
        positions_[a.node] = position;
        previous_[a.node] = position - velocity * dt;
        velocities_[a.node] = velocity;
    }
}

void Simulation::recompute_normals() {
    const Model& m = *model_;
    if (m.faces.empty()) return;
    for (std::size_t fi = 0; fi < m.faces.size(); ++fi) {
        const Face& f = m.faces[fi];
        const Vec3& p0 = positions_[f.node[0]];
        // Unnormalised cross product: larger faces weigh more in the average.
        face_normals_[fi] = cross(positions_[f.node[1]] - p0, positions_[f.node[2]] - p0);
    }
    const std::size_t n = positions_.size();
    for (std::size_t i = 0; i < n; ++i) {
        Vec3 sum{};
        for (std::uint32_t k = node_face_start_[i]; k < node_face_start_[i + 1]; ++k)
            sum += face_normals_[node_faces_[k]];
        normals_[i] = normalized(sum);
    }
}

void Simulation::check_state() {
    const std::size_t n = positions_.size();
    const float bound = static_cast<float>(speed_bound_);
    std::size_t bad = n;
    const char* what = "";
    for (std::size_t i = 0; i < n; ++i) {
        if (!is_finite(positions_[i]) || !is_finite(velocities_[i])) {
            bad = i;
            what = "has a non-finite position or velocity";
            break;
        }
        if (dot(velocities_[i], velocities_[i]) > bound * bound) {
            bad = i;
            what = "runs away (speed above the model's bound)";
            break;
        }
    }
    if (bad == n) return;

    // Name the stiffest spring at that node: it is the usual culprit.
    const Model& m = *model_;
    const double dt = m.params.max_substep;
    std::size_t worst = m.springs.size();
    double worst_ratio = -1.0;
    for (std::size_t si = 0; si < m.springs.size(); ++si) {
        const Spring& s = m.springs[si];
        if (s.a != bad && s.b != bad) continue;
        const double ratio =
            spring_k_[si] * dt * dt / std::min(m.node_mass(s.a), m.node_mass(s.b));
        if (ratio > worst_ratio) {
            worst_ratio = ratio;
            worst = si;
        }
    }
    std::ostringstream out;
    out << "simulation exploded at t = " << time_ << " s: node " << bad << " " << what;
    if (worst < m.springs.size()) {
        const Spring& s = m.springs[worst];
        out << "; its stiffest spring " << worst << " (nodes " << s.a << "-" << s.b
            << ", k = " << spring_k_[worst] << " N/m) has k dt^2/m = " << worst_ratio
            << " (keep it below " << kStabilityWarning << ")";
    }
    out << "; use a smaller max_substep or a lower k";
    failure_ = out.str();
    throw SimulationError(failure_);
}

double Simulation::kinetic_energy() const {
    double sum = 0.0;
    for (std::size_t i = 0; i < velocities_.size(); ++i)
        sum += 0.5 * model_->node_mass(i) * dot(velocities_[i], velocities_[i]);
    return sum;
}

double Simulation::potential_energy() const {
    const Model& m = *model_;
    double sum = 0.0;
    for (std::size_t i = 0; i < positions_.size(); ++i)
        sum -= static_cast<double>(m.node_mass(i)) * dot(m.params.gravity, positions_[i]);
    for (std::uint32_t si : hooke_) {
        const Spring& s = m.springs[si];
        const double stretch = length(positions_[s.b] - positions_[s.a]) - s.rest;
        sum += 0.5 * spring_k_[si] * stretch * stretch;
    }
    return sum;
}

void Simulation::set_position(std::uint32_t node, Vec3 p) {
    if (node >= positions_.size()) throw Error("set_position: node index out of range");
    positions_[node] = p;
    previous_[node] = p;
    velocities_[node] = {};
}

void Simulation::set_velocity(std::uint32_t node, Vec3 v) {
    if (node >= positions_.size()) throw Error("set_velocity: node index out of range");
    velocities_[node] = v;
    previous_[node] = positions_[node] - v * model_->params.max_substep;
}

void Simulation::set_anchor_velocity(std::size_t anchor, Vec3 v) {
    if (anchor >= anchor_velocity_.size()) throw Error("set_anchor_velocity: anchor index out of range");
    anchor_velocity_[anchor] = v;
}

void Simulation::set_anchor_position(std::size_t anchor, Vec3 p) {
    if (anchor >= anchor_state_.size()) throw Error("set_anchor_position: anchor index out of range");
    const Anchor& a = model_->anchors[anchor];
    AnchorState& state = anchor_state_[anchor];
    if (a.drive == AnchorDrive::circle) {
        // Keep turning; the new point becomes the circle's starting point.
        state.origin = p;
        state.angle = 0.0f;
    } else {
        state.origin = p;
    }
    positions_[a.node] = p;
    previous_[a.node] = p;
}

void Simulation::apply_force(std::uint32_t node, Vec3 f) {
    if (node >= positions_.size()) throw Error("apply_force: node index out of range");
    external_[node] += f;
}

}  // namespace springkit
