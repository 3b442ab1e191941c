// springkit — the self-collision stage: nodes of one body kept at least
// Parameters::self_collision_distance (d) apart, so that a cloth folding onto
// itself does not pass through itself. Off while d is 0 (the default).
//
// Which pairs: two nodes repel when they are closer than d, neither joined by
// a spring nor closer than d in the model's rest pose. Springs hold their own
// pairs; a pair closer than d at rest would be pushed apart in the rest pose
// and fight the springs forever (a cloth would inflate), so the rest pose
// itself is never a collision whatever d is. The rule is geometric rather than
// "more than N springs apart" because a hop count means different distances
// on different meshes (a bend spring spans two cells, a shear spring a
// diagonal): with d at about the mesh's spacing h, pairs two cells apart are
// found by either rule, and with d above the spacing the hop rule would let
// rest neighbours repel. The price: layers that are closer than d in the rest
// pose (a model built folded) do not collide with each other.
//
// Finding them: a spatial hash of cells of edge d (Teschner, Heidelberger,
// Mueller, Pomeranets and Gross, "Optimized Spatial Hashing for Collision
// Detection of Deformable Objects", VMV 2003), rebuilt every substep in
// O(nodes) by a counting sort of the nodes into a table of 2n or more
// buckets. A pair closer than d lies in the same or neighbouring cells; each
// node looks in its own cell (at higher node numbers) and in the 13 neighbours
// that come after its cell in (z, y, x) order, so every pair is seen once.
// A bucket holds the nodes of every cell hashed to it; each node's own cell is
// compared, so a hash collision costs time but never finds a pair twice.
//
// Resolving them, pair by pair in the order found (Gauss-Seidel, on one
// thread; the search runs on the instance's threads, each from its own nodes,
// and its lists are joined in node order, so the bits do not depend on the
// threads), as the contact stage does against colliders (Mueller et al. 2007;
// Bridson, Fedkiw and Anderson 2002, section 7.2), with the other node in the
// collider's place:
//  - positions: the pair is moved apart along n (the unit from b to a) to d,
//    the correction split by inverse mass: +w_a c n on a, -w_b c n on b, with
//    c = (d - |x_a - x_b|) / (w_a + w_b); equal masses move equal and opposite;
//  - velocities: when approaching (v_n = (v_a - v_b) . n < 0) the relative
//    normal velocity goes to 0 (no bounce) and its tangential part vt follows
//    Coulomb's law with mu = self_friction: it stops when |vt| <= mu |v_n|,
//    else shrinks by mu |v_n|; the change of relative velocity dv is an
//    impulse J = dv / (w_a + w_b), +w_a J on a and -w_b J on b: m_a dv_a =
//    -m_b dv_b, so the momentum of the pair is kept (with equal masses dv_b
//    is -dv_a to the bit; masses that are powers of two have m w = 1
//    exactly). The tangential change also moves the nodes, as integrating
//    the new velocities would.
// Anchored nodes (w = 0) do not move: the other node takes all of it.
//
// What it catches (there is no node-face test): pairs that end a substep
// closer than d, each pushed apart along the line between them. A node moving
// towards a cloth layer is caught before it crosses it: the corners of the
// cell it heads for are at most D / 2 from the cell's centre (D the cell's
// longer diagonal; sqrt(2) h for a square of side h), so a node that is at
// least d from all of them is at least sqrt(d^2 - D^2 / 4) from the cell's
// plane, and as long as it moves less than that relative to the layer in one
// substep it ends on its own side, where the push sends it back (h / sqrt(2)
// at d = h: 7 cm, or 35 m/s at 2 ms substeps, for nodes 10 cm apart). A node
// that does cross in one substep and ends within d of the far side's corners
// is pushed on through. With d <= D / 2 a node can slip through a cell's middle.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "collision/self_collision.hpp"
#include "simulation/simulation_impl.hpp"

namespace springkit {

namespace {

// A cell (floor(x / d), floor(y / d), floor(z / d)) as one key: each
// coordinate offset by 2^20 in 21 bits. Coordinates are clamped to within
// 2^20 - 2 of 0 (2^20 d is far beyond any body: 10 km at d = 1 cm), so that a
// neighbour's key is the key plus kForward's offset, without carries.
constexpr float kCellLimit = 1048574.0f;
constexpr std::uint64_t kBias = std::uint64_t{1} << 20;
constexpr std::uint64_t kY = std::uint64_t{1} << 21, kZ = std::uint64_t{1} << 42;

std::uint64_t cell_key(float x, float y, float z, float inv_d) {
    auto c = [inv_d](float v) {
        const float cell = std::clamp(std::floor(v * inv_d), -kCellLimit, kCellLimit);
        return static_cast<std::uint64_t>(static_cast<std::int64_t>(cell) + static_cast<std::int64_t>(kBias));
    };
    return c(x) | c(y) * kY | c(z) * kZ;
}

// The bucket of a cell in a table of 2^(64 - shift) buckets: Fibonacci hashing
// (the top bits of the key times 2^64 / golden ratio, Knuth), in place of
// Teschner et al.'s xor of the coordinates times three primes modulo a prime.
std::uint32_t bucket_of_cell(std::uint64_t key, unsigned shift) {
    return static_cast<std::uint32_t>((key * 0x9E3779B97F4A7C15ull) >> shift);
}

// The 13 neighbouring cells after a cell in (z, y, x) order, as key offsets
// (modulo 2^64: a -1 borrows from the field above, as the key's sum does).
constexpr std::uint64_t offset(int dx, int dy, int dz) {
    return static_cast<std::uint64_t>(dx) + static_cast<std::uint64_t>(dy) * kY + static_cast<std::uint64_t>(dz) * kZ;
}
constexpr std::uint64_t kForward[13] = {
    offset(1, 0, 0),  offset(-1, 1, 0), offset(0, 1, 0),  offset(1, 1, 0),  offset(-1, -1, 1),
    offset(0, -1, 1), offset(1, -1, 1), offset(-1, 0, 1), offset(0, 0, 1),  offset(1, 0, 1),
    offset(-1, 1, 1), offset(0, 1, 1),  offset(1, 1, 1),
};

}  // namespace

void Simulation::Impl::stage_self_collision(const StageArgs& args) {
    const float d = params_.self_collision_distance;
    const auto n = static_cast<std::uint32_t>(node_count());
    if (!(d > 0.0f) || n < 2) return;
    detail::SelfCollisionState& st = self_collision_;
    const Model& m = *model_;
    if (st.joined.start.size() != std::size_t{n} + 1) {
        // Each node's spring neighbours, sorted for the binary search below.
        st.joined = detail::spring_graph(m);
        for (std::uint32_t i = 0; i < n; ++i)
            std::sort(st.joined.next.begin() + st.joined.start[i], st.joined.next.begin() + st.joined.start[i + 1]);
    }

    // The hash: each node's cell, then a counting sort of the nodes by bucket.
    st.cell.resize(n);
    st.hashed.resize(n);
    st.bucket_of.resize(n);
    const float inv_d = 1.0f / d;
    std::uint32_t count = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        const float x = x_.x[i], y = x_.y[i], z = x_.z[i];
        // A node with a non-finite position (a runaway the guard will report at
        // the frame's end) is left out: it has no cell.
        const bool finite = std::isfinite(x) && std::isfinite(y) && std::isfinite(z);
        st.hashed[i] = finite;
        if (!finite) continue;
        st.cell[i] = cell_key(x, y, z, inv_d);
        ++count;
    }
    unsigned bits = 4;
    while ((std::uint64_t{1} << bits) < 2 * std::uint64_t{count}) ++bits;
    const unsigned shift = 64 - bits;
    const std::size_t buckets = std::size_t{1} << bits;
    st.bucket_begin.assign(buckets + 1, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (!st.hashed[i]) continue;
        st.bucket_of[i] = bucket_of_cell(st.cell[i], shift);
        ++st.bucket_begin[st.bucket_of[i] + 1];
    }
    for (std::size_t b = 0; b < buckets; ++b) st.bucket_begin[b + 1] += st.bucket_begin[b];
    st.entry_cell.resize(count);
    st.entry_node.resize(count);
    {
        // Filled in node order, so that each bucket lists its nodes ascending.
        std::vector<std::uint32_t>& fill = st.pair_a;  // scratch until the pairs are gathered
        fill.assign(st.bucket_begin.begin(), st.bucket_begin.end() - 1);
        for (std::uint32_t i = 0; i < n; ++i) {
            if (!st.hashed[i]) continue;
            const std::uint32_t e = fill[st.bucket_of[i]]++;
            st.entry_cell[e] = st.cell[i];
            st.entry_node[e] = i;
        }
    }

    // The pairs: closer than d now, not closer than d at rest, no spring
    // between. The search only reads, so each thread searches from the nodes
    // of its own range into its own list; the lists, joined in thread order,
    // are the pairs in the order one thread would have found them.
    const float d2 = d * d;
    const float* im = inverse_mass();
    const std::vector<Vec3>& rest = m.positions;
    const float* x = x_.x.data();
    const float* y = x_.y.data();
    const float* z = x_.z.data();
    st.found.resize(partitions_.size());
    run_on(team_, [&](int t) {
        detail::SelfCollisionState::Pairs& found = st.found[static_cast<std::size_t>(t)];
        found.a.clear();
        found.b.clear();
        // Most nodes met are farther than d: that test comes first.
        auto consider = [&](std::uint32_t a, std::uint32_t b) {
            const float dx = x[a] - x[b], dy = y[a] - y[b], dz = z[a] - z[b];
            if (dx * dx + dy * dy + dz * dz >= d2) [[likely]]
                return;
            if (im[a] == 0.0f && im[b] == 0.0f) return;
            if (const Vec3 r = rest[a] - rest[b]; dot(r, r) < d2) return;
            const auto first = st.joined.next.begin() + st.joined.start[a];
            const auto last = st.joined.next.begin() + st.joined.start[a + 1];
            if (std::binary_search(first, last, b)) return;
            found.a.push_back(a);
            found.b.push_back(b);
        };
        const detail::Partition& part = partitions_[static_cast<std::size_t>(t)];
        for (std::uint32_t a = part.node_begin; a < part.node_end; ++a) {
            if (!st.hashed[a]) continue;
            const std::uint64_t own = st.cell[a];
            const std::uint32_t own_bucket = st.bucket_of[a];
            for (std::uint32_t e = st.bucket_begin[own_bucket]; e < st.bucket_begin[own_bucket + 1]; ++e)
                if (st.entry_cell[e] == own && st.entry_node[e] > a) consider(a, st.entry_node[e]);
            for (const std::uint64_t o : kForward) {
                const std::uint64_t key = own + o;
                const std::uint32_t bucket = bucket_of_cell(key, shift);
                for (std::uint32_t e = st.bucket_begin[bucket]; e < st.bucket_begin[bucket + 1]; ++e)
                    if (st.entry_cell[e] == key) consider(a, st.entry_node[e]);
            }
        }
    });
    st.pair_a.clear();
    st.pair_b.clear();
    for (const detail::SelfCollisionState::Pairs& found : st.found) {
        st.pair_a.insert(st.pair_a.end(), found.a.begin(), found.a.end());
        st.pair_b.insert(st.pair_b.end(), found.b.begin(), found.b.end());
    }

    // Each pair in turn, from the positions and velocities the pairs before it left.
    const float mu = params_.self_friction;
    const bool verlet = params_.integrator == Integrator::verlet;
    const float dt = args.dt;
    for (std::size_t p = 0; p < st.pair_a.size(); ++p) {
        const std::uint32_t a = st.pair_a[p], b = st.pair_b[p];
        Vec3 xa = x_.get(a), xb = x_.get(b);
        const Vec3 delta = xa - xb;
        const float dist2 = dot(delta, delta);
        if (!(dist2 < d2)) continue;
        const float dist = std::sqrt(dist2);
        // Two nodes on one point have no direction between them: their rest
        // pose's (at least d long) gives one.
        const Vec3 normal = dist > 1e-6f * d ? delta * (1.0f / dist) : normalized(rest[a] - rest[b]);
        const float wa = im[a], wb = im[b];
        const float w = wa + wb;
        const Vec3 push = normal * ((d - dist) / w);
        xa += push * wa;
        xb -= push * wb;
        Vec3 va = v_.get(a), vb = v_.get(b);
        const Vec3 v_rel = va - vb;
        const float vn = dot(v_rel, normal);
        if (vn < 0.0f) {
            const float dvn = -vn;
            const Vec3 vt = v_rel - normal * vn;
            const float vt_len = length(vt);
            Vec3 vt_new{};
            if (vt_len > mu * dvn) vt_new = vt * (1.0f - mu * dvn / vt_len);
            const Vec3 dvt = vt_new - vt;
            const Vec3 dv = normal * dvn + dvt;
            const Vec3 impulse{dv.x / w, dv.y / w, dv.z / w};
            va += impulse * wa;
            vb -= impulse * wb;
            const Vec3 slide = dvt * (dt / w);
            xa += slide * wa;
            xb -= slide * wb;
            v_.set(a, va);
            v_.set(b, vb);
        }
        x_.set(a, xa);
        x_.set(b, xb);
        if (verlet) {
            set_previous(a, xa - va * dt);
            set_previous(b, xb - vb * dt);
        }
    }
}

}  // namespace springkit
