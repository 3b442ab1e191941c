// springkit — shape retention (see shape.hpp).
#include "springkit/shape.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "springkit/simulation.hpp"

namespace springkit {

namespace {

/// splitmix64: portable, so the perturbation is the same on every platform.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/// A unit vector, uniform on the sphere, from two hashes.
Vec3 random_direction(std::uint64_t key) {
    const double u = static_cast<double>(mix(key) >> 11) * 0x1.0p-53;       // [0, 1)
    const double v = static_cast<double>(mix(key ^ 0x5bd1e995u) >> 11) * 0x1.0p-53;
    const double z = 2.0 * u - 1.0;
    const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
    const double phi = 2.0 * 3.14159265358979323846 * v;
    return {static_cast<float>(r * std::cos(phi)), static_cast<float>(r * std::sin(phi)), static_cast<float>(z)};
}

using Mat4 = std::array<std::array<double, 4>, 4>;

/// Eigenvector of the largest eigenvalue of a symmetric 4x4 matrix (cyclic Jacobi).
std::array<double, 4> dominant_eigenvector(Mat4 a) {
    Mat4 v{};
    for (int i = 0; i < 4; ++i) v[i][i] = 1.0;
    for (int sweep = 0; sweep < 50; ++sweep) {
        double off = 0.0;
        for (int p = 0; p < 4; ++p)
            for (int q = p + 1; q < 4; ++q) off += a[p][q] * a[p][q];
        if (off < 1e-30) break;
        for (int p = 0; p < 4; ++p)
            for (int q = p + 1; q < 4; ++q) {
                if (std::abs(a[p][q]) < 1e-300) continue;
                const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
                const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 4; ++k) {  // A <- A J
                    const double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 4; ++k) {  // A <- J^T A
                    const double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 4; ++k) {  // V <- V J
                    const double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    int best = 0;
    for (int i = 1; i < 4; ++i)
        if (a[i][i] > a[best][best]) best = i;
    return {v[0][best], v[1][best], v[2][best], v[3][best]};
}

/// RMS distance of `current` from `rest` after the rigid motion that best maps
/// current onto rest (Horn 1987, "Closed-form solution of absolute orientation
/// using unit quaternions"), or without alignment when `align` is false.
double rms_distance(std::span<const Vec3> current, std::span<const Vec3> rest, bool align) {
    const std::size_t n = rest.size();
    if (n == 0) return 0.0;
    std::array<double, 3> cc{}, cr{};
    if (align) {
        for (std::size_t i = 0; i < n; ++i) {
            cc[0] += current[i].x, cc[1] += current[i].y, cc[2] += current[i].z;
            cr[0] += rest[i].x, cr[1] += rest[i].y, cr[2] += rest[i].z;
        }
        for (int k = 0; k < 3; ++k) cc[k] /= double(n), cr[k] /= double(n);
    }
    auto centred = [](const Vec3& p, const std::array<double, 3>& c) {
        return std::array<double, 3>{p.x - c[0], p.y - c[1], p.z - c[2]};
    };
    std::array<double, 4> q{1, 0, 0, 0};
    if (align) {
        double s[3][3] = {};
        for (std::size_t i = 0; i < n; ++i) {
            const auto a = centred(current[i], cc), b = centred(rest[i], cr);
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c) s[r][c] += a[r] * b[c];
        }
        const double sxx = s[0][0], sxy = s[0][1], sxz = s[0][2], syx = s[1][0], syy = s[1][1], syz = s[1][2],
                     szx = s[2][0], szy = s[2][1], szz = s[2][2];
        const Mat4 m{{{sxx + syy + szz, syz - szy, szx - sxz, sxy - syx},
                      {syz - szy, sxx - syy - szz, sxy + syx, szx + sxz},
                      {szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy},
                      {sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz}}};
        q = dominant_eigenvector(m);
    }
    const double w = q[0], qx = q[1], qy = q[2], qz = q[3];
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const auto a = centred(current[i], cc), b = centred(rest[i], cr);
        // v' = v + 2w (q x v) + 2 q x (q x v)
        const double tx = 2 * (qy * a[2] - qz * a[1]), ty = 2 * (qz * a[0] - qx * a[2]), tz = 2 * (qx * a[1] - qy * a[0]);
        const double rx = a[0] + w * tx + (qy * tz - qz * ty);
        const double ry = a[1] + w * ty + (qz * tx - qx * tz);
        const double rz = a[2] + w * tz + (qx * ty - qy * tx);
        sum += (rx - b[0]) * (rx - b[0]) + (ry - b[1]) * (ry - b[1]) + (rz - b[2]) * (rz - b[2]);
    }
    return std::sqrt(sum / double(n));
}

}  // namespace

double aligned_rms_distance(std::span<const Vec3> current, std::span<const Vec3> reference) {
    if (current.size() != reference.size())
        throw Error("aligned_rms_distance: " + std::to_string(current.size()) + " positions against " +
                    std::to_string(reference.size()));
    return rms_distance(current, reference, true);
}

double shape_error(const Model& model, unsigned seed, const ShapeTest& test) {
    return shape_errors(model, seed, test).error;
}

ShapeErrors shape_errors(const Model& model, unsigned seed, const ShapeTest& test) {
    // External loads off: the test asks whether the springs alone restore the shape.
    Model m = model;
    m.params.gravity = {};
    m.params.ground.reset();
    m.params.wind = {};
    m.params.gust = {};
    m.constant_forces.clear();
    const double diagonal = bounds(m).diagonal();
    if (m.node_count() == 0 || diagonal <= 0.0) return {};

    Simulation sim(m);
    std::vector<bool> anchored(m.node_count(), false);
    for (const Anchor& a : m.anchors) anchored[a.node] = true;
    const auto distance = static_cast<float>(test.perturbation * diagonal);
    for (std::size_t i = 0; i < m.node_count(); ++i)
        if (!anchored[i])
            sim.set_position(static_cast<std::uint32_t>(i),
                             m.positions[i] + random_direction((std::uint64_t{seed} << 32) ^ i) * distance);
    const auto frames = static_cast<long>(std::ceil(test.seconds / test.frame_dt - 1e-9));
    for (long f = 0; f < frames; ++f) sim.step(test.frame_dt);
    ShapeErrors errors;
    errors.error = rms_distance(sim.positions(), m.positions, m.anchors.empty()) / diagonal;
    errors.mirrored = std::numeric_limits<double>::quiet_NaN();
    if (m.anchors.empty()) {
        std::vector<Vec3> mirror(m.positions);
        for (Vec3& p : mirror) p.x = -p.x;
        errors.mirrored = rms_distance(sim.positions(), mirror, true) / diagonal;
    }
    return errors;
}

}  // namespace springkit
