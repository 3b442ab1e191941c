// springkit — the per-step vertex normals a game lights the model with
// (Oliveira, "Texturing and Lighting"): each node's normal is the normalised
// sum of the normals of the faces around it, cross(p1 - p0, p2 - p0), so that
// larger faces weigh more. Which faces are around which node is worked out
// once, at build time; each step only sums.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <climits>
#include <cstdint>
#include <optional>
#include <vector>

#include "simulation/batched_loops.hpp"
#include "simulation/spring_force.hpp"
#include "simulation/simulation_impl.hpp"
#include "simulation/worker_pool.hpp"

namespace springkit {

using detail::FacePiece;
using detail::FaceRun;
using detail::Partition;
using detail::add_ranges;
using detail::kBlock;
using detail::ItemRange;
using detail::kMinRun;
using detail::kScratchLead;
using detail::kScratchStride;
using detail::kWindow;
using detail::mul_add;
using detail::owned_items;
using detail::run_end;
using detail::with_flags;

namespace {

struct FaceNormal {
    float x, y, z;
};

// cross(b - a, c - a), the unnormalised normal of the face (a, b, c).
inline FaceNormal face_normal(float ax, float ay, float az, float bx, float by, float bz, float cx, float cy,
                              float cz) {
    const float ux = bx - ax, uy = by - ay, uz = bz - az;
    const float vx = cx - ax, vy = cy - ay, vz = cz - az;
    return {mul_add(uy, vz, -(uz * vy)), mul_add(uz, vx, -(ux * vz)), mul_add(ux, vy, -(uy * vx))};
}

// a where mask is all ones, b where it is 0: a select as bit operations.
inline float pick_bits(float a, float b, std::uint32_t mask) {
    return std::bit_cast<float>((std::bit_cast<std::uint32_t>(a) & mask) | (std::bit_cast<std::uint32_t>(b) & ~mask));
}

// The normals of the faces (i + o[0], i + o[1], i + o[2]) of one run, for i in
// [begin, end) rounded up to whole blocks, into n; x, y, z start at the run's
// first node. With gaps, faces where open[i] is 0 are not in the model: their
// normal is multiplied by 0 (positions are finite here: check_state() runs
// first). Paired, the third corner is i + o[3] where pick[i] is 1, and the picks
// are copied to picked for the adds.
template <bool kGaps, bool kPaired>
SPRINGKIT_STAGE_CLONES
void run_face_normals(const float* __restrict x, const float* __restrict y, const float* __restrict z,
                      const std::uint32_t (&o)[4], const float* __restrict open, const float* __restrict pick,
                      float* __restrict nx, float* __restrict ny, float* __restrict nz, float* __restrict picked,
                      std::size_t begin, std::size_t end) {
    const std::size_t o0 = o[0], o1 = o[1], o2 = o[2], o3 = o[3];
    for (std::size_t block = begin; block < end; block += kBlock) {
        for (std::size_t j = 0; j < kBlock; ++j) {
            const std::size_t i = block + j;
            // Both candidates loaded and one kept by a bit mask: GCC keeps a
            // select between two loads, or between their values, as a branch.
            const float x2 = x[i + o2], y2 = y[i + o2], z2 = z[i + o2];
            float cx = x2, cy = y2, cz = z2;
            if constexpr (kPaired) {
                const std::uint32_t keep3 = 0u - static_cast<std::uint32_t>(pick[i] != 0.0f);
                cx = pick_bits(x[i + o3], x2, keep3);
                cy = pick_bits(y[i + o3], y2, keep3);
                cz = pick_bits(z[i + o3], z2, keep3);
            }
            const FaceNormal n =
                face_normal(x[i + o0], y[i + o0], z[i + o0], x[i + o1], y[i + o1], z[i + o1], cx, cy, cz);
            if constexpr (kGaps) {
                nx[i] = n.x * open[i];
                ny[i] = n.y * open[i];
                nz[i] = n.z * open[i];
            } else {
                nx[i] = n.x;
                ny[i] = n.y;
                nz[i] = n.z;
            }
            if constexpr (kPaired) picked[i] = pick[i];
        }
    }
}

// Adds a face run's normals n (n[i] for its face i) into the sums S of its nodes,
// S starting at the run's first node: node j gets n[j - o[c]] as corner c, for
// c = 0, 1, 2 (and, paired, 3: the third corner of the picked faces, while
// corner 2 takes the others), each only for the faces of the piece's range for
// that corner, in that order: the sums of one pass per corner in one pass over
// the nodes (for o[c] <= the run's length; n must have that many readable
// floats before it).
template <bool kPaired, class Piece>
SPRINGKIT_STAGE_CLONES
void add_face_run(float* __restrict Sx, float* __restrict Sy, float* __restrict Sz, const float* __restrict nx,
                  const float* __restrict ny, const float* __restrict nz, const float* __restrict picked,
                  const std::uint32_t (&o)[4], const Piece& piece) {
    // 32-bit signed indices: the range tests vectorise with 16 lanes (64-bit
    // ones would take 8, half the width), and j - o[c] may be negative.
    constexpr int kCorners = kPaired ? 4 : 3;
    int begin[4] = {0, 0, 0, 0}, end[4] = {0, 0, 0, 0}, shift[4] = {0, 0, 0, 0}, first = INT32_MAX, last = 0;
    for (int c = 0; c < kCorners; ++c) {
        shift[c] = static_cast<int>(o[c]);
        begin[c] = static_cast<int>(piece.corner_begin[c]) + shift[c];
        end[c] = static_cast<int>(piece.corner_end[c]) + shift[c];
        if (begin[c] < end[c]) {
            first = std::min(first, begin[c]);
            last = std::max(last, end[c]);
        }
    }
    const int b0 = begin[0], e0 = end[0], b1 = begin[1], e1 = end[1], b2 = begin[2], e2 = end[2];
    const int b3 = begin[3], e3 = end[3];
    const int d0 = shift[0], d1 = shift[1], d2 = shift[2], d3 = shift[3];
    for (int j = first; j < last; ++j) {
        // Every load unconditional: GCC vectorises selects, not loads under a condition.
        const float x0 = nx[j - d0], y0 = ny[j - d0], z0 = nz[j - d0];
        const float x1 = nx[j - d1], y1 = ny[j - d1], z1 = nz[j - d1];
        const float x2 = nx[j - d2], y2 = ny[j - d2], z2 = nz[j - d2];
        const float p2 = kPaired ? picked[j - d2] : 0.0f, p3 = kPaired ? picked[j - d3] : 0.0f;
        const bool in0 = j >= b0 && j < e0, in1 = j >= b1 && j < e1;
        const bool in2 = j >= b2 && j < e2 && (!kPaired || p2 == 0.0f);
        float x = Sx[j], y = Sy[j], z = Sz[j];
        x = in0 ? x + x0 : x;
        y = in0 ? y + y0 : y;
        z = in0 ? z + z0 : z;
        x = in1 ? x + x1 : x;
        y = in1 ? y + y1 : y;
        z = in1 ? z + z1 : z;
        x = in2 ? x + x2 : x;
        y = in2 ? y + y2 : y;
        z = in2 ? z + z2 : z;
        if constexpr (kPaired) {
            const float x3 = nx[j - d3], y3 = ny[j - d3], z3 = nz[j - d3];
            const bool in3 = j >= b3 && j < e3 && p3 != 0.0f;
            x = in3 ? x + x3 : x;
            y = in3 ? y + y3 : y;
            z = in3 ? z + z3 : z;
        }
        Sx[j] = x;
        Sy[j] = y;
        Sz[j] = z;
    }
}

// normalized() over a range, as a loop of selects that vectorises; out is
// Vec3s. 1/length by inverse_sqrt() (spring_force.hpp, 2.5 ulp): a square root
// and a division per node would share the slow divider unit
// (docs/PERFORMANCE.md, "Normals normalised without the divider"). Like
// degenerate ones, sums shorter than kShortestNormalSum (a face's normal is
// twice its area: sides under about 3e-8 m; it keeps the squared length a
// normal float, where inverse_sqrt()'s first guess holds) and sums whose
// squared length overflows get a zero normal.
constexpr float kShortestNormalSum = 1e-15f;

SPRINGKIT_STAGE_CLONES
void normalize_all(const float* __restrict sx, const float* __restrict sy, const float* __restrict sz,
                   float* __restrict out, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        const float x = sx[i], y = sy[i], z = sz[i];
        const float length_squared = mul_add(z, z, mul_add(y, y, x * x));
        const float inv = detail::inverse_sqrt(length_squared);
        const bool has_direction =
            length_squared > kShortestNormalSum * kShortestNormalSum && length_squared < INFINITY;
        out[3 * i] = has_direction ? x * inv : 0.0f;
        out[3 * i + 1] = has_direction ? y * inv : 0.0f;
        out[3 * i + 2] = has_direction ? z * inv : 0.0f;
    }
}

// A run of faces (first + o[0], first + o[1], first + o[2]) over its firsts, the
// faces turned to start at their lowest node (o[0] = 0), before it is laid out.
struct FaceRunDraft {
    std::array<int, 3> o;
    std::vector<std::uint32_t> firsts;  ///< ascending
};

// Two drafts as one paired run: slot i holds a's face of base first + i or b's.
struct FacePairing {
    std::uint32_t first = 0, count = 0;
    std::uint32_t o[4] = {0, 0, 0, 0};
    int a_shift = 0, b_shift = 0;  ///< base = a draft's first + a_shift (b: + b_shift)
};

std::array<int, 3> turned(const std::array<int, 3>& o, int by) {
    return {o[static_cast<std::size_t>(by)], o[static_cast<std::size_t>((by + 1) % 3)],
            o[static_cast<std::size_t>((by + 2) % 3)]};
}

// Whether two runs with gaps, of two shapes, fill each other's gaps: turned
// (cyclically, which keeps a face's orientation and normal) so that their first
// two corners coincide, their bases (a's first, b's first moved by one node at
// most) never meet and together cover little more than either alone. Bullet's
// patch (btSoftBodyHelpers::CreatePatch) alternates its cells' diagonals, so each
// of its four face shapes fills every other cell; paired, a window's four
// half-empty runs become two full ones.
std::optional<FacePairing> pair_face_runs(const FaceRunDraft& a, const FaceRunDraft& b, std::size_t node_count) {
    auto span = [](const FaceRunDraft& d) { return std::int64_t{d.firsts.back()} - d.firsts.front() + 1; };
    const std::int64_t longest = std::max(span(a), span(b));
    for (int s : {0, 1, -1}) {  // b's base: its first - s; its corners s + b.o
        const std::array<int, 3> b_moved = {s + b.o[0], s + b.o[1], s + b.o[2]};
        for (int ta = 0; ta < 3; ++ta)
            for (int tb = 0; tb < 3; ++tb) {
                const std::array<int, 3> u = turned(a.o, ta), v = turned(b_moved, tb);
                if (u[0] != v[0] || u[1] != v[1] || u[2] == v[2]) continue;
                const int low = std::min({0, u[0], u[1], u[2], v[2]});  // offsets from base + low
                // The bases, merged: they must never meet.
                std::int64_t first = INT64_MAX, last = INT64_MIN;
                std::size_t i = 0, k = 0;
                bool meet = false;
                while (!meet && (i < a.firsts.size() || k < b.firsts.size())) {
                    const std::int64_t ba = i < a.firsts.size() ? std::int64_t{a.firsts[i]} + low : INT64_MAX;
                    const std::int64_t bb = k < b.firsts.size() ? std::int64_t{b.firsts[k]} - s + low : INT64_MAX;
                    meet = ba == bb;
                    first = std::min({first, ba, bb});
                    last = std::max(last, std::min(ba, bb));
                    (ba < bb ? i : k) += 1;
                }
                if (meet || first < 0) continue;
                const std::int64_t count = last - first + 1;
                const int high = std::max({u[0], u[1], u[2], v[2]}) - low;
                // Dense enough to be worth it, one pass for the adds (add_face_run:
                // every offset within the run's length and the scratch's lead), and
                // every candidate corner of every slot a node of the model.
                if (count > longest + static_cast<std::int64_t>(detail::kMaxStep) || count > kWindow ||
                    high > count || first + count - 1 + high >= static_cast<std::int64_t>(node_count))
                    continue;
                FacePairing p{.first = static_cast<std::uint32_t>(first),
                              .count = static_cast<std::uint32_t>(count),
                              .o = {static_cast<std::uint32_t>(u[0] - low), static_cast<std::uint32_t>(u[1] - low),
                                    static_cast<std::uint32_t>(u[2] - low), static_cast<std::uint32_t>(v[2] - low)},
                              .a_shift = low,
                              .b_shift = low - s};
                return p;
            }
    }
    return std::nullopt;
}

}  // namespace

void PreparedBody::build_face_runs() {
    // The springs' idea (build_spring_runs()) for faces: each face is turned to
    // start at its lowest node, (m, m + o1, m + o2) (a cyclic turn keeps its
    // orientation and its normal). Sorted by (window of m, o1, o2, m), the faces
    // of a grid fall into runs of consecutive m, short gaps allowed (kMaxStep;
    // cells split along alternating diagonals): their normals are computed from
    // contiguous loads and added to three contiguous node ranges. Runs with gaps
    // that fill each other's are paired into one (pair_face_runs()).
    const Model& m = model;
    face_runs.clear();
    face_run_open.clear();
    face_run_pick.clear();
    loose_faces.clear();
    if (m.faces.empty()) return;
    struct Entry {
        std::uint32_t first, o1, o2;
    };
    std::vector<Entry> entries;
    for (const Face& f : m.faces) {
        const std::uint32_t* c = f.node;
        const int low = c[0] <= c[1] && c[0] <= c[2] ? 0 : (c[1] <= c[2] ? 1 : 2);
        const std::uint32_t a = c[low], b = c[(low + 1) % 3], d = c[(low + 2) % 3];
        if (a == b || a == d || b == d) {  // a degenerate face: no normal, but summed like any
            loose_faces.push_back({c[0], c[1], c[2]});
            continue;
        }
        entries.push_back({a, b - a, d - a});
    }
    std::sort(entries.begin(), entries.end(), [](const Entry& l, const Entry& r) {
        if (l.first / kWindow != r.first / kWindow) return l.first / kWindow < r.first / kWindow;
        if (l.o1 != r.o1) return l.o1 < r.o1;
        if (l.o2 != r.o2) return l.o2 < r.o2;
        return l.first < r.first;
    });
    std::vector<FaceRunDraft> drafts;
    for (std::size_t i = 0; i < entries.size();) {
        const std::size_t j = run_end(
            entries, i, [](const Entry& l, const Entry& r) { return l.o1 == r.o1 && l.o2 == r.o2; },
            [](const Entry& e) { return e.first; });
        if (j - i < kMinRun) {
            for (std::size_t e = i; e < j; ++e)
                loose_faces.push_back({entries[e].first, entries[e].first + entries[e].o1,
                                        entries[e].first + entries[e].o2});
        } else {
            FaceRunDraft draft{.o = {0, static_cast<int>(entries[i].o1), static_cast<int>(entries[i].o2)}, .firsts = {}};
            for (std::size_t e = i; e < j; ++e) draft.firsts.push_back(entries[e].first);
            drafts.push_back(std::move(draft));
        }
        i = j;
    }
    // Lays out a run: its faces' bases (a draft's firsts + shift) marked open,
    // those of the picked draft marked picked.
    auto lay_out = [&](FaceRun run, const FaceRunDraft& a, int a_shift, const FaceRunDraft* b, int b_shift) {
        const std::size_t faces = a.firsts.size() + (b ? b->firsts.size() : 0);
        run.gaps = run.count != faces;
        run.open = static_cast<std::uint32_t>(face_run_open.size());
        run.pick = static_cast<std::uint32_t>(face_run_pick.size());
        if (run.gaps) face_run_open.resize(face_run_open.size() + run.count, 0.0f);
        if (run.paired) face_run_pick.resize(face_run_pick.size() + run.count, 0.0f);
        auto slot = [&](std::uint32_t first, int shift) {
            return static_cast<std::uint32_t>(static_cast<std::int64_t>(first) + shift - run.first);
        };
        for (std::uint32_t f : a.firsts)
            if (run.gaps) face_run_open[run.open + slot(f, a_shift)] = 1.0f;
        if (b)
            for (std::uint32_t f : b->firsts) {
                if (run.gaps) face_run_open[run.open + slot(f, b_shift)] = 1.0f;
                face_run_pick[run.pick + slot(f, b_shift)] = 1.0f;
            }
        face_runs.push_back(run);
    };
    std::vector<bool> taken(drafts.size(), false);
    for (std::size_t r = 0; r < drafts.size(); ++r) {
        if (taken[r]) continue;
        const FaceRunDraft& a = drafts[r];
        const std::uint32_t count = a.firsts.back() - a.firsts.front() + 1;
        if (count != a.firsts.size())  // gaps: look for a partner in the same window
            for (std::size_t q = r + 1; q < drafts.size() && drafts[q].firsts.front() / kWindow == a.firsts.front() / kWindow;
                 ++q) {
                if (taken[q]) continue;
                const std::optional<FacePairing> p = pair_face_runs(a, drafts[q], m.node_count());
                if (!p) continue;
                FaceRun run{.first = p->first, .count = p->count, .o = {p->o[0], p->o[1], p->o[2], p->o[3]}, .paired = true};
                lay_out(run, a, p->a_shift, &drafts[q], p->b_shift);
                taken[q] = true;
                taken[r] = true;
                break;
            }
        if (taken[r]) continue;
        const auto o1 = static_cast<std::uint32_t>(a.o[1]), o2 = static_cast<std::uint32_t>(a.o[2]);
        lay_out(FaceRun{.first = a.firsts.front(), .count = count, .o = {0, o1, o2, o2}}, a, 0, nullptr, 0);
    }
    // Blocks may read past the last run.
    face_run_open.resize(face_run_open.size() + kBlock, 0.0f);
    face_run_pick.resize(face_run_pick.size() + kBlock, 0.0f);
    // Held as long as the body: without the slack of their growth.
    face_runs.shrink_to_fit();
    face_run_open.shrink_to_fit();
    face_run_pick.shrink_to_fit();
    loose_faces.shrink_to_fit();
}

void Simulation::Impl::build_face_pieces(Partition& p) const {
    // Like the springs: a thread computes the faces with a corner among its nodes
    // and adds their normals to its own nodes only.
    p.face_pieces.clear();
    p.loose_faces.clear();
    for (std::uint32_t r = 0; r < b_->face_runs.size(); ++r) {
        const FaceRun& run = b_->face_runs[r];
        FacePiece piece{.item = r, .begin = run.count, .end = 0};
        for (int c = 0; c < (run.paired ? 4 : 3); ++c) {
            const ItemRange owned = owned_items(run.first + run.o[c], run.count, p.node_begin, p.node_end);
            piece.corner_begin[c] = owned.begin;
            piece.corner_end[c] = owned.end;
            if (!owned.empty()) {
                piece.begin = std::min(piece.begin, owned.begin);
                piece.end = std::max(piece.end, owned.end);
            }
        }
        if (piece.begin < piece.end) p.face_pieces.push_back(piece);
    }
    // A face's corners are nodes of the model: the only thread's range holds them.
    p.all_loose_faces = p.node_begin == 0 && p.node_end >= model_->node_count();
    if (p.all_loose_faces) return;
    for (std::uint32_t f = 0; f < b_->loose_faces.size(); ++f)
        for (std::uint32_t node : b_->loose_faces[f])
            if (node >= p.node_begin && node < p.node_end) {
                p.loose_faces.push_back(f);
                break;
            }
}

void Simulation::Impl::recompute_normals(bool sums_zeroed) {
    if (model_->faces.empty()) return;
    detail::run_on(team_, [&](int t) { normals_of(partitions_[static_cast<std::size_t>(t)], sums_zeroed); });
}

void Simulation::Impl::normals_of(Partition& part, bool sums_zeroed) {
    // A node receives its faces' normals in a fixed order: runs in order, in
    // each run its first corners, then its second, then its third (paired: the
    // third of the faces not picked, then of the picked); then the loose faces
    // in order. The same for any thread split.
    const float* x = x_.x.data();
    const float* y = x_.y.data();
    const float* z = x_.z.data();
    // The sums go to the force arrays, which hold nothing between the steps'
    // force passes (each substep's forces are set before anything adds to
    // them): this thread's nodes from 0 (it adds to its own nodes only).
    float* sx = f_.x.data();
    float* sy = f_.y.data();
    float* sz = f_.z.data();
    if (!sums_zeroed) {
        std::fill(sx + part.node_begin, sx + part.node_end, 0.0f);
        std::fill(sy + part.node_begin, sy + part.node_end, 0.0f);
        std::fill(sz + part.node_begin, sz + part.node_end, 0.0f);
    }
    // The thread's buffer of one run's normals (see Partition::scratch).
    float* nx = part.scratch.data() + kScratchLead;
    float* ny = nx + kScratchStride;
    float* nz = ny + kScratchStride;
    float* picked = nz + kScratchStride;
    for (const FacePiece& piece : part.face_pieces) {
        const FaceRun& run = b_->face_runs[piece.item];
        const std::size_t first = run.first;
        const float* open = b_->face_run_open.data() + run.open;
        const float* pick = b_->face_run_pick.data() + run.pick;
        with_flags(
            [&](auto gaps, auto paired) {
                run_face_normals<gaps, paired>(x + first, y + first, z + first, run.o, open, pick, nx, ny, nz,
                                               picked, piece.begin, piece.end);
            },
            run.gaps, run.paired);
        if (run.paired) {  // pair_face_runs() made sure one pass suits it
            add_face_run<true>(sx + first, sy + first, sz + first, nx, ny, nz, picked, run.o, piece);
        } else if (std::max(run.o[1], run.o[2]) <= run.count) {  // the corners' node ranges overlap: one pass
            add_face_run<false>(sx + first, sy + first, sz + first, nx, ny, nz, picked, run.o, piece);
        } else {
            for (int c = 0; c < 3; ++c) {
                const std::size_t corner_first = first + run.o[c];
                add_ranges<false>(sx + corner_first, sy + corner_first, sz + corner_first, nx, ny, nz,
                                  piece.corner_begin[c], piece.corner_end[c]);
            }
        }
    }
    const auto add_loose_face = [&](std::uint32_t f) {
        const std::array<std::uint32_t, 3>& c = b_->loose_faces[f];
        const FaceNormal n = face_normal(x[c[0]], y[c[0]], z[c[0]], x[c[1]], y[c[1]], z[c[1]], x[c[2]], y[c[2]],
                                         z[c[2]]);
        for (std::uint32_t node : c)
            if (node >= part.node_begin && node < part.node_end) {
                sx[node] += n.x;
                sy[node] += n.y;
                sz[node] += n.z;
            }
    };
    if (part.all_loose_faces) {
        const auto count = static_cast<std::uint32_t>(b_->loose_faces.size());
        for (std::uint32_t f = 0; f < count; ++f) add_loose_face(f);
    } else {
        for (std::uint32_t f : part.loose_faces) add_loose_face(f);
    }
    static_assert(sizeof(Vec3) == 3 * sizeof(float));
    normalize_all(sx, sy, sz, reinterpret_cast<float*>(normals_.data()), part.node_begin, part.node_end);
}

}  // namespace springkit
