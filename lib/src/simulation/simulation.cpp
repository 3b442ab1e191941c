// springkit — the runtime: one step as named stages over flat arrays.
#include "simulation/simulation_impl.hpp"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <type_traits>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "simulation/batched_loops.hpp"
#include "simulation/packed_node_state.hpp"
#include "simulation/spring_force.hpp"
#include "springkit/error.hpp"
#include "simulation/worker_pool.hpp"

namespace springkit {

using detail::LooseSprings;
using detail::Partition;
using detail::Piece;
using detail::SpringRun;
using detail::Window;
using detail::add_ranges;
using detail::closing_speed;
using detail::damping_scale;
using detail::hooke_scale;
using detail::inverse_sqrt_block;
using detail::kPackedStride;
using detail::kPackedTail;
using detail::mul_add;
using detail::ItemRange;
using detail::kBlock;
using detail::kMinRun;
using detail::kScratchLead;
using detail::kScratchStride;
using detail::kSpringTolerance;
using detail::kWindow;
using detail::owned_items;
using detail::run_end;
using detail::run_on;
using detail::squared_length;
using detail::with_flags;

namespace {

// threads = 0 never starts more than this many.
constexpr unsigned kMaxAutoThreads = 64;

// Rotates v around the unit axis by angle (Rodrigues' formula).
Vec3 rotate(const Vec3& v, const Vec3& axis, float angle) {
    const float c = std::cos(angle), s = std::sin(angle);
    return v * c + cross(axis, v) * s + axis * (dot(axis, v) * (1.0f - c));
}

}  // namespace

// Each array has kBlock zeros past its end, so that the spring loops may read
// whole blocks past a run's last spring (those results are never used).
void detail::Vec3Array::assign(std::size_t n, Vec3 v) {
    x.assign(n + kBlock, 0.0f);
    y.assign(n + kBlock, 0.0f);
    z.assign(n + kBlock, 0.0f);
    std::fill_n(x.begin(), n, v.x);
    std::fill_n(y.begin(), n, v.y);
    std::fill_n(z.begin(), n, v.z);
}

void detail::Vec3Array::assign(const std::vector<Vec3>& v) {
    assign(v.size(), Vec3{});
    for (std::size_t i = 0; i < v.size(); ++i) set(i, v[i]);
}

void detail::Vec3Array::copy_to(std::vector<Vec3>& out, std::size_t n) const {
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = get(i);
}

PreparedBody::PreparedBody(Model source) : model(std::move(source)) {
    validate(model);
    const std::size_t n = model.node_count();
    inverse_mass.resize(n);
    mass.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        mass[i] = model.node_mass(i);
        inverse_mass[i] = 1.0f / mass[i];
    }
    for (const Anchor& a : model.anchors) inverse_mass[a.node] = 0.0f;
    common_mass = n > 0 ? mass[0] : 1.0f;
    uniform_mass = std::all_of(mass.begin(), mass.end(), [&](float m) { return m == common_mass; });
    if (uniform_mass) detail::release(mass);  // mass_of() answers common_mass

    volume_elements = detail::volume_element_arrays(model);
    auto values = std::make_shared<detail::SpringValues>();
    values->spring_k = spring_stiffnesses(model);
    values->spring_damping = spring_dampings(model);
    values->common_damping = model.params.spring_damping;
    for (const SpringGroup& g : model.spring_groups)
        if (g.damping) {
            if (!group_damping) own_damping.assign(model.springs.size(), -1.0f);
            group_damping = true;
            for (std::uint32_t s : g.springs) own_damping[s] = *g.damping;
        }
    values->per_spring_damping = group_damping;
    values->damped = model.params.spring_damping > 0.0f;
    for (std::size_t i = 0; i < model.springs.size(); ++i) {
        const Spring& s = model.springs[i];
        (s.kind == SpringKind::hooke ? hooke : ropes).push_back(static_cast<std::uint32_t>(i));
        if (s.kind == SpringKind::hooke && values->spring_damping[i] > 0.0f) values->damped = true;
    }
    if (ropes.empty()) detail::release(hooke);  // every spring: for_each_hooke() needs no list
    // Nothing reads an anchored node between the integration and apply_anchors()
    // unless ropes, tethers or beads do: then anchored nodes may move with the rest.
    moves_anchors_freely = ropes.empty() && model.tethers.empty() && model.beads.empty();
    build_face_runs();
    if (!model.constant_forces.empty()) {
        constant_external.assign(n, Vec3{});
        for (const ConstantForce& c : model.constant_forces) constant_external[c.node] += c.force;
        if (std::all_of(constant_external.begin(), constant_external.end(), [](const Vec3& f) { return f == Vec3{}; }))
            detail::release(constant_external);
    }
    has_constant_forces = !constant_external.empty();
    // Built for either kernel: the body does not know which its instances use.
    build_spring_runs(*values);

    // The parts of the runaway bound (Simulation::Impl::update_speed_bound()).
    const Bounds box = bounds(model);
    diagonal = box.diagonal();
    drive_speed = fastest_drive(model);
    // Springs alone can move a node fast: a node pulled as far as the model is
    // wide swings back at up to sqrt(sum of its k / m) times that distance (a
    // perturbed or dragged jelly). A real blow-up grows exponentially and passes
    // this bound within a few substeps anyway.
    std::vector<double> node_k(n, 0.0);
    for_each_hooke([&](std::uint32_t i) {
        node_k[model.springs[i].a] += values->spring_k[i];
        node_k[model.springs[i].b] += values->spring_k[i];
    });
    for (std::size_t i = 0; i < n; ++i)
        spring_speed = std::max(spring_speed, std::sqrt(node_k[i] / model.node_mass(i)) * diagonal);
    // Per-spring values that are the same for every spring are held once.
    const auto all_equal = [](const std::vector<float>& v) {
        return std::all_of(v.begin(), v.end(), [&](float x) { return x == v.front(); });
    };
    if (!values->spring_k.empty() && all_equal(values->spring_k)) {
        values->common_k = values->spring_k.front();
        detail::release(values->spring_k);
    }
    if (!group_damping) detail::release(values->spring_damping);  // all Parameters::spring_damping
    springs = std::move(values);
}

double PreparedBody::fastest_drive(const Model& model) {
    double speed = 0.0;
    for (const Anchor& a : model.anchors) {
        speed = std::max(speed, static_cast<double>(length(a.velocity)));
        if (a.drive == AnchorDrive::circle)
            speed = std::max(speed, std::abs(a.angular_speed) *
                                        static_cast<double>(length(model.positions[a.node] - a.center)));
        if (a.drive == AnchorDrive::track)
            speed = std::max(speed, track_speed_bound(model.anchor_tracks[a.track], model.positions[a.node]));
    }
    return speed;
}

std::shared_ptr<const PreparedBody> prepare(Model model) {
    return std::make_shared<const PreparedBody>(std::move(model));
}

const Model& prepared_model(const PreparedBody& body) { return body.model; }

Simulation::Impl::Impl(std::shared_ptr<const PreparedBody> body, const SimulationOptions& options)
    : body_(std::move(body)), b_(body_.get()), model_(&b_->model), params_(b_->model.params),
      springs_(b_->springs), kernel_(options.kernel),
      runaway_policy_(options.runaway), substep_budget_(options.substep_budget), sleep_(options.sleep) {
    detail::validate_sleep(sleep_);
    if (!model_->beads.empty()) bead_inverse_mass_ = b_->inverse_mass;
    if (!model_->faces.empty()) normals_.resize(model_->node_count());
    update_speed_bound();
    set_threads(options.threads);
    reset();
}

void Simulation::Impl::update_speed_bound() {
    // A node faster than this is a runaway: 100 times the larger of 1 m/s, the
    // speed of a fall across the whole model, and the fastest anchor drive, or
    // the speed springs alone can give (PreparedBody::spring_speed; under a
    // stiffness scale s, sqrt(s) times as fast).
    const double fall = std::max(1.0, std::sqrt(2.0 * length(params_.gravity) * b_->diagonal));
    const double springs = stiffness_scale_ == 1.0f
                               ? b_->spring_speed
                               : b_->spring_speed * std::sqrt(static_cast<double>(stiffness_scale_));
    speed_bound_ = std::max(100.0 * std::max(fall, b_->drive_speed), springs);
}

void PreparedBody::build_spring_runs(detail::SpringValues& values) {
    // A spring's force does not change when its ends swap, so each is stored
    // with a < b. Sorted by (b - a, a), the springs of a grid fall into long runs
    // a, a+1, a+2, ... with one offset (the row springs of a cloth, the columns,
    // each diagonal): those are streamed by vectorised loops without index
    // arrays. Runs are cut at window boundaries (window_pass()), and run in
    // window order, so that the order in which a node receives forces is fixed
    // here, whatever the thread split.
    const Model& m = model;
    struct Entry {
        std::uint32_t a, offset, spring;
    };
    std::vector<Entry> entries;
    entries.reserve(m.springs.size() - ropes.size());
    for_each_hooke([&](std::uint32_t si) {
        const Spring& s = m.springs[si];
        const std::uint32_t a = std::min(s.a, s.b), b = std::max(s.a, s.b);
        entries.push_back({a, b - a, si});
    });
    std::sort(entries.begin(), entries.end(), [](const Entry& l, const Entry& r) {
        return l.offset != r.offset ? l.offset < r.offset : l.a < r.a;
    });
    values.runs.clear();
    values.run_k.clear();
    values.run_k_rest.clear();
    values.run_damping.clear();
    // Springs in no run, sorted by first node below: neighbouring springs
    // touch neighbouring memory.
    struct LooseSpring {
        std::uint32_t a = 0, b = 0;
        float rest = 0.0f, k = 0.0f, damping = 0.0f, own_damping = -1.0f;
    };
    std::vector<LooseSpring> loose;
    // A run may skip springs (kMaxStep): the gaps are filled with springs of no
    // force (k = 0, no damping).
    for (std::size_t i = 0; i < entries.size();) {
        const std::size_t j = run_end(
            entries, i, [](const Entry& l, const Entry& r) { return l.offset == r.offset; },
            [](const Entry& e) { return e.a; });
        if (j - i < kMinRun) {
            for (std::size_t e = i; e < j; ++e) {
                const Spring& s = m.springs[entries[e].spring];
                loose.push_back({entries[e].a, entries[e].a + entries[e].offset, s.rest,
                                 values.spring_k[entries[e].spring], values.spring_damping[entries[e].spring],
                                 own_damping_of(entries[e].spring)});
            }
            i = j;
            continue;
        }
        SpringRun run{entries[i].a, entries[i].offset, entries[j - 1].a - entries[i].a + 1,
                      static_cast<std::uint32_t>(values.run_k.size()), true, true};
        std::uint32_t next = run.a;  // the node of the run's next spring
        for (std::size_t e = i; e < j; ++e) {
            for (; next < entries[e].a; ++next) {  // a gap
                values.run_k.push_back(0.0f);
                values.run_k_rest.push_back(0.0f);
                values.run_damping.push_back(0.0f);
                run_rest.push_back(0.0f);
                run_own_damping.push_back(-1.0f);
                run.uniform = false;
                run.same_k = false;
            }
            const float k = values.spring_k[entries[e].spring];
            values.run_k.push_back(k);
            values.run_k_rest.push_back(k * m.springs[entries[e].spring].rest);
            values.run_damping.push_back(values.spring_damping[entries[e].spring]);
            run_rest.push_back(m.springs[entries[e].spring].rest);
            run_own_damping.push_back(own_damping_of(entries[e].spring));
            // k and the damping's source alike: the run holds them (same_k);
            // k * rest alike too: the run holds everything (uniform).
            run.same_k = run.same_k && values.run_k.back() == values.run_k[run.first] &&
                         run_own_damping.back() == run_own_damping[run.first];
            run.uniform = run.uniform && run.same_k && values.run_k_rest.back() == values.run_k_rest[run.first];
            ++next;
        }
        // A run with values per spring is padded with springs of no force to whole
        // blocks, so that the fused loop of sum_springs() takes all of it instead
        // of leaving a remainder to the buffer and two adds (Bullet's patch: rows
        // of 63 springs, runs of 254 or 255). The padding stays in the run's
        // window (build_partitions() and window_pass() rely on it), before the
        // run's first spring if there is no room after its last, and among the
        // model's nodes. Padding springs have k 0, so a padded run no longer
        // has one k (same_k) and reads k per spring: the fused loop over all of
        // it is worth more than the k saved (the short runs of a reordered
        // mesh; docs/PERFORMANCE.md, "Throughput on the models people make").
        const std::uint32_t window_begin = run.a / kWindow * kWindow;
        const auto extra = static_cast<std::uint32_t>((run.count + kBlock - 1) / kBlock * kBlock - run.count);
        const std::uint32_t after = std::min(extra, window_begin + kWindow - (run.a + run.count));
        const std::uint32_t before = extra - after;
        if (!run.uniform && run.offset >= kBlock && extra > 0 && before <= run.a - window_begin &&
            std::size_t{run.a} - before + run.count + extra + run.offset <= m.node_count()) {
            for (auto* slots : {&values.run_k, &values.run_k_rest, &values.run_damping, &run_rest,
                             &run_own_damping}) {
                slots->insert(slots->begin() + run.first, before, 0.0f);  // only this run's values move
                slots->insert(slots->end(), after, 0.0f);
            }
            run.a -= before;
            run.count += extra;
            run.same_k = false;
        }
        if (run.same_k) {
            run.k = values.run_k[run.first];
            run.damping = values.run_damping[run.first];
            run.own_damping = run_own_damping[run.first];
        }
        if (run.uniform) {  // one value for all: kept in the run, not per spring
            run.k_rest = values.run_k_rest[run.first];
            run.rest = run_rest[run.first];
            for (auto* slots : {&values.run_k, &values.run_k_rest, &values.run_damping, &run_rest,
                             &run_own_damping})
                slots->resize(run.first);
        }
        values.runs.push_back(run);
        i = j;
    }
    for (auto* slots : {&values.run_k, &values.run_k_rest, &values.run_damping, &run_rest,
                             &run_own_damping})
        slots->resize(slots->size() + kBlock, 0.0f);  // blocks may read past the last run
    std::stable_sort(values.runs.begin(), values.runs.end(), [](const SpringRun& l, const SpringRun& r) {
        return l.a / kWindow < r.a / kWindow;
    });
    max_offset = entries.empty() ? 0 : entries.back().offset;
    // What no step reads for this model is not kept (refill_springs() makes
    // the damping of an instance that sets its own).
    if (!values.damped) detail::release(values.run_damping);
    if (!group_damping) detail::release(run_own_damping);
    // Held as long as the body: without the slack of their growth.
    for (auto* slots : {&values.run_k, &values.run_k_rest, &values.run_damping, &run_rest, &run_own_damping})
        slots->shrink_to_fit();
    values.runs.shrink_to_fit();
    std::stable_sort(loose.begin(), loose.end(), [](const LooseSpring& l, const LooseSpring& r) { return l.a < r.a; });
    LooseSprings& out = values.loose;
    out = {};
    values.loose_count = static_cast<std::uint32_t>(loose.size());
    const std::size_t padded = loose.size() + kBlock;  // padding: node 0 to itself, k 0
    out.a.reserve(padded);
    out.b.reserve(padded);
    out.k.reserve(padded);
    out.k_rest.reserve(padded);
    loose_rest.reserve(loose.size());
    for (const LooseSpring& s : loose) {
        out.a.push_back(s.a);
        out.b.push_back(s.b);
        out.k.push_back(s.k);
        out.k_rest.push_back(s.k * s.rest);
        loose_rest.push_back(s.rest);
        if (values.per_spring_damping) out.damping.push_back(s.damping);  // else not read
        if (group_damping) loose_own_damping.push_back(s.own_damping);
    }
    out.one_k = !loose.empty() && std::all_of(loose.begin(), loose.end(), [&](const LooseSpring& s) {
        return s.k == loose[0].k;
    });
    out.a.resize(padded, 0);
    out.b.resize(padded, 0);
    out.k.resize(padded, 0.0f);
    out.k_rest.resize(padded, 0.0f);
    if (values.per_spring_damping) out.damping.resize(padded, 0.0f);
    out.damping.shrink_to_fit();
    loose_own_damping.shrink_to_fit();
}

void Simulation::Impl::set_threads(int threads) {
    if (threads < 0) throw Error("Simulation::set_threads: need at least 1 thread, or 0 to choose (got " +
                                 std::to_string(threads) + ")");
    if (threads == 0) {
        const auto hardware = static_cast<std::size_t>(std::max(1u, std::thread::hardware_concurrency()));
        const std::size_t by_size = std::max<std::size_t>(1, model_->node_count() / Simulation::kAutoThreadNodes);
        threads = static_cast<int>(std::min({hardware, by_size, std::size_t{kMaxAutoThreads}}));
    }
    if (threads != team_.size()) team_.resize(threads);
    build_partitions();
}

void Simulation::Impl::follow_thread_choice() {
    // The pool runs one task (solo) or one per thread as its accounts say
    // (worker_pool.hpp); the work is split for it, the split of the other way
    // kept for the next switch. Either split gives the same bits.
    if (!team_.follow_choice()) return;
    std::swap(partitions_, spare_partitions_);
    if (partitions_.size() == static_cast<std::size_t>(team_.tasks())) return;
    std::vector<Partition> kept = std::move(spare_partitions_);
    build_partitions();
    spare_partitions_ = std::move(kept);
}

void Simulation::Impl::build_partitions() {
    // Thread t owns a contiguous range of nodes (cut at multiples of 16 so two
    // threads never write one cache line) and of faces. It computes every spring
    // with an end in its range and adds the forces of its own ends only; the few
    // springs across a cut are computed by both sides.
    const std::size_t n = model_->node_count();
    const std::size_t count = static_cast<std::size_t>(team_.tasks());
    partitions_.assign(count, {});
    spare_partitions_.clear();
    auto cut = [&](std::size_t t, std::size_t total, std::size_t align) {
        const std::size_t c = total * t / count;
        return static_cast<std::uint32_t>(t == count ? total : std::min(total, c / align * align));
    };
    for (std::size_t t = 0; t < count; ++t) {
        Partition& p = partitions_[t];
        p.node_begin = cut(t, n, 16);
        p.node_end = cut(t + 1, n, 16);
        // Nodes within b_->max_offset of a cut are read by the neighbour's springs:
        // integrated only after every thread has summed its springs. Above a
        // cut, kBlock more: the run loops compute whole blocks of springs
        // and so read the ends of up to kBlock - 1 springs past a thread's last
        // (results never used), and those nodes must not be written meanwhile.
        p.shared_low_end = t == 0 ? p.node_begin
                                  : static_cast<std::uint32_t>(std::min<std::size_t>(
                                        p.node_end, std::size_t{p.node_begin} + b_->max_offset + kBlock));
        p.shared_high_begin =
            t + 1 == count ? p.node_end
                           : std::max(p.shared_low_end, p.node_end - std::min(p.node_end, b_->max_offset));
        if (p.node_begin == p.node_end) continue;
        // Its windows: from the first whose springs can reach its nodes.
        const std::uint32_t first_window = (p.node_begin - std::min(p.node_begin, b_->max_offset)) / kWindow;
        const std::uint32_t last_window = (p.node_end - 1) / kWindow;
        for (std::uint32_t w = first_window; w <= last_window; ++w)
            p.windows.push_back({.node_begin = std::max(p.node_begin, w * kWindow),
                                 .node_end = std::min(p.node_end, (w + 1) * kWindow)});
        auto window_of = [&](std::uint32_t a) -> Window* {
            const std::uint32_t w = a / kWindow;
            return w >= first_window && w <= last_window ? &p.windows[w - first_window] : nullptr;
        };
        for (std::uint32_t r = 0; r < springs_->runs.size(); ++r) {
            const SpringRun& run = springs_->runs[r];
            const ItemRange a = owned_items(run.a, run.count, p.node_begin, p.node_end);
            const ItemRange b = owned_items(run.a + run.offset, run.count, p.node_begin, p.node_end);
            if (a.empty() && b.empty()) continue;
            Piece piece{.item = r, .a_begin = a.begin, .a_end = a.end, .b_begin = b.begin, .b_end = b.end};
            piece.begin = std::min(a.empty() ? b.begin : a.begin, b.empty() ? a.begin : b.begin);
            piece.end = std::max(a.end, b.end);
            p.pieces.push_back(piece);
            window_of(run.a)->pieces_end = static_cast<std::uint32_t>(p.pieces.size());
        }
        // The only thread owns every node, so its loose springs are all of them
        // in their order: it reads the prepared ones instead of a copy.
        const LooseSprings& all = springs_->loose;
        p.loose = {};
        p.shares_loose = count == 1;
        for (std::uint32_t i = 0; i < springs_->loose_count; ++i) {
            const std::uint32_t a = all.a[i], b = all.b[i];
            const bool mine_a = a >= p.node_begin && a < p.node_end;
            const bool mine_b = b >= p.node_begin && b < p.node_end;
            if (!mine_a && !mine_b) continue;
            if (!p.shares_loose) {
                p.loose.a.push_back(a);
                p.loose.b.push_back(b);
                p.loose.k.push_back(all.k[i]);
                p.loose.k_rest.push_back(all.k_rest[i]);
                if (springs_->per_spring_damping) p.loose.damping.push_back(all.damping[i]);  // else not read
            }
            window_of(a)->loose_end = p.shares_loose ? i + 1 : static_cast<std::uint32_t>(p.loose.a.size());
        }
        // A window without springs of its own ends where the one before it ended.
        for (std::size_t w = 1; w < p.windows.size(); ++w) {
            p.windows[w].pieces_end = std::max(p.windows[w].pieces_end, p.windows[w - 1].pieces_end);
            p.windows[w].loose_end = std::max(p.windows[w].loose_end, p.windows[w - 1].loose_end);
        }
        // A block past the end: padding springs from the thread's first node to
        // itself exert no force and are never added. Its own node: the loop
        // reads the padding's ends, and a node of another thread may be being
        // integrated meanwhile (a data race, though the value is never used).
        if (!p.shares_loose) {
            p.loose.one_k = !p.loose.k.empty() && std::all_of(p.loose.k.begin(), p.loose.k.end(),
                                                               [&](float k) { return k == p.loose.k[0]; });
            const std::size_t padded = p.loose.a.size() + kBlock;
            p.loose.a.resize(padded, p.node_begin);
            p.loose.b.resize(padded, p.node_begin);
            p.loose.k.resize(padded, 0.0f);
            p.loose.k_rest.resize(padded, 0.0f);
            if (springs_->per_spring_damping) p.loose.damping.resize(padded, 0.0f);
            // Held while the instance lives: without the slack of their growth.
            for (auto* values : {&p.loose.k, &p.loose.k_rest, &p.loose.damping}) values->shrink_to_fit();
            p.loose.a.shrink_to_fit();
            p.loose.b.shrink_to_fit();
        }
        p.pieces.shrink_to_fit();
        build_face_pieces(p);
        p.face_pieces.shrink_to_fit();
        p.loose_faces.shrink_to_fit();
        p.scratch.assign(detail::kScratchArrays * kScratchStride, 0.0f);
    }
    choose_gather_state();
}

void Simulation::Impl::reset() {
    const Model& m = *model_;
    const std::size_t n = m.node_count();
    x_.assign(m.positions);
    if (params_.integrator == Integrator::verlet) previous_.assign(m.positions);
    else detail::release(previous_);
    v_.assign(n, Vec3{});
    f_.assign(n, Vec3{});
    clear_contacts();
    reset_external();
    anchor_state_.clear();
    anchor_velocity_.clear();
    for (const Anchor& a : m.anchors) {
        anchor_state_.push_back({m.positions[a.node], a.center, a.axis, 0.0, a.angular_speed});
        anchor_velocity_.push_back(a.drive == AnchorDrive::velocity ? a.velocity : Vec3{});
    }
    tether_point_.clear();
    for (const Tether& t : m.tethers) tether_point_.push_back(t.point);
    bead_place_.clear();
    for (const Bead& b : m.beads) bead_place_.push_back(b.start);
    bead_speed_.assign(m.beads.size(), 0.0f);
    time_ = 0.0;
    substeps_ = 0;
    failure_.clear();
    wake();
    clear_anchor_targets();
    anchor_frame_.assign(m.anchors.size(), Transform{});
    wind_ = wind_at(params_, 0.0);
    // Anchors on tracks start where their track puts them at time 0 (a clip
    // need not start at the bind pose), at rest.
    for (const Anchor& a : m.anchors) {
        if (a.drive != AnchorDrive::track) continue;
        const Vec3 p = apply(track_frame(m.anchor_tracks[a.track], 0.0), m.positions[a.node]);
        x_.set(a.node, p);
        set_previous(a.node, p);
    }
    publish();
    if (!(placement_ == Transform{})) {
        // The rest pose where the instance stands (see teleport()).
        move_rigidly(placement_.rotation, placement_.position, false);
        return;
    }
    update_bead_positions();
    recompute_normals(true);  // the guard set the sums to 0
}

void Simulation::Impl::reset_external() {
    if (b_->has_constant_forces) external_.assign(b_->constant_external);
    else external_ = {};
    external_applied_ = false;
}

StepResult Simulation::Impl::step(float frame_dt) {
    if (!failure_.empty()) {
        if (runaway_policy_ == RunawayPolicy::throw_error) throw SimulationError(failure_);
        return {.stopped = true};  // RunawayPolicy::stop froze it
    }
    if (!std::isfinite(frame_dt) || frame_dt < 0.0f)
        throw Error("Simulation::step: frame_dt must be a finite number >= 0 s");
    if (frame_dt == 0.0f) return {};
    const float max_dt = params_.max_substep;
    // A huge frame_dt would mean a step that never ends (and an out-of-range cast).
    if (frame_dt / max_dt > static_cast<float>(kMaxSubstepsPerStep))
        throw Error("Simulation::step: frame_dt " + std::to_string(frame_dt) + " s needs more than " +
                    std::to_string(kMaxSubstepsPerStep) + " substeps of max_substep; step in shorter frames");
    if (asleep_) {  // O(1): the nodes are frozen (see fall_asleep())
        time_ += frame_dt;
        return {.asleep = true};
    }
    const std::uint64_t substeps = substeps_per_frame(frame_dt, max_dt);
    const float dt = frame_dt / static_cast<float>(substeps);
    // Energy loss is defined per 1/60 s frame (Oliveira multiplies the velocity
    // once a frame); per substep that is energy_loss^(dt * 60), the same decay at
    // any substep size.
    const float keep = std::pow(params_.energy_loss, dt * 60.0f);
    // verlet_damping (the Source engine's 0.98) is defined per 1/60 s frame as
    // well: kept per substep as a fixed share it would damp 4 times as hard at
    // 0.5 ms as at 2 ms substeps, and change with the frame rate. A node falling
    // under gravity reaches u = u keep + g dt^2 per substep (u = x - x_prev), that
    // is v = g dt / (1 - keep) -> g / (60 ln(1 / verlet_damping)) as dt -> 0.
    verlet_keep_ = std::pow(params_.verlet_damping, dt * 60.0f);
    wind_ = wind_at(params_, time_);  // gusts last seconds: once a frame is enough
    substep_seconds_ = static_cast<double>(frame_dt) / static_cast<double>(substeps);
    StepResult result;
    result.substeps = substep_budget_ != 0 ? std::min(substeps, substep_budget_) : substeps;
    result.dropped_substeps = substeps - result.substeps;
    if (runaway_policy_ == RunawayPolicy::restore_last_good) keep_last_good();
    drive_time_ = time_;
    begin_anchor_targets(result.substeps);
    const StageArgs args{.dt = dt, .velocity_keep = keep};
    follow_thread_choice();
    for (std::uint64_t i = 0; i < result.substeps; ++i) substep(args);
    end_anchor_targets();
    if (external_applied_) reset_external();  // apply_force() lasts one step
    // A budgeted frame simulates only the substeps it ran.
    const double simulated = result.dropped_substeps == 0
                                 ? static_cast<double>(frame_dt)
                                 : substep_seconds_ * static_cast<double>(result.substeps);
    time_ += simulated;
    for (const Stage& stage : kStages)
        if (stage.when == Stage::every_frame) stage.run(*this, args);
    if (!failure_.empty()) {
        report_runaway(result);
        return result;
    }
    if (sleep_.enabled) watch_sleep(simulated);
    return result;
}

// The step, as one list of named stages in the order they run. Each substep
// runs the every_substep stages; after the last substep of a frame, the
// every_frame ones. To add a force, add its term to node_forces() (per node)
// or a stage between "forces" and "integrate" that adds into f_ (as "bead
// loads" does); a constraint goes after "integrate" and before "anchors".
// docs/ARCHITECTURE.md describes each stage.
const Simulation::Impl::Stage Simulation::Impl::kStages[] = {
    // Gravity, wind and air friction, ground, external forces, then every
    // Hooke spring with its damping (the kernel chosen: reference or batched).
    {"forces", Stage::every_substep, [](Impl& s, const StageArgs& a) { s.stage_forces(a); }},
    // Beads weigh on the two nodes of the segment they ride on (Garrido).
    {"bead loads", Stage::every_substep, [](Impl& s, const StageArgs& a) { s.stage_bead_loads(a); }},
    // The gas in a closed face mesh pushes its faces out (Parameters::pressure).
    {"pressure", Stage::every_substep, [](Impl& s, const StageArgs& a) { s.stage_pressure(a); }},
    // Tetrahedra pushed back to their signed rest volume (Model::volume_elements).
    {"volume elements", Stage::every_substep, [](Impl& s, const StageArgs& a) { s.stage_volume_elements(a); }},
    // Velocities and positions from the forces (Parameters::integrator).
    {"integrate", Stage::every_substep, [](Impl& s, const StageArgs& a) { s.stage_integrate(a); }},
    // Source engine rope sticks: overlong segments shortened, a few passes.
    {"rope constraints", Stage::every_substep, [](Impl& s, const StageArgs& a) { s.stage_rope_constraints(a); }},
    {"tethers", Stage::every_substep, [](Impl& s, const StageArgs& a) { s.stage_tethers(a); }},
    // Beads slide along their ropes under gravity and friction.
    {"beads", Stage::every_substep, [](Impl& s, const StageArgs& a) { s.stage_beads(a); }},
    // Nodes of the body kept self_collision_distance apart, with friction.
    {"self-collision", Stage::every_substep, [](Impl& s, const StageArgs& a) { s.stage_self_collision(a); }},
    // Nodes kept out of the colliders, with friction and restitution.
    {"contacts", Stage::every_substep, [](Impl& s, const StageArgs& a) { s.stage_contacts(a); }},
    // Anchored nodes set where their drives hold them (fixed, velocity, circle).
    {"anchors", Stage::every_substep, [](Impl& s, const StageArgs& a) { s.stage_anchors(a); }},
    // Publishes positions() and velocities() and stops a runaway (SimulationError).
    {"guard", Stage::every_frame, [](Impl& s, const StageArgs& a) { s.stage_guard(a); }},
    // Where beads are drawn, and the vertex normals of the faces.
    {"normals", Stage::every_frame, [](Impl& s, const StageArgs& a) { s.stage_normals(a); }},
    // The step's contacts, summed per node and collider (Simulation::contacts()).
    {"contact report", Stage::every_frame, [](Impl& s, const StageArgs& a) { s.stage_contact_report(a); }},
};

std::size_t Simulation::Impl::stage_index(std::string_view name) {
    for (std::size_t i = 0; i < std::size(kStages); ++i)
        if (name == kStages[i].name) return i;
    throw std::logic_error("no stage called " + std::string(name));
}

void Simulation::Impl::substep(const StageArgs& args) {
    // The fused window pass is an optimisation of the same list, not another
    // order: with the batched kernel it runs "forces" (and, without beads or
    // pressure or volume elements, "bead loads", "pressure" and "volume
    // elements", which have nothing to do, and
    // "integrate") window by window in one pass through the nodes
    // (window_pass()); the list goes on after the last stage it ran. Each node gets the same operations in the same order
    // as when the stages run one after another.
    std::size_t next = 0;
    if (params_.integrator == Integrator::implicit) next = implicit_pass(args);
    else if (kernel_ == SpringKernel::batched) next = fused_window_pass(args);
    for (std::size_t i = next; i < std::size(kStages); ++i)
        if (kStages[i].when == Stage::every_substep) kStages[i].run(*this, args);
    ++substeps_;
}

std::size_t Simulation::Impl::fused_window_pass(const StageArgs& args) {
    if (has_loads()) {  // beads, gas and volume elements load the nodes before integration
        stage_forces(args);
        static const std::size_t bead_loads = stage_index("bead loads");
        return bead_loads;
    }
    // Forces and integration in one pass through the nodes; the nodes other
    // threads read are integrated once every thread is done, by the thread
    // that finishes last (a few max_offset-wide bands at the cuts), in the same
    // fork-join: one synchronisation per substep, not two. Integration is per
    // node, so who integrates a node does not change its bits.
    pack_gather_state();
    std::atomic<std::size_t> passes_left{partitions_.size()};
    run_on(team_, [&](int t) {
        window_pass(partitions_[static_cast<std::size_t>(t)], true, args.dt, args.velocity_keep);
        // acq_rel: the last one sees every other thread's forces and positions.
        if (partitions_.size() > 1 && passes_left.fetch_sub(1, std::memory_order_acq_rel) == 1)
            for (const Partition& p : partitions_) {
                integrate_range(p.node_begin, p.shared_low_end, args.dt, args.velocity_keep);
                integrate_range(p.shared_high_begin, p.node_end, args.dt, args.velocity_keep);
            }
    });
    static const std::size_t rope_constraints = stage_index("rope constraints");
    return rope_constraints;
}

void Simulation::Impl::stage_forces(const StageArgs& args) {
    gather_state_current_ = false;
    if (kernel_ == SpringKernel::reference) {
        // Each over all nodes, in the seed's order.
        run_on(team_, [&](int t) {
            const Partition& p = partitions_[static_cast<std::size_t>(t)];
            accumulate_node_forces(p.node_begin, p.node_end);
        });
        accumulate_springs_reference();
    } else {
        pack_gather_state();
        const bool elements = prepare_element_forces_ahead();
        run_on(team_, [&](int t) {
            window_pass(partitions_[static_cast<std::size_t>(t)], false, args.dt, args.velocity_keep);
            if (elements) compute_element_blocks(t, team_.tasks());
        });
        element_forces_ready_ = elements;
    }
}

void Simulation::Impl::stage_bead_loads(const StageArgs&) { apply_bead_loads(); }

void Simulation::Impl::stage_integrate(const StageArgs& args) { integrate(args.dt, args.velocity_keep); }

void Simulation::Impl::stage_rope_constraints(const StageArgs& args) {
    if (b_->ropes.empty()) return;
    // Constraint corrections become velocity too, so a rope pulled tight loses
    // its outward speed (the same idea as Builderboy's velocity constraint).
    std::vector<Vec3>& before = unconstrained_;
    x_.copy_to(before, node_count());
    solve_rope_constraints();
    if (params_.integrator != Integrator::verlet) {
        const float inv_dt = 1.0f / args.dt;
        for (std::size_t i = 0; i < before.size(); ++i)
            v_.set(i, v_.get(i) + (x_.get(i) - before[i]) * inv_dt);
    }
}

void Simulation::Impl::stage_tethers(const StageArgs& args) { apply_tethers(args.dt); }

void Simulation::Impl::stage_beads(const StageArgs& args) { slide_beads(args.dt, args.velocity_keep); }

void Simulation::Impl::stage_anchors(const StageArgs& args) { apply_anchors(args.dt); }

void Simulation::Impl::stage_guard(const StageArgs&) { check_state(); }

void Simulation::Impl::stage_normals(const StageArgs&) {
    if (!failure_.empty()) return;  // a runaway: the policy decides what is shown
    update_bead_positions();
    recompute_normals(true);  // the guard set the sums to 0
}

namespace {

// Per-node forces over one node range: external + gravity, Tunca's air friction
// (towards the wind) and ground. Written with selects so that it vectorises; the
// float operations are those of the plain form, in the same order.
struct NodeForceTerms {
    Vec3 gravity;
    Vec3 wind;
    float air_friction;
    float ground_height, repulsion, friction, absorption;
};

// Without external forces the external arrays are not read (0 is added, so the
// sums are the same bits), and with one mass for all nodes the mass array is
// not read either: the node passes stream a quarter fewer bytes.
template <bool kAir, bool kGround, bool kExternal, bool kUniformMass>
SPRINGKIT_STAGE_CLONES
void node_forces(const float* __restrict y, const float* __restrict vx, const float* __restrict vy,
                 const float* __restrict vz, const float* __restrict ex, const float* __restrict ey,
                 const float* __restrict ez, const float* __restrict mass, float mass_all, float* __restrict fx,
                 float* __restrict fy, float* __restrict fz, std::size_t begin, std::size_t end,
                 const NodeForceTerms t) {
    for (std::size_t i = begin; i < end; ++i) {
        const float m = kUniformMass ? mass_all : mass[i];
        float gx = (kExternal ? ex[i] : 0.0f) + t.gravity.x * m;
        float gy = (kExternal ? ey[i] : 0.0f) + t.gravity.y * m;
        float gz = (kExternal ? ez[i] : 0.0f) + t.gravity.z * m;
        if constexpr (kAir) {
            gx -= (vx[i] - t.wind.x) * t.air_friction;
            gy -= (vy[i] - t.wind.y) * t.air_friction;
            gz -= (vz[i] - t.wind.z) * t.air_friction;
        }
        if constexpr (kGround) {
            // Tunca's ground: sliding friction on the horizontal velocity, absorption of
            // downward speed only, and a spring-like push back up.
            const bool below = y[i] < t.ground_height;
            gx = below ? gx - vx[i] * t.friction : gx;
            gz = below ? gz - vz[i] * t.friction : gz;
            gy = below && vy[i] < 0.0f ? gy - vy[i] * t.absorption : gy;
            gy = below ? gy + (t.ground_height - y[i]) * t.repulsion : gy;
        }
        fx[i] = gx;
        fy[i] = gy;
        fz[i] = gz;
    }
}

}  // namespace

void Simulation::Impl::accumulate_node_forces(std::uint32_t begin, std::uint32_t end) {
    const Parameters& p = params_;
    const Ground g = p.ground.value_or(Ground{});
    const NodeForceTerms terms{p.gravity, wind_, p.air_friction, g.height, g.repulsion, g.friction, g.absorption};
    with_flags(
        [&](auto air, auto ground, auto external, auto uniform_mass) {
            node_forces<air, ground, external, uniform_mass>(
                x_.y.data(), v_.x.data(), v_.y.data(), v_.z.data(), external_.x.data(), external_.y.data(),
                external_.z.data(), b_->mass.data(), b_->common_mass, f_.x.data(), f_.y.data(), f_.z.data(), begin, end,
                terms);
        },
        p.air_friction > 0.0f, p.ground.has_value(), b_->has_constant_forces || external_applied_, b_->uniform_mass);
}

void Simulation::Impl::accumulate_springs_reference() {
    // Hooke springs: each computed once, +F on one end and -F on the other
    // (Oliveira's optimisation note), with Tunca's inner friction along the
    // spring, c ((v_b - v_a) . d) d / |d|^2: a central pair of forces, which
    // keeps the angular momentum (detail::damping_scale()).
    const Model& m = *model_;
    b_->for_each_hooke([&](std::uint32_t si) {
        const Spring& s = m.springs[si];
        const Vec3 d = x_.get(s.b) - x_.get(s.a);
        const float len = length(d);
        Vec3 f{};
        if (len > kSpringTolerance) {
            f = d * (springs_->k_of(si) * (len - s.rest) / len);
            const float damping = springs_->damping_of(si);
            if (damping > 0.0f) f += d * (damping * dot(v_.get(s.b) - v_.get(s.a), d) / (len * len));
        }
        f_.set(s.a, f_.get(s.a) + f);
        f_.set(s.b, f_.get(s.b) - f);
    });
}

namespace detail {
void inverse_spring_lengths(const float* length_squared, float* inverse_length) {
    inverse_sqrt_block<kBlock>(length_squared, inverse_length);
}
}  // namespace detail

namespace {

// The springs a+i -> b+i of one run, for i in [begin, end), with the force of
// hooke_scale() (spring_force.hpp) and Tunca's inner friction, as loops the
// compiler vectorises; the loop's scalar remainder computes bit-identical
// values. Either stores each force in out (to be added by add_ranges or
// add_interleaved_run) or, when the run's a ends and b ends are distinct nodes,
// adds it straight into the node forces: +F at a, -F at b.
struct RunArrays {
    const float* ax;
    const float* ay;
    const float* az;
    const float* bx;
    const float* by;
    const float* bz;
    const float* avx;
    const float* avy;
    const float* avz;
    const float* bvx;
    const float* bvy;
    const float* bvz;
    const float* k;
    const float* k_rest;   ///< k * rest per spring
    const float* damping;  ///< per spring: the model's, or 0 in a run's gaps
    float* out_ax;  ///< force at the a ends (fused) or the buffer (not fused)
    float* out_ay;
    float* out_az;
    float* out_bx;  ///< force at the b ends (fused only)
    float* out_by;
    float* out_bz;
};

// Where a run's values come from: per spring, k and damping from the run and
// k * rest per spring (SpringRun::same_k), or all from the run (uniform).
enum class RunValues { per_spring, same_k, uniform };

template <bool kDamped, bool kFused, RunValues kValues>
SPRINGKIT_STAGE_CLONES
void run_forces(const float* __restrict ax, const float* __restrict ay, const float* __restrict az,
                const float* __restrict bx, const float* __restrict by, const float* __restrict bz,
                const float* __restrict avx, const float* __restrict avy, const float* __restrict avz,
                const float* __restrict bvx, const float* __restrict bvy, const float* __restrict bvz,
                const float* __restrict k, const float* __restrict k_rest, const float* __restrict damping,
                float* __restrict oax, float* __restrict oay, float* __restrict oaz, float* __restrict obx,
                float* __restrict oby, float* __restrict obz, std::size_t begin, std::size_t end) {
    // Whole blocks: [begin, end) rounded up to kBlock springs (fused callers pass
    // whole blocks only).
    for (std::size_t block = begin; block < end; block += kBlock) {
        float dx[kBlock], dy[kBlock], dz[kBlock], length_squared[kBlock], inverse_length[kBlock];
        for (std::size_t j = 0; j < kBlock; ++j) {
            const std::size_t i = block + j;
            dx[j] = bx[i] - ax[i];
            dy[j] = by[i] - ay[i];
            dz[j] = bz[i] - az[i];
            length_squared[j] = squared_length(dx[j], dy[j], dz[j]);
        }
        inverse_sqrt_block<kBlock>(length_squared, inverse_length);
        for (std::size_t j = 0; j < kBlock; ++j) {
            const std::size_t i = block + j;
            constexpr bool kOneK = kValues != RunValues::per_spring;
            float s = hooke_scale(length_squared[j], inverse_length[j], kOneK ? k[0] : k[i],
                                  kValues == RunValues::uniform ? k_rest[0] : k_rest[i]);
            if constexpr (kDamped) {  // along the spring only (damping_scale())
                const float c = kOneK ? damping[0] : damping[i];
                const float closing =
                    closing_speed(bvx[i] - avx[i], bvy[i] - avy[i], bvz[i] - avz[i], dx[j], dy[j], dz[j]);
                s += damping_scale(length_squared[j], inverse_length[j], c, closing);
            }
            const float gx = dx[j] * s, gy = dy[j] * s, gz = dz[j] * s;
            if constexpr (kFused) {
                oax[i] += gx;
                oay[i] += gy;
                oaz[i] += gz;
                obx[i] -= gx;
                oby[i] -= gy;
                obz[i] -= gz;
            } else {
                oax[i] = gx;
                oay[i] = gy;
                oaz[i] = gz;
            }
        }
    }
}

template <bool kDamped, bool kFused, RunValues kValues>
void run_forces(const RunArrays& r, std::size_t begin, std::size_t end) {
    run_forces<kDamped, kFused, kValues>(r.ax, r.ay, r.az, r.bx, r.by, r.bz, r.avx, r.avy, r.avz, r.bvx, r.bvy,
                                          r.bvz, r.k, r.k_rest, r.damping, r.out_ax, r.out_ay, r.out_az,
                                          r.out_bx, r.out_by, r.out_bz, begin, end);
}

// Picks the loop for a run: damped or not, and where its values come from.
template <bool kFused>
void run_forces(const RunArrays& r, const SpringRun& run, bool damped, std::size_t begin, std::size_t end) {
    with_flags(
        [&](auto is_damped) {
            if (run.uniform) run_forces<is_damped, kFused, RunValues::uniform>(r, begin, end);
            else if (run.same_k) run_forces<is_damped, kFused, RunValues::same_k>(r, begin, end);
            else run_forces<is_damped, kFused, RunValues::per_spring>(r, begin, end);
        },
        damped);
}

// The same for springs a[i] -> b[i] given by index, count rounded up to blocks;
// damping[i] per spring (kPerSpring: springs of groups with their own damping
// among them), else damping[0] for all.
template <bool kDamped, bool kPerSpring>
SPRINGKIT_STAGE_CLONES
void loose_forces(const float* __restrict x, const float* __restrict y, const float* __restrict z,
                  const float* __restrict vx, const float* __restrict vy, const float* __restrict vz,
                  const std::uint32_t* __restrict a, const std::uint32_t* __restrict b,
                  const float* __restrict k, const float* __restrict k_rest, const float* __restrict damping,
                  std::size_t count,
                  float* __restrict fx, float* __restrict fy, float* __restrict fz) {
    for (std::size_t block = 0; block < count; block += kBlock) {
        float dx[kBlock], dy[kBlock], dz[kBlock], length_squared[kBlock], inverse_length[kBlock];
        for (std::size_t j = 0; j < kBlock; ++j) {
            const std::size_t i = block + j;
            const std::uint32_t ia = a[i], ib = b[i];
            dx[j] = x[ib] - x[ia];
            dy[j] = y[ib] - y[ia];
            dz[j] = z[ib] - z[ia];
            length_squared[j] = squared_length(dx[j], dy[j], dz[j]);
        }
        inverse_sqrt_block<kBlock>(length_squared, inverse_length);
        for (std::size_t j = 0; j < kBlock; ++j) {
            const std::size_t i = block + j;
            const std::uint32_t ia = a[i], ib = b[i];
            float s = hooke_scale(length_squared[j], inverse_length[j], k[i], k_rest[i]);
            if constexpr (kDamped) {  // along the spring only (damping_scale())
                const float closing =
                    closing_speed(vx[ib] - vx[ia], vy[ib] - vy[ia], vz[ib] - vz[ia], dx[j], dy[j], dz[j]);
                s += damping_scale(length_squared[j], inverse_length[j], kPerSpring ? damping[i] : damping[0],
                                   closing);
            }
            fx[i] = dx[j] * s;
            fy[i] = dy[j] * s;
            fz[i] = dz[j] * s;
        }
    }
}

// d[c * kWindow + j] = p[8 b[j] + c] - p[8 a[j] + c] for c in [0, 6) and j in
// [0, count) rounded up to whole blocks (count <= kWindow). A chunk at a time,
// before its forces: a loop that read them a block after storing them would
// load 512 bits that two 256-bit stores wrote, which the CPU cannot forward
// from its store buffer and waits for.
using PackedDifferences = void (*)(const float* __restrict p, const std::uint32_t* __restrict a,
                                   const std::uint32_t* __restrict b, std::size_t count, float* __restrict d);

#if defined(SPRINGKIT_AVX2_INTRINSICS)
// Rows r[j] = spring j's (b - a), eight springs at a time.
__attribute__((target("avx2"))) void packed_differences_avx2(const float* __restrict p,
                                                             const std::uint32_t* __restrict a,
                                                             const std::uint32_t* __restrict b,
                                                             std::size_t count, float* __restrict d) {
    static_assert(kBlock % 8 == 0);
    for (std::size_t j0 = 0; j0 < count; j0 += 8) {
        __m256 r[8], column[8];
        for (std::size_t j = 0; j < 8; ++j)
            r[j] = _mm256_sub_ps(_mm256_loadu_ps(p + std::size_t{b[j0 + j]} * kPackedStride),
                                 _mm256_loadu_ps(p + std::size_t{a[j0 + j]} * kPackedStride));
        detail::transpose8(r, column);
        for (std::size_t c = 0; c < 6; ++c) _mm256_storeu_ps(d + c * kWindow + j0, column[c]);
    }
}
#endif

// The transposing form where the CPU has AVX2, else none: element by element
// from the packed state is slower than from the six arrays, so without AVX2
// the packed state is not kept.
PackedDifferences packed_differences() {
#if defined(SPRINGKIT_AVX2_INTRINSICS)
    return detail::has_avx2() ? &packed_differences_avx2 : nullptr;
#else
    return nullptr;
#endif
}

// loose_forces() from the differences of the packed node state, d as
// PackedDifferences writes them; kOneK: k[0] for every spring
// (LooseSprings::one_k), a stream fewer.
template <bool kDamped, bool kPerSpring, bool kOneK>
SPRINGKIT_STAGE_CLONES
void loose_forces_packed(const float* __restrict d, const float* __restrict k, const float* __restrict k_rest,
                         const float* __restrict damping, std::size_t count, float* __restrict fx,
                         float* __restrict fy, float* __restrict fz) {
    const float* dx = d;
    const float* dy = d + kWindow;
    const float* dz = d + 2 * kWindow;
    for (std::size_t block = 0; block < count; block += kBlock) {
        float length_squared[kBlock], inverse_length[kBlock];
        for (std::size_t j = 0; j < kBlock; ++j) {
            const std::size_t i = block + j;
            length_squared[j] = squared_length(dx[i], dy[i], dz[i]);
        }
        inverse_sqrt_block<kBlock>(length_squared, inverse_length);
        for (std::size_t j = 0; j < kBlock; ++j) {
            const std::size_t i = block + j;
            float s = hooke_scale(length_squared[j], inverse_length[j], kOneK ? k[0] : k[i], k_rest[i]);
            if constexpr (kDamped) {  // along the spring only (damping_scale())
                const float closing =
                    closing_speed(d[3 * kWindow + i], d[4 * kWindow + i], d[5 * kWindow + i], dx[i], dy[i], dz[i]);
                s += damping_scale(length_squared[j], inverse_length[j], kPerSpring ? damping[i] : damping[0],
                                   closing);
            }
            fx[i] = dx[i] * s;
            fy[i] = dy[i] * s;
            fz[i] = dz[i] * s;
        }
    }
}

// Packs the positions and velocities of nodes [begin, end) (see kPackedStride):
// eight nodes at a time by transpose8() (six rows of eight nodes and two of
// zeros in, eight records out, each stored as 8 floats whose last two the next
// record overwrites), the rest one by one. The eighth record's last two floats
// land on node i + 8, which must then be this range's too (another thread
// packs the next range): the loop stops short of the range's last node.
#if defined(SPRINGKIT_AVX2_INTRINSICS)
__attribute__((target("avx2"))) void pack_node_state(const float* __restrict x, const float* __restrict y,
                                                     const float* __restrict z, const float* __restrict vx,
                                                     const float* __restrict vy, const float* __restrict vz,
                                                     float* __restrict p, std::uint32_t begin, std::uint32_t end) {
    std::size_t i = begin;
    for (; i + 8 < end; i += 8) {
        const __m256 r[8] = {_mm256_loadu_ps(x + i),  _mm256_loadu_ps(y + i),  _mm256_loadu_ps(z + i),
                             _mm256_loadu_ps(vx + i), _mm256_loadu_ps(vy + i), _mm256_loadu_ps(vz + i),
                             _mm256_setzero_ps(),     _mm256_setzero_ps()};
        __m256 record[8];
        detail::transpose8(r, record);
        for (std::size_t j = 0; j < 8; ++j) _mm256_storeu_ps(p + (i + j) * kPackedStride, record[j]);
    }
    for (; i < end; ++i) {
        float* q = p + i * kPackedStride;
        q[0] = x[i];
        q[1] = y[i];
        q[2] = z[i];
        q[3] = vx[i];
        q[4] = vy[i];
        q[5] = vz[i];
    }
}
#endif

// Adds a run's buffered forces g (g[i] for its spring i) into its nodes, F
// starting at its first a end: node j gets -g[j - offset] if it is the b end of
// a spring in [b_begin, b_end), then +g[j] if it is the a end of one in
// [a_begin, a_end): the order and the sums of two passes (subtract, then add)
// in one pass over the nodes, for runs whose a and b ends interleave (offset
// below a block; g must have a block of readable floats before it).
SPRINGKIT_STAGE_CLONES
void add_interleaved_run(float* __restrict Fx, float* __restrict Fy, float* __restrict Fz,
                         const float* __restrict gx, const float* __restrict gy, const float* __restrict gz,
                         std::uint32_t offset, std::uint32_t a_begin, std::uint32_t a_end, std::uint32_t b_begin,
                         std::uint32_t b_end) {
    // 32-bit signed indices: the range tests vectorise with 16 lanes, and
    // j - offset may be negative.
    const int d = static_cast<int>(offset);
    const int a0 = static_cast<int>(a_begin), a1 = static_cast<int>(a_end);
    const int b0 = static_cast<int>(b_begin) + d, b1 = static_cast<int>(b_end) + d;
    // Only over the nodes of non-empty ranges: every node in between is this
    // thread's, but an empty range (0, 0) would reach back over other threads'
    // nodes, and writing one back unchanged can undo another thread's update.
    int first = INT_MAX, last = INT_MIN;
    if (a0 < a1) {
        first = a0;
        last = a1;
    }
    if (b0 < b1) {
        first = std::min(first, b0);
        last = std::max(last, b1);
    }
    for (int j = first; j < last; ++j) {
        const bool b_side = j >= b0 && j < b1;
        const bool a_side = j >= a0 && j < a1;
        // Every load unconditional: GCC vectorises selects, not loads under a condition.
        const float bx_j = gx[j - d], by_j = gy[j - d], bz_j = gz[j - d], ax_j = gx[j], ay_j = gy[j], az_j = gz[j];
        float x = Fx[j], y = Fy[j], z = Fz[j];
        x = b_side ? x - bx_j : x;
        y = b_side ? y - by_j : y;
        z = b_side ? z - bz_j : z;
        Fx[j] = a_side ? x + ax_j : x;
        Fy[j] = a_side ? y + ay_j : y;
        Fz[j] = a_side ? z + az_j : z;
    }
}

// Adds the forces g of `count` loose springs a[j] -> b[j] (in order of a, and
// a[j] < b[j]) into the nodes [node_begin, node_end) among their ends: +g[j] at
// a[j], then -g[j] at b[j], spring by spring. A node is the a end of several
// springs in a row (about half its springs); its sum is kept in registers
// while a stays the same and stored when a moves on, instead of each spring
// loading what the one before stored (a chain of store-to-load forwards,
// several cycles a spring). The same additions in the same order: no b end
// among those springs is their a (b > a, and the springs of any smaller a
// came before), so nothing else changes the node meanwhile.
void add_loose_forces(float* __restrict Fx, float* __restrict Fy, float* __restrict Fz,
                      const float* __restrict gx, const float* __restrict gy, const float* __restrict gz,
                      const std::uint32_t* __restrict a, const std::uint32_t* __restrict b, std::size_t count,
                      std::uint32_t node_begin, std::uint32_t node_end) {
    auto mine = [&](std::uint32_t node) { return node >= node_begin && node < node_end; };
    std::uint32_t node = UINT32_MAX;  // the a end whose sum sx, sy, sz holds
    bool node_mine = false;
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    for (std::size_t j = 0; j < count; ++j) {
        if (a[j] != node) {
            if (node_mine) {
                Fx[node] = sx;
                Fy[node] = sy;
                Fz[node] = sz;
            }
            node = a[j];
            node_mine = mine(node);
            // Another thread's node is never read: it may be being written.
            sx = node_mine ? Fx[node] : 0.0f;
            sy = node_mine ? Fy[node] : 0.0f;
            sz = node_mine ? Fz[node] : 0.0f;
        }
        sx += gx[j];
        sy += gy[j];
        sz += gz[j];
        const std::uint32_t nb = b[j];
        if (mine(nb)) {
            Fx[nb] -= gx[j];
            Fy[nb] -= gy[j];
            Fz[nb] -= gz[j];
        }
    }
    if (node_mine) {
        Fx[node] = sx;
        Fy[node] = sy;
        Fz[node] = sz;
    }
}

}  // namespace

void Simulation::Impl::choose_gather_state() {
    // Packing costs a pass over the nodes per substep and saves gathers per
    // loose spring: kept where there is at least one loose spring per node
    // (a shuffled cloth after reorder_for_locality() has two and gains,
    // docs/PERFORMANCE.md, "Converted meshes against grids").
    const std::size_t n = model_->node_count();
    // The implicit integrator sums no springs this way: nothing to pack.
    const bool pack = packed_differences() != nullptr && springs_->loose_count >= n &&
                      params_.integrator != Integrator::implicit;
    if (pack) gather_state_.assign(n * kPackedStride + kPackedTail, 0.0f);
    else detail::release(gather_state_);
}

void Simulation::Impl::pack_gather_state() {
    // Every thread's loose springs may reach any node: the whole state is
    // packed before any thread sums (one fork-join more per substep, only for
    // models that keep the packed state).
#if defined(SPRINGKIT_AVX2_INTRINSICS)
    if (gather_state_.empty()) return;
    gather_state_current_ = true;
    run_on(team_, [&](int t) {
        const Partition& p = partitions_[static_cast<std::size_t>(t)];
        pack_node_state(x_.x.data(), x_.y.data(), x_.z.data(), v_.x.data(), v_.y.data(), v_.z.data(),
                        gather_state_.data(), p.node_begin, p.node_end);
    });
#endif
}

void Simulation::Impl::window_pass(Partition& part, bool then_integrate, float dt, float velocity_keep) {
    // The node order is cut into windows of kWindow nodes; each run or loose
    // spring belongs to the window of its first node a (< b). Window by window,
    // in order: the per-node forces are set for the nodes this window's springs
    // reach (up to b_->max_offset ahead), the window's springs are summed, and then
    // its own nodes are complete and may be integrated, since the springs of
    // later windows only touch nodes further on. The node arrays so pass through
    // the cache once per substep instead of once per stage (a large model's node
    // arrays outgrow the L2 cache; docs/PERFORMANCE.md, "One pass through the nodes
    // per substep"). A node receives its forces in the same
    // order for any thread split, so results stay bit-identical.
    std::uint32_t initialised = part.node_begin;
    std::uint32_t pieces = 0, loose = 0;
    for (const Window& w : part.windows) {
        const std::uint32_t reach =
            static_cast<std::uint32_t>(std::min<std::size_t>(part.node_end, std::size_t{w.node_end} + b_->max_offset));
        if (initialised < reach) {
            accumulate_node_forces(initialised, reach);
            initialised = reach;
        }
        sum_springs(part, pieces, w.pieces_end, loose, w.loose_end);
        pieces = w.pieces_end;
        loose = w.loose_end;
        if (then_integrate) {
            const std::uint32_t begin = std::max(w.node_begin, part.shared_low_end);
            const std::uint32_t end = std::min(w.node_end, part.shared_high_begin);
            if (begin < end) integrate_range(begin, end, dt, velocity_keep);
        }
    }
    if (initialised < part.node_end) accumulate_node_forces(initialised, part.node_end);
}

void Simulation::Impl::sum_springs(Partition& part, std::uint32_t pieces_begin, std::uint32_t pieces_end,
                             std::uint32_t loose_begin, std::uint32_t loose_end) {
    const float damping = params_.spring_damping;
    const bool damped = springs_->damped;
    float* Fx = f_.x.data();
    float* Fy = f_.y.data();
    float* Fz = f_.z.data();
    const float* x = x_.x.data();
    const float* y = x_.y.data();
    const float* z = x_.z.data();
    const float* vx = v_.x.data();
    const float* vy = v_.y.data();
    const float* vz = v_.z.data();
    // The thread's buffer of one run's forces (see Partition::scratch).
    float* fx = part.scratch.data() + kScratchLead;
    float* fy = fx + kScratchStride;
    float* fz = fy + kScratchStride;
    for (std::uint32_t p = pieces_begin; p < pieces_end; ++p) {
        const Piece& piece = part.pieces[p];
        const SpringRun& run = springs_->runs[piece.item];
        const std::size_t na = run.a, nb = std::size_t{run.a} + run.offset;
        RunArrays r{.ax = x + na, .ay = y + na, .az = z + na,
                    .bx = x + nb, .by = y + nb, .bz = z + nb,
                    .avx = vx + na, .avy = vy + na, .avz = vz + na,
                    .bvx = vx + nb, .bvy = vy + nb, .bvz = vz + nb,
                    .k = run.same_k ? &run.k : springs_->run_k.data() + run.first,
                    .k_rest = run.uniform ? &run.k_rest : springs_->run_k_rest.data() + run.first,
                    .damping = run.same_k ? &run.damping
                               : damped   ? springs_->run_damping.data() + run.first
                                          : nullptr,  // not read (run_damping is empty)
                    .out_ax = fx, .out_ay = fy, .out_az = fz,
                    .out_bx = nullptr, .out_by = nullptr, .out_bz = nullptr};
        // Each node gets at most one force per run from its a side and one from
        // its b side, -F before +F. No node is both an a end and a b end among
        // `offset` consecutive springs: in chunks of that many, if this thread
        // owns every end, the forces go straight into the nodes, in that order.
        const bool whole = piece.a_begin == piece.begin && piece.a_end == piece.end &&
                           piece.b_begin == piece.begin && piece.b_end == piece.end;
        std::size_t begin = piece.begin;
        if (whole && run.offset >= kBlock) {
            const std::size_t blocks_end = begin + (piece.end - begin) / kBlock * kBlock;
            const std::size_t chunk = run.offset / kBlock * kBlock;
            RunArrays fused = r;
            fused.out_ax = Fx + na;
            fused.out_ay = Fy + na;
            fused.out_az = Fz + na;
            fused.out_bx = Fx + nb;
            fused.out_by = Fy + nb;
            fused.out_bz = Fz + nb;
            for (std::size_t c = begin; c < blocks_end; c += chunk)
                run_forces<true>(fused, run, damped, c, std::min(c + chunk, blocks_end));
            if (blocks_end == piece.end) continue;
            begin = blocks_end;  // the rest through the buffer
        }
        run_forces<false>(r, run, damped, begin, piece.end);
        const std::size_t a_begin = std::max<std::size_t>(begin, piece.a_begin);
        const std::size_t b_begin = std::max<std::size_t>(begin, piece.b_begin);
        if (run.offset < kBlock) {  // the row springs of a grid: one pass over their nodes
            add_interleaved_run(Fx + na, Fy + na, Fz + na, fx, fy, fz, run.offset, static_cast<std::uint32_t>(a_begin),
                                piece.a_end, static_cast<std::uint32_t>(b_begin), piece.b_end);
        } else {
            add_ranges<true>(Fx + nb, Fy + nb, Fz + nb, fx, fy, fz, b_begin, piece.b_end);
            add_ranges<false>(Fx + na, Fy + na, Fz + na, fx, fy, fz, a_begin, piece.a_end);
        }
    }
    // Loose springs: forces of a chunk computed in blocks (the node loads are
    // gathers), then added to the nodes one by one in the springs' order.
    const LooseSprings& loose = part.shares_loose ? springs_->loose : part.loose;
    for (std::size_t chunk = loose_begin; chunk < loose_end; chunk += kWindow) {
        const std::size_t count = std::min<std::size_t>(kWindow, loose_end - chunk);
        const std::uint32_t* la = loose.a.data() + chunk;
        const std::uint32_t* lb = loose.b.data() + chunk;
        const float* lk = loose.k.data() + chunk;
        const float* lk_rest = loose.k_rest.data() + chunk;
        if (!gather_state_.empty()) {
            alignas(64) float d[6 * kWindow];
            packed_differences()(gather_state_.data(), la, lb, (count + kBlock - 1) / kBlock * kBlock, d);
            const float* k = loose.one_k ? &loose.k[0] : lk;
            with_flags(
                [&](auto one_k) {
                    if (damped && springs_->per_spring_damping)
                        loose_forces_packed<true, true, one_k>(d, k, lk_rest, loose.damping.data() + chunk, count,
                                                               fx, fy, fz);
                    else if (damped)
                        loose_forces_packed<true, false, one_k>(d, k, lk_rest, &damping, count, fx, fy, fz);
                    else
                        loose_forces_packed<false, false, one_k>(d, k, lk_rest, &damping, count, fx, fy, fz);
                },
                loose.one_k);
        } else if (damped && springs_->per_spring_damping)
            loose_forces<true, true>(x, y, z, vx, vy, vz, la, lb, lk, lk_rest, loose.damping.data() + chunk, count,
                                     fx, fy, fz);
        else if (damped)
            loose_forces<true, false>(x, y, z, vx, vy, vz, la, lb, lk, lk_rest, &damping, count, fx, fy, fz);
        else
            loose_forces<false, false>(x, y, z, vx, vy, vz, la, lb, lk, lk_rest, &damping, count, fx, fy, fz);
        add_loose_forces(Fx, Fy, Fz, fx, fy, fz, la, lb, count, part.node_begin, part.node_end);
    }
}

void Simulation::Impl::integrate(float dt, float velocity_keep) {
    run_on(team_, [&](int t) {
        const Partition& p = partitions_[static_cast<std::size_t>(t)];
        integrate_range(p.node_begin, p.node_end, dt, velocity_keep);
    });
}

namespace {

// The integrators over one node range. Structure of arrays, and every array a
// separate __restrict parameter: GCC 12 vectorises these loops only in this form.
#define SPRINGKIT_NODE_ARRAYS                                                              \
    float *__restrict x, float *__restrict y, float *__restrict z, float *__restrict vx,   \
        float *__restrict vy, float *__restrict vz, const float *__restrict fx,            \
        const float *__restrict fy, const float *__restrict fz, const float *__restrict im, \
        float im_all, std::uint32_t begin, std::uint32_t end

// With one mass for all (kUniformMass, im_all) anchored nodes move too; they
// are put back by apply_anchors() before anything reads them.
// Forward Euler: x += v dt, then v += (F/m) dt, v *= keep (Integrator::explicit_euler).
template <bool kUniformMass>
SPRINGKIT_STAGE_CLONES
void explicit_euler(SPRINGKIT_NODE_ARRAYS, float dt, float keep) {
    for (std::uint32_t i = begin; i < end; ++i) {
        x[i] = mul_add(vx[i], dt, x[i]);
        y[i] = mul_add(vy[i], dt, y[i]);
        z[i] = mul_add(vz[i], dt, z[i]);
        const float w = (kUniformMass ? im_all : im[i]) * dt;
        vx[i] = mul_add(fx[i], w, vx[i]) * keep;
        vy[i] = mul_add(fy[i], w, vy[i]) * keep;
        vz[i] = mul_add(fz[i], w, vz[i]) * keep;
    }
}

// Semi-implicit Euler: v += (F/m) dt, v *= keep, then x += v dt, the order of
// Oliveira's listing 7 and Tunca's Simulation::operate (energy stays bounded).
template <bool kUniformMass>
SPRINGKIT_STAGE_CLONES
void symplectic_euler(SPRINGKIT_NODE_ARRAYS, float dt, float keep) {
    for (std::uint32_t i = begin; i < end; ++i) {
        const float w = (kUniformMass ? im_all : im[i]) * dt;
        vx[i] = mul_add(fx[i], w, vx[i]) * keep;
        vy[i] = mul_add(fy[i], w, vy[i]) * keep;
        vz[i] = mul_add(fz[i], w, vz[i]) * keep;
        x[i] = mul_add(vx[i], dt, x[i]);
        y[i] = mul_add(vy[i], dt, y[i]);
        z[i] = mul_add(vz[i], dt, z[i]);
    }
}

// Source engine: pos + (pos - prev) * damping + accel * dt^2, damping the
// velocity kept per substep (verlet_damping per 1/60 s, times the energy loss;
// see step()). (Valve's code
// scales accel by dt^2 / 2, which halves gravity at steady fall; we keep the
// exact position-Verlet form.) Anchored nodes are set by apply_anchors() after.
template <bool kUniformMass>
SPRINGKIT_STAGE_CLONES
void verlet(SPRINGKIT_NODE_ARRAYS, float* __restrict ox, float* __restrict oy, float* __restrict oz,
            float dt, float damping) {
    const float inv_dt = 1.0f / dt;
    for (std::uint32_t i = begin; i < end; ++i) {
        const float w = (kUniformMass ? im_all : im[i]) * dt * dt;
        const float cx = x[i], cy = y[i], cz = z[i];
        const float nx = cx + mul_add(cx - ox[i], damping, fx[i] * w);
        const float ny = cy + mul_add(cy - oy[i], damping, fy[i] * w);
        const float nz = cz + mul_add(cz - oz[i], damping, fz[i] * w);
        x[i] = nx;
        y[i] = ny;
        z[i] = nz;
        ox[i] = cx;
        oy[i] = cy;
        oz[i] = cz;
        vx[i] = (nx - cx) * inv_dt;
        vy[i] = (ny - cy) * inv_dt;
        vz[i] = (nz - cz) * inv_dt;
    }
}

#undef SPRINGKIT_NODE_ARRAYS

}  // namespace

void Simulation::Impl::integrate_range(std::uint32_t begin, std::uint32_t end, float dt, float velocity_keep) {
    with_flags(
        [&](auto uniform_mass) {
#define SPRINGKIT_NODES                                                                            \
    x_.x.data(), x_.y.data(), x_.z.data(), v_.x.data(), v_.y.data(), v_.z.data(), f_.x.data(), \
        f_.y.data(), f_.z.data(), inverse_mass(), 1.0f / b_->common_mass, begin, end
            switch (params_.integrator) {
                case Integrator::explicit_euler:
                    explicit_euler<uniform_mass>(SPRINGKIT_NODES, dt, velocity_keep);
                    break;
                case Integrator::symplectic_euler:
                    symplectic_euler<uniform_mass>(SPRINGKIT_NODES, dt, velocity_keep);
                    break;
                case Integrator::verlet:
                    verlet<uniform_mass>(SPRINGKIT_NODES, previous_.x.data(), previous_.y.data(),
                                         previous_.z.data(), dt, verlet_keep_ * velocity_keep);
                    break;
                case Integrator::implicit:  // substep() runs implicit_pass() instead
                    break;
            }
#undef SPRINGKIT_NODES
        },
        b_->uniform_mass && b_->moves_anchors_freely);
}

void Simulation::Impl::solve_rope_constraints() {
    // Source engine rope: a few relaxation passes that only shorten overlong
    // segments, splitting the correction by inverse mass (half each for equal
    // masses, as Valve does; none on an anchor). Each correction lengthens the
    // segment's neighbours again, so the passes do not converge: a rope pulled
    // fast is left a few percent long (the bound SpringKind::rope states).
    const Model& m = *model_;
    for (int pass = 0; pass < params_.rope_iterations; ++pass) {
        for (std::uint32_t si : b_->ropes) {
            const Spring& s = m.springs[si];
            const Vec3 d = x_.get(s.b) - x_.get(s.a);
            const float len = length(d);
            if (len <= s.rest || len <= kSpringTolerance) continue;
            const float wa = inverse_mass()[s.a], wb = inverse_mass()[s.b];
            const float w = wa + wb;
            if (w == 0.0f) continue;
            const Vec3 correction = d * ((1.0f - s.rest / len) / w);
            x_.set(s.a, x_.get(s.a) + correction * wa);
            x_.set(s.b, x_.get(s.b) - correction * wb);
        }
    }
}

namespace {

// A track's frame at time t where the instance stands: the placement after
// the track's motion.
Transform placed_track_frame(const AnchorTrack& track, double t, const Transform& placement) {
    const Transform f = track_frame(track, t);
    return {apply(placement, f.position), placement.rotation * f.rotation};
}

}  // namespace

void Simulation::Impl::apply_anchors(float dt) {
    const Model& m = *model_;
    if (!m.anchor_tracks.empty()) {
        // Track drives: each track's frame at the substep's start and end, once.
        const double before = drive_time_, now = drive_time_ + substep_seconds_;
        track_before_.resize(m.anchor_tracks.size());
        track_now_.resize(m.anchor_tracks.size());
        for (std::size_t k = 0; k < m.anchor_tracks.size(); ++k) {
            track_before_[k] = placed_track_frame(m.anchor_tracks[k], before, placement_);
            track_now_[k] = placed_track_frame(m.anchor_tracks[k], now, placement_);
        }
        drive_time_ = now;
    }
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
                if (params_.ground && state.origin.y < params_.ground->height) {
                    state.origin.y = params_.ground->height;
                    v.y = 0.0f;
                }
                position = state.origin;
                velocity = v;
                break;
            }
            case AnchorDrive::circle: {
                // The phase in double, advanced by the substep in double (n of them
                // make frame_dt, where n float substeps are off by up to 6e-8 of
                // it) and kept in [0, 2 pi), so that it follows omega t for hours.
                // A float summed without wrapping loses its fraction as it grows:
                // after 10 minutes at 12 rad/s its spacing is 5e-4 rad, and each
                // substep's 0.024 rad is rounded to that.
                constexpr double kTurn = 2.0 * std::numbers::pi;
                const Vec3 axis = normalized(state.axis);
                state.angle = std::fmod(state.angle + static_cast<double>(state.angular_speed) * substep_seconds_, kTurn);
                if (state.angle < 0.0) state.angle += kTurn;
                const Vec3 arm = rotate(state.origin - state.center, axis, static_cast<float>(state.angle));
                position = state.center + arm;
                velocity = cross(axis, arm) * state.angular_speed;
                break;
            }
            case AnchorDrive::track: {
                // Where the track puts the node's rest position at the substep's
                // end, moving there at the substep's mean velocity.
                const Vec3 rest = m.positions[a.node];
                position = apply(track_now_[a.track], rest);
                velocity = (position - apply(track_before_[a.track], rest)) * (1.0f / dt);
                break;
            }
        }
        x_.set(a.node, position);
        set_previous(a.node, position - velocity * dt);
        v_.set(a.node, velocity);
    }
    if (!targeted_.empty()) apply_anchor_targets(dt);  // simulation_targets.cpp
}

namespace {

// Tells whether every node is sound: a finite position and a speed within the
// bound (a NaN fails both tests), and copies the node state into the Vec3
// arrays the accessors show, those that exist (kPositions, kVelocities). One
// vectorised pass; the caller looks for the culprit only when it fails. With
// kZeroForces it also sets the forces to 0, where the normals stage sums the
// face normals next (simulation_normals.cpp).
template <bool kZeroForces, bool kPositions, bool kVelocities>
SPRINGKIT_STAGE_CLONES
bool publish_sound(const float* __restrict x, const float* __restrict y, const float* __restrict z,
                   const float* __restrict vx, const float* __restrict vy, const float* __restrict vz,
                   float* __restrict positions, float* __restrict velocities, float* __restrict fx,
                   float* __restrict fy, float* __restrict fz, std::size_t begin, std::size_t end,
                   float speed_bound) {
    const float bound_squared = speed_bound * speed_bound;
    int unsound = 0;
    for (std::size_t i = begin; i < end; ++i) {
        if constexpr (kZeroForces) {
            // +0 for a sound node (v * 0 is +0 or -0, and -0 + 0 is +0; an
            // unsound one stops the step before the normals). Written so that
            // GCC keeps the stores in this one pass instead of three memset calls.
            fx[i] = vx[i] * 0.0f + 0.0f;
            fy[i] = vy[i] * 0.0f + 0.0f;
            fz[i] = vz[i] * 0.0f + 0.0f;
        }
        if constexpr (kPositions) {
            positions[3 * i] = x[i];
            positions[3 * i + 1] = y[i];
            positions[3 * i + 2] = z[i];
        }
        if constexpr (kVelocities) {
            velocities[3 * i] = vx[i];
            velocities[3 * i + 1] = vy[i];
            velocities[3 * i + 2] = vz[i];
        }
        // x * 0 is 0 for a finite x, NaN for an infinite or NaN one.
        const bool finite = x[i] * 0.0f == 0.0f && y[i] * 0.0f == 0.0f && z[i] * 0.0f == 0.0f;
        const bool slow = vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i] <= bound_squared;
        unsound |= !(finite && slow);
    }
    return unsound == 0;
}

}  // namespace

std::span<const Vec3> Simulation::Impl::shown_positions() const {
    if (shown_positions_.empty()) x_.copy_to(shown_positions_, node_count());
    return shown_positions_;
}

std::span<const Vec3> Simulation::Impl::shown_velocities() const {
    if (shown_velocities_.empty()) v_.copy_to(shown_velocities_, node_count());
    return shown_velocities_;
}

void Simulation::Impl::publish() {
    if (!shown_positions_.empty()) x_.copy_to(shown_positions_, node_count());
    if (!shown_velocities_.empty()) v_.copy_to(shown_velocities_, node_count());
}

void Simulation::Impl::publish(std::size_t node) {
    if (!shown_positions_.empty()) shown_positions_[node] = x_.get(node);
    if (!shown_velocities_.empty()) shown_velocities_[node] = v_.get(node);
}

void Simulation::Impl::check_state() {
    // Each thread finds the first bad node of its range; the lowest one is named.
    std::vector<std::size_t>& first_bad = first_bad_;
    first_bad.assign(partitions_.size(), node_count());
    const float bound = static_cast<float>(speed_bound_);
    run_on(team_, [&](int t) {
        const Partition& p = partitions_[static_cast<std::size_t>(t)];
        // The frame's forces are spent: where the normals are summed next, set to 0
        // in the same pass (stage_normals()).
        bool sound = false;
        with_flags(
            [&](auto zero_forces, auto positions, auto velocities) {
                sound = publish_sound<zero_forces, positions, velocities>(
                    x_.x.data(), x_.y.data(), x_.z.data(), v_.x.data(), v_.y.data(), v_.z.data(),
                    reinterpret_cast<float*>(shown_positions_.data()),
                    reinterpret_cast<float*>(shown_velocities_.data()), f_.x.data(), f_.y.data(), f_.z.data(),
                    p.node_begin, p.node_end, bound);
            },
            !model_->faces.empty(), !shown_positions_.empty(), !shown_velocities_.empty());
        if (sound) return;
        for (std::uint32_t i = p.node_begin; i < p.node_end; ++i) {
            const Vec3 v = v_.get(i);
            // Written so that a NaN fails the test: !(x <= bound) is true for NaN.
            if (!is_finite(x_.get(i)) || !(dot(v, v) <= bound * bound)) {
                first_bad[static_cast<std::size_t>(t)] = i;
                break;
            }
        }
    });
    const std::size_t n = node_count();
    std::size_t bad = n;
    for (std::size_t b : first_bad) bad = std::min(bad, b);
    if (bad == n) return;
    const bool non_finite = !is_finite(x_.get(bad)) || !is_finite(v_.get(bad));
    const char* what = non_finite
                           ? "has a non-finite position or velocity"
                           : "runs away (speed above the model's bound)";

    // Name the stiffest spring at that node: it is the usual culprit.
    const Model& m = *model_;
    const double dt = params_.max_substep;
    std::size_t worst = m.springs.size();
    double worst_ratio = -1.0;
    for (std::size_t si = 0; si < m.springs.size(); ++si) {
        const Spring& s = m.springs[si];
        if (s.a != bad && s.b != bad) continue;
        const double ratio =
            springs_->k_of(si) * dt * dt / std::min(m.node_mass(s.a), m.node_mass(s.b));
        if (ratio > worst_ratio) {
            worst_ratio = ratio;
            worst = si;
        }
    }
    std::ostringstream out;
    out << "simulation exploded at t = " << time_ << " s: node " << bad << " " << what;
    if (params_.integrator == Integrator::implicit) {
        // No k makes the implicit step unstable: the speed came from outside it.
        out << "; the implicit integrator is stable for any k, so something drove the node: an anchor moved in "
               "one jump, a large applied force or velocity, or a node placed deep inside a collider";
    } else {
        if (worst < m.springs.size()) {
            const Spring& s = m.springs[worst];
            out << "; its stiffest spring " << worst << " (nodes " << s.a << "-" << s.b
                << ", k = " << springs_->k_of(worst) << " N/m) has k dt^2/m = " << worst_ratio
                << " (a rule of thumb: under " << kStabilityWarning << ")";
        }
        out << "; use a smaller max_substep or a lower k";
    }
    failure_ = out.str();
    last_failure_ = failure_;
    runaway_ = {non_finite ? RunawayCause::non_finite : RunawayCause::too_fast,
                static_cast<std::uint32_t>(bad),
                worst < m.springs.size() ? static_cast<std::uint32_t>(worst) : StepResult::kNone};
    if (runaway_policy_ == RunawayPolicy::throw_error) throw SimulationError(failure_);
}

double Simulation::Impl::kinetic_energy() const {
    double sum = 0.0;
    for (std::size_t i = 0; i < node_count(); ++i) {
        const Vec3 v = v_.get(i);
        sum += 0.5 * model_->node_mass(i) * dot(v, v);
    }
    return sum;
}

double Simulation::Impl::potential_energy() const {
    const Model& m = *model_;
    double sum = 0.0;
    for (std::size_t i = 0; i < node_count(); ++i)
        sum -= static_cast<double>(m.node_mass(i)) * dot(params_.gravity, x_.get(i));
    b_->for_each_hooke([&](std::uint32_t si) {
        const Spring& s = m.springs[si];
        const double stretch = length(x_.get(s.b) - x_.get(s.a)) - s.rest;
        sum += 0.5 * springs_->k_of(si) * stretch * stretch;
    });
    return sum;
}

void Simulation::Impl::set_position(std::uint32_t node, Vec3 p) {
    if (node >= node_count()) throw Error("set_position: node index out of range");
    wake();
    x_.set(node, p);
    set_previous(node, p);
    v_.set(node, {});
    publish(node);
}

void Simulation::Impl::set_velocity(std::uint32_t node, Vec3 v) {
    if (node >= node_count()) throw Error("set_velocity: node index out of range");
    wake();
    v_.set(node, v);
    set_previous(node, x_.get(node) - v * params_.max_substep);
    publish(node);
}

void Simulation::Impl::set_anchor_velocity(std::size_t anchor, Vec3 v) {
    if (anchor >= anchor_velocity_.size()) throw Error("set_anchor_velocity: anchor index out of range");
    wake();
    anchor_velocity_[anchor] = v;
}

void Simulation::Impl::set_anchor_position(std::size_t anchor, Vec3 p) {
    if (anchor >= anchor_state_.size()) throw Error("set_anchor_position: anchor index out of range");
    wake();
    const Anchor& a = model_->anchors[anchor];
    AnchorState& state = anchor_state_[anchor];
    if (a.drive == AnchorDrive::circle) {
        // Keep turning; the new point becomes the circle's starting point.
        state.origin = p;
        state.angle = 0.0;
    } else {
        state.origin = p;
    }
    x_.set(a.node, p);
    set_previous(a.node, p);
    publish(a.node);
}

void Simulation::Impl::apply_force(std::uint32_t node, Vec3 f) {
    if (node >= node_count()) throw Error("apply_force: node index out of range");
    wake();
    if (external_.x.empty()) external_.assign(node_count(), Vec3{});
    external_.set(node, external_.get(node) + f);
    external_applied_ = true;
}

}  // namespace springkit
