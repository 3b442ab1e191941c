// springkit CLI — golden files: what `golden` writes and `check` replays.
//
// A golden comes from a CI checkout, so it is read as strictly as a model file:
// every field has its type, range and JSON-pointer location checked, and the work
// a replay asks for is bounded before it starts (schema/springkit-golden.schema.json
// describes the same rules).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "springkit/model.hpp"

namespace springkit::cli {

/// The golden file version this springkit writes and reads.
inline constexpr int kGoldenVersion = 1;
/// Frame times a golden may have: those `golden --dt` accepts.
inline constexpr float kMinGoldenFrameDt = 1.0e-6f;
inline constexpr float kMaxGoldenFrameDt = 1.0f;
/// Most nodes a golden may list (node indices of a model are 32-bit).
inline constexpr std::uint64_t kMaxGoldenNodes = 0xffffffffu;
/// Most substeps (last frame x substeps per frame) `golden` records and `check`
/// replays: about a day of simulated time at the default substep; more is a
/// broken or hostile file, not a regression test.
inline constexpr std::uint64_t kMaxGoldenSubsteps = 100'000'000;

struct Golden {
    std::string model;       ///< the model's file name when it was recorded (informational)
    std::string hash;        ///< model_hash, 16 hex digits
    float frame_dt = 0.0f;   ///< s
    double seconds = 0.0;    ///< s, the simulated time asked for
    std::uint64_t nodes = 0;
    std::vector<std::uint64_t> frames;         ///< frames after which positions were recorded: >= 1, increasing
    std::vector<std::vector<Vec3>> positions;  ///< per sample, `nodes` positions
};

/// Reads a golden file's text; `name` starts every error ("name: /samples/2/frame:
/// must be an integer, not 1.5"; "name: line 3, column 7: invalid JSON: ...").
/// Throws springkit::Error.
Golden golden_from_json(std::string_view text, const std::string& name);

/// The golden as `golden` writes it (round-trips through golden_from_json).
std::string golden_to_json(const Golden& golden);

/// Substeps Simulation::step(frame_dt) takes with the model's max_substep.
std::uint64_t substeps_per_frame(float frame_dt, float max_substep);

/// Throws springkit::Error naming `name` when running `last_frame` frames of
/// `frame_dt` on `model` needs more than kMaxGoldenSubsteps substeps.
void check_golden_work(const Model& model, float frame_dt, std::uint64_t last_frame, const std::string& name);

}  // namespace springkit::cli
