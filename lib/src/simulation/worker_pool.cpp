// springkit — fork-join pool for the step's stages (see worker_pool.hpp).
#include "simulation/worker_pool.hpp"

#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SPRINGKIT_PAUSE() _mm_pause()
#else
#define SPRINGKIT_PAUSE() ((void)0)
#endif

namespace springkit::detail {

namespace {

// How long a thread waits actively before it sleeps: longer than the gap between
// two stages of a step (a few microseconds), far shorter than the gap between
// frames. After the first few hundred pauses it yields, so that on a machine with
// more runnable threads than cores the thread it waits for gets to run.
constexpr auto kSpin = std::chrono::microseconds(100);
constexpr int kPauses = 256;

// Waits actively until done() or the spin time is over; true if done() became true.
template <class Done>
bool spin_until(Done done) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0;; ++i) {
        if (done()) return true;
        if (i < kPauses) {
            SPRINGKIT_PAUSE();
        } else {
            std::this_thread::yield();
            if (std::chrono::steady_clock::now() - start > kSpin) return false;
        }
    }
}

}  // namespace

WorkerPool::WorkerPool(int count) : count_(count < 1 ? 1 : count) {
    threads_.reserve(static_cast<std::size_t>(count_ - 1));
    for (int t = 1; t < count_; ++t) threads_.emplace_back([this, t] { work(t); });
}

WorkerPool::~WorkerPool() {
    stop_.store(true, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    for (std::thread& thread : threads_) thread.join();
}

void WorkerPool::dispatch(Task task, void* context) {
    task_ = task;
    context_ = context;
    pending_.store(count_ - 1, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    task(context, 0);
    if (!spin_until([&] { return pending_.load(std::memory_order_acquire) == 0; })) {
        for (int left = pending_.load(std::memory_order_acquire); left != 0;
             left = pending_.load(std::memory_order_acquire))
            pending_.wait(left, std::memory_order_acquire);
    }
}

void WorkerPool::work(int t) {
    std::uint32_t seen = 0;
    for (;;) {
        if (!spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; }))
            generation_.wait(seen, std::memory_order_acquire);
        seen = generation_.load(std::memory_order_acquire);
        if (stop_.load(std::memory_order_relaxed)) return;
        task_(context_, t);
        if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
    }
}

Team::Team() = default;
Team::~Team() = default;
Team::Team(const Team& other) { resize(other.size()); }
Team& Team::operator=(const Team& other) {
    if (this != &other) resize(other.size());
    return *this;
}
Team::Team(Team&&) noexcept = default;
Team& Team::operator=(Team&&) noexcept = default;
int Team::size() const { return pool_ ? pool_->size() : 1; }
void Team::resize(int count) { pool_ = count > 1 ? std::make_unique<WorkerPool>(count) : nullptr; }

}  // namespace springkit::detail
