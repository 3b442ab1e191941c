// Test support: a hash of a simulation's state, to compare runs bit for bit.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>

#include "springkit/simulation.hpp"

namespace springkit::test {

/// FNV-1a (Fowler, Noll, Vo; 64-bit offset basis and prime) over the raw bytes
/// of `values`, continuing from `h`: two runs hash alike only if every bit of
/// every float is the same.
inline std::uint64_t fnv1a_bits(std::span<const Vec3> values, std::uint64_t h = 1469598103934665603ull) {
    for (const Vec3& v : values) {
        unsigned char bytes[sizeof(Vec3)];
        std::memcpy(bytes, &v, sizeof v);
        for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ull;
    }
    return h;
}

/// The hash of the positions alone.
inline std::uint64_t positions_hash(const Simulation& sim) { return fnv1a_bits(sim.positions()); }

/// The hash of the positions, then the velocities, then the normals.
inline std::uint64_t state_hash(const Simulation& sim) {
    return fnv1a_bits(sim.normals(), fnv1a_bits(sim.velocities(), fnv1a_bits(sim.positions())));
}

}  // namespace springkit::test
