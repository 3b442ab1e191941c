// springkit::import — islands: the parts of a model that no spring joins.
// A spider's legs exported as separate meshes, an engine's 34 parts, a point
// cloud: each part falls on its own. The importer reports them and keeps them,
// keeps the largest, or joins them with springs to their nearest nodes.
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "import_internal.hpp"

namespace springkit::detail {

namespace {

std::uint32_t root(std::vector<std::uint32_t>& parent, std::uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];  // path halving
    return i;
}

/// Nodes in cubic cells of side `cell`, for nearest-node queries.
class NodeGrid {
public:
    explicit NodeGrid(float cell) : cell_(cell) {}
    void add(const Vec3& p, std::uint32_t node) {
        const std::array<long, 3> c = cell_of(p);
        cells_[key(c)].push_back(node);
        for (std::size_t a = 0; a < 3; ++a) {
            lo_[a] = count_ == 0 ? c[a] : std::min(lo_[a], c[a]);
            hi_[a] = count_ == 0 ? c[a] : std::max(hi_[a], c[a]);
        }
        ++count_;
    }
    /// The nearest node to `p`, searching rings of cells outwards until no
    /// closer node can be left; UINT32_MAX when the grid is empty.
    std::uint32_t nearest(const Vec3& p, const std::vector<Vec3>& positions, float& distance,
                          const std::vector<std::uint32_t>& excluded = {}) const {
        std::uint32_t best = UINT32_MAX;
        distance = INFINITY;
        if (count_ == 0) return best;
        const std::array<long, 3> c = cell_of(p);
        // Only the cells of the box the nodes occupy can hold one: rings nearer
        // than the box are empty (a far island starts its search at the box),
        // and a ring's cells outside the box are skipped.
        std::array<long, 3> from{}, to{};  // the box, relative to c
        long first_ring = 0, last_ring = 0;
        for (std::size_t a = 0; a < 3; ++a) {
            from[a] = lo_[a] - c[a];
            to[a] = hi_[a] - c[a];
            first_ring = std::max({first_ring, from[a], -to[a]});
            last_ring = std::max({last_ring, -from[a], to[a]});
        }
        for (long ring = first_ring;; ++ring) {
            // The shell of cells at Chebyshev distance `ring`: every dz where dx or
            // dy is on it, else only its top and bottom (the ring's 6 faces, not
            // the whole cube: a far island's search would cost ring^4 cells).
            // Which node wins does not depend on the order cells are visited.
            for (long dx = std::max(-ring, from[0]); dx <= std::min(ring, to[0]); ++dx)
                for (long dy = std::max(-ring, from[1]); dy <= std::min(ring, to[1]); ++dy) {
                    const bool side = std::labs(dx) == ring || std::labs(dy) == ring;
                    const long step = side || ring == 0 ? 1 : 2 * ring;
                    for (long dz = -ring; dz <= ring; dz += step) {
                        if (dz < from[2] || dz > to[2]) continue;
                        const auto it = cells_.find(key({c[0] + dx, c[1] + dy, c[2] + dz}));
                        if (it == cells_.end()) continue;
                        for (std::uint32_t n : it->second) {
                            if (std::find(excluded.begin(), excluded.end(), n) != excluded.end()) continue;
                            const float d = length(positions[n] - p);
                            if (d < distance || (d == distance && n < best)) distance = d, best = n;
                        }
                    }
                }
            // Every node outside the searched rings is at least ring x cell away;
            // past last_ring every cell of the box has been searched.
            if (best != UINT32_MAX && distance <= static_cast<float>(ring) * cell_) return best;
            if (ring >= last_ring) return best;
        }
    }

private:
    std::array<long, 3> cell_of(const Vec3& p) const {
        return {std::lround(std::floor(p.x / cell_)), std::lround(std::floor(p.y / cell_)),
                std::lround(std::floor(p.z / cell_))};
    }
    static std::uint64_t key(const std::array<long, 3>& c) {
        return (static_cast<std::uint64_t>(c[0] & 0x1fffff) << 42) | (static_cast<std::uint64_t>(c[1] & 0x1fffff) << 21) |
               static_cast<std::uint64_t>(c[2] & 0x1fffff);
    }
    float cell_;
    std::size_t count_ = 0;
    std::array<long, 3> lo_{}, hi_{};  ///< the box of the cells that hold nodes
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> cells_;
};

}  // namespace

Islands find_islands(const Model& model) {
    std::vector<std::uint32_t> parent(model.node_count());
    std::iota(parent.begin(), parent.end(), 0u);
    for (const Spring& s : model.springs) {
        const std::uint32_t a = root(parent, s.a), b = root(parent, s.b);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
    // Islands numbered by size, largest first (equal sizes by their first node).
    std::vector<std::uint32_t> size(model.node_count(), 0);
    for (std::uint32_t i = 0; i < parent.size(); ++i) ++size[root(parent, i)];
    std::vector<std::uint32_t> roots;
    for (std::uint32_t i = 0; i < parent.size(); ++i)
        if (parent[i] == i) roots.push_back(i);
    std::stable_sort(roots.begin(), roots.end(), [&](std::uint32_t a, std::uint32_t b) { return size[a] > size[b]; });
    std::vector<std::uint32_t> number(model.node_count(), 0);
    Islands islands;
    for (std::uint32_t k = 0; k < roots.size(); ++k) {
        number[roots[k]] = k;
        islands.sizes.push_back(size[roots[k]]);
    }
    islands.of_node.resize(model.node_count());
    for (std::uint32_t i = 0; i < parent.size(); ++i) islands.of_node[i] = number[root(parent, i)];
    return islands;
}

std::size_t keep_largest_island(Model& model, const Islands& islands) {
    if (islands.sizes.size() <= 1) return 0;
    std::vector<std::uint32_t> new_index(model.node_count(), UINT32_MAX);
    std::vector<Vec3> kept;
    for (std::uint32_t i = 0; i < model.node_count(); ++i)
        if (islands.of_node[i] == 0) {
            new_index[i] = static_cast<std::uint32_t>(kept.size());
            kept.push_back(model.positions[i]);
        }
    const std::size_t dropped = model.node_count() - kept.size();
    if (!model.masses.empty()) {
        std::vector<float> masses;
        for (std::uint32_t i = 0; i < model.node_count(); ++i)
            if (new_index[i] != UINT32_MAX) masses.push_back(model.masses[i]);
        model.masses = std::move(masses);
    }
    model.positions = std::move(kept);
    std::erase_if(model.springs, [&](const Spring& s) { return new_index[s.a] == UINT32_MAX; });
    for (Spring& s : model.springs) s.a = new_index[s.a], s.b = new_index[s.b];
    std::erase_if(model.faces, [&](const Face& f) { return new_index[f.node[0]] == UINT32_MAX; });
    for (Face& f : model.faces)
        for (std::uint32_t& n : f.node) n = new_index[n];
    std::erase_if(model.volume_elements, [&](const VolumeElement& e) {
        return std::any_of(std::begin(e.node), std::end(e.node), [&](std::uint32_t n) { return new_index[n] == UINT32_MAX; });
    });
    for (VolumeElement& e : model.volume_elements)
        for (std::uint32_t& n : e.node) n = new_index[n];
    std::erase_if(model.anchors, [&](const Anchor& a) { return new_index[a.node] == UINT32_MAX; });
    for (Anchor& a : model.anchors) a.node = new_index[a.node];
    return dropped;
}

std::size_t connect_islands(Model& model, const Islands& islands, int springs_per_island) {
    if (islands.sizes.size() <= 1) return 0;
    const float cell = std::max(bounds(model).diagonal() / 64.0f, 1e-6f);
    NodeGrid joined(cell);  // the nodes joined to the largest island so far
    std::vector<std::vector<std::uint32_t>> members(islands.sizes.size());
    for (std::uint32_t i = 0; i < model.node_count(); ++i) members[islands.of_node[i]].push_back(i);
    for (std::uint32_t n : members[0]) joined.add(model.positions[n], n);
    std::size_t added = 0;
    // Largest first: each island is joined to everything joined before it, so
    // the model ends in one piece.
    for (std::size_t k = 1; k < members.size(); ++k) {
        // Its nodes by their distance to the joined part; the nearest few get a
        // spring each (one spring alone would be a hinge), to distinct nodes.
        std::vector<std::pair<float, std::array<std::uint32_t, 2>>> pairs;
        for (std::uint32_t n : members[k]) {
            float d = 0.0f;
            const std::uint32_t m = joined.nearest(model.positions[n], model.positions, d);
            pairs.push_back({d, {n, m}});
        }
        std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        int made = 0;
        std::vector<std::uint32_t> used;
        for (const auto& [first_distance, nodes] : pairs) {
            if (made == springs_per_island) break;
            float d = first_distance;
            const std::uint32_t to = used.empty() ? nodes[1] : joined.nearest(model.positions[nodes[0]], model.positions, d, used);
            if (to == UINT32_MAX || !(d > 0.0f)) continue;  // coincident nodes (welding was off): a spring needs a length
            used.push_back(to);
            model.springs.push_back({nodes[0], to, d});
            ++made;
        }
        added += static_cast<std::size_t>(made);
        for (std::uint32_t n : members[k]) joined.add(model.positions[n], n);
    }
    return added;
}

}  // namespace springkit::detail
