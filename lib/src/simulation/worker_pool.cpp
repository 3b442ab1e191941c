// springkit — fork-join pool for the step's stages (see worker_pool.hpp).
#include "simulation/worker_pool.hpp"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SPRINGKIT_PAUSE() _mm_pause()
#else
#define SPRINGKIT_PAUSE() ((void)0)
#endif

namespace springkit::detail {

namespace {

// How long a thread waits actively before it sleeps: longer than the gap
// between two stages of a step (a few microseconds), far shorter than the gap
// between frames. It pauses rather than yields: sched_yield() hands the core
// to whatever else is runnable and comes back at once, so on a machine busy
// with other programs a yielding loop takes their time without waiting any
// better; a thread that sleeps instead costs a wake-up, which the claiming of
// tasks (worker_pool.hpp) hides, since the caller runs what a sleeping worker
// has not begun.
constexpr auto kSpin = std::chrono::microseconds(50);
constexpr int kPausesPerClockRead = 64;

// Waits actively until done() or the spin time is over; true if done() became true.
template <class Done>
bool spin_until(Done done) {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        for (int i = 0; i < kPausesPerClockRead; ++i) {
            if (done()) return true;
            SPRINGKIT_PAUSE();
        }
        if (std::chrono::steady_clock::now() - start > kSpin) return done();
    }
}

constexpr std::uint64_t kTaskMask = 0xffffffffu;

using Clock = std::chrono::steady_clock;
double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

WorkerPool::WorkerPool(int count) : count_(count < 1 ? 1 : count) {
    threads_.reserve(static_cast<std::size_t>(count_ - 1));
    for (int t = 1; t < count_; ++t) threads_.emplace_back([this] { work(); });
}

WorkerPool::~WorkerPool() {
    stop_.store(true, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    for (std::thread& thread : threads_) thread.join();
}

int WorkerPool::run_claimed(std::uint64_t state) {
    const std::uint64_t generation = state >> 32;
    int ran = 0;
    for (;;) {
        if ((state >> 32) != generation || (state & kTaskMask) >= static_cast<std::uint64_t>(count_)) return ran;
        if (state_.compare_exchange_weak(state, state + 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
            task_(context_, static_cast<int>(state & kTaskMask));
            done_.fetch_add(1, std::memory_order_release);
            ++ran;
            state = state_.load(std::memory_order_acquire);
        }
    }
}

void WorkerPool::dispatch_solo(Task task, void* context) {
    const auto start = Clock::now();
    task(context, 0);
    choice_.record_solo(seconds(Clock::now() - start), task);
    // The caller shares its core (ThreadChoice): a sleep lets the scheduler
    // place it anew when it wakes, on an idle core if there is one. The
    // shortest sleep: the timer's slack decides how long it lasts.
    if (choice_.take_nudge()) std::this_thread::sleep_for(std::chrono::nanoseconds(1));
}

void WorkerPool::dispatch(Task task, void* context) {
    if (solo_) {
        dispatch_solo(task, context);
        return;
    }
    const auto start = Clock::now();
    // Every task of the previous run is done, so no thread reads these now.
    task_ = task;
    context_ = context;
    done_.store(0, std::memory_order_relaxed);
    const std::uint32_t generation = generation_.load(std::memory_order_relaxed) + 1;
    // Task 0 is the caller's from the start: it runs with the caller's cache.
    state_.store((std::uint64_t{generation} << 32) | 1u, std::memory_order_release);
    generation_.store(generation, std::memory_order_release);
    generation_.notify_all();
    const auto woken = Clock::now();
    task(context, 0);
    done_.fetch_add(1, std::memory_order_relaxed);
    const auto first_done = Clock::now();
    const int ran = 1 + run_claimed(state_.load(std::memory_order_acquire));
    const auto claimed = Clock::now();
    // What is left runs on workers that have claimed it.
    if (!spin_until([&] { return done_.load(std::memory_order_acquire) == count_; })) {
        for (int d = done_.load(std::memory_order_acquire); d != count_; d = done_.load(std::memory_order_acquire))
            done_.wait(d, std::memory_order_acquire);
    }
    const auto end = Clock::now();
    // The workers' tasks would have taken the caller about as long as its
    // first (the partitions are of one size); waking them and waiting for
    // them is what they cost.
    choice_.record_threads(seconds(end - start), task, seconds(first_done - woken),
                           count_ - ran, seconds(woken - start) + seconds(end - claimed));
}

void WorkerPool::work() {
    std::uint32_t seen = 0;
    for (;;) {
        if (!spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; }))
            generation_.wait(seen, std::memory_order_acquire);
        seen = generation_.load(std::memory_order_acquire);
        if (stop_.load(std::memory_order_relaxed)) return;
        const std::uint64_t state = state_.load(std::memory_order_acquire);
        if ((state >> 32) == seen) {
            run_claimed(state);
            done_.notify_one();
        }
    }
}

namespace {

std::atomic<ThreadChoice::Rule> rule{ThreadChoice::Rule::measured};

}  // namespace

void ThreadChoice::set_rule(Rule r) { rule.store(r, std::memory_order_relaxed); }

bool ThreadChoice::own_part(Shortests& shortest, RunKind kind, double seconds) {
    Shortest* const end = shortest.of + shortest.count;
    Shortest* k = std::find_if(shortest.of, end, [&](const Shortest& x) { return x.kind == kind; });
    if (k == end) {
        if (shortest.count == kKinds) return false;
        *k = {kind, seconds};
        ++shortest.count;
    }
    k->seconds = std::min(k->seconds, seconds);
    own_wall_ += seconds;
    own_shortest_ += k->seconds;
    if (own_wall_ < kShareSeconds) return false;
    const bool slow = own_wall_ > kSharedSlowness * own_shortest_;
    own_wall_ = own_shortest_ = 0.0;
    if (!slow) {
        nudged_ = false;
        nudge_gap_ = 1;
        nudge_left_ = 0;
        return false;
    }
    if (--nudge_left_ > 0) return false;
    // Slow again after a nudge: the next one waits twice as long.
    if (nudged_) nudge_gap_ = std::min(2 * nudge_gap_, kMaxGap);
    nudged_ = true;
    nudge_left_ = nudge_gap_;
    return true;
}

void ThreadChoice::record_solo(double wall, RunKind kind) {
    if (rule.load(std::memory_order_relaxed) == Rule::alternate) {
        solo_ = false;
        return;
    }
    if (own_part(solo_shortest_, kind, wall)) nudge_ = true;
    block_seconds_ += wall;
    if (block_seconds_ < kBlockSeconds) return;
    block_seconds_ = 0.0;
    if (--solo_left_ > 0) return;
    solo_ = false;
    trying_ = true;
}

void ThreadChoice::record_threads(double wall, RunKind kind, double first, int worker_tasks, double lost) {
    if (rule.load(std::memory_order_relaxed) == Rule::alternate) {
        solo_ = true;
        return;
    }
    if (own_part(first_shortest_, kind, first)) {
        // Solo (the workers asleep, their cores idle) for the nudge.
        nudge_ = solo_ = true;
        trying_ = false;
        solo_left_ = gap_;
        block_seconds_ = block_lost_ = other_saved_ = 0.0;
        kind_count_ = 0;
        return;
    }
    block_seconds_ += wall;
    block_lost_ += lost;
    Kind* k = std::find_if(kinds_, kinds_ + kind_count_, [&](const Kind& x) { return x.kind == kind; });
    if (k == kinds_ + kind_count_ && kind_count_ < kKinds) kinds_[kind_count_++] = {kind, first, 0};
    if (k != kinds_ + kKinds) {
        k->first = std::min(k->first, first);
        k->worker_tasks += worker_tasks;
    } else {
        other_saved_ += worker_tasks * first;
    }
    if (block_seconds_ < (trying_ ? kTrySeconds : kBlockSeconds)) return;
    double saved = other_saved_ - block_lost_;
    for (int i = 0; i < kind_count_; ++i) saved += kinds_[i].first * kinds_[i].worker_tasks;
    const double gain = saved / block_seconds_;
    block_seconds_ = block_lost_ = other_saved_ = 0.0;
    kind_count_ = 0;
    gain_ = trying_ ? gain : 0.5 * (gain_ + gain);
    const bool tried = trying_;
    trying_ = false;
    if (gain_ > kMinGain) {
        if (tried) gap_ = kMinGap;
        return;
    }
    solo_ = true;
    solo_left_ = gap_;
    gap_ = std::min(2 * gap_, kMaxGap);
}

Team::Team() = default;
Team::~Team() = default;
Team::Team(const Team& other) {
    resize(other.size());
    if (pool_) pool_->adopt_choice(*other.pool_);
}
Team& Team::operator=(const Team& other) {
    if (this != &other) {
        resize(other.size());
        if (pool_) pool_->adopt_choice(*other.pool_);
    }
    return *this;
}
Team::Team(Team&&) noexcept = default;
Team& Team::operator=(Team&&) noexcept = default;
int Team::size() const { return pool_ ? pool_->size() : 1; }
void Team::resize(int count) { pool_ = count > 1 ? std::make_unique<WorkerPool>(count) : nullptr; }

}  // namespace springkit::detail
