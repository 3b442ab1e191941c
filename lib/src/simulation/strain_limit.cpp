// springkit — the implicit integrator's projections after the solve: long
// range attachments and the strain limit (Simulation::Impl::limit_strain()).
//
// Both are Gauss-Seidel sweeps of position projections, laid out so that each
// of their loops runs over independent items and vectorises:
// - the attachments, a loop over nodes (a node moves, its anchors do not, so
//   the nodes are independent): with two per node (a cloth held at two
//   corners), the nearest point of the intersection of both balls at once;
//   otherwise one slot (a node's j-th anchor) after the other; ranges of
//   nodes that share their anchors read the anchors' positions once;
// - the strain limit, in colours of springs (no two springs of a colour share
//   a node), each colour in runs of springs whose ends are strided arrays (a
//   grid's rows) and the rest gathered by index: the projections of a colour
//   are computed side by side (a square root and two divisions per spring, no
//   branch). Colour after colour is a Gauss-Seidel sweep in the colours'
//   order, the parallel Gauss-Seidel of graph-coloured position-based
//   dynamics (Fratarcangeli, Tibaldo and Pellacini, "Vivace: a Practical
//   Gauss-Seidel Method for Stable Soft Body Dynamics", SIGGRAPH Asia 2016).
// The loops are compiled for each x86-64 level (batched_loops.hpp); each item
// is computed by the same operations in every version (no fused multiply-add,
// IEEE square root and division), so every version and thread count steps to
// the same bits.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "simulation/batched_loops.hpp"
#include "simulation/implicit_solver.hpp"
#include "simulation/simulation_impl.hpp"

namespace springkit {

namespace detail {

std::shared_ptr<const StrainLimitSprings> build_strain_limit_springs(const ImplicitLayout& l, bool every_spring) {
    // Spring s (a, c) is implied when some node b has springs (a, b) and
    // (b, c) with rest_ab + rest_bc <= rest_ac: |x_a - x_c| <= |x_a - x_b| +
    // |x_b - x_c| <= (1 + limit) (rest_ab + rest_bc). A cloth's bend springs
    // are, over the two structural springs they skip. Implied at the fixed
    // point of the passes only: within a few passes a bend spring's own
    // projection moves a correction two springs along its line at once, so
    // every_spring keeps them.
    const auto other = [&](std::uint32_t entry) { return (entry & 1) ? l.a[entry / 2] : l.b[entry / 2]; };
    std::vector<std::uint32_t> kept_a, kept_b;
    std::vector<float> kept_rest;
    for (std::size_t s = 0; s < l.a.size(); ++s) {
        const std::uint32_t a = l.a[s], c = l.b[s];
        bool implied = false;  // (not looked for when every spring is kept)
        for (std::uint32_t e = l.node_first[a]; !every_spring && e < l.node_first[a + 1] && !implied; ++e) {
            const std::uint32_t b = other(l.node_entry[e]);
            const float ab = l.rest[l.node_entry[e] / 2];
            if (b == c || ab >= l.rest[s]) continue;
            for (std::uint32_t f = l.node_first[b]; f < l.node_first[b + 1]; ++f)
                if (other(l.node_entry[f]) == c && ab + l.rest[l.node_entry[f] / 2] <= l.rest[s]) {
                    implied = true;
                    break;
                }
        }
        if (implied) continue;
        kept_a.push_back(a);
        kept_b.push_back(c);
        kept_rest.push_back(l.rest[s]);
    }
    // Runs: springs of one shape (b - a, a < b) that follow each other along
    // the nodes, a grid's rows of vertical or diagonal springs (stride 1) and
    // every other spring of a row (b = a + 1, stride 2), share no node and are
    // projected as strided arrays. Swapping a spring's ends changes no bit of
    // its projection (d and its correction only change sign).
    for (std::size_t s = 0; s < kept_a.size(); ++s)
        if (kept_a[s] > kept_b[s]) std::swap(kept_a[s], kept_b[s]);
    std::vector<std::uint32_t> order(kept_a.size());
    for (std::size_t s = 0; s < order.size(); ++s) order[s] = static_cast<std::uint32_t>(s);
    const auto offset = [&](std::uint32_t s) { return kept_b[s] - kept_a[s]; };
    std::sort(order.begin(), order.end(), [&](std::uint32_t p, std::uint32_t q) {
        return offset(p) != offset(q) ? offset(p) < offset(q) : kept_a[p] != kept_a[q] ? kept_a[p] < kept_a[q] : p < q;
    });
    struct Unit {
        std::vector<std::uint32_t> springs;
        std::uint32_t stride = 0;  // 0: a single spring
    };
    std::vector<Unit> units;
    for (std::size_t i = 0; i < order.size();) {
        // The springs of one shape on consecutive first nodes: i .. j.
        std::size_t j = i + 1;
        while (j < order.size() && offset(order[j]) == offset(order[i]) && kept_a[order[j]] == kept_a[order[j - 1]] + 1)
            ++j;
        const std::uint32_t shape = offset(order[i]);
        // Spring i and spring i + d share a node when d = b - a: cut into runs
        // of at most b - a, or for b - a = 1 into the even and the odd ones.
        const auto add = [&](std::size_t first, std::size_t end, std::size_t step) {
            if ((end - first + step - 1) / step < kMinRun) {
                for (std::size_t e = first; e < end; e += step) units.push_back({{order[e]}, 0});
                return;
            }
            Unit u{{}, static_cast<std::uint32_t>(step)};
            for (std::size_t e = first; e < end; e += step) u.springs.push_back(order[e]);
            units.push_back(std::move(u));
        };
        if (shape == 1) {
            add(i, j, 2);
            if (i + 1 < j) add(i + 1, j, 2);
        } else {
            const std::size_t span = std::max<std::uint32_t>(shape, 1);  // 0 only for a spring to itself
            for (std::size_t first = i; first < j; first += span) add(first, std::min(j, first + span), 1);
        }
        i = j;
    }
    // Greedy colouring of the units in order: each takes the smallest colour
    // that no earlier unit has at any of its nodes.
    std::vector<std::vector<std::uint64_t>> taken(l.node_first.size() - 1);  // colours at a node, as bits
    const auto has = [&](std::uint32_t node, std::size_t c) {
        const auto& t = taken[node];
        return c / 64 < t.size() && ((t[c / 64] >> (c % 64)) & 1u) != 0;
    };
    std::vector<std::uint32_t> colour(units.size());
    std::size_t colours = 0;
    for (std::size_t u = 0; u < units.size(); ++u) {
        std::size_t c = 0;
        const auto fits = [&](std::size_t k) {
            return std::none_of(units[u].springs.begin(), units[u].springs.end(),
                                [&](std::uint32_t s) { return has(kept_a[s], k) || has(kept_b[s], k); });
        };
        while (!fits(c)) ++c;
        for (std::uint32_t s : units[u].springs)
            for (std::uint32_t node : {kept_a[s], kept_b[s]}) {
                auto& t = taken[node];
                if (t.size() <= c / 64) t.resize(c / 64 + 1, 0);
                t[c / 64] |= std::uint64_t{1} << (c % 64);
            }
        colour[u] = static_cast<std::uint32_t>(c);
        colours = std::max(colours, c + 1);
    }
    // Per colour: its runs in order, then its single springs as one piece
    // gathered by index.
    auto out = std::make_shared<StrainLimitSprings>();
    out->every_spring = every_spring;
    const auto put = [&](std::uint32_t s) {
        out->a.push_back(kept_a[s]);
        out->b.push_back(kept_b[s]);
        out->rest.push_back(kept_rest[s]);
    };
    out->colour_first.push_back(0);
    for (std::uint32_t c = 0; c < colours; ++c) {
        for (std::size_t u = 0; u < units.size(); ++u) {
            if (colour[u] != c || units[u].stride == 0) continue;
            const auto begin = static_cast<std::uint32_t>(out->a.size());
            for (std::uint32_t s : units[u].springs) put(s);
            // A run that carries on the colour's run before it (a grid's
            // rows of every other neighbour pair, row after row) joins it:
            // a longer loop, the same projections.
            auto& pieces = out->pieces;
            const std::uint32_t stride = units[u].stride;
            if (pieces.size() > out->colour_first.back() && pieces.back().stride == stride &&
                pieces.back().end == begin && out->a[begin] == out->a[begin - 1] + stride &&
                out->b[begin] - out->a[begin] == out->b[begin - 1] - out->a[begin - 1])
                pieces.back().end = static_cast<std::uint32_t>(out->a.size());
            else
                pieces.push_back({begin, static_cast<std::uint32_t>(out->a.size()), stride});
        }
        // The colour's single springs share no node either, so their
        // projections give the same bits in any order. Those of shape 2 in
        // blocks of four nodes, q to q + 2 and q + 1 to q + 3 (a grid row's
        // bend springs of one colour), with blocks q, q + 4, q + 8, ...,
        // join a piece of stride 4; the rest are gathered by index.
        std::vector<std::uint32_t> singles;
        for (std::size_t u = 0; u < units.size(); ++u)
            if (colour[u] == c && units[u].stride == 0) singles.push_back(units[u].springs[0]);
        std::vector<std::uint32_t> shape2;  // by first node
        for (std::uint32_t s : singles)
            if (offset(s) == 2) shape2.push_back(s);
        std::sort(shape2.begin(), shape2.end(), [&](std::uint32_t p, std::uint32_t q) { return kept_a[p] < kept_a[q]; });
        const auto starting_at = [&](std::uint32_t node) -> std::int64_t {  // the shape-2 spring from node, or -1
            const auto at = std::lower_bound(shape2.begin(), shape2.end(), node,
                                             [&](std::uint32_t s, std::uint32_t first) { return kept_a[s] < first; });
            return at != shape2.end() && kept_a[*at] == node ? static_cast<std::int64_t>(*at) : -1;
        };
        // A block with neither spring (a grid row's end) between two whole
        // ones is a filler, entries of rest -1 that project_quads() leaves
        // as they are, so that one loop runs on across the rows; its nodes
        // are no other block's of the piece.
        std::vector<bool> in_block(kept_a.size(), false);
        const std::size_t nodes = l.node_first.size() - 1;
        const auto whole = [&](std::uint32_t q) {  // both springs of block q, in no other block
            const std::int64_t first = starting_at(q), second = starting_at(q + 1);
            return first >= 0 && second >= 0 && !in_block[static_cast<std::size_t>(first)] &&
                   !in_block[static_cast<std::size_t>(second)];
        };
        constexpr std::int64_t kFiller = -1;
        for (std::uint32_t s : shape2) {
            std::vector<std::int64_t> piece;  // blocks' springs: q to q + 2, then q + 1 to q + 3
            std::size_t real = 0;
            for (std::uint32_t q = kept_a[s];; q += 4) {
                if (whole(q)) {
                    piece.push_back(starting_at(q));
                    piece.push_back(starting_at(q + 1));
                    real += 2;
                    continue;
                }
                if (starting_at(q) >= 0 || starting_at(q + 1) >= 0 || q + 7 >= nodes || !whole(q + 4)) break;
                piece.push_back(kFiller);
                piece.push_back(kFiller);
            }
            if (real < kMinRun) continue;
            const auto begin = static_cast<std::uint32_t>(out->a.size());
            const std::uint32_t q0 = kept_a[s];
            for (std::size_t e = 0; e < piece.size(); ++e) {
                if (piece[e] == kFiller) {
                    const auto a = static_cast<std::uint32_t>(q0 + 4 * (e / 2) + e % 2);
                    out->a.push_back(a);
                    out->b.push_back(a + 2);
                    out->rest.push_back(-1.0f);
                    continue;
                }
                const auto t = static_cast<std::uint32_t>(piece[e]);
                put(t);
                in_block[t] = true;
            }
            out->pieces.push_back({begin, static_cast<std::uint32_t>(out->a.size()), 4});
        }
        const auto begin = static_cast<std::uint32_t>(out->a.size());
        for (std::uint32_t s : singles)
            if (!in_block[s]) put(s);
        if (out->a.size() > begin) out->pieces.push_back({begin, static_cast<std::uint32_t>(out->a.size()), 0});
        out->colour_first.push_back(static_cast<std::uint32_t>(out->pieces.size()));
    }
    return out;
}

}  // namespace detail

namespace {

// p moved onto the ball of radius r around c when it lies outside (one long
// range attachment). Branch-free, for the loops.
inline void onto_ball(float& px, float& py, float& pz, float cx, float cy, float cz, float r) {
    const float dx = px - cx, dy = py - cy, dz = pz - cz;
    const float len = std::sqrt(dx * dx + dy * dy + dz * dz);
    const float scale = r / len;
    const bool move = len > r;
    px = move ? cx + dx * scale : px;
    py = move ? cy + dy * scale : py;
    pz = move ? cz + dz * scale : pz;
}

// Nodes of one slot of the long range attachments, (nx, ny, nz)[i]: node i
// farther than longest[i] from its anchor, (px, py, pz)[anchor[i]], goes back
// onto that sphere. Iteration i writes node i only and reads node i and an
// anchor, which no iteration moves (an anchor's own slot names itself at an
// infinite length and writes back what it read).
SPRINGKIT_STAGE_CLONES
void pull_towards_anchors(float* nx, float* ny, float* nz, const float* px, const float* py, const float* pz,
                          const std::uint32_t* __restrict anchor, const float* __restrict longest, std::size_t nodes) {
#pragma GCC ivdep
    for (std::size_t i = 0; i < nodes; ++i) {
        float x = nx[i], y = ny[i], z = nz[i];
        const std::uint32_t a = anchor[i];
        onto_ball(x, y, z, px[a], py[a], pz[a], longest[i]);
        nx[i] = x;
        ny[i] = y;
        nz[i] = z;
    }
}

// pull_towards_anchors() for nodes that share their anchor, at (ax, ay, az).
SPRINGKIT_STAGE_CLONES
void pull_towards_anchor(float* __restrict px, float* __restrict py, float* __restrict pz, float ax, float ay, float az,
                         const float* __restrict longest, std::size_t nodes) {
    for (std::size_t i = 0; i < nodes; ++i) onto_ball(px[i], py[i], pz[i], ax, ay, az, longest[i]);
}

// The nearest point to p in the intersection of the balls (c1, r1) and
// (c2, r2), the two attachments of a node projected at once. Projected onto
// one after the other, a node on the line between two anchors whose balls
// only touch there (a cloth's edge between its two held corners) would
// approach the line slowly, the two projections undoing each other. The
// nearest point is p when p is in both; else the nearest point of one ball
// when that lies in the other; else the nearest point of the circle where the
// spheres meet. Balls that do not meet (anchors driven apart) give the point
// of the segment c1 c2 that splits it as r1 : r2. An infinite r2 (a node with
// one attachment) leaves the first projection. Branch-free, for the loops.
inline void nearest_in_both(float& px, float& py, float& pz, float c1x, float c1y, float c1z, float r1, float c2x,
                            float c2y, float c2z, float r2) {
    const float v1x = px - c1x, v1y = py - c1y, v1z = pz - c1z;
    const float v2x = px - c2x, v2y = py - c2y, v2z = pz - c2z;
    const float l1 = std::sqrt(v1x * v1x + v1y * v1y + v1z * v1z);
    const float l2 = std::sqrt(v2x * v2x + v2y * v2y + v2z * v2z);
    const bool out1 = l1 > r1, out2 = l2 > r2;
    const float s1 = r1 / l1, s2 = r2 / l2;
    const float q1x = c1x + v1x * s1, q1y = c1y + v1y * s1, q1z = c1z + v1z * s1;  // nearest in ball 1
    const float q2x = c2x + v2x * s2, q2y = c2y + v2y * s2, q2z = c2z + v2z * s2;  // nearest in ball 2
    const float e1x = q1x - c2x, e1y = q1y - c2y, e1z = q1z - c2z;
    const float e2x = q2x - c1x, e2y = q2y - c1y, e2z = q2z - c1z;
    const bool q1_in_2 = e1x * e1x + e1y * e1y + e1z * e1z <= r2 * r2;
    const bool q2_in_1 = e2x * e2x + e2y * e2y + e2z * e2z <= r1 * r1;
    // The circle: centre c1 + a u on the axis u = (c2 - c1) / d, radius
    // h = sqrt(r1^2 - a^2), a = (d^2 + r1^2 - r2^2) / 2 d; p goes to the
    // circle's point in the direction of its offset from the axis.
    const float ux0 = c2x - c1x, uy0 = c2y - c1y, uz0 = c2z - c1z;
    const float d = std::sqrt(ux0 * ux0 + uy0 * uy0 + uz0 * uz0);
    const float ux = ux0 / d, uy = uy0 / d, uz = uz0 / d;
    const bool meet = d <= r1 + r2;
    const float a = meet ? (d * d + r1 * r1 - r2 * r2) / (2.0f * d) : d * (r1 / (r1 + r2));
    const float h2 = (r1 - a) * (r1 + a);
    const float h = meet && h2 > 0.0f ? std::sqrt(h2) : 0.0f;
    const float along = v1x * ux + v1y * uy + v1z * uz;
    const float wx = v1x - along * ux, wy = v1y - along * uy, wz = v1z - along * uz;
    const float wl = std::sqrt(wx * wx + wy * wy + wz * wz);
    const float k = wl > 0.0f ? h / wl : 0.0f;
    const float cx = c1x + ux * a + wx * k, cy = c1y + uy * a + wy * k, cz = c1z + uz * a + wz * k;
    const bool take1 = out1 && q1_in_2;
    const bool take2 = !take1 && out2 && q2_in_1;
    const bool circle = (out1 || out2) && !take1 && !take2;
    px = take1 ? q1x : take2 ? q2x : circle ? cx : px;
    py = take1 ? q1y : take2 ? q2y : circle ? cy : py;
    pz = take1 ? q1z : take2 ? q2z : circle ? cz : pz;
}

// nearest_in_both() for nodes (nx, ny, nz)[i] whose anchors are
// (px, py, pz)[first[i]] and [second[i]], at most r1[i] and r2[i] away; an
// anchor, which no iteration moves, names itself at infinite lengths.
SPRINGKIT_STAGE_CLONES
void pull_towards_two_anchors(float* nx, float* ny, float* nz, const float* px, const float* py, const float* pz,
                              const std::uint32_t* __restrict first, const std::uint32_t* __restrict second,
                              const float* __restrict r1, const float* __restrict r2, std::size_t nodes) {
#pragma GCC ivdep
    for (std::size_t i = 0; i < nodes; ++i) {
        float x = nx[i], y = ny[i], z = nz[i];
        const std::uint32_t a = first[i], b = second[i];
        nearest_in_both(x, y, z, px[a], py[a], pz[a], r1[i], px[b], py[b], pz[b], r2[i]);
        nx[i] = x;
        ny[i] = y;
        nz[i] = z;
    }
}

// The same for nodes that share their two anchors, at c1 and c2.
SPRINGKIT_STAGE_CLONES
void pull_towards_two_anchor(float* __restrict nx, float* __restrict ny, float* __restrict nz, float c1x, float c1y,
                             float c1z, float c2x, float c2y, float c2z, const float* __restrict r1,
                             const float* __restrict r2, std::size_t nodes) {
    for (std::size_t i = 0; i < nodes; ++i) {
        float x = nx[i], y = ny[i], z = nz[i];
        nearest_in_both(x, y, z, c1x, c1y, c1z, r1[i], c2x, c2y, c2z, r2[i]);
        nx[i] = x;
        ny[i] = y;
        nz[i] = z;
    }
}

// The corrections of one colour's springs (Provot's projection): a spring
// longer than stretch * rest moves its ends towards each other by
// (1 - stretch rest / len) (x_a - x_b) split by inverse mass; none when it is
// not that long or both ends are anchored: the move of the a end in (ax,
// ay, az), of the b end in (bx, by, bz).
SPRINGKIT_STAGE_CLONES
void strain_corrections(const float* __restrict px, const float* __restrict py, const float* __restrict pz,
                        const float* __restrict inverse_mass, const std::uint32_t* __restrict a,
                        const std::uint32_t* __restrict b, const float* __restrict rest, float stretch,
                        std::size_t count, float* __restrict ax, float* __restrict ay, float* __restrict az,
                        float* __restrict bx, float* __restrict by, float* __restrict bz) {
    for (std::size_t e = 0; e < count; ++e) {
        const std::uint32_t ia = a[e], ib = b[e];
        const float dx = px[ia] - px[ib], dy = py[ia] - py[ib], dz = pz[ia] - pz[ib];
        const float len = std::sqrt(dx * dx + dy * dy + dz * dz);
        const float longest = rest[e] * stretch;
        const float wa = inverse_mass[ia], wb = inverse_mass[ib], w = wa + wb;
        const float scale = (1.0f - longest / len) / (w > 0.0f ? w : 1.0f);
        const float s = len > longest && w > 0.0f ? scale : 0.0f;
        const float cx = dx * s, cy = dy * s, cz = dz * s;
        ax[e] = cx * wa;
        ay[e] = cy * wa;
        az[e] = cz * wa;
        bx[e] = cx * wb;
        by[e] = cy * wb;
        bz[e] = cz * wb;
    }
}

// The projections of a run: spring e joins (ax, ay, az)[S e] to (bx, by, bz)[S e],
// inverse masses wa[S e] and wb[S e]; the same operations as
// strain_corrections() and its scatter, each end written in place (a
// colour's springs share no node, so no end is both read and written by two
// springs).
template <std::size_t S>
SPRINGKIT_STAGE_CLONES
void project_run(float* __restrict ax, float* __restrict ay, float* __restrict az, float* __restrict bx,
                 float* __restrict by, float* __restrict bz, const float* wa_, const float* wb_,
                 const float* __restrict rest, float stretch, std::size_t count) {
    for (std::size_t e = 0; e < count; ++e) {
        const float xa = ax[S * e], ya = ay[S * e], za = az[S * e];
        const float xb = bx[S * e], yb = by[S * e], zb = bz[S * e];
        const float dx = xa - xb, dy = ya - yb, dz = za - zb;
        const float len = std::sqrt(dx * dx + dy * dy + dz * dz);
        const float longest = rest[e] * stretch;
        const float wa = wa_[S * e], wb = wb_[S * e], w = wa + wb;
        const float scale = (1.0f - longest / len) / (w > 0.0f ? w : 1.0f);
        const float s = len > longest && w > 0.0f ? scale : 0.0f;
        const float cx = dx * s, cy = dy * s, cz = dz * s;
        ax[S * e] = xa - cx * wa;
        ay[S * e] = ya - cy * wa;
        az[S * e] = za - cz * wa;
        bx[S * e] = xb + cx * wb;
        by[S * e] = yb + cy * wb;
        bz[S * e] = zb + cz * wb;
    }
}

// A run of stride 2 whose springs join neighbours (b = a + 1): the ends form
// one block of nodes, spring e joining nodes 2 e and 2 e + 1 from x, y, z,
// which the vector loops read and write as interleaved pairs.
SPRINGKIT_STAGE_CLONES
void project_pairs(float* __restrict x, float* __restrict y, float* __restrict z, const float* __restrict w_,
                   const float* __restrict rest, float stretch, std::size_t count) {
    for (std::size_t e = 0; e < count; ++e) {
        const float xa = x[2 * e], ya = y[2 * e], za = z[2 * e];
        const float xb = x[2 * e + 1], yb = y[2 * e + 1], zb = z[2 * e + 1];
        const float dx = xa - xb, dy = ya - yb, dz = za - zb;
        const float len = std::sqrt(dx * dx + dy * dy + dz * dz);
        const float longest = rest[e] * stretch;
        const float wa = w_[2 * e], wb = w_[2 * e + 1], w = wa + wb;
        const float scale = (1.0f - longest / len) / (w > 0.0f ? w : 1.0f);
        const float s = len > longest && w > 0.0f ? scale : 0.0f;
        const float cx = dx * s, cy = dy * s, cz = dz * s;
        x[2 * e] = xa - cx * wa;
        y[2 * e] = ya - cy * wa;
        z[2 * e] = za - cz * wa;
        x[2 * e + 1] = xb + cx * wb;
        y[2 * e + 1] = yb + cy * wb;
        z[2 * e + 1] = zb + cz * wb;
    }
}

// One spring's projection on copies of its ends: the operations of
// project_run(); a filler (rest < 0) subtracts +0 from each, which leaves
// every value as it is (-0 too), and x + c is x - (-c) bit for bit.
inline void project_ends(float& xa, float& ya, float& za, float& xb, float& yb, float& zb, float wa, float wb,
                         float rest, float stretch) {
    const float dx = xa - xb, dy = ya - yb, dz = za - zb;
    const float len = std::sqrt(dx * dx + dy * dy + dz * dz);
    const float longest = rest * stretch;
    const float w = wa + wb;
    const float scale = (1.0f - longest / len) / (w > 0.0f ? w : 1.0f);
    const float s = len > longest && w > 0.0f ? scale : 0.0f;
    const float cx = dx * s, cy = dy * s, cz = dz * s;
    const bool spring = rest >= 0.0f;
    xa = xa - (spring ? cx * wa : 0.0f);
    ya = ya - (spring ? cy * wa : 0.0f);
    za = za - (spring ? cz * wa : 0.0f);
    xb = xb - (spring ? -(cx * wb) : 0.0f);
    yb = yb - (spring ? -(cy * wb) : 0.0f);
    zb = zb - (spring ? -(cz * wb) : 0.0f);
}

// A piece of stride 4: blocks of four nodes, block e from 4 e, springs 2 e
// (nodes 4 e and 4 e + 2) and 2 e + 1 (4 e + 1 and 4 e + 3) from x, y, z; the
// same operations as project_run() for each spring (the vector loops read and
// write the blocks as interleaved groups of four); a filler block's springs
// (rest -1) leave their nodes as they are.
SPRINGKIT_STAGE_CLONES
void project_quads(float* __restrict x, float* __restrict y, float* __restrict z, const float* __restrict w_,
                   const float* __restrict rest, float stretch, std::size_t count) {
    for (std::size_t e = 0; e < count; ++e) {
        float x0 = x[4 * e], x1 = x[4 * e + 1], x2 = x[4 * e + 2], x3 = x[4 * e + 3];
        float y0 = y[4 * e], y1 = y[4 * e + 1], y2 = y[4 * e + 2], y3 = y[4 * e + 3];
        float z0 = z[4 * e], z1 = z[4 * e + 1], z2 = z[4 * e + 2], z3 = z[4 * e + 3];
        project_ends(x0, y0, z0, x2, y2, z2, w_[4 * e], w_[4 * e + 2], rest[2 * e], stretch);
        project_ends(x1, y1, z1, x3, y3, z3, w_[4 * e + 1], w_[4 * e + 3], rest[2 * e + 1], stretch);
        x[4 * e] = x0;
        x[4 * e + 1] = x1;
        x[4 * e + 2] = x2;
        x[4 * e + 3] = x3;
        y[4 * e] = y0;
        y[4 * e + 1] = y1;
        y[4 * e + 2] = y2;
        y[4 * e + 3] = y3;
        z[4 * e] = z0;
        z[4 * e + 1] = z1;
        z[4 * e + 2] = z2;
        z[4 * e + 3] = z3;
    }
}

}  // namespace

void Simulation::Impl::limit_strain(float limit, bool attachments) {
    // Each pass: long range attachments (Kim, Chentanez and Müller 2012): a
    // free node farther from an attached anchor than its attachment's length
    // goes back onto that sphere (the anchor does not move). They hold the
    // long-range stretch that a Gauss-Seidel sweep over the springs would
    // need as many passes as there are springs between node and anchor to
    // undo. Then Provot's strain limit ("Deformation Constraints in a
    // Mass-Spring Model to Describe Rigid Cloth Behavior", 1995) as a
    // projection: a Hooke spring longer than (1 + limit) rest is shortened to
    // that length, the correction split by inverse mass (none on an anchor),
    // Gauss-Seidel colour by colour, over the springs the limit of two others
    // does not already imply (StrainLimitSprings). Then the global steps
    // (strain_limit_global_step()).
    detail::ImplicitState& st = implicit_;
    const detail::ImplicitLayout& l = *st.layout;
    const bool every_spring = params_.strain_limit_every_spring != 0;
    if (limit > 0.0f && (!st.limited || st.limited->every_spring != every_spring))
        st.limited = detail::build_strain_limit_springs(l, every_spring);
    const detail::LongRangeAttachments* tied = attachments ? st.attachments.get() : nullptr;
    float* px = x_.x.data();
    float* py = x_.y.data();
    float* pz = x_.z.data();
    const float stretch = 1.0f + limit;
    for (int pass = 0; pass < params_.strain_limit_passes; ++pass) {
        if (tied)
            for (const detail::LongRangeAttachments::Range& r : tied->ranges) {
                const std::size_t count = r.end - r.begin;
                const auto at = [&](int slot) { return static_cast<std::size_t>(slot) * tied->nodes + r.begin; };
                float* nx = px + r.begin;
                float* ny = py + r.begin;
                float* nz = pz + r.begin;
                if (tied->count == 2) {
                    const std::uint32_t* first = tied->anchor.data() + at(0);
                    const std::uint32_t* second = tied->anchor.data() + at(1);
                    const float* r1 = tied->length.data() + at(0);
                    const float* r2 = tied->length.data() + at(1);
                    if (r.shared)
                        pull_towards_two_anchor(nx, ny, nz, px[first[0]], py[first[0]], pz[first[0]], px[second[0]],
                                                py[second[0]], pz[second[0]], r1, r2, count);
                    else
                        pull_towards_two_anchors(nx, ny, nz, px, py, pz, first, second, r1, r2, count);
                    continue;
                }
                for (int slot = 0; slot < tied->count; ++slot) {
                    const std::uint32_t* anchor = tied->anchor.data() + at(slot);
                    const float* longest = tied->length.data() + at(slot);
                    if (r.shared)
                        pull_towards_anchor(nx, ny, nz, px[anchor[0]], py[anchor[0]], pz[anchor[0]], longest, count);
                    else
                        pull_towards_anchors(nx, ny, nz, px, py, pz, anchor, longest, count);
                }
            }
        if (limit <= 0.0f) continue;
        const detail::StrainLimitSprings& sl = *st.limited;
        const float* w = l.inverse_mass.data();
        for (const detail::StrainLimitSprings::Piece& piece : sl.pieces) {
            const std::size_t count = piece.end - piece.begin;
            const std::uint32_t* a = sl.a.data() + piece.begin;
            const std::uint32_t* b = sl.b.data() + piece.begin;
            const float* rest = sl.rest.data() + piece.begin;
            if (piece.stride == 2 && b[0] == a[0] + 1) {
                project_pairs(px + a[0], py + a[0], pz + a[0], w + a[0], rest, stretch, count);
                continue;
            }
            if (piece.stride == 4) {
                project_quads(px + a[0], py + a[0], pz + a[0], w + a[0], rest, stretch, count / 2);
                continue;
            }
            if (piece.stride != 0) {
                const std::uint32_t ia = a[0], ib = b[0];
                (piece.stride == 1 ? project_run<1> : project_run<2>)(px + ia, py + ia, pz + ia, px + ib, py + ib,
                                                                      pz + ib, w + ia, w + ib, rest, stretch, count);
                continue;
            }
            st.shift.resize(6 * count);
            float* const move[6] = {st.shift.data(),             st.shift.data() + count,
                                    st.shift.data() + 2 * count, st.shift.data() + 3 * count,
                                    st.shift.data() + 4 * count, st.shift.data() + 5 * count};
            strain_corrections(px, py, pz, w, a, b, rest, stretch, count, move[0], move[1], move[2], move[3],
                               move[4], move[5]);
            for (std::size_t e = 0; e < count; ++e) {
                px[a[e]] -= move[0][e];
                py[a[e]] -= move[1][e];
                pz[a[e]] -= move[2][e];
                px[b[e]] += move[3][e];
                py[b[e]] += move[4][e];
                pz[b[e]] += move[5][e];
            }
        }
    }
    if (limit > 0.0f)
        for (int step = 0; step < params_.strain_limit_global_steps; ++step) strain_limit_global_step(stretch);
}

}  // namespace springkit
