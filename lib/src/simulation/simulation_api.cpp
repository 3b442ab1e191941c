// springkit — the public Simulation: a handle on its instance state
// (simulation_impl.hpp), so that games see the contract and not the layout.
#include <cmath>
#include <string>
#include <utility>

#include "simulation/simulation_impl.hpp"
#include "springkit/error.hpp"
#include "springkit/parameters.hpp"

namespace springkit {

Simulation::Simulation(const Model& model, const SimulationOptions& options)
    : Simulation(prepare(model), options) {}

Simulation::Simulation(Model&& model, const SimulationOptions& options)
    : Simulation(prepare(std::move(model)), options) {}

Simulation::Simulation(std::shared_ptr<const PreparedBody> body, const SimulationOptions& options) {
    if (!body) throw Error("Simulation: no prepared body (null pointer)");
    impl_ = std::make_unique<Impl>(std::move(body), options);
}

Simulation::Simulation(std::shared_ptr<const PreparedBody> body, const Transform& placement,
                       const SimulationOptions& options)
    : Simulation(std::move(body), options) {
    impl_->teleport(placement, false);
}

Simulation::Simulation(std::shared_ptr<const PreparedBody> body, const Transform& placement, float scale,
                       const SimulationOptions& options) {
    if (!body) throw Error("Simulation: no prepared body (null pointer)");
    if (!std::isfinite(scale) || scale <= 0.0f)
        throw Error("Simulation: the scale must be finite and > 0 (got " + std::to_string(scale) + ")");
    impl_ = std::make_unique<Impl>(scale == 1.0f ? std::move(body) : body->scaled(scale), options);
    impl_->teleport(placement, false);
}

Simulation::~Simulation() = default;
Simulation::Simulation(const Simulation& other) : impl_(std::make_unique<Impl>(*other.impl_)) {}
Simulation& Simulation::operator=(const Simulation& other) {
    if (this != &other) impl_ = std::make_unique<Impl>(*other.impl_);
    return *this;
}
Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;

StepResult Simulation::step(float frame_dt) { return impl_->step(frame_dt); }
void Simulation::reset() { impl_->reset(); }
void Simulation::carry_state_from(const Simulation& previous) { impl_->carry_state_from(*previous.impl_); }

const Model& Simulation::model() const { return *impl_->model_; }
const std::shared_ptr<const PreparedBody>& Simulation::body() const { return impl_->body_; }
double Simulation::time() const { return impl_->time_; }
std::uint64_t Simulation::substeps_taken() const { return impl_->substeps_; }
std::span<const Vec3> Simulation::positions() const { return impl_->shown_positions(); }
std::span<const Vec3> Simulation::velocities() const { return impl_->shown_velocities(); }
std::span<const Vec3> Simulation::normals() const { return impl_->normals_; }
double Simulation::kinetic_energy() const { return impl_->kinetic_energy(); }
double Simulation::potential_energy() const { return impl_->potential_energy(); }

void Simulation::set_position(std::uint32_t node, Vec3 p) { impl_->set_position(node, p); }
void Simulation::set_velocity(std::uint32_t node, Vec3 v) { impl_->set_velocity(node, v); }
void Simulation::set_anchor_velocity(std::size_t anchor, Vec3 v) { impl_->set_anchor_velocity(anchor, v); }
void Simulation::set_anchor_position(std::size_t anchor, Vec3 p) { impl_->set_anchor_position(anchor, p); }
void Simulation::set_anchor_target(std::size_t anchor, Vec3 target) { impl_->set_anchor_target(anchor, target); }
void Simulation::set_anchor_group_target(std::span<const std::size_t> anchors, const Transform& frame) {
    impl_->set_anchor_group_target(anchors, frame);
}
void Simulation::set_anchor_circle(std::size_t anchor, float radius, float angular_speed) {
    impl_->set_anchor_circle(anchor, radius, angular_speed);
}
float Simulation::anchor_circle_radius(std::size_t anchor) const { return impl_->anchor_circle_radius(anchor); }
float Simulation::anchor_angular_speed(std::size_t anchor) const { return impl_->anchor_angular_speed(anchor); }
void Simulation::teleport(const Transform& to, bool keep_velocity) { impl_->teleport(to, keep_velocity); }
float Simulation::scale() const { return impl_->b_->scale; }
const Transform& Simulation::placement() const { return impl_->placement_; }
Bounds Simulation::bounds() const { return impl_->bounds(); }
double Simulation::total_mass() const { return impl_->total_mass(); }
Vec3 Simulation::center_of_mass() const { return impl_->center_of_mass(); }
Vec3 Simulation::linear_momentum() const { return impl_->linear_momentum(); }
Vec3 Simulation::angular_momentum() const { return impl_->angular_momentum(); }
void Simulation::add_impulse(Vec3 impulse) { impl_->add_impulse(impulse); }
void Simulation::add_velocity(Vec3 dv) { impl_->add_velocity(dv); }
std::vector<std::byte> Simulation::save_state() const { return impl_->save_state(); }
void Simulation::restore_state(std::span<const std::byte> bytes) { impl_->restore_state(bytes); }
void Simulation::apply_force(std::uint32_t node, Vec3 f) { impl_->apply_force(node, f); }

std::span<const Vec3> Simulation::bead_positions() const { return impl_->bead_positions_; }
std::span<const float> Simulation::bead_places() const { return impl_->bead_place_; }
Vec3 Simulation::current_wind() const { return impl_->wind_; }

void Simulation::set_sleep(const SleepSettings& sleep) {
    detail::validate_sleep(sleep);
    impl_->sleep_ = sleep;
    if (!sleep.enabled) impl_->wake();
}
const SleepSettings& Simulation::sleep_settings() const { return impl_->sleep_; }
bool Simulation::asleep() const { return impl_->asleep_; }
void Simulation::wake() { impl_->wake(); }
void Simulation::set_runaway_policy(RunawayPolicy policy) { impl_->runaway_policy_ = policy; }
RunawayPolicy Simulation::runaway_policy() const { return impl_->runaway_policy_; }
void Simulation::set_substep_budget(std::uint64_t substeps) { impl_->substep_budget_ = substeps; }
std::uint64_t Simulation::substep_budget() const { return impl_->substep_budget_; }
const std::string& Simulation::failure() const { return impl_->last_failure_; }

void Simulation::set_threads(int threads) { impl_->set_threads(threads); }
int Simulation::threads() const { return impl_->team_.size(); }
SpringKernel Simulation::kernel() const { return impl_->kernel_; }

const Parameters& Simulation::parameters() const { return impl_->params_; }
void Simulation::set_parameters(const Parameters& params) { impl_->set_parameters(params); }
void Simulation::set_stiffness_scale(float scale) { impl_->set_stiffness_scale(scale); }
float Simulation::stiffness_scale() const { return impl_->stiffness_scale_; }

}  // namespace springkit
