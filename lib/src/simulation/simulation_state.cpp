// springkit — an instance's running state as bytes and back (save_state(),
// restore_state(); docs/FILE_FORMAT.md, "Saved state"): savegames, networking,
// rewinding. Everything the next steps read is written, so that a restored
// instance steps on bit for bit as the saved one would. Restoring validates the
// whole buffer into a staging copy before anything is applied.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <string>

#include "simulation/simulation_impl.hpp"
#include "springkit/error.hpp"
#include "springkit/model_hash.hpp"
#include "springkit/parameters.hpp"
#include "files/byte_order.hpp"

namespace springkit {

namespace {

constexpr char kStateMagic[4] = {'S', 'K', 'S', 'T'};
// Version 3 keys each setting by its path in the model file ("ground/height"),
// so that a row added to parameter_table() later needs no new version: a state
// saved without it restores it at its default, which by the table's rule is
// what the library ran with before the row existed. Versions 1 and 2 wrote the
// values alone, in table order: they are read through the frozen row lists
// below (version 1 lacked the rows marked written_when_default = false).
constexpr std::uint32_t kStateVersion = 3, kFirstStateVersion = 1;
constexpr std::uint32_t kExternalApplied = 1, kHasGround = 2;  // flags

// The rows versions 1 and 2 wrote, in the order they wrote them.
constexpr std::string_view kPositionalRows[] = {
    "k", "energy_loss", "mass", "gravity", "spring_damping", "air_friction",
    "ground/height", "ground/repulsion", "ground/friction", "ground/absorption",
    "wind", "max_substep", "integrator", "rope_iterations", "verlet_damping", "node_radius",
    "pressure", "gust/velocity", "gust/period", "gust/duration", "gust/start",
    "implicit_iterations", "strain_limit", "chebyshev_rho", "self_collision_distance",
    "self_friction", "long_range_attachments", "strain_limit_passes", "total_mass",
    "density", "area_density", "stretch_stiffness"};

// The type tag of a setting in a version 3 state; checked on reading, so that a
// row whose type changed is refused rather than misread.
std::uint8_t type_tag(ParameterType type) { return static_cast<std::uint8_t>(type); }

// Whether `params` holds a value for `row` (the ground's rows have none
// without a ground); such rows are left out of a state.
bool has_value(const ParameterInfo& row, const Parameters& params) {
    return parameter_number(row, params) || parameter_vector(row, params) || parameter_count(row, params) ||
           parameter_integrator(row, params);
}

// A row's key in a version 3 state: its JSON pointer after "/parameters/",
// the path find_parameter() takes.
std::string state_key(const ParameterInfo& row) {
    return row.pointer().substr(std::string_view("/parameters/").size());
}

using detail::byte_swapped;

class Writer {
public:
    template <class T>
    void put(T v) {
        if constexpr (std::endian::native == std::endian::big) v = byte_swapped(v);
        const std::size_t at = bytes.size();
        bytes.resize(at + sizeof v);
        std::memcpy(bytes.data() + at, &v, sizeof v);
    }
    void put(float v) { put(std::bit_cast<std::uint32_t>(v)); }
    void put(double v) { put(std::bit_cast<std::uint64_t>(v)); }
    void put(Vec3 v) { put(v.x); put(v.y); put(v.z); }
    /// The first n values of each coordinate (the arrays may run on as padding).
    void put(const detail::Vec3Array& a, std::size_t n) {
        if (a.x.empty()) {  // an array held empty while it is all 0 (external_)
            for (std::size_t i = 0; i < 3 * n; ++i) put(0.0f);
            return;
        }
        for (const std::vector<float>* c : {&a.x, &a.y, &a.z})
            for (std::size_t i = 0; i < n; ++i) put((*c)[i]);
    }
    std::vector<std::byte> bytes;
};

// Bounds-checked little-endian reads; every float is refused unless finite.
class Reader {
public:
    explicit Reader(std::span<const std::byte> bytes) : bytes_(bytes) {}
    [[noreturn]] static void fail(const std::string& what) {
        throw Error("Simulation::restore_state: " + what);
    }
    template <class T>
    T get(const char* what) {
        if (bytes_.size() - at_ < sizeof(T))
            fail("truncated state: " + std::string(what) + " needs " + std::to_string(sizeof(T)) +
                 " bytes at offset " + std::to_string(at_) + ", the buffer has " +
                 std::to_string(bytes_.size() - at_) + " left");
        T v;
        std::memcpy(&v, bytes_.data() + at_, sizeof v);
        at_ += sizeof v;
        if constexpr (std::endian::native == std::endian::big) v = byte_swapped(v);
        return v;
    }
    float number(const char* what) {
        const float v = std::bit_cast<float>(get<std::uint32_t>(what));
        if (!std::isfinite(v)) fail(std::string(what) + " is not finite at offset " + std::to_string(at_ - 4));
        return v;
    }
    double number64(const char* what) {
        const double v = std::bit_cast<double>(get<std::uint64_t>(what));
        if (!std::isfinite(v)) fail(std::string(what) + " is not finite at offset " + std::to_string(at_ - 8));
        return v;
    }
    Vec3 vec(const char* what) {
        const float x = number(what), y = number(what), z = number(what);
        return {x, y, z};
    }
    /// The first n values of each coordinate of `a` (sized by the caller).
    void array(detail::Vec3Array& a, std::size_t n, const char* what) {
        for (std::vector<float>* c : {&a.x, &a.y, &a.z})
            for (std::size_t i = 0; i < n; ++i) (*c)[i] = number(what);
    }
    std::size_t left() const { return bytes_.size() - at_; }

private:
    std::span<const std::byte> bytes_;
    std::size_t at_ = 0;
};

void count_check(std::uint32_t got, std::size_t body, const char* what) {
    if (got != body)
        Reader::fail("the state has " + std::to_string(got) + " " + what + ", this body " + std::to_string(body));
}

}  // namespace

std::uint64_t Simulation::Impl::state_body_hash() const {
    if (!body_hash_) body_hash_ = model_hash(*model_, HashScope::physics);
    return *body_hash_;
}

std::vector<std::byte> Simulation::Impl::save_state() const {
    if (!failure_.empty())
        throw Error("Simulation::save_state: the simulation has failed (" + failure_ + "); reset() it first");
    const Model& m = *model_;
    Writer out;
    out.bytes.reserve(256 + 48 * m.node_count() + 60 * m.anchors.size() + 12 * m.tethers.size() +
                      8 * m.beads.size());
    for (char c : kStateMagic) out.put(static_cast<std::uint8_t>(c));
    out.put(kStateVersion);
    out.put(state_body_hash());
    out.put(static_cast<std::uint32_t>(m.node_count()));
    out.put(static_cast<std::uint32_t>(m.springs.size()));
    out.put(static_cast<std::uint32_t>(m.anchors.size()));
    out.put(static_cast<std::uint32_t>(m.tethers.size()));
    out.put(static_cast<std::uint32_t>(m.beads.size()));
    out.put((external_applied_ ? kExternalApplied : 0u) | (params_.ground ? kHasGround : 0u));
    out.put(time_);
    out.put(substeps_);
    // The settings: a count, then per row its key, its type and its value
    // (rows without a field here, the ground's when there is none, are left out).
    std::vector<const ParameterInfo*> rows;
    for (const ParameterInfo& row : parameter_table())
        if (has_value(row, params_)) rows.push_back(&row);
    out.put(static_cast<std::uint32_t>(rows.size()));
    for (const ParameterInfo* row : rows) {
        const std::string key = state_key(*row);
        out.put(static_cast<std::uint8_t>(key.size()));
        for (char c : key) out.put(static_cast<std::uint8_t>(c));
        out.put(type_tag(row->type));
        if (const float* number = parameter_number(*row, params_)) out.put(*number);
        else if (const Vec3* vector = parameter_vector(*row, params_)) out.put(*vector);
        else if (const int* count = parameter_count(*row, params_)) out.put(static_cast<std::int32_t>(*count));
        else if (const Integrator* integrator = parameter_integrator(*row, params_))
            out.put(static_cast<std::uint8_t>(*integrator));
    }
    out.put(stiffness_scale_);
    out.put(placement_.position);
    out.put(placement_.rotation.w);
    out.put(placement_.rotation.x);
    out.put(placement_.rotation.y);
    out.put(placement_.rotation.z);
    out.put(wind_);
    const std::size_t n = m.node_count();
    out.put(x_, n);
    out.put(v_, n);
    out.put(previous_, n);  // zeros for other integrators than Verlet (not read)
    out.put(external_, n);
    for (std::size_t i = 0; i < anchor_state_.size(); ++i) {
        const AnchorState& a = anchor_state_[i];
        out.put(a.origin);
        out.put(a.center);
        out.put(a.axis);
        out.put(a.angle);
        out.put(a.angular_speed);
        out.put(anchor_velocity_[i]);
    }
    for (Vec3 p : tether_point_) out.put(p);
    for (std::size_t i = 0; i < bead_place_.size(); ++i) {
        out.put(bead_place_[i]);
        out.put(bead_speed_[i]);
    }
    return std::move(out.bytes);
}

void Simulation::Impl::restore_state(std::span<const std::byte> bytes) {
    const Model& m = *model_;
    Reader in(bytes);
    for (char c : kStateMagic)
        if (in.get<std::uint8_t>("the magic") != static_cast<std::uint8_t>(c))
            Reader::fail("not a springkit state (the magic is not \"SKST\")");
    const auto version = in.get<std::uint32_t>("the format version");
    if (version < kFirstStateVersion || version > kStateVersion)
        Reader::fail("state format version " + std::to_string(version) + " is not supported (this library reads " +
                     std::to_string(kFirstStateVersion) + " to " + std::to_string(kStateVersion) + ")");
    if (in.get<std::uint64_t>("the body hash") != state_body_hash())
        Reader::fail("the state was saved from another body (its model's hash differs)");
    count_check(in.get<std::uint32_t>("the node count"), m.node_count(), "nodes");
    count_check(in.get<std::uint32_t>("the spring count"), m.springs.size(), "springs");
    count_check(in.get<std::uint32_t>("the anchor count"), m.anchors.size(), "anchors");
    count_check(in.get<std::uint32_t>("the tether count"), m.tethers.size(), "tethers");
    count_check(in.get<std::uint32_t>("the bead count"), m.beads.size(), "beads");
    const auto flags = in.get<std::uint32_t>("the flags");
    if (flags & ~(kExternalApplied | kHasGround)) Reader::fail("unknown flags " + std::to_string(flags));

    // Everything into a staging copy first: nothing is applied unless all is sound.
    const double time = in.number64("the time");
    if (time < 0.0) Reader::fail("the time is negative");
    const auto substeps = in.get<std::uint64_t>("the substeps taken");
    Parameters params = m.params;
    if (flags & kHasGround) {
        if (!params.ground) params.ground = Ground{};
    } else {
        params.ground.reset();
    }
    const Parameters& defaults = parameter_defaults();
    const auto read_value = [&](const ParameterInfo& row) {
        if (float* number = parameter_number(row, params)) *number = in.number("a setting");
        else if (Vec3* vector = parameter_vector(row, params)) *vector = in.vec("a setting");
        else if (int* count = parameter_count(row, params)) *count = in.get<std::int32_t>("a setting");
        else if (Integrator* integrator = parameter_integrator(row, params)) {
            const auto i = in.get<std::uint8_t>("the integrator");
            if (i > static_cast<std::uint8_t>(Integrator::implicit))
                Reader::fail("unknown integrator " + std::to_string(i));
            *integrator = static_cast<Integrator>(i);
        }
    };
    const auto take_default = [&](const ParameterInfo& row) {
        if (float* number = parameter_number(row, params)) *number = *parameter_number(row, defaults);
        else if (Vec3* vector = parameter_vector(row, params)) *vector = *parameter_vector(row, defaults);
        else if (int* count = parameter_count(row, params)) *count = *parameter_count(row, defaults);
        else if (Integrator* integrator = parameter_integrator(row, params))
            *integrator = *parameter_integrator(row, defaults);
    };
    if (version >= 3) {
        // Rows the state does not name were not known to the library that saved it.
        std::vector<bool> seen(parameter_table().size(), false);
        const auto count = in.get<std::uint32_t>("the settings count");
        for (std::uint32_t i = 0; i < count; ++i) {
            const auto length = in.get<std::uint8_t>("a setting's key length");
            std::string key;
            for (std::uint8_t c = 0; c < length; ++c) key += static_cast<char>(in.get<std::uint8_t>("a setting's key"));
            const ParameterInfo* row = find_parameter(key);
            if (!row) Reader::fail("unknown setting \"" + key + "\"");
            const auto index = static_cast<std::size_t>(row - parameter_table().data());
            if (seen[index]) Reader::fail("the setting \"" + key + "\" appears twice");
            seen[index] = true;
            if (in.get<std::uint8_t>("a setting's type") != type_tag(row->type))
                Reader::fail("the setting \"" + key + "\" has the wrong type");
            if (!has_value(*row, params))
                Reader::fail("the setting \"" + key + "\" is for a ground the flags say is absent");
            read_value(*row);
        }
        for (std::size_t i = 0; i < seen.size(); ++i)
            if (!seen[i]) take_default(parameter_table()[i]);
    } else {
        for (std::string_view key : kPositionalRows) {
            const ParameterInfo& row = *find_parameter(key);
            if (version == 1 && !row.written_when_default) take_default(row);  // not in version 1
            else read_value(row);
        }
        for (const ParameterInfo& row : parameter_table())
            if (std::find(std::begin(kPositionalRows), std::end(kPositionalRows), state_key(row)) ==
                std::end(kPositionalRows))
                take_default(row);  // added after version 2
    }
    if (params.k != m.params.k || params.mass != m.params.mass)
        Reader::fail("the state's k or mass differ from the body's");
    try {
        validate_parameters(params, "Simulation::restore_state");
    } catch (const Error& e) {
        Reader::fail(std::string("its settings are invalid: ") + e.what());
    }
    const float stiffness = in.number("the stiffness scale");
    if (!(stiffness > 0.0f)) Reader::fail("the stiffness scale is not > 0");
    Transform placement;
    placement.position = in.vec("the placement");
    placement.rotation.w = in.number("the placement");
    placement.rotation.x = in.number("the placement");
    placement.rotation.y = in.number("the placement");
    placement.rotation.z = in.number("the placement");
    const Vec3 wind = in.vec("the wind");
    const std::size_t n = m.node_count();
    detail::Vec3Array x = x_, v = v_, previous = previous_, external = external_;  // with their padding
    if (external.x.empty()) external.assign(n, Vec3{});
    if (previous.x.empty()) previous.assign(n, Vec3{});
    in.array(x, n, "a position");
    in.array(v, n, "a velocity");
    in.array(previous, n, "a previous position");
    in.array(external, n, "a pending force");
    std::vector<AnchorState> anchors(m.anchors.size());
    std::vector<Vec3> anchor_velocity(m.anchors.size());
    for (std::size_t i = 0; i < anchors.size(); ++i) {
        AnchorState& a = anchors[i];
        a.origin = in.vec("an anchor's origin");
        a.center = in.vec("an anchor's centre");
        a.axis = in.vec("an anchor's axis");
        a.angle = in.number64("an anchor's angle");
        if (a.angle < 0.0 || a.angle >= 2.0 * std::numbers::pi) Reader::fail("an anchor's angle is outside [0, 2 pi)");
        a.angular_speed = in.number("an anchor's angular speed");
        anchor_velocity[i] = in.vec("an anchor's velocity");
    }
    std::vector<Vec3> tether_points(m.tethers.size());
    for (Vec3& p : tether_points) p = in.vec("a tether's point");
    std::vector<float> bead_place(m.beads.size()), bead_speed(m.beads.size());
    for (std::size_t i = 0; i < bead_place.size(); ++i) {
        bead_place[i] = in.number("a bead's place");
        if (bead_place[i] < 0.0f || bead_place[i] > static_cast<float>(m.beads[i].last - m.beads[i].first))
            Reader::fail("a bead's place is off its rope");
        bead_speed[i] = in.number("a bead's speed");
    }
    if (in.left() != 0) Reader::fail(std::to_string(in.left()) + " bytes past the end of the state");

    // Sound: apply. The settings first (their spring values), then the state.
    params_ = params;
    stiffness_scale_ = stiffness;
    refill_springs();
    update_speed_bound();
    failure_.clear();
    time_ = time;
    substeps_ = substeps;
    external_applied_ = (flags & kExternalApplied) != 0;
    placement_ = placement;
    wind_ = wind;
    x_ = std::move(x);
    v_ = std::move(v);
    previous_ = std::move(previous);
    if (params_.integrator != Integrator::verlet) detail::release(previous_);  // read by Verlet only
    external_ = std::move(external);
    publish();
    anchor_state_ = std::move(anchors);
    anchor_velocity_ = std::move(anchor_velocity);
    tether_point_ = std::move(tether_points);
    bead_place_ = std::move(bead_place);
    bead_speed_ = std::move(bead_speed);
    // Not part of a saved state: targets wait for the next step of the instance
    // they were given to, and group frames start from the placement.
    clear_anchor_targets();
    anchor_frame_.assign(anchor_state_.size(), placement_);
    wake();
    update_bead_positions();
    recompute_normals();
}

}  // namespace springkit
