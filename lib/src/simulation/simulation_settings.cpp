// springkit — per-instance settings: what set_parameters() and
// set_stiffness_scale() change on a running instance without a new layout.
// The prepared body keeps the model's spring values; an instance whose k or
// spring damping differ refills its own copy of them in the same layout
// (PreparedBody::run_rest says what each slot holds).
#include <cmath>
#include <string>

#include "collision/pressure.hpp"
#include "simulation/simulation_impl.hpp"
#include "springkit/error.hpp"

namespace springkit {

void Simulation::Impl::set_parameters(const Parameters& params) {
    const Parameters& model_params = model_->params;
    if (params.k != model_params.k || params.mass != model_params.mass)
        throw Error("Simulation::set_parameters: k and mass belong to the prepared body (model k = " +
                    std::to_string(model_params.k) + ", mass = " + std::to_string(model_params.mass) +
                    "); use set_stiffness_scale() for k, or prepare a model with the new values");
    validate_parameters(params, "Simulation::set_parameters");
    detail::check_pressure_mesh(*model_, params, "Simulation::set_parameters");
    wake();
    const Parameters old = params_;
    params_ = params;
    // What carry_state_from() does when the previous simulation ran `old`, so that
    // stepping on equals a new simulation of a model with `params` carried from
    // this one: the air of the frame just taken stays unless it changed, and
    // Verlet's previous positions are kept only when they are up to date (Verlet)
    // and hold the same substep; otherwise derived from the velocities.
    if (!(params_.wind == old.wind && params_.gust == old.gust)) wind_ = wind_at(params_, time_);
    if (params_.integrator != Integrator::verlet) detail::release(previous_);  // read by Verlet only
    else if (previous_.x.empty()) previous_.assign(model_->node_count(), Vec3{});  // derived just below
    if (!(old.integrator == Integrator::verlet && old.max_substep == params_.max_substep))
        for (std::uint32_t i = 0; i < model_->node_count(); ++i) set_velocity(i, v_.get(i));
    if (params_.spring_damping != old.spring_damping) refill_springs();  // builds the partitions again
    else if (params_.integrator != old.integrator) choose_gather_state();
    update_speed_bound();
}

void Simulation::Impl::set_stiffness_scale(float scale) {
    if (!std::isfinite(scale) || scale <= 0.0f)
        throw Error("Simulation::set_stiffness_scale: the scale must be finite and > 0 (got " +
                    std::to_string(scale) + ")");
    wake();
    stiffness_scale_ = scale;
    refill_springs();
    update_speed_bound();
}

void Simulation::Impl::refill_springs() {
    const detail::SpringValues& base = *b_->springs;
    const float damping = params_.spring_damping;
    if (stiffness_scale_ == 1.0f && damping == model_->params.spring_damping) {
        springs_ = b_->springs;
    } else {
        // The values a body prepared from the model with every k times the scale
        // and this damping would hold: k s, then (k s) rest, rounded as there.
        // Springs of a group with its own damping keep it (own >= 0).
        auto values = std::make_shared<detail::SpringValues>(base);
        const float s = stiffness_scale_;
        auto resolved = [damping](float own) { return own >= 0.0f ? own : damping; };
        for (detail::SpringRun& run : values->runs) {
            if (!run.same_k) continue;
            run.k *= s;
            run.damping = resolved(run.own_damping);
            if (run.uniform) run.k_rest = run.k * run.rest;
        }
        values->run_damping.resize(values->run_k.size());
        for (std::size_t i = 0; i < values->run_k.size(); ++i) {
            values->run_k[i] = base.run_k[i] * s;
            values->run_k_rest[i] = values->run_k[i] * b_->run_rest[i];
            // A slot holds a spring where its rest length is > 0 (0 in gaps).
            values->run_damping[i] = b_->run_rest[i] != 0.0f ? resolved(b_->run_own_damping_of(i)) : 0.0f;
        }
        detail::LooseSprings& loose = values->loose;
        for (std::size_t i = 0; i < values->loose_count; ++i) {
            loose.k[i] = base.loose.k[i] * s;
            loose.k_rest[i] = loose.k[i] * b_->loose_rest[i];
            if (!loose.damping.empty())  // per_spring_damping
                loose.damping[i] = resolved(b_->loose_own_damping.empty() ? -1.0f : b_->loose_own_damping[i]);
        }
        for (float& k : values->spring_k) k *= s;
        values->common_k *= s;
        values->common_damping = damping;
        values->damped = false;
        for (std::size_t i = 0; i < values->spring_damping.size(); ++i) {
            values->spring_damping[i] = resolved(b_->own_damping_of(i));
            if (model_->springs[i].kind == SpringKind::hooke && values->spring_damping[i] > 0.0f)
                values->damped = true;
        }
        // Without own damping, every spring has this instance's (Hooke springs
        // are damped if it is > 0 and there is one).
        if (values->spring_damping.empty() && damping > 0.0f && b_->ropes.size() < model_->springs.size())
            values->damped = true;
        if (!values->damped) detail::release(values->run_damping);
        springs_ = std::move(values);
    }
    build_partitions();  // the threads' copies of the loose springs' k
}

}  // namespace springkit
