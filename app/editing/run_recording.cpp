// springkit-editor — the recorded run (run_recording.hpp).
#include "editing/run_recording.hpp"

#include <algorithm>
#include <utility>

namespace springkit::editor {

std::size_t RunRecording::frame_bytes(const Frame& f) const {
    return sizeof(Frame) + f.positions.capacity() * sizeof(Vec3) +
           f.forces.size() * sizeof(RecordedForce) + f.state.size();
}

void RunRecording::clear() {
    frames_.clear();
    first_ = 0;
    bytes_ = 0;
    spare_.clear();
    ++generation_;
}

void RunRecording::start(const Simulation& sim) {
    clear();
    Frame f;
    f.positions.assign(sim.positions().begin(), sim.positions().end());
    f.state = sim.save_state();
    f.kinetic = sim.kinetic_energy();
    f.time = sim.time();
    push(std::move(f));
}

void RunRecording::record(const Simulation& sim, float frame_dt,
                          std::span<const RecordedForce> forces, bool save, std::uint32_t pieces) {
    if (empty()) {
        start(sim);
        return;
    }
    Frame f;
    // The positions buffer of a dropped frame, so a full ring allocates nothing.
    f.positions = std::exchange(spare_, {});
    f.positions.assign(sim.positions().begin(), sim.positions().end());
    f.forces.assign(forces.begin(), forces.end());
    const std::uint64_t number = last_frame() + 1;
    if (save || number % kSaveEvery == 0) f.state = sim.save_state();
    f.frame_dt = frame_dt;
    f.pieces = std::max<std::uint32_t>(pieces, 1);
    f.kinetic = sim.kinetic_energy();
    f.time = sim.time();
    push(std::move(f));
}

void RunRecording::push(Frame frame) {
    bytes_ += frame_bytes(frame);
    frames_.push_back(std::move(frame));
    // Over a cap, the oldest frames go back to the next saved state, so the first
    // frame kept always has its state. Without a later saved state nothing goes
    // yet (the ring is over its cap by less than kSaveEvery frames).
    while (bytes_ > kMemoryCap || frames_.size() > kMaxFrames) {
        std::size_t next = 1;
        while (next < frames_.size() && frames_[next].state.empty()) ++next;
        if (next >= frames_.size()) break;
        for (std::size_t i = 0; i < next; ++i) {
            bytes_ -= frame_bytes(frames_.front());
            spare_ = std::move(frames_.front().positions);
            frames_.pop_front();
            ++first_;
        }
    }
}

void RunRecording::truncate_after(std::uint64_t frame) {
    if (!empty() && last_frame() > frame) ++generation_;
    while (!frames_.empty() && last_frame() > frame) {
        bytes_ -= frame_bytes(frames_.back());
        frames_.pop_back();
    }
}

std::vector<float> RunRecording::kinetic_energies() const {
    std::vector<float> out;
    out.reserve(frames_.size());
    for (const Frame& f : frames_) out.push_back(static_cast<float>(f.kinetic));
    return out;
}

void RunRecording::rebuild(Simulation& sim, std::uint64_t frame,
                           std::optional<std::uint64_t> from) const {
    if (!has(frame)) return;
    std::uint64_t saved = frame;
    while (at(saved).state.empty()) --saved;  // the first frame kept has its state
    std::uint64_t now = saved;
    if (from && has(*from) && *from >= saved && *from <= frame) {
        now = *from;
    } else {
        sim.restore_state(at(saved).state);
    }
    for (std::uint64_t j = now + 1; j <= frame; ++j) {
        const Frame& f = at(j);
        // The forces are in piece order (LiveSimulation::step applies them so).
        const float piece_dt = f.frame_dt / static_cast<float>(f.pieces);
        auto force = f.forces.begin();
        for (std::uint32_t piece = 0; piece < f.pieces; ++piece) {
            for (; force != f.forces.end() && force->piece == piece; ++force) sim.apply_force(force->node, force->force);
            sim.step(piece_dt);
        }
    }
}

std::vector<std::uint32_t> springs_of_selection(const Model& model,
                                                std::span<const std::uint32_t> nodes,
                                                std::span<const std::uint32_t> springs) {
    std::vector<std::uint8_t> mark(model.node_count(), 0);
    for (std::uint32_t n : nodes)
        if (n < mark.size()) mark[n] = 1;
    std::vector<std::uint8_t> chosen(model.springs.size(), 0);
    for (std::uint32_t s : springs)
        if (s < chosen.size()) chosen[s] = 1;
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < model.springs.size(); ++i)
        if (chosen[i] || (nodes.size() > 1 && mark[model.springs[i].a] && mark[model.springs[i].b]))
            out.push_back(i);
    return out;
}

void StrainHistory::update(const RunRecording& recording, const Model& model,
                           std::span<const std::uint32_t> springs) {
    const bool same = model_ == &model && recording_ == &recording &&
                      generation_ == recording.generation() &&
                      std::equal(springs.begin(), springs.end(), springs_.begin(), springs_.end());
    if (!same || recording.empty() || recording.first_frame() < first_) {
        springs_.assign(springs.begin(), springs.end());
        model_ = &model;
        recording_ = &recording;
        generation_ = recording.generation();
        values_.clear();
        first_ = recording.empty() ? 0 : recording.first_frame();
    }
    if (springs_.empty() || recording.empty()) {
        values_.clear();
        return;
    }
    // Frames dropped from the front of the ring go from the front here too.
    if (recording.first_frame() > first_) {
        const auto dropped =
            std::min<std::uint64_t>(recording.first_frame() - first_, values_.size());
        values_.erase(values_.begin(), values_.begin() + static_cast<std::ptrdiff_t>(dropped));
        first_ = recording.first_frame();
    }
    for (std::uint64_t f = first_ + values_.size(); f <= recording.last_frame(); ++f) {
        const auto positions = recording.positions(f);
        float largest = -1.0f;
        for (std::uint32_t i : springs_) {
            const Spring& s = model.springs[i];
            largest =
                std::max(largest, (length(positions[s.b] - positions[s.a]) - s.rest) / s.rest);
        }
        values_.push_back(largest);
    }
}

}  // namespace springkit::editor
