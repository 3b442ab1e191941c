// springkit — a small fork-join pool of std::threads owned by one Simulation.
//
// run(body) calls body(t) once for every task t in [0, size()) and returns when
// all have returned: one stage of a step over per-thread index ranges. Tasks
// are claimed, not assigned: the calling thread takes task 0 and then any task
// no worker has claimed yet, so a worker that is asleep or whose core is busy
// with another program delays nothing (the caller runs its task); body(t) must
// therefore depend on t only, never on which thread runs it (every stage reads
// and writes partition t's data). Workers spin briefly between stages (a
// substep is tens of microseconds), pausing the core rather than yielding it,
// and then sleep on an atomic wait, so an idle simulation costs nothing. No
// allocation per run.
//
// Claiming cannot help once a worker has begun a task and then lost its core
// to another program: the caller waits until the scheduler gives it back, a
// time slice of milliseconds against tasks of microseconds. So the pool keeps
// account: in every run the caller measures the time its own first task took
// and how long it then waited for the workers; the tasks the workers ran saved
// it about that task's time each, the waiting and the wake-up cost it. While
// the threads lose time (ThreadChoice), the pool runs solo: one task, on the
// caller, over the whole of what the tasks share (the owner splits its work
// in one part), the workers left asleep, now and then trying the threads
// again. The owner switches at a point of its choosing (follow_choice(),
// between two steps), since it must split its work anew.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>


namespace springkit::detail {

/// Whether a pool should run solo, from its runs' accounts. Runs are counted
/// in blocks of at least kBlockSeconds of wall time. With the threads, a
/// block's gain is the time the workers saved the caller less its waiting,
/// as a share of the block's time. A task the workers ran counts as the
/// shortest first task the caller took in the block in a run of the same
/// kind (a stage of the step): when the caller itself loses its core in the
/// middle of its task, that task's time says nothing of the work, and would
/// make the threads look better. The threads stay while the recent blocks'
/// gain (a running mean, half its weight on the newest block) exceeds
/// kMinGain (on a tie the second core is left to others), and otherwise the
/// pool runs solo for `gap` blocks and then tries the threads for a short
/// block (kTrySeconds; the first block of a pool is such a try too). A try
/// that gains resets the gap to kMinGap; a loss doubles it up to kMaxGap, so
/// a pool beside a core that stays busy spends one try in kMaxGap blocks.
///
/// The caller may itself be the one that shares a core: the threads'
/// wake-ups and waits let the scheduler place it anywhere, also beside a
/// program on the busy core, and from there the scheduler's load balancing
/// moves a thread that does not sleep only slowly (it backs off while the
/// other program is pinned there). Its own work then takes about twice its
/// usual time: most runs are as fast as ever (a time slice is milliseconds
/// long), but the runs that span the other program's slices wait. So for
/// every kind of run the caller keeps the shortest time its own part took (a
/// solo run; its first task with the threads), and where its parts in a
/// window of kShareSeconds (several time slices) took more than
/// kSharedSlowness times their kinds' shortest, it nudges the scheduler
/// (take_nudge()): a short sleep, after which the scheduler places the waking
/// thread on an idle core if there is one, as it places a game's thread that
/// waits for its next frame. With the threads, the pool first runs solo (a
/// worker that spins keeps its core from looking idle) and nudges at its
/// first solo run. A nudge that leaves the next window slow (no idle core)
/// doubles the windows before the next one, up to kMaxGap; a window at the
/// usual speed resets them to one. Depends on the figures given only.
class ThreadChoice {
public:
    static constexpr double kBlockSeconds = 0.003;
    static constexpr double kTrySeconds = 0.001;
    static constexpr int kMinGap = 4;
    static constexpr int kMaxGap = 128;
    static constexpr double kMinGain = 0.02;
    static constexpr double kShareSeconds = 0.012;
    static constexpr double kSharedSlowness = 1.5;

    bool solo() const { return solo_; }
    /// For tests, every pool of the process: `measured` (the default) chooses
    /// as above; `alternate` switches at the end of every run, so that every
    /// step runs the other way from the one before.
    enum class Rule : int { measured, alternate };
    static void set_rule(Rule rule);
    /// Identifies a kind of run (a stage of the step): runs of one kind do
    /// about the same work.
    using RunKind = void (*)(void*, int);
    /// A solo run of kind `kind` that took `wall` seconds.
    void record_solo(double wall, RunKind kind);
    /// A run with the threads that took `wall` seconds: of kind `kind`, its
    /// first task took the caller `first` seconds, the workers ran
    /// `worker_tasks` tasks, and waking and waiting for them took `lost`.
    void record_threads(double wall, RunKind kind, double first, int worker_tasks, double lost);
    /// True, once, at a solo run after a window in which the caller seemed
    /// to share its core (see above).
    bool take_nudge() {
        const bool nudge = nudge_;
        nudge_ = false;
        return nudge;
    }

private:
    bool solo_ = false;
    bool trying_ = true;  ///< the current block with the threads is a try
    int gap_ = kMinGap;
    int solo_left_ = 0;   ///< solo blocks before the next try
    double block_seconds_ = 0.0, block_lost_ = 0.0;
    /// The block's runs by kind: the shortest first task, the workers' tasks.
    struct Kind {
        RunKind kind = nullptr;
        double first = 0.0;
        int worker_tasks = 0;
    };
    static constexpr int kKinds = 8;
    Kind kinds_[kKinds];
    int kind_count_ = 0;
    double other_saved_ = 0.0;  ///< runs of kinds beyond kKinds, counted one by one
    double gain_ = 0.0;  ///< running mean of the blocks' gains
    /// The shortest time the caller's own part of a run took, by kind, over
    /// the pool's life: of a solo run, or of its first task with the threads.
    struct Shortest {
        RunKind kind = nullptr;
        double seconds = 0.0;
    };
    struct Shortests {
        Shortest of[kKinds];
        int count = 0;
    };
    Shortests solo_shortest_, first_shortest_;
    /// The window's own parts of runs of known kinds: their time, and their
    /// kinds' shortest.
    double own_wall_ = 0.0, own_shortest_ = 0.0;
    /// Adds the caller's own part of a run to the window; true at the end of a
    /// window that calls for a nudge.
    bool own_part(Shortests& shortest, RunKind kind, double seconds);
    bool nudge_ = false;
    bool nudged_ = false;  ///< the last slow window asked for a nudge
    int nudge_gap_ = 1;    ///< slow windows from one nudge to the next
    int nudge_left_ = 0;
};

class WorkerPool {
public:
    /// A pool for `count` tasks per run (the caller plus count - 1 threads); count >= 1.
    explicit WorkerPool(int count);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    int size() const { return count_; }
    /// Solo: run() calls body(0) only, on the calling thread.
    bool solo() const { return solo_; }
    /// Sets solo() as the ThreadChoice says; true if it changed. Between runs,
    /// by the thread that calls run().
    bool follow_choice() {
        const bool changed = solo_ != choice_.solo();
        solo_ = choice_.solo();
        return changed;
    }
    /// The solo() and the choice of `other` (a copy of its owner).
    void adopt_choice(const WorkerPool& other) {
        solo_ = other.solo_;
        choice_ = other.choice_;
    }

    /// Runs body(t) for t in [0, size()) on the calling thread and the workers
    /// (solo: body(0) on the calling thread); returns when every call has
    /// returned. Not reentrant.
    template <class Body>
    void run(Body& body) {
        if (count_ == 1) {
            body(0);
            return;
        }
        dispatch(+[](void* context, int t) { (*static_cast<Body*>(context))(t); }, &body);
    }

private:
    using Task = void (*)(void*, int);
    void dispatch(Task task, void* context);
    void work();
    void dispatch_solo(Task task, void* context);
    /// Claims and runs tasks of generation `generation` until none is left;
    /// returns how many it ran.
    int run_claimed(std::uint64_t state);

    int count_;
    bool solo_ = false;
    ThreadChoice choice_;  ///< read and updated by the calling thread only
    Task task_ = nullptr;
    void* context_ = nullptr;
    /// The current run's generation (high 32 bits) and its next unclaimed task
    /// (low 32 bits), in one word so that a claim (a compare-exchange) can only
    /// take a task of the run whose task_ and context_ it then reads.
    std::atomic<std::uint64_t> state_{0};
    std::atomic<std::uint32_t> generation_{0};  ///< workers sleep on it (the high half of state_)
    std::atomic<int> done_{0};                  ///< tasks of the current run finished
    std::atomic<bool> stop_{false};
    std::vector<std::thread> threads_;
};

/// The worker threads of one Simulation; a copied Simulation gets its own.
class Team {
public:
    Team();
    ~Team();
    Team(const Team& other);
    Team& operator=(const Team& other);
    Team(Team&&) noexcept;
    Team& operator=(Team&&) noexcept;
    int size() const;
    /// Tasks of a run: size(), or 1 while the pool runs solo.
    int tasks() const { return pool_ && !pool_->solo() ? pool_->size() : 1; }
    /// WorkerPool::follow_choice(); true if tasks() changed.
    bool follow_choice() { return pool_ && pool_->follow_choice(); }
    void resize(int count);
    WorkerPool* pool() const { return pool_.get(); }

private:
    std::unique_ptr<WorkerPool> pool_;
};

/// Runs body(t) for every task of `team` (t < team.tasks()): on the calling
/// thread alone when the team has one member or runs solo.
template <class Body>
void run_on(const Team& team, Body&& body) {
    if (WorkerPool* pool = team.pool()) pool->run(body);
    else body(0);
}

}  // namespace springkit::detail
