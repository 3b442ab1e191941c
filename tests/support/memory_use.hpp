// Test support: heap bytes held by a model, its prepared body and a running
// instance, against the bytes the model's data needs (docs/PERFORMANCE.md,
// "Memory per node and per spring"). Used by tests/core/test_memory.cpp and the
// probe tests/bench/memory_probe.cpp.
#pragma once

#include <malloc.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "springkit/simulation.hpp"

#if defined(__SANITIZE_ADDRESS__)
// From ASan's allocator interface (GCC ships the function, not its header).
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();
#endif

namespace springkit::test {

/// Bytes the program holds on the heap right now: glibc's arena in use plus
/// its mmapped chunks (big arrays), or ASan's count under ASan. Allocations of
/// other threads' arenas are not seen: measure with one thread.
inline std::size_t heap_in_use() {
#if defined(__SANITIZE_ADDRESS__)
    return __sanitizer_get_current_allocated_bytes();
#else
    const struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
#endif
}

/// Whether heap_in_use() sees allocations in this build (some sanitizers'
/// allocators answer mallinfo2() with zeros).
inline bool heap_is_measurable() {
    // Through a volatile pointer, so that the compiler cannot elide the pair.
    static std::byte* volatile block = nullptr;
    const std::size_t before = heap_in_use();
    block = new std::byte[std::size_t{1} << 20];
    const std::size_t during = heap_in_use();
    delete[] block;
    block = nullptr;
    return during >= before + (std::size_t{1} << 20);
}

/// The bytes a model's data needs, at the natural width of each value, a value
/// that is the same for every element counted once, not per element:
///  - a node: its position (12); its mass (4) only when the masses differ;
///  - a spring: its two node indices and rest length (12); its own k (4) only
///    when the springs' k differ; its kind and role (1) only when they differ;
///  - a face: its three node indices (12); its three texcoord indices (12)
///    only when some corner's texcoord index differs from its node index;
///  - a texcoord: u, v (8);
///  - anchors, constant forces, tethers, beads, tubes' node lists, spring
///    groups' spring lists and anchor tracks' keys: their elements' sizes.
/// A running instance's data: per node a position and a velocity (24), a
/// normal (12) when the model has faces, Verlet's previous position (12) with
/// Integrator::verlet; per anchor, bead and tether the instance's few values.
struct DataBytes {
    std::size_t nodes = 0, springs = 0, faces = 0, texcoords = 0, other = 0;
    std::size_t total() const { return nodes + springs + faces + texcoords + other; }
};

inline DataBytes model_data_bytes(const Model& m) {
    DataBytes d;
    const std::size_t n = m.node_count();
    const bool masses_differ =
        !m.masses.empty() && std::any_of(m.masses.begin(), m.masses.end(), [&](float x) { return x != m.masses[0]; });
    d.nodes = n * (12 + (masses_differ ? 4 : 0));
    bool k_differ = false, kinds_differ = false;
    for (const Spring& s : m.springs) {
        k_differ = k_differ || m.spring_k(s) != m.spring_k(m.springs[0]);
        kinds_differ = kinds_differ || s.kind != m.springs[0].kind || s.role != m.springs[0].role;
    }
    d.springs = m.springs.size() * (12 + (k_differ ? 4 : 0) + (kinds_differ ? 1 : 0));
    bool own_texcoords = false;
    for (const Face& f : m.faces)
        for (int c = 0; c < 3; ++c) own_texcoords = own_texcoords || f.texcoord[c] != f.node[c];
    d.faces = m.faces.size() * (12 + (own_texcoords ? 12 : 0));
    d.texcoords = m.texcoords.size() * sizeof(TexCoord);
    d.other = m.anchors.size() * sizeof(Anchor) + m.constant_forces.size() * sizeof(ConstantForce) +
              m.tethers.size() * sizeof(Tether) + m.beads.size() * sizeof(Bead);
    for (const Tube& t : m.tubes) d.other += t.nodes.size() * 4;
    for (const SpringGroup& g : m.spring_groups) d.other += g.springs.size() * 4;
    for (const AnchorTrack& t : m.anchor_tracks) d.other += t.keys.size() * sizeof(TrackKey);
    return d;
}

inline std::size_t instance_data_bytes(const Model& m) {
    const std::size_t per_node = 24 + (m.faces.empty() ? 0 : 12) +
                                 (m.params.integrator == Integrator::verlet ? 12 : 0);
    return m.node_count() * per_node + m.anchors.size() * 24 + m.beads.size() * 8 + m.tethers.size() * 12;
}

/// Heap bytes held by each part, measured by heap_in_use() around making it.
struct MemoryUse {
    std::size_t model = 0;         ///< the model as `make` returns it (loaded or built)
    std::size_t body = 0;          ///< prepare(copy of the model), its model copy included
    std::size_t body_model = 0;    ///< of that: the copy of the model (exact capacities)
    std::size_t instance = 0;      ///< Simulation(body) after one 1/60 s step, one thread
    /// The same instance once positions() has been read, as a renderer does
    /// every frame (it then keeps them current), and once velocities() has too.
    std::size_t instance_drawn = 0, instance_read = 0;
};

/// Measures the parts for the model `make` returns (load_model of a file, a
/// builder). Call with nothing else allocating meanwhile (one thread).
inline MemoryUse measure_memory(const std::function<Model()>& make) {
    MemoryUse use;
    std::size_t before = heap_in_use();
    const Model model = make();
    use.model = heap_in_use() - before;
    before = heap_in_use();
    {
        const Model copy = model;
        use.body_model = heap_in_use() - before;
    }
    before = heap_in_use();
    const std::shared_ptr<const PreparedBody> body = prepare(model);
    use.body = heap_in_use() - before;
    before = heap_in_use();
    {
        Simulation sim(body, {.threads = 1});
        sim.step(1.0f / 60.0f);
        use.instance = heap_in_use() - before;
        static_cast<void>(sim.positions());
        sim.step(1.0f / 60.0f);
        use.instance_drawn = heap_in_use() - before;
        static_cast<void>(sim.velocities());
        sim.step(1.0f / 60.0f);
        use.instance_read = heap_in_use() - before;
    }
    return use;
}

}  // namespace springkit::test
