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
// sides, one per coordinate, in float for the correction of the iterate (see
// GlobalFactor).
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
// pull on the free nodes through the right-hand side. Air
// friction is implicit too: the drag c (v - w) adds (c / 2h) |x - x_n - h w|^2
// to g, so node i's inertia term takes m_i + c h as mass and
// (m_i y_i + c h (x_n + h w)) / (m_i + c h) as target. The ground is a
// constraint on the solve's result (the penalty force of the explicit
// integrators would need k_ground h^2 / m small): the nodes the solve put
// below it, or inside a collider, are pushed out by forces that the matrix
// spreads through the body (support_on_contacts(), implicit_contacts.cpp),
// then a projection catches what is left (the ground here, colliders in the
// contact stage); the ground's friction is an implicit slowing of the
// sliding velocity of the nodes on it. Parameters::long_range_attachments
// tie each node to its
// nearest anchors and Parameters::strain_limit caps each Hooke spring's
// stretch, both projections after the solve (limit_strain(), strain_limit.cpp), and rope
// constraints follow as for every integrator. A near-inextensible cloth at
// one step a frame is cheapest with a moderate k (k h^2 / m in the hundreds,
// where one or two iterations converge the swing) and these projections
// holding the stretch (docs/PERFORMANCE.md). Spring damping is not applied: implicit Euler damps by itself
// (docs/ARCHITECTURE.md). Every loop is serial and in a fixed order: the same
// bits for any number of threads.
#include "simulation/implicit_solver.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>

#include "simulation/batched_loops.hpp"
#include "simulation/global_iteration.hpp"
#include "simulation/lane4.hpp"
#include "simulation/simulation_impl.hpp"
#include "springkit/error.hpp"

namespace springkit {

namespace detail {

namespace {

// The widest block: its unknowns stay in registers (16 of SSE2's vectors).
constexpr int kWidestBlock = 8;

// Forward through a block's rectangle, K of its columns (v their unknowns):
// each row r, w[rows[r]] -= sum_c rect[r][c] v[c], the row's index read once.
template <int K>
void forward_columns(const float* rect, std::size_t width, std::int32_t m, const std::int32_t* rows, const Lane4* in,
                     float* w) {
    Lane4 v[K];
    for (int c = 0; c < K; ++c) v[c] = in[c];
    for (std::int32_t r = 0; r < m; ++r) {
        float* out = w + 4 * static_cast<std::size_t>(rows[r]);
        const float* l = rect + static_cast<std::size_t>(r) * width;
        Lane4 acc = load4(out);
        for (int c = 0; c < K; ++c) acc -= l[c] * v[c];
        store4(out, acc);
    }
}

// Backward: sum over the rectangle's rows of rect[r][c] w[rows[r]] for K of
// its columns, even and odd rows summed apart (two chains of additions in
// flight, not one), into out.
template <int K>
void backward_columns(const float* rect, std::size_t width, std::int32_t m, const std::int32_t* rows, const float* w,
                      Lane4* out) {
    Lane4 even[K], odd[K];
    for (int c = 0; c < K; ++c) even[c] = odd[c] = Lane4{0.0f, 0.0f, 0.0f, 0.0f};
    std::int32_t r = 0;
    for (; r + 2 <= m; r += 2) {
        const Lane4 x0 = load4(w + 4 * static_cast<std::size_t>(rows[r]));
        const Lane4 x1 = load4(w + 4 * static_cast<std::size_t>(rows[r + 1]));
        const float* l0 = rect + static_cast<std::size_t>(r) * width;
        const float* l1 = l0 + width;
        for (int c = 0; c < K; ++c) {
            even[c] += l0[c] * x0;
            odd[c] += l1[c] * x1;
        }
    }
    if (r < m) {
        const Lane4 x0 = load4(w + 4 * static_cast<std::size_t>(rows[r]));
        const float* l0 = rect + static_cast<std::size_t>(r) * width;
        for (int c = 0; c < K; ++c) even[c] += l0[c] * x0;
    }
    for (int c = 0; c < K; ++c) out[c] = even[c] + odd[c];
}

// A block of one column: its rectangle is one column, summed in four chains.
Lane4 backward_column(const float* l, std::int32_t m, const std::int32_t* rows, const float* w) {
    Lane4 s0{0.0f, 0.0f, 0.0f, 0.0f}, s1 = s0, s2 = s0, s3 = s0;
    std::int32_t r = 0;
    for (; r + 4 <= m; r += 4) {
        s0 += l[r] * load4(w + 4 * static_cast<std::size_t>(rows[r]));
        s1 += l[r + 1] * load4(w + 4 * static_cast<std::size_t>(rows[r + 1]));
        s2 += l[r + 2] * load4(w + 4 * static_cast<std::size_t>(rows[r + 2]));
        s3 += l[r + 3] * load4(w + 4 * static_cast<std::size_t>(rows[r + 3]));
    }
    for (; r < m; ++r) s0 += l[r] * load4(w + 4 * static_cast<std::size_t>(rows[r]));
    return (s0 + s1) + (s2 + s3);
}

}  // namespace

void GlobalFactor::solve_in_place(std::vector<float>& work) const {
    float* w = work.data();
    const std::size_t blocks = block_column.size() - 1;
    Lane4 v[kWidestBlock];
    // Block b: its first column's place, width, rectangle rows and values.
    struct Block {
        std::size_t first, width;
        const std::int32_t* below;
        std::int32_t m;
        const float *triangle, *rect;
    };
    const auto block = [&](std::size_t b) {
        const auto first = static_cast<std::size_t>(block_column[b]);
        const auto width = static_cast<std::size_t>(block_column[b + 1]) - first;
        const float* triangle = value.data() + block_value[b];
        return Block{first, width, rows.data() + block_row[b], block_row[b + 1] - block_row[b], triangle,
                     triangle + width * width};
    };
    for (std::size_t b = 0; b < blocks; ++b) {  // L z = P r
        const auto [first, width, below, m, triangle, rect] = block(b);
        float* top = w + 4 * first;
        for (std::size_t i = 0; i < width; ++i) {
            Lane4 acc = load4(top + 4 * i);
            for (std::size_t c = 0; c < i; ++c) acc -= triangle[i * width + c] * v[c];
            v[i] = acc;
            store4(top + 4 * i, acc);
        }
        std::size_t c = 0;
        for (; c + 4 <= width; c += 4) forward_columns<4>(rect + c, width, m, below, v + c, w);
        switch (width - c) {
            case 3: forward_columns<3>(rect + c, width, m, below, v + c, w); break;
            case 2: forward_columns<2>(rect + c, width, m, below, v + c, w); break;
            case 1: forward_columns<1>(rect + c, width, m, below, v + c, w); break;
            default: break;
        }
    }
    for (std::size_t j = 0; j < inverse_d.size(); ++j) store4(w + 4 * j, load4(w + 4 * j) * inverse_d[j]);  // D u = z
    for (std::size_t b = blocks; b-- > 0;) {  // L^T (P dx) = u
        const auto [first, width, below, m, triangle, rect] = block(b);
        if (width == 1) {
            v[0] = backward_column(rect, m, below, w);
        } else {
            std::size_t c = 0;
            for (; c + 4 <= width; c += 4) backward_columns<4>(rect + c, width, m, below, w, v + c);
            switch (width - c) {
                case 3: backward_columns<3>(rect + c, width, m, below, w, v + c); break;
                case 2: backward_columns<2>(rect + c, width, m, below, w, v + c); break;
                case 1: backward_columns<1>(rect + c, width, m, below, w, v + c); break;
                default: break;
            }
        }
        float* top = w + 4 * first;
        for (std::size_t c = width; c-- > 0;) {
            Lane4 acc = load4(top + 4 * c) - v[c];
            for (std::size_t i = c + 1; i < width; ++i) acc -= triangle[i * width + c] * load4(top + 4 * i);
            store4(top + 4 * c, acc);
        }
    }
}

namespace {

Eigen::SparseMatrix<double> assembled(std::size_t rows, const std::vector<MatrixEntry>& entries) {
    std::vector<Eigen::Triplet<double>> triplets;
    triplets.reserve(entries.size());
    for (const MatrixEntry& e : entries)
        triplets.emplace_back(static_cast<Eigen::Index>(e.row), static_cast<Eigen::Index>(e.column), e.value);
    const auto size = static_cast<Eigen::Index>(rows);
    Eigen::SparseMatrix<double> matrix(size, size);
    matrix.setFromTriplets(triplets.begin(), triplets.end());
    return matrix;
}

// The float blocks of Eigen's factorisation of a rows x rows matrix.
std::shared_ptr<const GlobalFactor> blocks_of(const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>& ldlt,
                                              std::size_t rows) {
    // M' + h^2 L is symmetric positive definite (M' > 0), so this fails only
    // when memory or the numbers do.
    if (ldlt.info() != Eigen::Success)
        throw Error("implicit integrator: the global step's matrix could not be factored");
    auto factor = std::make_shared<GlobalFactor>();
    GlobalFactor& f = *factor;
    const auto& permutation = ldlt.permutationP().indices();  // (P b)[permutation[i]] = b[i]
    f.place.assign(permutation.data(), permutation.data() + permutation.size());
    // L's columns (unit lower, diagonal not stored), rows ascending in each,
    // read in place from Eigen's compressed arrays.
    const Eigen::SparseMatrix<double>& factored = ldlt.matrixL().nestedExpression();
    Eigen::SparseMatrix<double> compressed;
    if (!factored.isCompressed()) {
        compressed = factored;
        compressed.makeCompressed();
    }
    const Eigen::SparseMatrix<double>& lower = factored.isCompressed() ? factored : compressed;
    const std::size_t n = rows;
    const auto* first = lower.outerIndexPtr();
    const auto* below = lower.innerIndexPtr();
    const double* entry = lower.valuePtr();
    f.inverse_d.resize(n);
    for (std::size_t j = 0; j < n; ++j) f.inverse_d[j] = static_cast<float>(1.0 / ldlt.vectorD()[static_cast<Eigen::Index>(j)]);
    const auto count = [&](std::size_t j) { return static_cast<std::size_t>(first[j + 1] - first[j]); };
    // Column j's parent in the elimination tree: its first row below the
    // diagonal. A column's rows other than its parent are among its parent's
    // (Liu, "The Role of Elimination Trees in Sparse Factorization", SIAM J.
    // Matrix Anal. Appl. 11(1), 1990), so a column whose parent is the next
    // column joins that column's block with zeros only where the parent has
    // rows it has not. It joins when the block stays at most a fifth zeros
    // (or adds none) and kWidestBlock wide.
    const auto parent_is_next = [&](std::size_t j) {
        return count(j) > 0 && static_cast<std::size_t>(below[first[j]]) == j + 1;
    };
    f.block_column.push_back(0);
    for (std::size_t j = 0; j < n;) {
        std::size_t end = j + 1, held = count(j);
        while (end < n && end - j < static_cast<std::size_t>(kWidestBlock) && parent_is_next(end - 1)) {
            const std::size_t width = end - j + 1;
            const std::size_t stored = width * (width - 1) / 2 + width * count(end);
            const std::size_t real = held + count(end);
            const bool no_zeros = count(end - 1) == count(end) + 1;
            if (!no_zeros && 5 * (stored - real) > stored) break;
            held = real;
            ++end;
        }
        f.block_column.push_back(static_cast<std::int32_t>(end));
        j = end;
    }
    // Each block's rectangle: the rows of its last column.
    std::vector<std::int32_t> at(n, -1);  // a rectangle row's index in its block
    const std::size_t blocks = f.block_column.size() - 1;
    std::size_t total_rows = 0, total_values = 0;
    for (std::size_t b = 0; b < blocks; ++b) {
        const auto width = static_cast<std::size_t>(f.block_column[b + 1] - f.block_column[b]);
        const std::size_t m = count(static_cast<std::size_t>(f.block_column[b + 1]) - 1);
        total_rows += m;
        total_values += width * (width + m);
    }
    f.rows.reserve(total_rows);
    f.value.reserve(total_values);
    f.block_row.push_back(0);
    for (std::size_t b = 0; b < blocks; ++b) {
        const auto begin = static_cast<std::size_t>(f.block_column[b]);
        const auto end = static_cast<std::size_t>(f.block_column[b + 1]);
        const std::size_t width = end - begin;
        const std::size_t last = end - 1;
        const std::size_t m = count(last);
        f.block_value.push_back(f.value.size());
        for (std::size_t r = 0; r < m; ++r) {
            at[static_cast<std::size_t>(below[first[last] + r])] = static_cast<std::int32_t>(r);
            f.rows.push_back(below[first[last] + r]);
        }
        const std::size_t triangle = f.value.size(), rect = triangle + width * width;
        f.value.resize(rect + m * width, 0.0f);
        for (std::size_t c = 0; c < width; ++c)
            for (auto e = static_cast<std::size_t>(first[begin + c]); e < static_cast<std::size_t>(first[begin + c + 1]); ++e) {
                const auto row = static_cast<std::size_t>(below[e]);
                const auto value = static_cast<float>(entry[e]);
                if (row < end) {
                    f.value[triangle + (row - begin) * width + c] = value;
                } else {
                    if (at[row] < 0)  // the elimination tree's property broken: Eigen's factor is not what it says
                        throw Error("implicit integrator: the global step's factor has an unexpected pattern");
                    f.value[rect + static_cast<std::size_t>(at[row]) * width + c] = value;
                }
            }
        for (std::size_t r = 0; r < m; ++r) at[static_cast<std::size_t>(below[first[last] + r])] = -1;
        f.block_row.push_back(static_cast<std::int32_t>(f.rows.size()));
    }
    return factor;
}

}  // namespace

std::shared_ptr<const GlobalFactor> factor_global_matrix(std::size_t rows, const std::vector<MatrixEntry>& entries) {
    const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(assembled(rows, entries));
    return blocks_of(ldlt, rows);
}

// The global system's row of each node, -1 for an anchored node (eliminated:
// it holds its driven position); the free nodes in order.
std::vector<std::int32_t> free_rows(const Model& model, std::vector<std::uint32_t>* node_of = nullptr) {
    std::vector<std::int32_t> unknown(model.node_count(), 0);
    for (const Anchor& a : model.anchors) unknown[a.node] = -1;
    std::int32_t rows = 0;
    for (std::size_t i = 0; i < unknown.size(); ++i) {
        if (unknown[i] < 0) continue;
        unknown[i] = rows++;
        if (node_of) node_of->push_back(static_cast<std::uint32_t>(i));
    }
    return unknown;
}

// A spring's part of h^2 L between rows ra and rb, w = h^2 k: w (e_a -
// e_b)(e_a - e_b)^T over the free rows; a spring to an anchor adds to the
// diagonal only (its other end is on the right-hand side).
void add_spring_entries(std::vector<MatrixEntry>& entries, std::int32_t ra, std::int32_t rb, double w) {
    const auto ua = static_cast<std::uint32_t>(ra), ub = static_cast<std::uint32_t>(rb);
    if (ra >= 0) entries.push_back({ua, ua, w});
    if (rb >= 0) entries.push_back({ub, ub, w});
    if (ra >= 0 && rb >= 0) {
        entries.push_back({ua, ub, -w});
        entries.push_back({ub, ua, -w});
    }
}

// Eigen's simplicial LDL^T with what its symbolic analysis found: L's entries
// column by column (protected in Eigen's class, read by deriving from it).
class MeasuredLDLT : public Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> {
public:
    // L's entries below the diagonal (call after analyzePattern()).
    std::uint64_t entries() const {
        std::uint64_t sum = 0;
        for (Eigen::Index j = 0; j < m_nonZerosPerCol.size(); ++j) sum += static_cast<std::uint64_t>(m_nonZerosPerCol[j]);
        return sum;
    }
    // Whether the analysis succeeded and found a factor past factor_bounds():
    // the global step iterates on the matrix instead (call after
    // analyzePattern()).
    bool past_bounds() const { return info() == Eigen::Success && !affordable(); }
    // Whether the numeric factorisation stays within factor_bounds() (call
    // after analyzePattern()).
    bool affordable() const {
        double work = 0.0, entries = 0.0;
        for (Eigen::Index j = 0; j < m_nonZerosPerCol.size(); ++j) {
            const double c = m_nonZerosPerCol[j];
            work += c * c;
            entries += c;
        }
        const FactorBounds bounds = factor_bounds();
        return work <= bounds.work && entries <= bounds.entries;
    }
};

GlobalStepSize global_step_size(const Model& model) {
    // The pattern build_implicit_layout() factors (values are not read).
    std::vector<std::uint32_t> node_of;
    const std::vector<std::int32_t> row = free_rows(model, &node_of);
    std::vector<MatrixEntry> entries;
    for (std::uint32_t r = 0; r < node_of.size(); ++r) entries.push_back({r, r, 1.0});
    for (const Spring& s : model.springs)
        if (s.kind == SpringKind::hooke) add_spring_entries(entries, row[s.a], row[s.b], 1.0);
    const Eigen::SparseMatrix<double> matrix = assembled(node_of.size(), entries);
    GlobalStepSize size;
    size.matrix_entries = static_cast<std::uint64_t>(matrix.nonZeros());
    MeasuredLDLT ldlt;
    ldlt.analyzePattern(matrix);
    size.iterates = ldlt.past_bounds();
    if (!size.iterates) size.factor_entries = ldlt.entries();
    return size;
}

void ImplicitLayout::solve_global(std::vector<float>& work, std::vector<float>& scratch) const {
    if (factor) factor->solve_in_place(work);
    else iteration->solve_in_place(work, scratch);
}

std::shared_ptr<const ImplicitLayout> build_implicit_layout(const PreparedBody& body,
                                                            std::shared_ptr<const SpringValues> springs, float h,
                                                            float air_friction) {
    auto layout = std::make_shared<ImplicitLayout>();
    ImplicitLayout& l = *layout;
    const Model& m = body.model;
    const std::size_t n = m.node_count();
    l.h = h;
    l.air_friction = air_friction;
    body.for_each_hooke([&](std::uint32_t si) {
        const Spring& s = m.springs[si];
        l.a.push_back(s.a);
        l.b.push_back(s.b);
        l.k.push_back(springs->k_of(si));
        l.rest.push_back(s.rest);
    });
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
    l.unknown = free_rows(m, &l.node_of);
    l.mass.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        l.mass[i] = static_cast<double>(body.mass_of(i)) + static_cast<double>(air_friction) * h;
    l.inverse_mass.resize(n);
    for (std::size_t i = 0; i < n; ++i) l.inverse_mass[i] = l.unknown[i] >= 0 ? static_cast<float>(1.0 / l.mass[i]) : 0.0f;
    // M' + h^2 L over the free nodes.
    const double h2 = static_cast<double>(h) * h;
    std::vector<MatrixEntry> entries;
    entries.reserve(l.node_of.size() + 4 * l.a.size());
    for (std::uint32_t row = 0; row < l.node_of.size(); ++row) entries.push_back({row, row, l.mass[l.node_of[row]]});
    for (std::size_t s = 0; s < l.a.size(); ++s)
        add_spring_entries(entries, l.unknown[l.a[s]], l.unknown[l.b[s]], h2 * l.k[s]);
    const Eigen::SparseMatrix<double> matrix = assembled(l.node_of.size(), entries);
    // The symbolic analysis (the ordering and L's column counts) says what the
    // factor would cost before it is built; past the bounds the global step
    // iterates on the matrix instead (global_iteration.hpp).
    MeasuredLDLT ldlt;
    ldlt.analyzePattern(matrix);
    if (ldlt.past_bounds()) {
        auto iteration = std::make_shared<GlobalIteration>();
        iteration->row_first.reserve(l.node_of.size() + 1);
        iteration->row_first.push_back(0);
        for (Eigen::Index j = 0; j < matrix.outerSize(); ++j) {  // symmetric: column j is row j
            double diagonal = 0.0;
            for (Eigen::SparseMatrix<double>::InnerIterator it(matrix, j); it; ++it) {
                if (it.index() == j) {
                    diagonal = it.value();
                } else {
                    iteration->column.push_back(static_cast<std::int32_t>(it.index()));
                    iteration->entry.push_back(static_cast<float>(it.value()));
                }
            }
            iteration->diagonal.push_back(static_cast<float>(diagonal));
            iteration->inverse_diagonal.push_back(static_cast<float>(1.0 / diagonal));
            iteration->row_first.push_back(static_cast<std::int32_t>(iteration->column.size()));
        }
        l.iteration = std::move(iteration);
        return layout;
    }
    ldlt.factorize(matrix);
    l.factor = blocks_of(ldlt, l.node_of.size());
    return layout;
}

std::shared_ptr<const LongRangeAttachments> build_long_range_attachments(const PreparedBody& body, int count) {
    auto out = std::make_shared<LongRangeAttachments>();
    out->count = count;
    const Model& m = body.model;
    const std::size_t n = m.node_count();
    // Each node's neighbours along the springs, with the rest lengths.
    std::vector<std::uint32_t> first(n + 1, 0), next(2 * m.springs.size());
    std::vector<float> rest(2 * m.springs.size());
    for (const Spring& s : m.springs) {
        ++first[s.a + 1];
        ++first[s.b + 1];
    }
    for (std::size_t i = 0; i < n; ++i) first[i + 1] += first[i];
    std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
    for (const Spring& s : m.springs) {
        rest[fill[s.a]] = s.rest;
        next[fill[s.a]++] = s.b;
        rest[fill[s.b]] = s.rest;
        next[fill[s.b]++] = s.a;
    }
    // Dijkstra from all anchors at once, one label per (node, anchor): the
    // first `count` labels a node settles are its nearest anchors (ties by
    // anchor node index, through the queue's order), at most count per node.
    struct Label {
        double distance;
        std::uint32_t node, anchor;
        bool operator>(const Label& o) const {
            if (distance != o.distance) return distance > o.distance;
            if (anchor != o.anchor) return anchor > o.anchor;
            return node > o.node;
        }
    };
    std::vector<char> anchored(n, 0);
    std::priority_queue<Label, std::vector<Label>, std::greater<>> queue;
    for (const Anchor& a : m.anchors) {
        if (anchored[a.node]) continue;
        anchored[a.node] = 1;
        queue.push({0.0, a.node, a.node});
    }
    std::vector<std::vector<std::pair<std::uint32_t, double>>> settled(n);  // (anchor, distance) per node
    const auto count_size = static_cast<std::size_t>(count);
    while (!queue.empty()) {
        const Label top = queue.top();
        queue.pop();
        auto& here = settled[top.node];
        if (here.size() >= count_size) continue;
        if (std::any_of(here.begin(), here.end(), [&](const auto& e) { return e.first == top.anchor; })) continue;
        here.emplace_back(top.anchor, top.distance);
        for (std::uint32_t e = first[top.node]; e < first[top.node + 1]; ++e) {
            const std::uint32_t to = next[e];
            if (anchored[to] || settled[to].size() >= count_size) continue;
            queue.push({top.distance + rest[e], to, top.anchor});
        }
    }
    // The length of a node's attachment is its straight rest distance from
    // the anchor. Kim et al. take the geodesic on the rest mesh; on a flat,
    // convex rest shape that is this distance, where the spring path
    // (Dijkstra's, a grid's staircase) is up to 8% longer and let the 64 x 64
    // cloth hang 9% stretched (docs/PERFORMANCE.md). A rest shape folded
    // between node and anchor cannot unfold past its rest distance.
    out->nodes = n;
    out->anchor.resize(count_size * n);
    out->length.assign(count_size * n, std::numeric_limits<float>::infinity());
    for (std::size_t i = 0; i < n; ++i) {
        auto& here = settled[i];
        std::sort(here.begin(), here.end());
        for (std::size_t j = 0; j < count_size; ++j) out->anchor[j * n + i] = static_cast<std::uint32_t>(i);
        if (anchored[i]) continue;
        for (std::size_t j = 0; j < here.size(); ++j) {
            out->anchor[j * n + i] = here[j].first;
            out->length[j * n + i] = length(m.positions[i] - m.positions[here[j].first]);
        }
    }
    // Ranges of nodes that share their anchors in every slot (a cloth's
    // nodes share their nearest corners): the anchors' positions are read
    // once for them. Ranges shorter than a vector's worth join the gathered
    // ones around them.
    constexpr std::size_t kShortest = 16;
    const auto same = [&](std::size_t i, std::size_t k) {
        for (std::size_t j = 0; j < count_size; ++j)
            if (out->anchor[j * n + i] != out->anchor[j * n + k]) return false;
        return true;
    };
    for (std::size_t i = 0; i < n;) {
        std::size_t end = i + 1;
        while (end < n && same(end, i)) ++end;
        const bool shared = end - i >= kShortest;
        auto& ranges = out->ranges;
        if (!shared && !ranges.empty() && !ranges.back().shared && ranges.back().end == i)
            ranges.back().end = static_cast<std::uint32_t>(end);
        else
            ranges.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(end), shared});
        i = end;
    }
    return out;
}

}  // namespace detail

namespace {

// Plain iterations before Wang's Chebyshev weights start (he delays them
// while the first local steps still turn the springs a lot).
constexpr int kChebyshevDelay = 2;

// Springs per block of the local step: their forces (3 x 8 x 256 bytes)
// stay in L1 until they are summed.
constexpr std::size_t kForceBlock = 256;

// The local step's forces of springs e < count (ends a[e], b[e]) on their a
// ends at the iterate x (3 doubles per node): k (d - (x_a - x_b)) with d the
// rest length along x_a - x_b, i.e. k (rest / len - 1) (x_a - x_b); none for
// a spring of zero length, which has no direction. Coordinate c of spring e
// goes to f[c kForceBlock + e]. Computed side by side (the vector loops
// gather the ends; IEEE square root and division, no fused multiply-add:
// every clone gives the same bits).
SPRINGKIT_STAGE_CLONES
void local_step_forces(const double* __restrict x, const std::uint32_t* __restrict a,
                       const std::uint32_t* __restrict b, const float* __restrict k, const float* __restrict rest,
                       std::size_t count, double* __restrict f) {
    for (std::size_t e = 0; e < count; ++e) {
        const std::uint32_t ia = 3 * a[e], ib = 3 * b[e];
        const double dx = x[ia] - x[ib], dy = x[ia + 1] - x[ib + 1], dz = x[ia + 2] - x[ib + 2];
        const double len = std::sqrt(dx * dx + dy * dy + dz * dz);
        const double pull = static_cast<double>(k[e]) * (static_cast<double>(rest[e]) / len - 1.0);
        const double scale = len > 0.0 ? pull : 0.0;
        f[e] = dx * scale;
        f[kForceBlock + e] = dy * scale;
        f[2 * kForceBlock + e] = dz * scale;
    }
}

// The strain limit's global step's forces, laid out as local_step_forces():
// a spring longer than longest = stretch rest pulls on a by k (longest / len
// - 1) (x_a - x_b) (its vector capped at longest); a spring not that long
// adds nothing (exact zeros, which sum_spring_forces<true>() skips).
SPRINGKIT_STAGE_CLONES
void capped_spring_forces(const float* __restrict px, const float* __restrict py, const float* __restrict pz,
                          const std::uint32_t* __restrict a, const std::uint32_t* __restrict b,
                          const float* __restrict k, const float* __restrict rest, float stretch, std::size_t count,
                          double* __restrict f) {
    for (std::size_t e = 0; e < count; ++e) {
        const std::uint32_t ia = a[e], ib = b[e];
        const double dx = static_cast<double>(px[ia]) - px[ib], dy = static_cast<double>(py[ia]) - py[ib],
                     dz = static_cast<double>(pz[ia]) - pz[ib];
        const double len = std::sqrt(dx * dx + dy * dy + dz * dz);
        const double longest = static_cast<double>(stretch) * rest[e];
        const double scale = static_cast<double>(k[e]) * (longest / len - 1.0);
        const bool capped = len > longest;
        f[e] = capped ? dx * scale : 0.0;
        f[kForceBlock + e] = capped ? dy * scale : 0.0;
        f[2 * kForceBlock + e] = capped ? dz * scale : 0.0;
    }
}

// The inertial prediction, coordinate c of nodes i < count (x, v and force
// that coordinate's arrays; start and current 3 apart): x_n into start, and
// into current the first iterate: x_n + h v for an anchored node (unknown
// < 0; its driven position at the step's end), and for a free one
//     y = x_n + h v + h^2 (g + f / m),  y' = (m y + c h (x_n + h w)) / m',
// the inertia term's target with the drag's (drift = h w). The mass is
// mass[i], or common_mass for every node without Masses; the force is 0
// without Forces. Side by side (IEEE division, no fused multiply-add: every
// clone gives the same bits).
template <bool Forces, bool Masses>
SPRINGKIT_STAGE_CLONES
void predict(const float* __restrict x, const float* __restrict v, const float* __restrict force,
             const float* __restrict mass, float common_mass, const double* __restrict mass_prime,
             const std::int32_t* __restrict unknown, double hd, double h2, double gravity, double drag_h,
             double drift, std::size_t count, double* __restrict start, double* __restrict current) {
    for (std::size_t i = 0; i < count; ++i) {
        const double xs = x[i];
        const double driven = xs + hd * static_cast<double>(v[i]);
        const double f = Forces ? static_cast<double>(force[i]) : 0.0;
        const double m = Masses ? mass[i] : common_mass;
        const double y = driven + h2 * (gravity + f / m);
        const double target = (m * y + drag_h * (xs + drift)) / mass_prime[i];
        start[3 * i] = xs;
        current[3 * i] = unknown[i] >= 0 ? target : driven;
    }
}

// Sums the springs' forces on their a ends, forces(first, count, f) filling
// f as local_step_forces() does for springs first .. first + count, into sum
// at a and subtracted at b, springs in order: each node's sum takes its
// springs' forces in spring order, the order the layout's node_entry lists
// them in. A run of springs from one a node (a grid lists each node's
// springs together) sums that node in registers, not through memory, where
// each addition would wait for the store before it: the same additions in
// the same order. SkipZeros: a spring whose force is exactly zero is
// skipped (a sum that starts at +0 keeps its bits when a zero is added or
// subtracted: it never becomes -0).
template <bool SkipZeros, class Forces>
void sum_spring_forces(const detail::ImplicitLayout& l, std::vector<double>& sum, Forces&& forces) {
    sum.assign(3 * l.mass.size(), 0.0);
    double* out = sum.data();
    alignas(64) double f[3 * kForceBlock];
    for (std::size_t first = 0; first < l.a.size(); first += kForceBlock) {
        const std::size_t count = std::min(kForceBlock, l.a.size() - first);
        forces(first, count, f);
        const std::uint32_t* a = l.a.data() + first;
        const std::uint32_t* b = l.b.data() + first;
        std::uint32_t held = a[0];  // the node whose sum is in acc (memory holds an older one)
        double acc[3] = {out[3 * std::size_t{held}], out[3 * std::size_t{held} + 1], out[3 * std::size_t{held} + 2]};
        for (std::size_t e = 0; e < count; ++e) {
            if (SkipZeros && f[e] == 0.0 && f[kForceBlock + e] == 0.0 && f[2 * kForceBlock + e] == 0.0) continue;
            if (a[e] != held) {
                for (std::size_t c = 0; c < 3; ++c) out[3 * std::size_t{held} + c] = acc[c];
                held = a[e];
                for (std::size_t c = 0; c < 3; ++c) acc[c] = out[3 * std::size_t{held} + c];
            }
            double* pb = out + 3 * static_cast<std::size_t>(b[e]);
            const bool b_held = b[e] == held;  // a spring to itself
            for (std::size_t c = 0; c < 3; ++c) {
                acc[c] += f[c * kForceBlock + e];
                if (b_held)
                    acc[c] -= f[c * kForceBlock + e];
                else
                    pb[c] -= f[c * kForceBlock + e];
            }
        }
        for (std::size_t c = 0; c < 3; ++c) out[3 * std::size_t{held} + c] = acc[c];
    }
}

}  // namespace

std::size_t Simulation::Impl::implicit_pass(const StageArgs& args) {
    detail::ImplicitState& st = implicit_;
    // The one-leg theta-method (implicit Euler at theta = 1, the implicit
    // midpoint rule at 1/2): the forces at the point theta of the way through
    // the substep,
    //     x_theta = (1 - theta) x_n + theta x', v' = v + step M^-1 f(x_theta),
    //     x' = x + step ((1 - theta) v + theta v'),
    // make x_theta = x_n + h v + h^2 M^-1 f(x_theta) with h = theta step: one
    // implicit Euler step of length h, solved as above, then carried on to
    // the substep's end, x' = x_n + (x_theta - x_n) / theta and v' = (v_theta
    // - (1 - theta) v) / theta, v_theta = (x_theta - x_n) / h. On a linear
    // spring the map has eigenvalues of modulus sqrt((1 + (1 - theta)^2
    // step^2 w^2) / (1 + theta^2 step^2 w^2)): 1 at theta = 1/2, whose map is
    // symplectic (it keeps the swing, and stiff modes ring), and a stiff mode
    // rings at (1 - theta) / theta of its amplitude per substep. The
    // force-blending theta-method, (1 - theta) f(x_n) + theta f(x'), was
    // tried first: on a swinging cloth with bend springs it blew up at theta
    // 0.9 (compressed springs, whose transverse stiffness is negative, taken
    // explicitly); this form has no explicit force.
    const float step = args.dt;
    const float theta = params_.implicit_theta;
    const bool euler = theta == 1.0f;  // nothing to carry on
    const float h = theta * step;
    if (!st.layout || st.layout->h != h || st.layout->springs != springs_ ||
        st.layout->air_friction != params_.air_friction)
        st.layout = detail::build_implicit_layout(*b_, springs_, h, params_.air_friction);
    const int attach = params_.long_range_attachments;
    if (attach > 0 && (!st.attachments || st.attachments->count != attach))
        st.attachments = detail::build_long_range_attachments(*b_, attach);
    const detail::ImplicitLayout& l = *st.layout;
    const std::size_t n = model_->node_count();
    const std::size_t rows = l.node_of.size();
    st.start.resize(3 * n);
    st.current.resize(3 * n);
    st.target.resize(3 * rows);
    st.work.assign(4 * rows, 0.0f);
    // Bead loads, the gas's pressure and the volume elements are forces of
    // this substep like the others, taken at its start (apply_bead_loads(),
    // stage_pressure(), stage_volume_elements()): explicit, so stiff volume
    // elements need substeps short enough for them.
    const bool beads = !model_->beads.empty();
    const bool loads = has_loads();
    if (loads) {
        f_.assign(n, Vec3{});
        if (beads) apply_bead_loads();
        stage_pressure(args);
        stage_volume_elements(args);
    }
    const double hd = h, h2 = hd * hd;
    const double drag_h = static_cast<double>(params_.air_friction) * hd;
    const Vec3 g = params_.gravity;
    const double gravity[3] = {g.x, g.y, g.z};
    const double drift[3] = {wind_.x * hd, wind_.y * hd, wind_.z * hd};
    // The force per node, external plus this substep's loads (in float, as
    // Vec3 sums them), when there is one.
    const bool forces = !external_.x.empty() || loads;
    if (forces) {
        st.load.resize(3 * n);
        for (std::size_t c = 0; c < 3; ++c) {
            const std::vector<float>* ext = c == 0 ? &external_.x : c == 1 ? &external_.y : &external_.z;
            const std::vector<float>* sub = c == 0 ? &f_.x : c == 1 ? &f_.y : &f_.z;
            for (std::size_t i = 0; i < n; ++i)
                st.load[c * n + i] = (ext->empty() ? 0.0f : (*ext)[i]) + (loads ? (*sub)[i] : 0.0f);
        }
    }
    const bool masses = !b_->mass.empty();
    const auto prediction = forces ? (masses ? predict<true, true> : predict<true, false>)
                                   : (masses ? predict<false, true> : predict<false, false>);
    for (std::size_t c = 0; c < 3; ++c) {
        const std::vector<float>& x = c == 0 ? x_.x : c == 1 ? x_.y : x_.z;
        const std::vector<float>& v = c == 0 ? v_.x : c == 1 ? v_.y : v_.z;
        prediction(x.data(), v.data(), forces ? st.load.data() + c * n : nullptr, b_->mass.data(), b_->common_mass,
                   l.mass.data(), l.unknown.data(), hd, h2, gravity[c], drag_h, drift[c], n, st.start.data() + c,
                   st.current.data() + c);
    }
    for (std::size_t row = 0; row < rows; ++row)
        for (std::size_t c = 0; c < 3; ++c) st.target[3 * row + c] = st.current[3 * l.node_of[row] + c];
    const double rho = params_.chebyshev_rho;
    double omega = 1.0;
    for (int it = 0; it < params_.implicit_iterations; ++it) {
        // Local step: each spring's best d (rest along x_a - x_b), and
        // k (d - (x_a - x_b)), the spring's force on a: the part of the
        // right-hand side h^2 J d not yet balanced by h^2 L x.
        sum_spring_forces<false>(l, st.force, [&](std::size_t first, std::size_t count, double* f) {
            local_step_forces(st.current.data(), l.a.data() + first, l.b.data() + first, l.k.data() + first,
                              l.rest.data() + first, count, f);
        });
        // Global step as a correction: (M' + h^2 L) dx = r with the residual
        // r = M' (y' - x) + h^2 J d - h^2 L x = M' (y' - x) + h^2 f(x), f
        // summed per node in spring order (an anchor's spring pulls through
        // its current, driven position), then x + dx, the same x as solving
        // (M' + h^2 L) x = M' y' + h^2 J d (+ the anchors' pull) directly.
        for (std::size_t row = 0; row < rows; ++row) {
            const std::uint32_t i = l.node_of[row];
            const double* sum = &st.force[3 * static_cast<std::size_t>(i)];
            const std::size_t place = 4 * l.place(row);
            for (std::size_t c = 0; c < 3; ++c)
                st.work[place + c] = static_cast<float>(l.mass[i] * (st.target[3 * row + c] - st.current[3 * i + c]) +
                                                        h2 * sum[c]);
        }
        l.solve_global(st.work, st.solve_scratch);
        // Wang's Chebyshev weights on the local/global iterates:
        // x^(k+1) = omega_(k+1) (x^ - x^(k-1)) + x^(k-1), x^ the global step's result,
        // omega = 1 for the first kChebyshevDelay iterations, then 2 / (2 - rho^2),
        // then 4 / (4 - rho^2 omega_k); rho = 0 leaves the plain iterations.
        omega = it < kChebyshevDelay ? 1.0
                : it == kChebyshevDelay ? 2.0 / (2.0 - rho * rho)
                                        : 4.0 / (4.0 - rho * rho * omega);
        if (it == 0) st.older = st.current;
        float largest = 0.0f;  // the largest correction of a coordinate
        for (std::size_t row = 0; row < rows; ++row) {
            const float* correction = &st.work[4 * l.place(row)];
            for (std::size_t c = 0; c < 3; ++c) {
                const std::size_t at = 3 * l.node_of[row] + c;
                const double now = st.current[at];
                const float dx = correction[c];
                largest = std::max(largest, std::abs(dx));
                const double solved = now + dx;
                st.current[at] = omega * (solved - st.older[at]) + st.older[at];
                st.older[at] = now;
            }
        }
        // A residual tolerance: the global step's correction is the residual
        // through (M' + h^2 L)^-1, in metres.
        if (params_.implicit_tolerance > 0.0f && largest <= params_.implicit_tolerance) break;
    }
    support_on_contacts(args.dt);
    // The solve's end, x_theta, carried on to the substep's end.
    const double carry = 1.0 / theta;
    const auto solved = [&](std::size_t i) {
        const double* z = &st.current[3 * i];
        if (euler) return Vec3{static_cast<float>(z[0]), static_cast<float>(z[1]), static_cast<float>(z[2])};
        const double* x0 = &st.start[3 * i];
        return Vec3{static_cast<float>(x0[0] + (z[0] - x0[0]) * carry),
                    static_cast<float>(x0[1] + (z[1] - x0[1]) * carry),
                    static_cast<float>(x0[2] + (z[2] - x0[2]) * carry)};
    };
    for (std::size_t i = 0; i < n; ++i) x_.set(i, solved(i));
    if (params_.strain_limit > 0.0f || attach > 0) limit_strain(params_.strain_limit, attach > 0);
    const float inv_h = 1.0f / h;
    const float keep = args.velocity_keep;
    const std::optional<Ground>& ground = params_.ground;
    for (std::uint32_t i : l.node_of) {
        Vec3 x = x_.get(i);
        const bool below = ground && x.y < ground->height;
        const bool on_ground = ground && x.y <= ground->height;  // below, or lifted onto it
        if (below) {  // what the support left below the ground, projected
            x.y = ground->height;
            x_.set(i, x);
        }
        const Vec3 x0{static_cast<float>(st.start[3 * i]), static_cast<float>(st.start[3 * i + 1]),
                      static_cast<float>(st.start[3 * i + 2])};
        Vec3 v;
        if (euler) {
            v = (x - x0) * (inv_h * keep);
        } else {
            // v' = (v_theta - (1 - theta) v_n) / theta, plus what the
            // projections (strain limit, attachments, ground) moved the
            // node by over the substep, as implicit Euler takes them.
            const double* z = &st.current[3 * i];
            const double* xs = &st.start[3 * i];
            const Vec3 end = solved(i), vn = v_.get(i);
            const double moved[3] = {x.x - end.x, x.y - end.y, x.z - end.z}, old[3] = {vn.x, vn.y, vn.z};
            double out[3];
            for (int c = 0; c < 3; ++c)
                out[c] = (((z[c] - xs[c]) / h - (1.0 - theta) * old[c]) * carry + moved[c] / step) * keep;
            v = {static_cast<float>(out[0]), static_cast<float>(out[1]), static_cast<float>(out[2])};
        }
        if (on_ground) {  // implicit sliding friction over the substep: m (v' - v) = -friction step v'
            const float slow = 1.0f / (1.0f + ground->friction * step / b_->mass_of(i));
            v.x *= slow;
            v.z *= slow;
        }
        v_.set(i, v);
    }
    if (beads) bead_inverse_mass_ = b_->inverse_mass;  // the beads' loads last one substep
    static const std::size_t rope_constraints = stage_index("rope constraints");
    return rope_constraints;
}

void Simulation::Impl::strain_limit_global_step(float stretch) {
    // One global step of the strain limit through the solve's factor: the
    // local step caps each Hooke spring's vector at stretch rest (d_s =
    // (x_a - x_b) min(1, stretch rest / len), a spring not that long keeps
    // its own), and the global step moves the free nodes by the dx that
    // minimises 1/(2h^2) |M'^1/2 dx|^2 + sum k/2 |d_s - (x_a + dx_a - x_b -
    // dx_b)|^2, i.e. (M' + h^2 L) dx = h^2 J (d - J x): the local/global
    // iteration of Liu et al. with the current positions as the inertia
    // target. A Gauss-Seidel pass carries a spring's correction one spring
    // along; this solve carries it across the body (the factor couples every
    // node), the nearer nodes moving more, the anchors not at all. Its forces
    // come in equal and opposite pairs, so a free body keeps its momentum.
    detail::ImplicitState& st = implicit_;
    const detail::ImplicitLayout& l = *st.layout;
    const std::size_t rows = l.node_of.size();
    const double h2 = static_cast<double>(l.h) * l.h;
    const float* px = x_.x.data();
    const float* py = x_.y.data();
    const float* pz = x_.z.data();
    sum_spring_forces<true>(l, st.force, [&](std::size_t first, std::size_t count, double* f) {
        capped_spring_forces(px, py, pz, l.a.data() + first, l.b.data() + first, l.k.data() + first,
                             l.rest.data() + first, stretch, count, f);
    });
    for (std::size_t row = 0; row < rows; ++row) {
        const std::uint32_t i = l.node_of[row];
        const double* sum = &st.force[3 * static_cast<std::size_t>(i)];
        const std::size_t place = 4 * l.place(row);
        for (std::size_t c = 0; c < 3; ++c) st.work[place + c] = static_cast<float>(h2 * sum[c]);
    }
    l.solve_global(st.work, st.solve_scratch);
    for (std::size_t row = 0; row < rows; ++row) {
        const std::uint32_t i = l.node_of[row];
        const float* dx = &st.work[4 * l.place(row)];
        x_.x[i] += dx[0];
        x_.y[i] += dx[1];
        x_.z[i] += dx[2];
    }
}

}  // namespace springkit
