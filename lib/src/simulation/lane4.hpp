// springkit — x, y and z of a node (and a pad lane) as one 16-byte vector:
// the unit of the implicit integrator's global step (implicit_solver.cpp,
// global_iteration.cpp), each matrix entry one 4-wide multiply for the three
// right-hand sides.
#pragma once

#include <cstring>

namespace springkit::detail {

using Lane4 = float __attribute__((vector_size(16)));

inline Lane4 load4(const float* p) {
    Lane4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline void store4(float* p, Lane4 v) { std::memcpy(p, &v, sizeof v); }

}  // namespace springkit::detail
