// springkit — preconditioned conjugate gradients for the implicit
// integrator's global step (see global_iteration.hpp).
#include "simulation/global_iteration.hpp"

#include <atomic>
#include <cstring>

#include "simulation/lane4.hpp"

namespace springkit::detail {

namespace {

// Per coordinate: sum over rows of u . v, in double (the rows are many; a
// float sum of tens of thousands of terms loses the digits the step sizes need).
struct Sums {
    double lane[3] = {0.0, 0.0, 0.0};
};

Sums dots(const float* u, const float* v, std::size_t rows) {
    Sums s;
    for (std::size_t i = 0; i < rows; ++i)
        for (int c = 0; c < 3; ++c) s.lane[c] += double(u[4 * i + c]) * double(v[4 * i + c]);
    return s;
}

std::atomic<double> largest_work{kLargestFactorWork};
std::atomic<double> largest_entries{kLargestFactorEntries};

}  // namespace

FactorBounds factor_bounds() {
    return {largest_work.load(std::memory_order_relaxed), largest_entries.load(std::memory_order_relaxed)};
}

FactorBounds set_factor_bounds(FactorBounds bounds) {
    const FactorBounds old = factor_bounds();
    largest_work.store(bounds.work, std::memory_order_relaxed);
    largest_entries.store(bounds.entries, std::memory_order_relaxed);
    return old;
}

void GlobalIteration::solve_in_place(std::vector<float>& work, std::vector<float>& scratch) const {
    const std::size_t n = rows();
    scratch.assign(16 * n, 0.0f);
    float* solution = scratch.data();      // dx, from 0
    float* residual = solution + 4 * n;    // r - A dx
    float* direction = residual + 4 * n;
    float* product = direction + 4 * n;    // A times the direction
    std::memcpy(residual, work.data(), 4 * n * sizeof(float));
    // z = D^-1 r, the first direction.
    for (std::size_t i = 0; i < n; ++i) store4(direction + 4 * i, load4(residual + 4 * i) * inverse_diagonal[i]);
    Sums rz = dots(residual, direction, n);
    const Sums right = dots(residual, residual, n);
    double limit[3];
    for (int c = 0; c < 3; ++c) limit[c] = double(tolerance) * double(tolerance) * right.lane[c];
    for (int it = 0; it < max_iterations; ++it) {
        // The product A p: the diagonal, then the row's springs, in entry order.
        for (std::size_t i = 0; i < n; ++i) {
            Lane4 sum = load4(direction + 4 * i) * diagonal[i];
            for (std::int32_t e = row_first[i]; e < row_first[i + 1]; ++e)
                sum += entry[e] * load4(direction + 4 * static_cast<std::size_t>(column[e]));
            store4(product + 4 * i, sum);
        }
        const Sums curvature = dots(direction, product, n);
        Lane4 alpha = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int c = 0; c < 3; ++c)
            alpha[c] = curvature.lane[c] > 0.0 ? static_cast<float>(rz.lane[c] / curvature.lane[c]) : 0.0f;
        for (std::size_t i = 0; i < n; ++i) {
            store4(solution + 4 * i, load4(solution + 4 * i) + alpha * load4(direction + 4 * i));
            store4(residual + 4 * i, load4(residual + 4 * i) - alpha * load4(product + 4 * i));
        }
        const Sums left = dots(residual, residual, n);
        if (left.lane[0] <= limit[0] && left.lane[1] <= limit[1] && left.lane[2] <= limit[2]) break;
        // The next direction: z + beta p, z = D^-1 r (kept where the product
        // was, which this iteration has used), beta = (r.z)_new / (r.z)_old.
        float* const z = product;
        for (std::size_t i = 0; i < n; ++i) store4(z + 4 * i, load4(residual + 4 * i) * inverse_diagonal[i]);
        const Sums rz_new = dots(residual, z, n);
        Lane4 beta = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int c = 0; c < 3; ++c) beta[c] = rz.lane[c] > 0.0 ? static_cast<float>(rz_new.lane[c] / rz.lane[c]) : 0.0f;
        for (std::size_t i = 0; i < n; ++i) store4(direction + 4 * i, load4(z + 4 * i) + beta * load4(direction + 4 * i));
        rz = rz_new;
    }
    std::memcpy(work.data(), solution, 4 * n * sizeof(float));
}

}  // namespace springkit::detail
