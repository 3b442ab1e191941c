// springkit — node order for speed (locality.hpp).
#include "springkit/locality.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "geometry/spring_graph.hpp"
#include "springkit/error.hpp"

namespace springkit {

detail::SpringGraph detail::spring_graph(const Model& model) {
    const std::size_t n = model.node_count();
    SpringGraph g;
    g.start.assign(n + 1, 0);
    for (const Spring& s : model.springs) {
        ++g.start[s.a + 1];
        ++g.start[s.b + 1];
    }
    for (std::size_t i = 0; i < n; ++i) g.start[i + 1] += g.start[i];
    g.next.resize(g.start[n]);
    std::vector<std::uint32_t> fill(g.start.begin(), g.start.end() - 1);
    for (const Spring& s : model.springs) {
        g.next[fill[s.a]++] = s.b;
        g.next[fill[s.b]++] = s.a;
    }
    return g;
}

namespace {

using Graph = detail::SpringGraph;
using detail::spring_graph;

// Sorts a short range in place (the fresh neighbours of a mesh's node: a dozen
// or two), where std::sort's general machinery costs more than the
// comparisons; longer ones (a fan around one node) go to std::sort.
template <class T>
void sort_short(T* first, T* last) {
    if (last - first > 32) {
        std::sort(first, last);
        return;
    }
    for (T* i = first + (first != last); i < last; ++i) {
        const T x = *i;
        T* j = i;
        for (; j > first && x < j[-1]; --j) *j = j[-1];
        *j = x;
    }
}

// Breadth-first walk from `from` over unvisited nodes, appending to `order`;
// each node's new neighbours in order of increasing degree (then index). The
// queue's rows are met in no memory order: each is fetched kAhead nodes early.
void walk(const Graph& g, std::uint32_t from, std::vector<char>& visited, std::vector<std::uint32_t>& order) {
    constexpr std::size_t kAhead = 8;
    std::size_t head = order.size();
    visited[from] = 1;
    order.push_back(from);
    std::vector<std::uint64_t> fresh;  // degree << 32 | node: the order of the comparison above
    for (; head < order.size(); ++head) {
        if (head + kAhead < order.size()) {
            const std::uint32_t ahead = order[head + kAhead];
            __builtin_prefetch(g.next.data() + g.start[ahead]);
        }
        if (head + 2 * kAhead < order.size()) __builtin_prefetch(&g.start[order[head + 2 * kAhead]]);
        const std::uint32_t v = order[head];
        fresh.clear();
        for (std::uint32_t k = g.start[v]; k < g.start[v + 1]; ++k)
            if (!visited[g.next[k]]) {
                visited[g.next[k]] = 1;
                fresh.push_back(std::uint64_t{g.degree(g.next[k])} << 32 | g.next[k]);
            }
        sort_short(fresh.data(), fresh.data() + fresh.size());
        for (const std::uint64_t f : fresh) order.push_back(static_cast<std::uint32_t>(f));
    }
}

// Reverse Cuthill-McKee: each connected part walked from an outlying node (the
// last one reached by a walk from its first node), the whole order reversed.
std::vector<std::uint32_t> reverse_cuthill_mckee(const Graph& g) {
    const std::size_t n = g.start.size() - 1;
    std::vector<char> visited(n, 0);
    std::vector<std::uint32_t> order, probe;
    order.reserve(n);
    probe.reserve(n);
    for (std::uint32_t v = 0; v < n; ++v) {
        if (visited[v]) continue;
        probe.clear();
        walk(g, v, visited, probe);
        for (std::uint32_t p : probe) visited[p] = 0;
        walk(g, probe.back(), visited, order);
    }
    std::reverse(order.begin(), order.end());
    std::vector<std::uint32_t> new_index(n);
    for (std::uint32_t i = 0; i < n; ++i) new_index[order[i]] = i;
    return new_index;
}

// How the runtime will like an order (new_index, or the model's own when null):
// the mean distance between a spring's nodes in the arrays, and the share of
// springs that continue a run (the spring one node further along both ends exists).
std::uint32_t node_index(const std::vector<std::uint32_t>* new_index, std::uint32_t v) {
    return new_index ? (*new_index)[v] : v;
}

double mean_distance(const Model& model, const std::vector<std::uint32_t>* new_index) {
    double distance = 0.0;
    for (const Spring& s : model.springs) {
        const std::uint32_t a = node_index(new_index, s.a), b = node_index(new_index, s.b);
        distance += std::max(a, b) - std::min(a, b);
    }
    return distance / static_cast<double>(model.springs.size());
}

// The graph in the numbering new_index gives: row new_index[v] holds the new
// numbers of v's neighbours.
Graph renumbered(const Graph& g, const std::vector<std::uint32_t>& new_index) {
    const std::size_t n = g.start.size() - 1;
    Graph out;
    out.start.assign(n + 1, 0);
    for (std::uint32_t v = 0; v < n; ++v) out.start[new_index[v] + 1] = g.degree(v);
    for (std::size_t i = 0; i < n; ++i) out.start[i + 1] += out.start[i];
    out.next.resize(g.next.size());
    for (std::uint32_t v = 0; v < n; ++v) {
        std::uint32_t to = out.start[new_index[v]];
        for (std::uint32_t k = g.start[v]; k < g.start[v + 1]; ++k) out.next[to++] = new_index[g.next[k]];
    }
    return out;
}

// The share of springs that continue a run in the order of graph `g`: a spring
// a-b (a < b) does when a + 1 shares a spring with b + 1, or a - 1 with b - 1.
// Rows are visited in order, each node's row marked as it comes: mark[w]
// remembers the last row that holds w and, in `rows`, which of the 31 before it
// hold w too, so that once rows up to a + 1 are marked, "does row a + 1 (or
// a - 1) hold w" is one lookup. Linear in the springs, no row sorted; a node
// array of 8 bytes a node stays in cache where a set of the pairs (or a search
// per spring) takes a cache miss for each of millions of springs.
double run_share(const Graph& g, std::size_t springs) {
    const std::size_t n = g.start.size() - 1;
    struct Mark {
        std::uint32_t last = 0;  // the last row that holds the node, plus one (0: none yet)
        std::uint32_t rows = 0;  // bit i: row last - 1 - i holds it
    };
    std::vector<Mark> mark(n + 1);  // b + 1 may be n: no row holds it
    auto mark_row = [&](std::size_t r) {
        const auto last = static_cast<std::uint32_t>(r + 1);
        for (std::uint32_t k = g.start[r]; k < g.start[r + 1]; ++k) {
            Mark& m = mark[g.next[k]];
            const std::uint32_t shift = last - m.last;
            m.rows = (shift >= 32 ? 0u : m.rows << shift) | 1u;
            m.last = last;
        }
    };
    auto holds = [&](std::size_t r, std::uint32_t w) {
        const Mark& m = mark[w];
        const std::size_t age = std::size_t{m.last} - (r + 1);  // wraps when the last row is before r
        return m.last >= r + 1 && age < 32 && (m.rows >> age & 1u) != 0;
    };
    for (std::size_t r = 0; r < n && r < 2; ++r) mark_row(r);
    std::size_t continuing = 0;
    for (std::size_t a = 0; a < n; ++a) {
        for (std::uint32_t k = g.start[a]; k < g.start[a + 1]; ++k) {
            const std::uint32_t b = g.next[k];
            if (b <= a) continue;  // counted from b's row (a spring never joins a node to itself)
            continuing += (a + 1 < n && holds(a + 1, b + 1)) || (a > 0 && holds(a - 1, b - 1));
        }
        if (a + 2 < n) mark_row(a + 2);
    }
    return static_cast<double>(continuing) / static_cast<double>(springs);
}

// Old node i becomes new_index[i] everywhere (new_index a permutation).
void remap(Model& model, const std::vector<std::uint32_t>& new_index) {
    auto moved = [&](const auto& values) {
        auto out = values;
        for (std::size_t i = 0; i < values.size(); ++i) out[new_index[i]] = values[i];
        return out;
    };
    model.positions = moved(model.positions);
    if (!model.masses.empty()) model.masses = moved(model.masses);
    for (Spring& s : model.springs) {
        s.a = new_index[s.a];
        s.b = new_index[s.b];
    }
    for (Face& f : model.faces)
        for (std::uint32_t& v : f.node) v = new_index[v];
    for (VolumeElement& e : model.volume_elements)
        for (std::uint32_t& v : e.node) v = new_index[v];
    for (Anchor& a : model.anchors) a.node = new_index[a.node];
    for (ConstantForce& c : model.constant_forces) c.node = new_index[c.node];
    for (Tether& t : model.tethers) t.node = new_index[t.node];
    for (Tube& t : model.tubes)
        for (std::uint32_t& v : t.nodes) v = new_index[v];
    for (Bead& b : model.beads) {
        b.first = new_index[b.first];
        b.last = new_index[b.last];
    }
}

}  // namespace

void renumber_nodes(Model& model, const std::vector<std::uint32_t>& new_index) {
    validate(model, "renumber_nodes");
    const std::size_t n = model.node_count();
    std::vector<char> taken(n, 0);
    bool permutation = new_index.size() == n;
    for (std::size_t i = 0; permutation && i < n; ++i) {
        permutation = new_index[i] < n && !taken[new_index[i]];
        if (permutation) taken[new_index[i]] = 1;
    }
    if (!permutation)
        throw Error("renumber_nodes: the new indices are not a permutation of the model's " + std::to_string(n) +
                    " nodes");
    for (const Bead& b : model.beads)  // a chain must stay consecutive nodes
        for (std::uint32_t v = b.first; v <= b.last; ++v)
            if (new_index[v] != new_index[b.first] + (v - b.first))
                throw Error("renumber_nodes: bead chain " + std::to_string(b.first) + ".." + std::to_string(b.last) +
                            " would no longer be consecutive nodes");
    remap(model, new_index);
}

std::vector<std::uint32_t> reorder_for_locality(Model& model) {
    if (!model.beads.empty() || model.springs.empty()) return {};
    // A surface numbered along itself keeps its springs within a few rows of
    // about sqrt(n) nodes (a volume, within a few layers): left alone, at the
    // cost of one pass over the springs (the converter calls this on every mesh).
    const double distance_now = mean_distance(model, nullptr);
    if (distance_now <= 4.0 * std::sqrt(static_cast<double>(model.node_count())) + 16.0) return {};
    try {  // the walk needs node references in range; validate() reports the rest
        validate(model);
    } catch (const Error&) {
        return {};
    }
    // The builders' grids and lattices: most springs in runs already, which the
    // kernel streams without index arrays; no walk would do better.
    // One graph for the measures and the walk, which does not depend on the
    // order of a row (it sorts what it meets by degree, then index).
    const Graph g = spring_graph(model);
    const double share_now = run_share(g, model.springs.size());
    if (share_now >= 0.5) return {};
    std::vector<std::uint32_t> new_index = reverse_cuthill_mckee(g);
    // Kept if it brings springs closer or puts more of them in runs (the
    // cheaper measure first).
    if (mean_distance(model, &new_index) >= distance_now &&
        run_share(renumbered(g, new_index), model.springs.size()) <= share_now)
        return {};
    remap(model, new_index);
    return new_index;
}

}  // namespace springkit
