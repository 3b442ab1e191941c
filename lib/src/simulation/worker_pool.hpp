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
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>


namespace springkit::detail {

class WorkerPool {
public:
    /// A pool for `count` tasks per run (the caller plus count - 1 threads); count >= 1.
    explicit WorkerPool(int count);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    int size() const { return count_; }

    /// Runs body(t) for t in [0, size()) on the calling thread and the workers;
    /// returns when every call has returned. Not reentrant.
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
    /// Claims and runs tasks of generation `generation` until none is left.
    void run_claimed(std::uint64_t state);

    int count_;
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
    void resize(int count);
    WorkerPool* pool() const { return pool_.get(); }

private:
    std::unique_ptr<WorkerPool> pool_;
};

/// Runs body(t) for every task of `team`: on the calling thread alone when the
/// team has one member.
template <class Body>
void run_on(const Team& team, Body&& body) {
    if (WorkerPool* pool = team.pool()) pool->run(body);
    else body(0);
}

}  // namespace springkit::detail
