// springkit — Integrator::implicit: one implicit Euler step as a minimisation.
//
// Liu, Bargteil, O'Brien and Kavan ("Fast Simulation of Mass-Spring Systems",
// ACM TOG 32(6), 2013) write the implicit Euler step of a mass-spring system,
// x_{n+1} = x_n + h v_{n+1}, M (v_{n+1} - v_n) = h (f_ext + f_springs(x_{n+1})),
// as the minimiser of
//     g(x) = 1/(2 h^2) |M^1/2 (x - y)|^2 + E(x),   y = x_n + h v_n + h^2 M^-1 f_ext,
// and each Hooke spring's energy (k/2) (|x_a - x_b| - rest)^2 as
//     min over |d| = rest of (k/2) |x_a - x_b - d|^2.
// They alternate a local step (each spring's best d: rest times the unit
// vector from b to a) and a global step, the linear system
//     (M + h^2 L) x = M y + h^2 J d,
// L = sum k (e_a - e_b)(e_a - e_b)^T, (J d)_a = sum of k d over a's springs
// (minus over its b ends). Each alternation lowers g, so the iterations
// approach the implicit Euler step whatever k and h: stable at one step per
// frame. The matrix depends on the topology, k, the masses and h only: it is
// factored once (sparse LDL^T, Eigen's SimplicialLDLT with its minimum-degree
// ordering) and each iteration is a back-substitution of three right-hand
// sides, one per coordinate.
//
// Jacobi in place of the factorisation (Wang, "A Chebyshev Semi-Iterative
// Approach for Accelerating Projective and Position-based Dynamics",
// SIGGRAPH Asia 2015) carries information one spring per iteration: on a
// 64 x 64 cloth at k h^2 / m = 11000 twenty iterations leave the cloth to fall
// through its springs, and the Chebyshev weights diverge
// (docs/PERFORMANCE.md); the direct road is the one kept. Wang's weights
// do serve it (Parameters::chebyshev_rho): on that cloth, rho = 0.9 reaches
// with 10 iterations the strain plain iterations reach with about 20.
//
// Anchored nodes are eliminated: they hold their driven positions
// x_n + h v_n (the anchors stage then sets them exactly), and their springs
// pull on the free nodes through the right-hand side, h^2 k x_anchor. Air
// friction is implicit too: the drag c (v - w) adds (c / 2h) |x - x_n - h w|^2
// to g, so node i's inertia term takes m_i + c h as mass and
// (m_i y_i + c h (x_n + h w)) / (m_i + c h) as target. The ground is a
// projection after the solve (the penalty force of the explicit integrators
// would need k_ground h^2 / m small), its friction an implicit slowing of the
// sliding velocity; Parameters::strain_limit caps each Hooke spring's stretch
// by a projection after the solve, and rope constraints follow as for every
// integrator. Spring damping is not applied: implicit Euler damps by itself
// (docs/ARCHITECTURE.md). Every loop is serial and in a fixed order: the same
// bits for any number of threads.
#include "simulation/implicit_solver.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>

#include "simulation/simulation_impl.hpp"
#include "springkit/error.hpp"

namespace springkit {

namespace detail {

// P A P^T = L D L^T, and the back-substitution of three right-hand sides at
// once: one pass over L's entries for x, y and z together, where Eigen's own
// solve() takes one pass per column.
struct GlobalFactor {
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt;
    std::vector<std::int32_t> place;  ///< row -> its place in P's order

    // work: 3 values per place (x, y, z), P b on entry, P x on return.
    void solve_in_place(std::vector<double>& work) const {
        using Inner = Eigen::SparseMatrix<double>::InnerIterator;
        const Eigen::SparseMatrix<double>& l = ldlt.matrixL().nestedExpression();  // unit lower, diagonal not stored
        const Eigen::VectorXd& d = ldlt.vectorD();
        const Eigen::Index n = l.outerSize();
        double* w = work.data();
        for (Eigen::Index j = 0; j < n; ++j) {  // L z = P b
            const double x = w[3 * j], y = w[3 * j + 1], z = w[3 * j + 2];
            for (Inner it(l, j); it; ++it) {
                double* out = w + 3 * it.index();
                out[0] -= it.value() * x;
                out[1] -= it.value() * y;
                out[2] -= it.value() * z;
            }
        }
        for (Eigen::Index j = 0; j < n; ++j) {  // D u = z
            const double inverse = 1.0 / d[j];
            for (int c = 0; c < 3; ++c) w[3 * j + c] *= inverse;
        }
        for (Eigen::Index j = n; j-- > 0;) {  // L^T (P x) = u
            double x = w[3 * j], y = w[3 * j + 1], z = w[3 * j + 2];
            for (Inner it(l, j); it; ++it) {
                const double* in = w + 3 * it.index();
                x -= it.value() * in[0];
                y -= it.value() * in[1];
                z -= it.value() * in[2];
            }
            w[3 * j] = x;
            w[3 * j + 1] = y;
            w[3 * j + 2] = z;
        }
    }
};

std::shared_ptr<const ImplicitLayout> build_implicit_layout(const PreparedBody& body,
                                                            std::shared_ptr<const SpringValues> springs, float h,
                                                            float air_friction) {
    auto layout = std::make_shared<ImplicitLayout>();
    ImplicitLayout& l = *layout;
    const Model& m = body.model;
    const std::size_t n = m.node_count();
    l.h = h;
    l.air_friction = air_friction;
    for (std::uint32_t si : body.hooke) {
        const Spring& s = m.springs[si];
        l.a.push_back(s.a);
        l.b.push_back(s.b);
        l.k.push_back(springs->spring_k[si]);
        l.rest.push_back(s.rest);
    }
    l.springs = std::move(springs);
    // Node i's spring ends, by counting sort: in spring order at every node.
    l.node_first.assign(n + 1, 0);
    for (std::size_t s = 0; s < l.a.size(); ++s) {
        ++l.node_first[l.a[s] + 1];
        ++l.node_first[l.b[s] + 1];
    }
    for (std::size_t i = 0; i < n; ++i) l.node_first[i + 1] += l.node_first[i];
    l.node_entry.resize(2 * l.a.size());
    std::vector<std::uint32_t> fill(l.node_first.begin(), l.node_first.end() - 1);
    for (std::size_t s = 0; s < l.a.size(); ++s) {
        l.node_entry[fill[l.a[s]]++] = static_cast<std::uint32_t>(2 * s);
        l.node_entry[fill[l.b[s]]++] = static_cast<std::uint32_t>(2 * s + 1);
    }
    l.unknown.assign(n, 0);
    for (const Anchor& a : m.anchors) l.unknown[a.node] = -1;
    for (std::size_t i = 0; i < n; ++i) {
        if (l.unknown[i] < 0) continue;
        l.unknown[i] = static_cast<std::int32_t>(l.node_of.size());
        l.node_of.push_back(static_cast<std::uint32_t>(i));
    }
    l.mass.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        l.mass[i] = static_cast<double>(body.mass[i]) + static_cast<double>(air_friction) * h;
    // M' + h^2 L over the free nodes: a spring to an anchor adds to the
    // diagonal only (its other end is on the right-hand side).
    const double h2 = static_cast<double>(h) * h;
    std::vector<Eigen::Triplet<double>> entries;
    entries.reserve(l.node_of.size() + 4 * l.a.size());
    for (std::uint32_t row = 0; row < l.node_of.size(); ++row) entries.emplace_back(row, row, l.mass[l.node_of[row]]);
    for (std::size_t s = 0; s < l.a.size(); ++s) {
        const std::int32_t ra = l.unknown[l.a[s]], rb = l.unknown[l.b[s]];
        const double w = h2 * l.k[s];
        if (ra >= 0) entries.emplace_back(ra, ra, w);
        if (rb >= 0) entries.emplace_back(rb, rb, w);
        if (ra >= 0 && rb >= 0) {
            entries.emplace_back(ra, rb, -w);
            entries.emplace_back(rb, ra, -w);
        }
    }
    const auto rows = static_cast<Eigen::Index>(l.node_of.size());
    Eigen::SparseMatrix<double> matrix(rows, rows);
    matrix.setFromTriplets(entries.begin(), entries.end());
    auto factor = std::make_shared<GlobalFactor>();
    factor->ldlt.compute(matrix);
    // M' + h^2 L is symmetric positive definite (M' > 0), so this fails only
    // when memory or the numbers do.
    if (factor->ldlt.info() != Eigen::Success)
        throw Error("implicit integrator: the global step's matrix could not be factored");
    const auto& permutation = factor->ldlt.permutationP().indices();  // (P b)[permutation[i]] = b[i]
    factor->place.assign(permutation.data(), permutation.data() + permutation.size());
    l.factor = std::move(factor);
    return layout;
}

}  // namespace detail

namespace {

// Plain iterations before Wang's Chebyshev weights start (he delays them
// while the first local steps still turn the springs a lot).
constexpr int kChebyshevDelay = 2;
// Gauss-Seidel passes of the strain limit over the Hooke springs.
constexpr int kStrainLimitPasses = 4;

}  // namespace

std::size_t Simulation::Impl::implicit_pass(const StageArgs& args) {
    detail::ImplicitState& st = implicit_;
    const float h = args.dt;
    if (!st.layout || st.layout->h != h || st.layout->springs != springs_ ||
        st.layout->air_friction != params_.air_friction)
        st.layout = detail::build_implicit_layout(*b_, springs_, h, params_.air_friction);
    const detail::ImplicitLayout& l = *st.layout;
    const std::size_t n = model_->node_count();
    const std::size_t rows = l.node_of.size();
    const std::size_t springs = l.a.size();
    st.start.resize(3 * n);
    st.current.resize(3 * n);
    st.target.resize(3 * rows);
    st.work.resize(3 * rows);
    st.direction.resize(3 * springs);
    // Bead loads and the gas's pressure are forces of this substep like the
    // others, taken at its start (apply_bead_loads(), stage_pressure()).
    const bool beads = !model_->beads.empty();
    const bool loads = beads || params_.pressure > 0.0f;
    if (loads) {
        f_.assign(n, Vec3{});
        if (beads) apply_bead_loads();
        stage_pressure(args);
    }
    const double hd = h, h2 = hd * hd;
    const double drag_h = static_cast<double>(params_.air_friction) * hd;
    const Vec3 g = params_.gravity;
    const double gravity[3] = {g.x, g.y, g.z};
    const double drift[3] = {wind_.x * hd, wind_.y * hd, wind_.z * hd};
    for (std::size_t i = 0; i < n; ++i) {
        const Vec3 x0 = x_.get(i), v0 = v_.get(i);
        const Vec3 force = external_at(i) + (loads ? f_.get(i) : Vec3{});
        const double xs[3] = {x0.x, x0.y, x0.z}, vs[3] = {v0.x, v0.y, v0.z}, fs[3] = {force.x, force.y, force.z};
        const std::int32_t row = l.unknown[i];
        for (int c = 0; c < 3; ++c) {
            double y = xs[c] + hd * vs[c];  // an anchor's driven position at the step's end
            st.start[3 * i + c] = xs[c];
            if (row >= 0) {
                const double m = b_->mass[i];
                y += h2 * (gravity[c] + fs[c] / m);
                // M' y' = m y + c h (x_n + h w): the inertia and drag terms.
                st.target[3 * static_cast<std::size_t>(row) + c] = m * y + drag_h * (xs[c] + drift[c]);
                y = st.target[3 * static_cast<std::size_t>(row) + c] / l.mass[i];
            }
            st.current[3 * i + c] = y;
        }
    }
    // An anchor's spring pulls its free end towards the anchor: h^2 k x_anchor
    // on that row, the same in every iteration.
    for (std::size_t s = 0; s < springs; ++s) {
        const std::int32_t ra = l.unknown[l.a[s]], rb = l.unknown[l.b[s]];
        if ((ra >= 0) == (rb >= 0)) continue;
        const std::size_t row = static_cast<std::size_t>(ra >= 0 ? ra : rb);
        const std::uint32_t anchor = ra >= 0 ? l.b[s] : l.a[s];
        for (int c = 0; c < 3; ++c) st.target[3 * row + c] += h2 * l.k[s] * st.current[3 * anchor + c];
    }
    const double rho = params_.chebyshev_rho;
    double omega = 1.0;
    for (int it = 0; it < params_.implicit_iterations; ++it) {
        // Local step: each spring's best d, times k.
        for (std::size_t s = 0; s < springs; ++s) {
            const double* xa = &st.current[3 * l.a[s]];
            const double* xb = &st.current[3 * l.b[s]];
            const double d[3] = {xa[0] - xb[0], xa[1] - xb[1], xa[2] - xb[2]};
            const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            // A spring of zero length has no direction: it asks for none.
            const double scale = len > 0.0 ? l.k[s] * l.rest[s] / len : 0.0;
            for (int c = 0; c < 3; ++c) st.direction[3 * s + c] = d[c] * scale;
        }
        // Global step: right-hand sides M' y' + h^2 J d (+ the anchors' pull),
        // gathered per row in a fixed order, then the back-substitution.
        for (std::size_t row = 0; row < rows; ++row) {
            const std::uint32_t i = l.node_of[row];
            double sum[3] = {0.0, 0.0, 0.0};
            for (std::uint32_t e = l.node_first[i]; e < l.node_first[i + 1]; ++e) {
                const std::uint32_t entry = l.node_entry[e];
                const double sign = (entry & 1) ? -1.0 : 1.0;
                for (int c = 0; c < 3; ++c) sum[c] += sign * st.direction[3 * (entry / 2) + c];
            }
            const std::size_t place = 3 * static_cast<std::size_t>(l.factor->place[row]);
            for (std::size_t c = 0; c < 3; ++c) st.work[place + c] = st.target[3 * row + c] + h2 * sum[c];
        }
        l.factor->solve_in_place(st.work);
        // Wang's Chebyshev weights on the local/global iterates:
        // x^(k+1) = omega_(k+1) (x^ - x^(k-1)) + x^(k-1), x^ the global step's result,
        // omega = 1 for the first kChebyshevDelay iterations, then 2 / (2 - rho^2),
        // then 4 / (4 - rho^2 omega_k); rho = 0 leaves the plain iterations.
        omega = it < kChebyshevDelay ? 1.0
                : it == kChebyshevDelay ? 2.0 / (2.0 - rho * rho)
                                        : 4.0 / (4.0 - rho * rho * omega);
        if (it == 0) st.older = st.current;
        for (std::size_t row = 0; row < rows; ++row)
            for (std::size_t c = 0; c < 3; ++c) {
                const std::size_t at = 3 * l.node_of[row] + c;
                const double now = st.current[at];
                const double solved = st.work[3 * static_cast<std::size_t>(l.factor->place[row]) + c];
                st.current[at] = omega * (solved - st.older[at]) + st.older[at];
                st.older[at] = now;
            }
    }
    for (std::size_t i = 0; i < n; ++i)
        x_.set(i, {static_cast<float>(st.current[3 * i]), static_cast<float>(st.current[3 * i + 1]),
                   static_cast<float>(st.current[3 * i + 2])});
    if (params_.strain_limit > 0.0f) limit_strain(params_.strain_limit);
    const float inv_h = 1.0f / h;
    const float keep = args.velocity_keep;
    const std::optional<Ground>& ground = params_.ground;
    for (std::uint32_t i : l.node_of) {
        Vec3 x = x_.get(i);
        const bool below = ground && x.y < ground->height;
        if (below) {  // the ground as a projection
            x.y = ground->height;
            x_.set(i, x);
        }
        const Vec3 x0{static_cast<float>(st.start[3 * i]), static_cast<float>(st.start[3 * i + 1]),
                      static_cast<float>(st.start[3 * i + 2])};
        Vec3 v = (x - x0) * (inv_h * keep);
        if (below) {  // implicit sliding friction: m (v' - v) = -friction h v'
            const float slow = 1.0f / (1.0f + ground->friction * h / b_->mass[i]);
            v.x *= slow;
            v.z *= slow;
        }
        v_.set(i, v);
    }
    if (beads) inverse_mass_ = b_->inverse_mass;  // the beads' loads last one substep
    static const std::size_t rope_constraints = stage_index("rope constraints");
    return rope_constraints;
}

void Simulation::Impl::limit_strain(float limit) {
    // Provot's strain limit ("Deformation Constraints in a Mass-Spring Model to
    // Describe Rigid Cloth Behavior", 1995), as a projection: a Hooke spring
    // longer than (1 + limit) rest is shortened to that length, the correction
    // split by inverse mass (none on an anchor), Gauss-Seidel in spring order.
    const detail::ImplicitLayout& l = *implicit_.layout;
    for (int pass = 0; pass < kStrainLimitPasses; ++pass) {
        for (std::size_t s = 0; s < l.a.size(); ++s) {
            const std::uint32_t a = l.a[s], b = l.b[s];
            const Vec3 d = x_.get(a) - x_.get(b);
            const float len = length(d);
            const float longest = l.rest[s] * (1.0f + limit);
            if (len <= longest) continue;
            const float wa = l.unknown[a] >= 0 ? static_cast<float>(1.0 / l.mass[a]) : 0.0f;
            const float wb = l.unknown[b] >= 0 ? static_cast<float>(1.0 / l.mass[b]) : 0.0f;
            if (wa + wb == 0.0f) continue;
            const Vec3 correction = d * ((1.0f - longest / len) / (wa + wb));
            x_.set(a, x_.get(a) - correction * wa);
            x_.set(b, x_.get(b) + correction * wb);
        }
    }
}

}  // namespace springkit
