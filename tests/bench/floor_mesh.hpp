// The benchmarks' static floor: a flat 4 m square at y = 0 as n x n quads,
// two triangles each, n chosen so that about `triangles` triangles result.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "springkit/springkit.hpp"

namespace springkit::bench {

struct FloorMesh {
    std::vector<Vec3> vertices;
    std::vector<std::array<std::uint32_t, 3>> triangles;
};

inline FloorMesh floor_mesh(int triangles) {
    const int n = static_cast<int>(std::lround(std::sqrt(triangles / 2.0)));  // n x n quads
    FloorMesh f;
    for (int i = 0; i <= n; ++i)
        for (int j = 0; j <= n; ++j)
            f.vertices.push_back({-2.0f + 4.0f * static_cast<float>(i) / static_cast<float>(n), 0.0f,
                                  -2.0f + 4.0f * static_cast<float>(j) / static_cast<float>(n)});
    const auto row = static_cast<std::uint32_t>(n + 1);
    for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(n); ++i)
        for (std::uint32_t j = 0; j < static_cast<std::uint32_t>(n); ++j) {
            const std::uint32_t a = i * row + j;
            f.triangles.push_back({a, a + 1, a + row});
            f.triangles.push_back({a + 1, a + row + 1, a + row});
        }
    return f;
}

}  // namespace springkit::bench
