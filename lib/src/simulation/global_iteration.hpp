// springkit — the implicit integrator's global step by conjugate gradients,
// for bodies whose sparse factor would be too large to build.
//
// The global step solves (M' + h^2 L) dx = r (implicit_solver.cpp). Its
// matrix's LDL^T factor costs sum_j c_j^2 operations and sum_j c_j entries,
// c_j the entries of L's column j after the fill-in of the elimination: a
// cloth's grid fills little (the 128 x 128 cloth: about 1M entries, 85 ms),
// but a solid body whose volume springs join nodes across it fills almost
// completely (a converted 56k-node engine: 490M entries, 4 GB in double and
// about an hour). Eigen's symbolic analysis gives every c_j before any number
// is computed (milliseconds for a cloth, 1.7 s for that engine), so the
// layout asks it first and, past kLargestFactorWork or kLargestFactorEntries,
// solves by conjugate gradients instead: M' + h^2 L is symmetric positive definite, each iteration is one
// product with the matrix (its nonzeros: a diagonal and two entries a
// spring) and lowers the global step's quadratic from where it started, so
// the local/global iterations keep lowering their energy (stable for any k)
// while each solve is only approximate (Hestenes and Stiefel 1952; the
// diagonal as preconditioner, Saad, "Iterative Methods for Sparse Linear
// Systems", 2003, section 9.2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace springkit::detail {

/// Above this sum of squared column counts (about the factorisation's
/// multiply-adds; Eigen's simplicial LDL^T runs at about 2.7e9 a second on
/// the reference machine: about 2 s) the global step iterates instead.
inline constexpr double kLargestFactorWork = 5e9;
/// Above this many entries of L (20 bytes each while it is built and kept:
/// about 800 MB) it iterates too.
inline constexpr double kLargestFactorEntries = 40e6;

/// The bounds build_implicit_layout() holds the factor to, kLargestFactorWork
/// and kLargestFactorEntries unless a test set others (set_factor_bounds()
/// returns the bounds it replaced; process-wide, for layouts built after it).
struct FactorBounds {
    double work = kLargestFactorWork;
    double entries = kLargestFactorEntries;
};
FactorBounds factor_bounds();
FactorBounds set_factor_bounds(FactorBounds bounds);

/// M' + h^2 L over the free nodes, row by row (CSR), for conjugate gradients.
struct GlobalIteration {
    std::vector<std::int32_t> row_first;  ///< row i's off-diagonal entries: row_first[i] .. row_first[i + 1]
    std::vector<std::int32_t> column;     ///< each entry's column
    std::vector<float> entry;             ///< -h^2 k of the spring between the two rows
    std::vector<float> diagonal;          ///< m' + h^2 (sum of k over the row's springs)
    std::vector<float> inverse_diagonal;  ///< 1 / diagonal: the preconditioner
    /// The iterations stop once each coordinate's residual is below this
    /// share of its right-hand side (in the 2-norm), or after max_iterations.
    float tolerance = 1e-6f;
    int max_iterations = 1000;

    std::size_t rows() const { return diagonal.size(); }
    /// work: 4 floats a row (x, y, z, a pad lane), r on entry, dx on return;
    /// scratch: 16 floats a row, the iterations' vectors. Serial and in a
    /// fixed order: the same bits on every call with the same r.
    void solve_in_place(std::vector<float>& work, std::vector<float>& scratch) const;
};

}  // namespace springkit::detail
