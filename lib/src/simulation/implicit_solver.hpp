// springkit — the implicit integrator's data (Integrator::implicit): implicit
// Euler for mass-spring systems solved as an energy minimisation, after Liu,
// Bargteil, O'Brien and Kavan, "Fast Simulation of Mass-Spring Systems" (ACM
// TOG 32(6), 2013), the global step a sparse LDL^T factorisation (Eigen's
// SimplicialLDLT) factored once per layout.
// implicit_solver.cpp holds the maths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace springkit {

class PreparedBody;
struct Model;

namespace detail {

struct SpringValues;

/// The same matrix for conjugate gradients (global_iteration.hpp).
struct GlobalIteration;

/// P A P^T = L D L^T of a sparse symmetric positive definite matrix A (the
/// global step's M' + h^2 L), factored in double by Eigen's SimplicialLDLT
/// (minimum-degree ordering P) and kept in float for the solves: the
/// iterations solve for a correction A dx = r whose residual r is computed in
/// double, so float's relative error lands on dx, not on x (iterative
/// refinement), and the fixed point is the double one.
///
/// L is kept in supernodes (columns side by side whose rows below them are
/// the same, Liu, Ng and Peyton, "On Finding Supernodes for Sparse Matrix
/// Computations", SIAM J. Matrix Anal. Appl. 14(1), 1993; relaxed: a few
/// explicit zeros let a column join when its parent in the elimination tree
/// is the next column): a block of width w is its w x w unit lower triangle
/// and a dense m x w rectangle below it, one row index per rectangle row.
/// The solve then reads a row's index once for w entries and keeps the
/// block's w unknowns in registers; x, y and z ride together as one 4-wide
/// vector per unknown (a pad lane makes it 16 bytes).
struct GlobalFactor {
    std::vector<std::int32_t> place;  ///< row of A -> its place in P's order
    /// Block b: the columns (places) block_column[b] .. block_column[b + 1]
    /// of L; its rectangle's rows are entries block_row[b] .. block_row[b + 1]
    /// of rows; its values start at block_value[b] of value: the triangle
    /// (w x w row-major, the strictly lower part read), then the rectangle
    /// (m x w row-major).
    std::vector<std::int32_t> block_column, block_row, rows;
    std::vector<std::size_t> block_value;
    std::vector<float> value;
    std::vector<float> inverse_d;  ///< 1 / D per place

    /// Solves A dx = r. work: 4 values per place (x, y, z and a pad lane),
    /// P r on entry, P dx on return.
    void solve_in_place(std::vector<float>& work) const;
};

/// An entry of a sparse symmetric matrix, given in both triangles (the lower
/// one is read); repeated entries are summed.
struct MatrixEntry {
    std::uint32_t row, column;
    double value;
};

/// Factors the rows x rows symmetric positive definite matrix of these
/// entries; throws Error when it cannot.
std::shared_ptr<const GlobalFactor> factor_global_matrix(std::size_t rows, const std::vector<MatrixEntry>& entries);

/// What the iterations read and never change: built from the model, the
/// substep h, the springs' k (stiffness scale included) and the air friction,
/// and built again when one of them changes (Simulation::Impl::implicit_pass()).
struct ImplicitLayout {
    float h = 0.0f;             ///< s, the substep it was built for
    float air_friction = 0.0f;  ///< N s/m, folded into the inertia term
    std::shared_ptr<const SpringValues> springs;  ///< the k it was built from
    // The Hooke springs, as arrays.
    std::vector<std::uint32_t> a, b;
    std::vector<float> k, rest;
    /// Node i's springs: entries node_first[i] .. node_first[i + 1] of
    /// node_entry, each 2 s for spring s's a end or 2 s + 1 for its b end.
    std::vector<std::uint32_t> node_first, node_entry;
    std::vector<double> mass;          ///< kg per node, m' = m + air_friction h
    std::vector<float> inverse_mass;   ///< 1 / m' per node, 0 for an anchored node (the projections)
    std::vector<std::int32_t> unknown; ///< node -> row of the global system; -1 for an anchored node
    std::vector<std::uint32_t> node_of; ///< row -> node
    /// LDL^T of M' + h^2 L over the free nodes; where that would be too large
    /// to build (global_iteration.hpp) the matrix itself, for conjugate
    /// gradients, and `factor` is empty.
    std::shared_ptr<const GlobalFactor> factor;
    std::shared_ptr<const GlobalIteration> iteration;
    /// Where the global step's work vector keeps row `row` (4 floats from 4 place(row)).
    std::size_t place(std::size_t row) const { return factor ? static_cast<std::size_t>(factor->place[row]) : row; }
    /// (M' + h^2 L) dx = r: work holds r by place on entry, dx on return.
    void solve_global(std::vector<float>& work, std::vector<float>& scratch) const;
};

/// Long range attachments (Kim, Chentanez and Müller, "Long Range Attachments:
/// A Method to Simulate Inextensible Clothing in Computer Games", SCA 2012):
/// each free node tied to its nearest anchors by a unilateral constraint,
/// |x_i - x_anchor| <= length (two of them projected onto at once, one
/// after the other otherwise: Simulation::Impl::limit_strain()). Built from the topology and rest lengths only
/// (not k, h or the masses), so an edit of k keeps them.
struct LongRangeAttachments {
    int count = 0;  ///< anchors per node asked for (Parameters::long_range_attachments)
    std::size_t nodes = 0;
    /// Slot-major: node i's j-th attachment (by anchor node index) is entry
    /// j * nodes + i of anchor and length. A node with fewer than count
    /// attachments, and every anchored node, fills its other slots with
    /// itself at an infinite length (a constraint that never acts), so each
    /// slot is one loop over all nodes whose iterations are independent.
    std::vector<std::uint32_t> anchor;
    std::vector<float> length;  ///< m, the node's rest distance from the anchor
    /// Nodes begin .. end, in order, covering all nodes; shared: they all
    /// have the same anchor in each slot.
    struct Range {
        std::uint32_t begin = 0, end = 0;
        bool shared = false;
    };
    std::vector<Range> ranges;
};

/// Each node's `count` nearest anchors along the springs (all kinds; Dijkstra
/// from every anchor at once, a node settled once per anchor, at most `count`
/// times) and its rest distance from each.
std::shared_ptr<const LongRangeAttachments> build_long_range_attachments(const PreparedBody& body, int count);

/// The Hooke springs the strain limit projects: those whose cap the caps of
/// two others do not imply (a cloth's bend springs are implied), or all of
/// them with Parameters::strain_limit_every_spring, in colours:
/// no two springs of one colour share a node, so each colour's projections
/// are independent of each other (data-parallel loops) and a pass, colour
/// after colour, is a Gauss-Seidel sweep in that order. Built from a layout's
/// topology and rest lengths, which an edit of k, h or the air friction keeps.
struct StrainLimitSprings {
    /// Springs begin .. end of a, b and rest. stride 1 or 2: a run, a[e] =
    /// a[begin] + stride (e - begin) and b[e] - a[e] the same for all, so its
    /// ends are read and written as strided arrays; stride 4: blocks of four
    /// nodes, springs begin + 2 j and begin + 2 j + 1 joining a[begin] + 4 j +
    /// 0 and + 1 to + 2 and + 3, where entries of rest -1 are a filler block
    /// (no spring: its nodes are left as they are); stride 0: springs whose
    /// ends are gathered by index.
    struct Piece {
        std::uint32_t begin = 0, end = 0, stride = 0;
    };
    /// Colour c's pieces: colour_first[c] .. colour_first[c + 1] of pieces.
    std::vector<std::uint32_t> colour_first;
    std::vector<Piece> pieces;
    std::vector<std::uint32_t> a, b;  ///< a < b
    std::vector<float> rest;
    bool every_spring = false;  ///< built with the implied springs (Parameters::strain_limit_every_spring)
};

/// every_spring: keep the springs whose cap two shorter ones imply.
std::shared_ptr<const StrainLimitSprings> build_strain_limit_springs(const ImplicitLayout& layout,
                                                                   bool every_spring = false);

/// Per-instance scratch of the implicit step (copied with its instance).
struct ImplicitState {
    std::shared_ptr<const ImplicitLayout> layout;
    std::shared_ptr<const LongRangeAttachments> attachments;  ///< built on the first step that asks
    std::shared_ptr<const StrainLimitSprings> limited;         ///< built on the first step with a strain limit
    std::vector<double> start;     ///< x_n, 3 per node
    std::vector<double> target;    ///< y', the inertia term's target, 3 per row (see implicit_pass())
    std::vector<double> current;   ///< the iterate, 3 per node (anchored nodes: their driven positions)
    std::vector<double> older;     ///< the iterate before it (Chebyshev weights)
    std::vector<double> force;     ///< per node, 3 each: the local step's spring forces on it, k (d - (x_a - x_b)) per spring
    std::vector<float> work;       ///< the global step's residual, then its correction, 4 per place in P's order
    std::vector<float> solve_scratch;  ///< the conjugate gradients' vectors, when the layout iterates
    std::vector<float> shift;      ///< the strain limit's corrections of one colour, 6 per spring (limit_strain())
    std::vector<float> load;       ///< the prediction's force per node, x, y and z arrays (when there is one)
    /// The contacts' support (Simulation::Impl::support_on_contacts()): each
    /// contact's row, collider (kGround for the ground), normal (3 per
    /// contact) and gap, the conjugate-gradient vectors and multipliers per
    /// contact, and each row's push (3 per row).
    static constexpr std::uint32_t kGround = 0xffffffffu;
    std::vector<std::uint32_t> touching, touched_collider;
    std::vector<double> normal, gap, residual, direction, response, multiplier, push;
};

/// What one global step of a model's implicit solve costs, from the symbolic
/// analysis of its matrix alone (the ordering and L's column counts, no
/// numeric factorisation): the entries of L below the diagonal that a
/// back-substitution reads twice, or, past factor_bounds(), the matrix's own
/// entries that each conjugate-gradient iteration multiplies by instead.
struct GlobalStepSize {
    std::uint64_t factor_entries = 0;  ///< 0 when the step iterates
    std::uint64_t matrix_entries = 0;  ///< M' + h^2 L over the free nodes, diagonal included
    bool iterates = false;
};
GlobalStepSize global_step_size(const Model& model);

/// Builds the layout of a body's Hooke springs with these resolved k, for the
/// substep h (s) and this air friction (N s/m), and factors its matrix.
std::shared_ptr<const ImplicitLayout> build_implicit_layout(const PreparedBody& body,
                                                            std::shared_ptr<const SpringValues> springs, float h,
                                                            float air_friction);

}  // namespace detail
}  // namespace springkit
