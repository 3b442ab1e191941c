// The fast runtime paths against the seed-faithful one: the batched spring
// kernel must agree with the reference kernel within a stated tolerance, and a
// simulation must give bit-identical results for any thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "simulation/spring_force.hpp"
#include "simulation/worker_pool.hpp"
#include "springkit/springkit.hpp"
#include "support/build_arithmetic.hpp"
#include "support/scattered.hpp"
#include "support/state_hash.hpp"

using namespace springkit;
using springkit::test::state_hash;

namespace {

// A model that uses every per-node force and the damped spring kernel.
Model busy_cloth() {
    Parameters p;
    p.spring_damping = 0.05f;
    p.air_friction = 0.01f;
    p.wind = {0.5f, 0, 0.2f};
    p.ground = Ground{.height = 0.2f};
    return make_cloth({.columns = 37, .rows = 29, .anchors = ClothAnchors::top_corners}, p);
}

std::uint64_t run_hash(const Model& m, int threads, int frames, SpringKernel kernel = SpringKernel::batched) {
    Simulation sim(m, {.threads = threads, .kernel = kernel});
    for (int i = 0; i < frames; ++i) {
        if (i == 10) sim.apply_force(5, {0, 3.0f, 0});
        sim.step(1.0f / 60.0f);
    }
    return state_hash(sim);
}

// Bullet's patch pattern (btSoftBodyHelpers::CreatePatch): each cell has one
// diagonal, alternating direction from cell to cell, so the diagonal springs of
// a row are every other one (runs with gaps for the batched kernel), and its two
// faces, split along it, come in four shapes each every other cell (face runs
// paired two by two).
Model alternating_patch(int n) {
    Parameters p;
    p.spring_damping = 0.02f;  // gaps must not add damping
    Model m = make_cloth({.columns = n, .rows = n, .shear = false, .bend = false}, p);
    m.name = "alternating patch";
    m.faces.clear();
    auto id = [n](int r, int c) { return static_cast<std::uint32_t>(r * n + c); };
    for (int r = 0; r + 1 < n; ++r)
        for (int c = 0; c + 1 < n; ++c) {
            if ((r + c) % 2 == 1) {
                add_spring(m, id(r, c), id(r + 1, c + 1));
                m.faces.push_back({{id(r, c), id(r, c + 1), id(r + 1, c + 1)}, {}});
                m.faces.push_back({{id(r, c), id(r + 1, c + 1), id(r + 1, c)}, {}});
            } else {
                add_spring(m, id(r, c + 1), id(r + 1, c));
                m.faces.push_back({{id(r + 1, c), id(r, c), id(r, c + 1)}, {}});
                m.faces.push_back({{id(r + 1, c), id(r, c + 1), id(r + 1, c + 1)}, {}});
            }
        }
    return m;
}

// The same cloth with its nodes numbered at random: no runs at all, every
// spring loose, and springs reaching across the whole node range.
Model shuffled_cloth() {
    Model m = busy_cloth();
    test::scatter_nodes(m, 7);
    m.name = "shuffled cloth";
    return m;
}

// The shuffled cloth with every third spring in a group of twice the k and
// its own damping: loose springs of two k and two dampings (the loops that
// read both per spring, from the packed node state where the CPU has AVX2).
Model grouped_shuffled_cloth() {
    Model m = shuffled_cloth();
    SpringGroup g;
    g.name = "stiff";
    g.stiffness_scale = 2.0f;
    g.damping = 0.2f;
    for (std::uint32_t i = 0; i < m.springs.size(); i += 3) g.springs.push_back(i);
    m.spring_groups.push_back(g);
    m.name = "grouped shuffled cloth";
    return m;
}

// Stated tolerance: the kernels differ in the order forces are summed and in
// 1/length (2.5 ulp), so after 1 s of a swinging 2 m cloth no node may be 5 mm
// apart. Away from the ground they agree to micrometres; a node that touches
// the ground passes the kink of its `below` test, where the last-bit
// differences can grow to millimetres.
void expect_batched_agrees_with_reference(const Model& m, const std::string& label) {
    Simulation fast(m), reference(m, {.kernel = SpringKernel::reference});
    for (int i = 0; i < 60; ++i) {
        fast.step(1.0f / 60.0f);
        reference.step(1.0f / 60.0f);
    }
    double moved = 0.0;
    for (std::size_t i = 0; i < m.node_count(); ++i) {
        EXPECT_LT(length(fast.positions()[i] - reference.positions()[i]), 5e-3f) << label << ": node " << i;
        moved = std::max(moved, static_cast<double>(length(fast.positions()[i] - m.positions[i])));
    }
    EXPECT_GT(moved, 0.1) << label << ": the model must swing for the comparison to mean something";
}

// Every magnitude a squared spring length can take, the values next to powers
// of two (where the bit trick's first guess is worst) and every float in [1, 4)
// (one period of the hardware estimates' tables), in whole blocks.
std::vector<float> inverse_sqrt_arguments() {
    std::vector<float> values;
    for (float x = 1e-18f; x < 1e18f; x *= 1.0007f)
        for (float v : {x, std::nextafter(x, 0.0f), std::nextafter(x, 1e30f)}) values.push_back(v);
    for (float v = 1.0f; v < 4.0f; v = std::nextafter(v, 5.0f)) values.push_back(v);
    constexpr std::size_t block = Simulation::kBlock;
    values.resize((values.size() + block - 1) / block * block, 1.0f);
    return values;
}

// f applied a block at a time, and its worst relative error against 1/sqrt(x)
// in double precision.
template <class InverseSqrtOfBlock>
std::vector<float> apply_by_blocks(InverseSqrtOfBlock f, const std::vector<float>& x) {
    std::vector<float> y(x.size());
    for (std::size_t i = 0; i < x.size(); i += Simulation::kBlock) f(x.data() + i, y.data() + i);
    return y;
}
double worst_relative_error(const std::vector<float>& x, const std::vector<float>& y) {
    double worst = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i)
        worst = std::max(worst, std::abs(y[i] * std::sqrt(static_cast<double>(x[i])) - 1.0));
    return worst;
}

}  // namespace

TEST(Kernels, InverseSquareRootIsWithinTwoAndAHalfUlp) {
    // The bit trick and three Newton steps (the normals; the springs of a
    // portable build), and the block form the spring loops call, as built into
    // the library: the bit trick itself in a portable build, the CPU's estimate
    // and one correction (1.25 ulp with AVX-512, 1.5 with AVX) in builds for them.
    const std::vector<float> x = inverse_sqrt_arguments();
    const std::vector<float> scalar = apply_by_blocks(
        [](const float* in, float* out) {
            for (std::size_t j = 0; j < Simulation::kBlock; ++j) out[j] = detail::inverse_sqrt(in[j]);
        },
        x);
    const std::vector<float> block = apply_by_blocks(detail::inverse_spring_lengths, x);
    const double scalar_worst = worst_relative_error(x, scalar), block_worst = worst_relative_error(x, block);
    for (double worst : {scalar_worst, block_worst}) {
        EXPECT_LT(worst, 2.5 * 0x1p-24) << "relative error " << worst;
        EXPECT_GT(worst, 0.0) << "an approximation: it is not expected to be exact everywhere";
    }
#if defined(SPRINGKIT_NATIVE_BUILD) || defined(__AVX__)
    if (block != scalar) {
        EXPECT_LT(block_worst, 1.55 * 0x1p-24) << "the CPU's estimate, corrected";
    }
#else
    EXPECT_TRUE(block == scalar) << "a portable build's springs take the bit trick, the same on every CPU";
#endif
    // A spring shorter than the tolerance exerts no force; an infinite length
    // gives an infinite force, for the guard to see (a NaN difference makes the
    // force d * s NaN whatever s is).
    auto scale = [](float dx) {
        float length_squared[Simulation::kBlock], inverse_length[Simulation::kBlock];
        std::fill(std::begin(length_squared), std::end(length_squared), detail::squared_length(dx, 0.0f, 0.0f));
        detail::inverse_spring_lengths(length_squared, inverse_length);
        return detail::hooke_scale(length_squared[0], inverse_length[0], 100.0f, 100.0f);
    };
    EXPECT_EQ(scale(0.0f), 0.0f);
    EXPECT_EQ(scale(1e-10f), 0.0f);
    EXPECT_FLOAT_EQ(scale(2.0f), 50.0f);  // k (2 - 1) / 2
    EXPECT_FALSE(std::isfinite(scale(INFINITY)));
}

TEST(Kernels, RunsWithGapsAndLooseSpringsKeepTheResultForAnyThreadCount) {
    const Model models[] = {alternating_patch(40), shuffled_cloth(), grouped_shuffled_cloth(),
                            make_cloth({.columns = 70, .rows = 70})};
    for (const Model& m : models) {
        const std::uint64_t one = run_hash(m, 1, 30);
        for (int threads : {2, 3})
            EXPECT_EQ(one, run_hash(m, threads, 30)) << m.name << " with " << threads << " threads";
    }
}

TEST(Kernels, RunsWithGapsAndLooseSpringsAgreeWithTheReference) {
    for (const Model& m : {alternating_patch(40), shuffled_cloth(), grouped_shuffled_cloth()})
        expect_batched_agrees_with_reference(m, m.name);
}

TEST(Kernels, ThreadCountDoesNotChangeTheResultBitForBit) {
    const Model models[] = {busy_cloth(), make_jelly({.nx = 9, .ny = 7, .nz = 6}), make_balloon(),
                            make_source_rope(), make_tunca_rope()};
    for (const Model& m : models) {
        const std::uint64_t one = run_hash(m, 1, 60);
        for (int threads : {2, 3, 4}) {
            const std::uint64_t many = run_hash(m, threads, 60);
            EXPECT_EQ(one, many) << m.name << " with " << threads << " threads: hash " << std::hex << many
                                 << " vs " << one;
        }
    }
}

TEST(Kernels, ChangingThreadsMidRunKeepsTheResult) {
    const Model m = busy_cloth();
    Simulation a(m), b(m, {.threads = 2});
    for (int i = 0; i < 40; ++i) {
        if (i == 20) b.set_threads(3);
        a.step(1.0f / 60.0f);
        b.step(1.0f / 60.0f);
    }
    EXPECT_EQ(state_hash(a), state_hash(b));
    Simulation c = b;  // a copy has its own threads and the same state
    a.step(1.0f / 60.0f);
    c.step(1.0f / 60.0f);
    EXPECT_EQ(c.threads(), 3);
    EXPECT_EQ(state_hash(a), state_hash(c));
    EXPECT_THROW(a.set_threads(-1), Error);
}

TEST(Kernels, PoolRunsEveryTaskOnceBeforeItReturns) {
    // Tasks are claimed by whichever thread is free (worker_pool.hpp): each of
    // the size() tasks of a run must run exactly once, and all of them before
    // run() returns, however the claims interleave. Task t adds t + 1 to its
    // own slot; the caller checks the sums after every run.
    for (int count : {2, 3, 5}) {
        detail::WorkerPool pool(count);
        std::vector<std::uint64_t> sums(static_cast<std::size_t>(count), 0);
        for (int run = 1; run <= 2000; ++run) {
            auto body = [&](int t) { sums[static_cast<std::size_t>(t)] += static_cast<std::uint64_t>(t + 1); };
            pool.run(body);
            for (int t = 0; t < count; ++t) {
                const auto want = static_cast<std::uint64_t>(run) * static_cast<std::uint64_t>(t + 1);
                ASSERT_EQ(sums[static_cast<std::size_t>(t)], want) << count << " tasks, run " << run << ", task " << t;
            }
        }
    }
}

// Feeds a ThreadChoice `runs` runs of 1 ms; with the threads each saves
// `gain` of its time: the caller's first task takes 0.6 ms, the worker runs
// one task and the caller loses 0.6 ms - gain waiting. Returns how many ran
// with the threads.
int runs_with_threads(detail::ThreadChoice& choice, double gain, int runs) {
    constexpr double kRun = 0.001, kFirst = 0.6 * kRun;
    int with_threads = 0;
    for (int r = 0; r < runs; ++r) {
        if (choice.solo()) {
            choice.record_solo(kRun, nullptr);
        } else {
            ++with_threads;
            choice.record_threads(kRun, nullptr, kFirst, 1, kFirst - gain * kRun);
        }
    }
    return with_threads;
}

TEST(Kernels, ThreadChoiceKeepsThreadsThatSaveTime) {
    detail::ThreadChoice choice;
    EXPECT_FALSE(choice.solo());
    EXPECT_EQ(runs_with_threads(choice, 0.5, 3000), 3000);  // 2 threads at full speed
    EXPECT_EQ(runs_with_threads(choice, 0.05, 3000), 3000);
}

TEST(Kernels, ThreadChoiceRunsSoloWhileThreadsLose) {
    using detail::ThreadChoice;
    // Runs of 1 ms: a try is 1 run, a block 3.
    static_assert(ThreadChoice::kTrySeconds == 0.001 && ThreadChoice::kBlockSeconds == 0.003);
    ThreadChoice choice;
    // Threads that lose 20% (a worker that loses its core mid-task): solo after
    // the first try; tried again after 4, 8, ..., 64 solo blocks, then every
    // 128 blocks.
    EXPECT_EQ(runs_with_threads(choice, -0.2, 1), 1);
    EXPECT_TRUE(choice.solo());
    const int tries = runs_with_threads(choice, -0.2, 3 * (4 + 8 + 16 + 32 + 64) + 5 + 10 * (3 * 128 + 1));
    EXPECT_EQ(tries, 5 + 10);
    EXPECT_TRUE(choice.solo());
    // A tie (a worker that is never there: the wake-up is all it costs, or it
    // saves less than kMinGain) leaves the second core to other programs.
    ThreadChoice tie;
    EXPECT_EQ(runs_with_threads(tie, ThreadChoice::kMinGain / 2, 3 * (4 + 8 + 16) + 4), 4);
    EXPECT_TRUE(tie.solo());
}

void kind_a(void*, int) {}
void kind_b(void*, int) {}

TEST(Kernels, ThreadChoiceCountsAWorkersTaskAsTheCallersShortest) {
    // Runs of 0.1 ms of two kinds; each time the worker runs one task the
    // caller takes 40 us for (kind a) or 20 us (kind b), and waiting for it
    // costs 45 us: the threads lose. In one run of each kind the caller lost
    // its core for 2 ms in its own task: counted as it took, those tasks
    // would make the threads look 30% faster.
    detail::ThreadChoice choice;
    int runs = 0;
    for (; runs < 100 && !choice.solo(); ++runs) {
        const bool preempted = runs % 10 == 3;
        choice.record_threads(1e-4, kind_a, preempted ? 2e-3 : 4e-5, 1, 4.5e-5);
        choice.record_threads(1e-4, kind_b, preempted ? 2e-3 : 2e-5, 1, 4.5e-5);
    }
    EXPECT_TRUE(choice.solo());
    EXPECT_LE(runs, 6);  // at the end of the first try (1 ms: 5 or 6 runs of each kind, as the sum rounds)
    // The same runs without the loss of the wait keep the threads (with one
    // preempted task: a caller preempted in every tenth run shares its core,
    // ThreadChoiceNudgesACallerThatSharesItsCore).
    detail::ThreadChoice good;
    for (int r = 0; r < 100; ++r) {
        good.record_threads(1e-4, kind_a, r == 3 ? 2e-3 : 4e-5, 1, 0.0);
        good.record_threads(1e-4, kind_b, 2e-5, 1, 0.0);
    }
    EXPECT_FALSE(good.solo());
}

TEST(Kernels, ThreadChoiceFollowsTheMachine) {
    using detail::ThreadChoice;
    ThreadChoice choice;
    // The other core busy for a while: the gap grows to kMaxGap...
    runs_with_threads(choice, -0.5, 6000);
    EXPECT_TRUE(choice.solo());
    // ... then free: the threads are back within kMaxGap blocks and a try, and stay.
    EXPECT_GE(runs_with_threads(choice, 0.6, 3 * ThreadChoice::kMaxGap + 1), 1);
    EXPECT_FALSE(choice.solo());
    EXPECT_EQ(runs_with_threads(choice, 0.6, 1500), 1500);
    // One bad block among good ones (a running mean of the gains) keeps them.
    EXPECT_EQ(runs_with_threads(choice, -0.3, 3), 3);
    EXPECT_FALSE(choice.solo());
    // Busy again: solo after the next block, tried again after kMinGap blocks.
    runs_with_threads(choice, -0.3, 3);
    EXPECT_TRUE(choice.solo());
    EXPECT_EQ(runs_with_threads(choice, -0.3, 3 * ThreadChoice::kMinGap + 1), 1);
    EXPECT_TRUE(choice.solo());
}

// Feeds a ThreadChoice `runs` runs of kind_a of `seconds` each, solo while
// it runs solo, and otherwise with threads that lose (a worker that is never
// there); returns how many nudges it asked for.
int nudges_over(detail::ThreadChoice& choice, double seconds, int runs) {
    int nudges = 0;
    for (int r = 0; r < runs; ++r) {
        if (choice.solo()) {
            choice.record_solo(seconds, kind_a);
            if (choice.take_nudge()) ++nudges;
        } else {
            choice.record_threads(seconds, kind_a, seconds, 0, 0.5 * seconds);
        }
    }
    return nudges;
}

TEST(Kernels, ThreadChoiceNudgesACallerThatSharesItsCore) {
    using detail::ThreadChoice;
    static_assert(ThreadChoice::kShareSeconds == 0.012 && ThreadChoice::kSharedSlowness < 2.0);
    // Windows of 12 ms: 120 runs of 0.1 ms or 60 of 0.2 ms. Where the speed
    // changes, the window that holds the change is left out.
    constexpr int kChange = 130;
    ThreadChoice choice;
    // Solo runs of 0.1 ms: the caller's usual speed.
    EXPECT_EQ(nudges_over(choice, 1e-4, 2400), 0);
    EXPECT_TRUE(choice.solo());
    // The same runs at half that speed (the caller shares its core): a nudge
    // after the first slow window; where nudges do not help, after 1, 2, 4,
    // ... windows more. About 100 windows: nudges after windows 1, 2, 4, 8,
    // 16, 32 and 64.
    EXPECT_EQ(nudges_over(choice, 2e-4, 6000), 7);
    // A nudge that found an idle core: back at the usual speed, no nudges...
    nudges_over(choice, 1e-4, kChange);
    EXPECT_EQ(nudges_over(choice, 1e-4, 1200), 0);
    // ... and, slow again, a nudge after the first slow window.
    const int again = nudges_over(choice, 2e-4, kChange);
    EXPECT_TRUE(again == 1 || again == 2) << again;
    // Each kind is measured against its own shortest: runs of another kind
    // that take longer are not slow.
    nudges_over(choice, 1e-4, kChange);
    for (int r = 0; r < 1200; ++r) {
        choice.record_solo(r % 2 ? 1e-4 : 3e-4, r % 2 ? kind_a : kind_b);
        EXPECT_FALSE(choice.take_nudge()) << "run " << r;
    }

    // With the threads, which gain (the worker's task saves half of each
    // run), the caller's first task at half its usual speed: the pool runs
    // solo and nudges at its first solo run.
    ThreadChoice threads;
    auto run_threads = [&](double first, int runs) {
        for (int r = 0; r < runs && !threads.solo(); ++r) threads.record_threads(2 * first, kind_a, first, 1, 0.0);
    };
    run_threads(1e-4, 1200);
    EXPECT_FALSE(threads.solo());
    EXPECT_FALSE(threads.take_nudge());
    run_threads(2e-4, kChange);
    EXPECT_TRUE(threads.solo());
    EXPECT_TRUE(threads.take_nudge());
    EXPECT_FALSE(threads.take_nudge());
}

TEST(Kernels, PoolWhoseWorkersStallRunsSoloOnTheCaller) {
    // Tasks that a worker runs take 2 ms, as when its core is taken from it
    // mid-task: the caller, whose own tasks take no time, waits for it. The
    // pool must find that the threads lose and then run solo: body(0) only,
    // on the caller, and no other task at all.
    detail::WorkerPool pool(3);
    const std::thread::id caller = std::this_thread::get_id();
    std::vector<int> calls(3, 0);
    std::vector<std::thread::id> ran_on(3);
    auto stalling = [&](int t) {
        ++calls[static_cast<std::size_t>(t)];
        if (std::this_thread::get_id() != caller) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    };
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    int runs = 0;
    while (!pool.follow_choice() && std::chrono::steady_clock::now() < deadline) {
        pool.run(stalling);
        ++runs;
        for (int t = 0; t < 3; ++t) ASSERT_EQ(calls[static_cast<std::size_t>(t)], runs) << "task " << t;
    }
    ASSERT_TRUE(pool.solo()) << "after " << runs << " runs";
    std::fill(calls.begin(), calls.end(), 0);
    auto recording = [&](int t) {
        ++calls[static_cast<std::size_t>(t)];
        ran_on[static_cast<std::size_t>(t)] = std::this_thread::get_id();
    };
    pool.run(recording);
    EXPECT_EQ(calls, (std::vector<int>{1, 0, 0}));
    EXPECT_EQ(ran_on[0], caller);
}

// Every pool switches between solo and its threads at every step while alive.
struct AlternatingPools {
    AlternatingPools() { detail::ThreadChoice::set_rule(detail::ThreadChoice::Rule::alternate); }
    ~AlternatingPools() { detail::ThreadChoice::set_rule(detail::ThreadChoice::Rule::measured); }
    AlternatingPools(const AlternatingPools&) = delete;
    AlternatingPools& operator=(const AlternatingPools&) = delete;
};

TEST(Kernels, SwitchingBetweenSoloAndThreadsKeepsTheResult) {
    // Solo, the step runs one task over the whole body (its split for one
    // thread); with the threads, one per thread: the same bits, also across
    // switches, copies and a change of thread count.
    const Model models[] = {busy_cloth(), shuffled_cloth(), make_jelly({.nx = 9, .ny = 7, .nz = 6}), make_balloon()};
    for (const Model& m : models) {
        const std::uint64_t one = run_hash(m, 1, 40);
        AlternatingPools alternating;
        for (int threads : {2, 3}) EXPECT_EQ(one, run_hash(m, threads, 40)) << m.name << " with " << threads << " threads";
    }
    AlternatingPools alternating;
    const Model m = busy_cloth();
    Simulation a(m), b(m, {.threads = 2});
    for (int i = 0; i < 41; ++i) {
        if (i == 20) b.set_threads(3);
        a.step(1.0f / 60.0f);
        b.step(1.0f / 60.0f);
    }
    EXPECT_EQ(state_hash(a), state_hash(b));
    Simulation c = b;  // its pool runs solo or not as b's does
    for (int i = 0; i < 3; ++i) {
        a.step(1.0f / 60.0f);
        c.step(1.0f / 60.0f);
    }
    EXPECT_EQ(state_hash(a), state_hash(c));
}

TEST(Kernels, ZeroThreadsChoosesOneForASmallModel) {
    // busy_cloth() has far fewer nodes than kAutoThreadNodes: the caller alone.
    const Model m = busy_cloth();
    ASSERT_LT(m.node_count(), Simulation::kAutoThreadNodes);
    Simulation a(m, {.threads = 0}), b(m, {.threads = 3});
    EXPECT_EQ(a.threads(), 1);
    b.set_threads(0);
    EXPECT_EQ(b.threads(), 1);
    // A model of 2 kAutoThreadNodes nodes gets 2 where the machine has them.
    const Model big = make_cloth({.columns = 64, .rows = 64});
    Simulation c(big, {.threads = 0});
    EXPECT_EQ(c.threads(), std::min(2, static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))));
}

TEST(Kernels, BatchedKernelAgreesWithTheReferenceWithinFiveMillimetres) {
    for (Integrator integrator : {Integrator::explicit_euler, Integrator::symplectic_euler, Integrator::verlet}) {
        Model m = busy_cloth();
        m.params.integrator = integrator;
        // Forward Euler gains energy; small substeps keep it bounded for the second.
        if (integrator == Integrator::explicit_euler) m.params.max_substep = 0.0001f;
        expect_batched_agrees_with_reference(m, std::string("integrator ") + integrator_name(integrator));
    }
}

TEST(Kernels, EverySpringIsSummedExactlyOnceWhateverItsShape) {
    // The batched kernel regroups springs into runs and loose springs; with no
    // gravity, a stretched model's total force must stay zero (momentum kept),
    // and the per-node forces must equal the reference's for the first substep.
    Model m = make_jelly({.nx = 5, .ny = 4, .nz = 3});
    m.params.gravity = {0, 0, 0};
    m.params.energy_loss = 1.0f;
    m.anchors.clear();
    for (std::size_t i = 0; i < m.node_count(); ++i) m.positions[i] = m.positions[i] * 1.1f;
    Simulation fast(m), reference(m, {.kernel = SpringKernel::reference});
    fast.step(1e-4f);
    reference.step(1e-4f);
    Vec3 momentum{};
    for (std::size_t i = 0; i < m.node_count(); ++i) {
        momentum += fast.velocities()[i] * m.node_mass(i);
        const Vec3 d = fast.velocities()[i] - reference.velocities()[i];
        EXPECT_LT(length(d), 1e-6f * (1.0f + length(reference.velocities()[i]))) << "node " << i;
    }
    EXPECT_LT(length(momentum), 1e-6f);
}

TEST(Kernels, NormalsOfPairedFaceRunsAreThoseOfEveryFace) {
    // The normals of an alternating patch, whose face runs are paired, against
    // each face's cross product summed per node in double precision, after the
    // patch has swung into folds.
    const Model m = alternating_patch(40);
    Simulation sim(m, {.threads = 2});
    for (int i = 0; i < 30; ++i) sim.step(1.0f / 60.0f);
    const auto p = sim.positions();
    std::vector<double> sum(3 * m.node_count(), 0.0);
    for (const Face& f : m.faces) {
        const Vec3 a = p[f.node[0]], b = p[f.node[1]], c = p[f.node[2]];
        const double u[3] = {double{b.x} - a.x, double{b.y} - a.y, double{b.z} - a.z};
        const double v[3] = {double{c.x} - a.x, double{c.y} - a.y, double{c.z} - a.z};
        const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
        for (std::uint32_t node : f.node)
            for (int k = 0; k < 3; ++k) sum[3 * node + k] += n[k];
    }
    double bent = 0.0;
    for (std::size_t i = 0; i < m.node_count(); ++i) {
        const double* s = &sum[3 * i];
        const double size = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
        const Vec3 got = sim.normals()[i];
        const Vec3 want{static_cast<float>(s[0] / size), static_cast<float>(s[1] / size),
                        static_cast<float>(s[2] / size)};
        EXPECT_LT(length(got - want), 1e-5f) << "node " << i;
        bent = std::max(bent, 1.0 - std::abs(static_cast<double>(dot(want, sim.normals()[0]))));
    }
    EXPECT_GT(bent, 0.01) << "the patch must fold for the normals to differ from node to node";
}

TEST(Kernels, PortableBuildsStepToTheRecordedBitsOnAnyCpu) {
    // A portable build compiles the step's stages for AVX-512, AVX2 and the
    // x86-64 baseline, and the loader picks the one the CPU runs
    // (batched_loops.hpp, SPRINGKIT_STAGE_CLONES). All must step to the same
    // bits. The hashes are those of a portable build whose stages had one
    // version, SSE2 loops (commit ef91972): whichever clone this CPU runs must
    // reproduce them. Builds for a given CPU fuse multiply-adds and
    // estimate 1/sqrt by design (support/build_arithmetic.hpp), and other
    // architectures may have another libm: they are not compared.
#if defined(__x86_64__)
    const bool compared = test::kStepsToPortableBits;
#else
    const bool compared = false;
#endif
    if (!compared) GTEST_SKIP() << "the recorded bits are those of a portable x86-64 build";
    auto with_integrator = [](Model m, Integrator integrator) {
        m.params.integrator = integrator;
        if (integrator == Integrator::explicit_euler) m.params.max_substep = 0.0001f;
        m.name += std::string(" ") + integrator_name(integrator);
        return m;
    };
    const std::pair<Model, std::uint64_t> cases[] = {
        {busy_cloth(), 0x3317cd7322ae5b0aull},
        {with_integrator(busy_cloth(), Integrator::verlet), 0x1c1cb330f679a3f2ull},
        {with_integrator(busy_cloth(), Integrator::explicit_euler), 0xb43c391fa6755df4ull},
        {alternating_patch(40), 0x66e5f32e397ae784ull},
        {shuffled_cloth(), 0xfdd8c5fc7f89ca0eull},
        {make_cloth({.columns = 70, .rows = 70}), 0x218d675b1a708f8cull},
        {make_jelly({.nx = 9, .ny = 7, .nz = 6}), 0x4b6e720848290279ull},
        {make_balloon(), 0xd01076016a2ccaacull},
        {make_tunca_rope(), 0xc4daf728bfd6bc44ull},
    };
    for (const auto& [model, recorded] : cases) {
        const std::uint64_t hash = run_hash(model, 1, 30);
        EXPECT_EQ(hash, recorded) << model.name << ": hash 0x" << std::hex << hash << "ull";
    }
}
