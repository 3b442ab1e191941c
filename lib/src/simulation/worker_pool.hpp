// springkit — a small fork-join pool of std::threads owned by one Simulation.
//
// run(body) calls body(0) on the calling thread and body(1 .. count-1) on the
// workers, and returns when all have finished: one stage of a step over
// per-thread index ranges. Workers spin briefly between stages (a substep is
// tens of microseconds) and then sleep on an atomic wait, so an idle simulation
// costs nothing. No allocation per run.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>


namespace springkit::detail {

class WorkerPool {
public:
    /// A pool for `count` participants (the caller plus count - 1 threads); count >= 1.
    explicit WorkerPool(int count);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    int size() const { return count_; }

    /// Runs body(t) for t in [0, size()), t = 0 on the calling thread; returns when
    /// every call has returned. Not reentrant.
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
    void work(int t);

    int count_;
    Task task_ = nullptr;
    void* context_ = nullptr;
    std::atomic<std::uint32_t> generation_{0};  ///< bumped once per run; workers wait on it
    std::atomic<int> pending_{0};               ///< workers still running the current task
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

/// Runs body(t) for every participant of `team`: on the
/// calling thread alone when the team has one member.
template <class Body>
void run_on(const Team& team, Body&& body) {
    if (WorkerPool* pool = team.pool()) pool->run(body);
    else body(0);
}

}  // namespace springkit::detail
