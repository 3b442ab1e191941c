// springkit — the ground and the colliders inside the implicit step
// (Simulation::Impl::support_on_contacts(), called by implicit_pass()).
//
// The implicit step's solve has no contacts in it: it ends at x_u, the
// minimiser of g without them, where some free nodes are below the ground or
// inside a collider. Projecting those nodes alone (the contact stage does it
// for the explicit integrators, whose substeps are short) would let the rest
// of the body fall a step's worth of gravity, g h^2, each step: at one step a
// frame a body resting on the ground learns of its support a step late, its
// springs never carry its weight in full, and a heavy body sinks into them
// and topples.
//
// Instead each contact j (node i_j, unit normal n_j out of the surface, gap
// d_j > 0: how far along n_j the node must go to be its node_radius outside)
// pushes with a multiplier l_j (an impulse times h, kg m), and the body
// answers as the step's linearisation says: it moves by A^-1 N l, where A =
// M' + h^2 L is the global step's matrix and column j of N puts n_j on node
// i_j, so the springs carry each push to the nodes around. The multipliers
// that put every contact on its surface solve
//     S l = d,  S = N^T A^-1 N  (symmetric positive definite),
// the Schur complement of the contact constraints (Otaduy, Tamstorf,
// Steinemann and Gross, "Implicit Contact Handling for Deformable Objects",
// Eurographics 2009). Conjugate gradients solve it without forming S: each
// product S p is one back-substitution through the factor (A acts on x, y and
// z alike, so one solve of the three right-hand sides N p), the body's push
// summed beside it. A contact whose multiplier comes out negative would pull
// its node in (a surface only pushes: Signorini's l >= 0, gap >= 0,
// l gap = 0): it is let go and the others solved again from x_u, a few rounds
// at most. The surface is taken as its tangent plane at the node's nearest
// point; what curvature and the tolerance leave, the projections after catch
// (the ground's in implicit_pass(), the colliders' in the contact stage, which
// also applies their friction and restitution).
//
// Triangle-mesh colliders are left to the contact stage: two-sided, a node's
// side of one is known only from its way there.
#include <algorithm>
#include <cmath>

#include "collision/collider_geometry.hpp"
#include "simulation/implicit_solver.hpp"
#include "simulation/simulation_impl.hpp"

namespace springkit {

namespace {

// The conjugate gradients stop once no contact is farther from its surface
// than this share of the largest gap, or after kIterations; kRounds rounds
// of letting go at most.
constexpr double kShareLeft = 0.1;
constexpr int kIterations = 12, kRounds = 3;

}  // namespace

void Simulation::Impl::support_on_contacts(float dt) {
    detail::ImplicitState& st = implicit_;
    const detail::ImplicitLayout& l = *st.layout;
    const std::size_t rows = l.node_of.size();
    st.touching.clear();
    st.touched_collider.clear();
    st.normal.clear();
    st.gap.clear();
    const auto add = [&](std::size_t row, std::uint32_t collider, Vec3 n, double gap) {
        st.touching.push_back(static_cast<std::uint32_t>(row));
        st.touched_collider.push_back(collider);
        st.normal.insert(st.normal.end(), {n.x, n.y, n.z});
        st.gap.push_back(gap);
    };
    const auto solved = [&](std::size_t row) {
        const double* x = &st.current[3 * std::size_t{l.node_of[row]}];
        return Vec3{static_cast<float>(x[0]), static_cast<float>(x[1]), static_cast<float>(x[2])};
    };
    const auto started = [&](std::size_t row) {
        const double* x = &st.start[3 * std::size_t{l.node_of[row]}];
        return Vec3{static_cast<float>(x[0]), static_cast<float>(x[1]), static_cast<float>(x[2])};
    };
    // A contact's gap is what this step's motion took the node inside: a
    // node that was already inside at the step's start (a model placed in a
    // collider) is pushed back only to where it was, the rest left to the
    // projections, which move it without giving it the speed gap / h.
    if (params_.ground) {
        const double height = params_.ground->height;
        for (std::size_t row = 0; row < rows; ++row) {
            const std::size_t i = l.node_of[row];
            const double below = std::min(height, st.start[3 * i + 1]) - st.current[3 * i + 1];
            if (below > 0.0) add(row, detail::ImplicitState::kGround, {0.0f, 1.0f, 0.0f}, below);
        }
    }
    detail::CollisionState& cs = collision_;
    if (cs.colliders) {
        const float reach = params_.node_radius;
        const float t0 = cs.time_in_frame, t1 = t0 + dt;  // the contact stage's substep
        for (ColliderId ci = 0; ci < cs.colliders->size(); ++ci) {
            const Collider& c = (*cs.colliders)[ci];
            if (c.shape == ColliderShape::triangle_mesh) continue;
            const Transform pose = cs.colliders->pose_at(ci, t1), pose0 = cs.colliders->pose_at(ci, t0);
            const bool bounded = c.shape != ColliderShape::plane;
            const Vec3 centre = bounded ? apply(pose, detail::bounding_centre(c)) : Vec3{};
            const float around = bounded ? detail::bounding_radius(c) + reach : 0.0f;
            for (std::size_t row = 0; row < rows; ++row) {
                const Vec3 x = solved(row);
                if (bounded && length(x - centre) > around) continue;
                const SurfacePoint s = detail::local_distance(c, detail::to_local(pose, x), reach);
                if (s.distance >= reach) continue;
                const float before = detail::local_distance(c, detail::to_local(pose0, started(row)), reach).distance;
                const float gap = std::min(reach, before) - s.distance;
                if (gap > 0.0f) add(row, ci, detail::to_world_direction(pose, s.normal), gap);
            }
        }
    }
    if (st.touching.empty()) return;
    double largest_gap = 0.0;
    for (double g : st.gap) largest_gap = std::max(largest_gap, g);
    std::vector<double>& r = st.residual;  // d - S l
    std::vector<double>& dir = st.direction;
    std::vector<double>& q = st.response;  // S dir
    std::vector<double>& lambda = st.multiplier;
    std::vector<double>& push = st.push;
    // Contact j's share of a solved work vector: n_j . (A^-1 N p) at its node.
    const auto along_normal = [&](std::size_t j) {
        const float* u = &st.work[4 * l.place(st.touching[j])];
        const double* n = &st.normal[3 * j];
        return n[0] * u[0] + n[1] * u[1] + n[2] * u[2];
    };
    for (int round = 0; round < kRounds && !st.touching.empty(); ++round) {
        const std::size_t count = st.touching.size();
        r.assign(st.gap.begin(), st.gap.end());
        lambda.assign(count, 0.0);
        push.assign(3 * rows, 0.0);
        dir = r;
        q.resize(count);
        double rr = 0.0;
        for (double e : r) rr += e * e;
        for (int it = 0; it < kIterations; ++it) {
            std::fill(st.work.begin(), st.work.end(), 0.0f);
            for (std::size_t j = 0; j < count; ++j) {
                float* w = &st.work[4 * l.place(st.touching[j])];
                for (std::size_t c = 0; c < 3; ++c) w[c] += static_cast<float>(st.normal[3 * j + c] * dir[j]);
            }
            l.solve_global(st.work, st.solve_scratch);  // A^-1 N p
            double pq = 0.0;
            for (std::size_t j = 0; j < count; ++j) {
                q[j] = along_normal(j);  // (S p)_j
                pq += dir[j] * q[j];
            }
            if (!(pq > 0.0)) break;
            const double alpha = rr / pq;
            for (std::size_t row = 0; row < rows; ++row)
                for (std::size_t c = 0; c < 3; ++c) push[3 * row + c] += alpha * st.work[4 * l.place(row) + c];
            double next = 0.0, left = 0.0;
            for (std::size_t j = 0; j < count; ++j) {
                lambda[j] += alpha * dir[j];
                r[j] -= alpha * q[j];
                next += r[j] * r[j];
                left = std::max(left, std::abs(r[j]));
            }
            if (left <= kShareLeft * largest_gap) break;
            const double beta = next / rr;
            rr = next;
            for (std::size_t j = 0; j < count; ++j) dir[j] = r[j] + beta * dir[j];
        }
        std::size_t kept = 0;
        for (std::size_t j = 0; j < count; ++j)
            if (lambda[j] >= 0.0) {
                st.touching[kept] = st.touching[j];
                st.touched_collider[kept] = st.touched_collider[j];
                lambda[kept] = lambda[j];
                for (std::size_t c = 0; c < 3; ++c) st.normal[3 * kept + c] = st.normal[3 * j + c];
                st.gap[kept] = st.gap[j];
                ++kept;
            }
        if (kept == count) break;
        st.touching.resize(kept);
        st.touched_collider.resize(kept);
        lambda.resize(kept);
        st.normal.resize(3 * kept);
        st.gap.resize(kept);
        if (kept == 0) push.assign(3 * rows, 0.0);  // every contact let go: no push
    }
    for (std::size_t row = 0; row < rows; ++row)
        for (std::size_t c = 0; c < 3; ++c) st.current[3 * std::size_t{l.node_of[row]} + c] += push[3 * row + c];
    // The colliders' impulses go to the contact report, where the contact
    // stage adds its own: N l stands for h^2 F in the global step (its
    // right-hand side is M' (y - x) + h^2 f), so contact j gave its node the
    // impulse F h = l_j n_j / h over the step.
    const double per_h = 1.0 / static_cast<double>(l.h);
    if (cs.latest.size() != node_count()) cs.latest.assign(node_count(), detail::CollisionState::kNone);
    for (std::size_t j = 0; j < st.touching.size(); ++j) {
        if (st.touched_collider[j] == detail::ImplicitState::kGround) continue;
        const double* n = &st.normal[3 * j];
        const double size = lambda[j] * per_h;
        record_contact(l.node_of[st.touching[j]], st.touched_collider[j],
                       {static_cast<float>(n[0] * size), static_cast<float>(n[1] * size), static_cast<float>(n[2] * size)},
                       solved(st.touching[j]), {static_cast<float>(n[0]), static_cast<float>(n[1]), static_cast<float>(n[2])});
    }
}

}  // namespace springkit
