// springkit — the per-step vertex normals a game lights the model with
// (Oliveira, "Texturing and Lighting"): each node's normal is the normalised
// sum of the normals of the faces around it, cross(p1 - p0, p2 - p0), so that
// larger faces weigh more. Which faces are around which node is worked out
// once, at build time; each step only sums.
#include <algorithm>
#include <array>
#include <cmath>
#include <climits>
#include <cstdint>

#include "batched_loops.hpp"
#include "springkit/simulation.hpp"
#include "worker_pool.hpp"

namespace springkit {

using detail::add_ranges;
using detail::kBlock;
using detail::ItemRange;
using detail::kMinRun;
using detail::kScratchLead;
using detail::kScratchStride;
using detail::kWindow;
using detail::owned_items;
using detail::run_end;

namespace {

struct FaceNormal {
    float x, y, z;
};

// cross(b - a, c - a), the unnormalised normal of the face (a, b, c).
inline FaceNormal face_normal(float ax, float ay, float az, float bx, float by, float bz, float cx, float cy,
                              float cz) {
    const float ux = bx - ax, uy = by - ay, uz = bz - az;
    const float vx = cx - ax, vy = cy - ay, vz = cz - az;
    return {uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx};
}

// The normals of the faces (m + i, m + i + o1, m + i + o2) of one run, for i in
// [begin, end) rounded up to whole blocks, into n; x, y, z start at node m.
// With gaps, faces where open[i] is 0 are not in the model: their normal is
// multiplied by 0 (positions are finite here: check_state() runs first).
template <bool kGaps>
void run_face_normals(const float* __restrict x, const float* __restrict y, const float* __restrict z,
                      std::size_t o1, std::size_t o2, const float* __restrict open, float* __restrict nx,
                      float* __restrict ny, float* __restrict nz, std::size_t begin, std::size_t end) {
    for (std::size_t block = begin; block < end; block += kBlock) {
        for (std::size_t j = 0; j < kBlock; ++j) {
            const std::size_t i = block + j;
            const FaceNormal n =
                face_normal(x[i], y[i], z[i], x[i + o1], y[i + o1], z[i + o1], x[i + o2], y[i + o2], z[i + o2]);
            if constexpr (kGaps) {
                nx[i] = n.x * open[i];
                ny[i] = n.y * open[i];
                nz[i] = n.z * open[i];
            } else {
                nx[i] = n.x;
                ny[i] = n.y;
                nz[i] = n.z;
            }
        }
    }
}

// Adds a face run's normals n (n[i] for its face i) into the sums S of its nodes,
// S starting at the run's first node: node j gets n[j] as corner 0, n[j - o1] as
// corner 1, n[j - o2] as corner 2 (each only for the faces of the piece's range
// for that corner), in that order: the sums of three passes, one per corner, in
// one pass over the nodes (for o2 <= the run's length; n must have that many
// readable floats before it).
template <class Piece>
void add_face_run(float* __restrict Sx, float* __restrict Sy, float* __restrict Sz, const float* __restrict nx,
                  const float* __restrict ny, const float* __restrict nz, std::uint32_t o1, std::uint32_t o2,
                  const Piece& piece) {
    // 32-bit signed indices: the range tests vectorise with 16 lanes (64-bit
    // ones took 8 and were the loop's most costly part), and j - o2 may be negative.
    const int shift[3] = {0, static_cast<int>(o1), static_cast<int>(o2)};
    int begin[3], end[3], first = INT32_MAX, last = 0;
    for (int c = 0; c < 3; ++c) {
        begin[c] = static_cast<int>(piece.corner_begin[c]) + shift[c];
        end[c] = static_cast<int>(piece.corner_end[c]) + shift[c];
        if (begin[c] < end[c]) {
            first = std::min(first, begin[c]);
            last = std::max(last, end[c]);
        }
    }
    const int b0 = begin[0], e0 = end[0], b1 = begin[1], e1 = end[1], b2 = begin[2], e2 = end[2];
    const int d1 = shift[1], d2 = shift[2];
    for (int j = first; j < last; ++j) {
        // Every load unconditional: GCC vectorises selects, not loads under a condition.
        const float x0 = nx[j], y0 = ny[j], z0 = nz[j];
        const float x1 = nx[j - d1], y1 = ny[j - d1], z1 = nz[j - d1];
        const float x2 = nx[j - d2], y2 = ny[j - d2], z2 = nz[j - d2];
        const bool in0 = j >= b0 && j < e0, in1 = j >= b1 && j < e1, in2 = j >= b2 && j < e2;
        float x = Sx[j], y = Sy[j], z = Sz[j];
        x = in0 ? x + x0 : x;
        y = in0 ? y + y0 : y;
        z = in0 ? z + z0 : z;
        x = in1 ? x + x1 : x;
        y = in1 ? y + y1 : y;
        z = in1 ? z + z1 : z;
        Sx[j] = in2 ? x + x2 : x;
        Sy[j] = in2 ? y + y2 : y;
        Sz[j] = in2 ? z + z2 : z;
    }
}

// normalized() over a range, as a loop of selects that vectorises; out is Vec3s.
void normalize_all(const float* __restrict sx, const float* __restrict sy, const float* __restrict sz,
                   float* __restrict out, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        const float len = std::sqrt(sx[i] * sx[i] + sy[i] * sy[i] + sz[i] * sz[i]);
        const float inv = 1.0f / (len > 0.0f ? len : 1.0f);
        out[3 * i] = len > 0.0f ? sx[i] * inv : 0.0f;
        out[3 * i + 1] = len > 0.0f ? sy[i] * inv : 0.0f;
        out[3 * i + 2] = len > 0.0f ? sz[i] * inv : 0.0f;
    }
}

}  // namespace

void Simulation::build_face_runs() {
    // The springs' idea (build_spring_runs()) for faces: each face is turned to
    // start at its lowest node, (m, m + o1, m + o2) (a cyclic turn keeps its
    // orientation and its normal). Sorted by (window of m, o1, o2, m), the faces
    // of a grid fall into runs of consecutive m, short gaps allowed (kMaxStep;
    // cells split along alternating diagonals): their normals are computed from
    // contiguous loads and added to three contiguous node ranges.
    const Model& m = *model_;
    face_runs_.clear();
    face_run_open_.clear();
    loose_faces_.clear();
    if (m.faces.empty()) return;
    normal_sums_.assign(m.node_count(), Vec3{});
    normals_.resize(m.node_count());
    struct Entry {
        std::uint32_t first, o1, o2;
    };
    std::vector<Entry> entries;
    for (const Face& f : m.faces) {
        const std::uint32_t* c = f.node;
        const int low = c[0] <= c[1] && c[0] <= c[2] ? 0 : (c[1] <= c[2] ? 1 : 2);
        const std::uint32_t a = c[low], b = c[(low + 1) % 3], d = c[(low + 2) % 3];
        if (a == b || a == d || b == d) {  // a degenerate face: no normal, but summed like any
            loose_faces_.push_back({c[0], c[1], c[2]});
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
    for (std::size_t i = 0; i < entries.size();) {
        const std::size_t j = run_end(
            entries, i, [](const Entry& l, const Entry& r) { return l.o1 == r.o1 && l.o2 == r.o2; },
            [](const Entry& e) { return e.first; });
        if (j - i < kMinRun) {
            for (std::size_t e = i; e < j; ++e)
                loose_faces_.push_back({entries[e].first, entries[e].first + entries[e].o1,
                                        entries[e].first + entries[e].o2});
            i = j;
            continue;
        }
        FaceRun run{.first = entries[i].first,
                    .o1 = entries[i].o1,
                    .o2 = entries[i].o2,
                    .count = entries[j - 1].first - entries[i].first + 1,
                    .open = static_cast<std::uint32_t>(face_run_open_.size())};
        run.gaps = run.count != j - i;
        if (run.gaps) {
            face_run_open_.resize(face_run_open_.size() + run.count, 0.0f);
            for (std::size_t e = i; e < j; ++e) face_run_open_[run.open + entries[e].first - run.first] = 1.0f;
        }
        face_runs_.push_back(run);
        i = j;
    }
    face_run_open_.resize(face_run_open_.size() + kBlock, 0.0f);  // blocks may read past the last run
}

void Simulation::build_face_pieces(Partition& p) const {
    // Like the springs: a thread computes the faces with a corner among its nodes
    // and adds their normals to its own nodes only.
    p.face_pieces.clear();
    p.loose_faces.clear();
    for (std::uint32_t r = 0; r < face_runs_.size(); ++r) {
        const FaceRun& run = face_runs_[r];
        FacePiece piece{.item = r, .begin = run.count, .end = 0};
        const std::uint32_t corner_first[3] = {run.first, run.first + run.o1, run.first + run.o2};
        for (int c = 0; c < 3; ++c) {
            const ItemRange owned = owned_items(corner_first[c], run.count, p.node_begin, p.node_end);
            piece.corner_begin[c] = owned.begin;
            piece.corner_end[c] = owned.end;
            if (!owned.empty()) {
                piece.begin = std::min(piece.begin, owned.begin);
                piece.end = std::max(piece.end, owned.end);
            }
        }
        if (piece.begin < piece.end) p.face_pieces.push_back(piece);
    }
    for (std::uint32_t f = 0; f < loose_faces_.size(); ++f)
        for (std::uint32_t node : loose_faces_[f])
            if (node >= p.node_begin && node < p.node_end) {
                p.loose_faces.push_back(f);
                break;
            }
}

void Simulation::recompute_normals() {
    if (model_->faces.empty()) return;
    detail::run_on(team_, [&](int t) { normals_of(partitions_[static_cast<std::size_t>(t)]); });
}

void Simulation::normals_of(Partition& part) {
    // A node receives its faces' normals in a fixed order: runs in order, in
    // each run its first corners, then its second, then its third; then the
    // loose faces in order. The same for any thread split.
    const float* x = x_.x.data();
    const float* y = x_.y.data();
    const float* z = x_.z.data();
    float* sx = normal_sums_.x.data();
    float* sy = normal_sums_.y.data();
    float* sz = normal_sums_.z.data();
    std::fill(sx + part.node_begin, sx + part.node_end, 0.0f);
    std::fill(sy + part.node_begin, sy + part.node_end, 0.0f);
    std::fill(sz + part.node_begin, sz + part.node_end, 0.0f);
    // The thread's buffer of one run's normals (see Partition::scratch).
    float* nx = part.scratch.data() + kScratchLead;
    float* ny = nx + kScratchStride;
    float* nz = ny + kScratchStride;
    for (const FacePiece& piece : part.face_pieces) {
        const FaceRun& run = face_runs_[piece.item];
        const std::size_t first = run.first;
        if (run.gaps)
            run_face_normals<true>(x + first, y + first, z + first, run.o1, run.o2,
                                   face_run_open_.data() + run.open, nx, ny, nz, piece.begin, piece.end);
        else
            run_face_normals<false>(x + first, y + first, z + first, run.o1, run.o2, nullptr, nx, ny, nz,
                                    piece.begin, piece.end);
        if (run.o2 <= run.count) {  // the corners' node ranges overlap: one pass over them
            add_face_run(sx + first, sy + first, sz + first, nx, ny, nz, run.o1, run.o2, piece);
        } else {
            const std::size_t corner_first[3] = {first, first + run.o1, first + run.o2};
            for (int c = 0; c < 3; ++c)
                add_ranges<false>(sx + corner_first[c], sy + corner_first[c], sz + corner_first[c], nx, ny, nz,
                                  piece.corner_begin[c], piece.corner_end[c]);
        }
    }
    for (std::uint32_t f : part.loose_faces) {
        const std::array<std::uint32_t, 3>& c = loose_faces_[f];
        const FaceNormal n = face_normal(x[c[0]], y[c[0]], z[c[0]], x[c[1]], y[c[1]], z[c[1]], x[c[2]], y[c[2]],
                                         z[c[2]]);
        for (std::uint32_t node : c)
            if (node >= part.node_begin && node < part.node_end) {
                sx[node] += n.x;
                sy[node] += n.y;
                sz[node] += n.z;
            }
    }
    static_assert(sizeof(Vec3) == 3 * sizeof(float));
    normalize_all(sx, sy, sz, reinterpret_cast<float*>(normals_.data()), part.node_begin, part.node_end);
}

}  // namespace springkit
