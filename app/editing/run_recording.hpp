// springkit-editor — the run recorded frame by frame for the timeline: every
// frame's node positions and kinetic energy in a ring bounded by memory, and
// now and then the whole state (Simulation::save_state) to go back to. Plain
// C++: tests drive it without a window.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <vector>

#include "springkit/simulation.hpp"

namespace springkit::editor {

/// A force a frame applied to a node before one of its steps (the mouse's pull):
/// what a replay from an earlier saved state must apply again to arrive at the
/// same bits. A frame may be stepped in equal pieces (LiveSimulation::step while
/// pulling); `piece` is the one the force was applied before.
struct RecordedForce {
    std::uint32_t node = 0;
    Vec3 force{};
    std::uint32_t piece = 0;
};

/// The recorded frames, numbered from the recording's start (frame 0 is the
/// state it started from) and kept in a ring: when the memory cap or the frame
/// cap is passed, the oldest frames go, back to the next saved state, so every
/// frame kept can be rebuilt exactly.
///
/// Going back to a frame (LiveSimulation::show_frame) restores the nearest saved
/// state at or before it and steps on, applying each frame's recorded forces:
/// the runtime is deterministic and restore_state() gives the same bits as the
/// run that saved it, so the rebuilt positions equal the recorded ones exactly.
/// A frame whose step followed anything a replay cannot repeat (an anchor moved
/// or driven by hand) saves its state, so no replay steps across such a change.
class RunRecording {
public:
    /// The ring's cap on memory: positions, forces and saved states together.
    static constexpr std::size_t kMemoryCap = std::size_t{256} << 20;  // 256 MiB
    /// The cap on frames (10 minutes at 60 frames a second), for small models.
    static constexpr std::size_t kMaxFrames = 36000;
    /// A frame's whole state is saved every this many frames (and after any
    /// input a replay cannot repeat): going back replays at most this many - 1.
    static constexpr std::uint64_t kSaveEvery = 30;

    /// Forgets everything and starts at `sim`'s current state as frame 0.
    void start(const Simulation& sim);
    void clear();
    /// Appends the frame `sim` has just stepped, after `forces` were applied to it
    /// with `frame_dt` (in `pieces` equal steps of frame_dt / pieces, each force
    /// before its piece); `save` forces a saved state (set after input a replay
    /// cannot repeat). Drops the oldest frames past the caps.
    void record(const Simulation& sim, float frame_dt, std::span<const RecordedForce> forces,
                bool save, std::uint32_t pieces = 1);
    /// Drops the frames after `frame` (a run resumed from there goes another way).
    void truncate_after(std::uint64_t frame);

    bool empty() const { return frames_.empty(); }
    /// The first and last frame kept (valid when not empty).
    std::uint64_t first_frame() const { return first_; }
    std::uint64_t last_frame() const { return first_ + frames_.size() - 1; }
    bool has(std::uint64_t frame) const {
        return !empty() && frame >= first_ && frame <= last_frame();
    }
    std::size_t frame_count() const { return frames_.size(); }
    /// Bytes held: positions, forces and saved states.
    std::size_t bytes() const { return bytes_; }
    /// Changes whenever recorded frames are forgotten other than from the front
    /// (start, clear, truncate_after): what was worked out from them is stale.
    std::uint64_t generation() const { return generation_; }

    std::span<const Vec3> positions(std::uint64_t frame) const { return at(frame).positions; }
    double kinetic_energy(std::uint64_t frame) const { return at(frame).kinetic; }
    double time(std::uint64_t frame) const { return at(frame).time; }
    /// The kinetic energy of every kept frame, first to last (J), for the plot.
    std::vector<float> kinetic_energies() const;

    /// Puts `sim` (an instance of the recorded body) at `frame`, exactly as it was
    /// recorded. `from`: the frame `sim` is at now, when it is a recorded one;
    /// stepping on from it is taken over restoring a saved state when that is
    /// nearer. Throws springkit::Error if `sim` is not of the recorded body.
    void rebuild(Simulation& sim, std::uint64_t frame, std::optional<std::uint64_t> from) const;

private:
    struct Frame {
        std::vector<Vec3> positions;
        std::vector<RecordedForce> forces;  ///< applied before this frame's step
        std::vector<std::byte> state;       ///< save_state() after it, or empty
        float frame_dt = 0.0f;              ///< s, this frame's step
        std::uint32_t pieces = 1;           ///< equal steps it was taken in
        double kinetic = 0.0;               ///< J after it
        double time = 0.0;                  ///< s, simulation time after it
    };
    const Frame& at(std::uint64_t frame) const { return frames_[frame - first_]; }
    std::size_t frame_bytes(const Frame& f) const;
    void push(Frame frame);

    std::deque<Frame> frames_;
    std::uint64_t first_ = 0;
    std::size_t bytes_ = 0;
    std::uint64_t generation_ = 0;
    std::vector<Vec3> spare_;  ///< the positions buffer of the last dropped frame, reused
};

/// The springs whose strain the timeline plots for a selection: the selected
/// springs and every spring between two selected nodes, in index order.
std::vector<std::uint32_t> springs_of_selection(const Model& model,
                                                std::span<const std::uint32_t> nodes,
                                                std::span<const std::uint32_t> springs);

/// The largest strain ((length - rest) / rest) among `springs` at every recorded
/// frame, kept up to date as frames come and go; worked out again only for new
/// frames, or all over when the springs or the recording change.
class StrainHistory {
public:
    /// Brings values() up to `recording`'s frames for `springs` of `model`.
    void update(const RunRecording& recording, const Model& model,
                std::span<const std::uint32_t> springs);
    /// One value per kept frame, first to last; empty without springs.
    const std::vector<float>& values() const { return values_; }

private:
    std::vector<std::uint32_t> springs_;
    const Model* model_ = nullptr;
    const RunRecording* recording_ = nullptr;
    std::uint64_t generation_ = 0;
    std::uint64_t first_ = 0;  ///< the frame values_[0] is of
    std::vector<float> values_;
};

}  // namespace springkit::editor
