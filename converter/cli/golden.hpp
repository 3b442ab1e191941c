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

/// The golden file version this springkit writes; it reads 1 and 2.
/// Version 1: positions at every sample, compared over the whole run.
/// Version 2 adds the model itself ("structure", the exact fingerprint), the
/// horizon up to which positions are compared, and per sample the quantities
/// that converge across builds (energies, bounds, max strain).
inline constexpr int kGoldenVersion = 2;
/// Frame times a golden may have: those `golden --dt` accepts.
inline constexpr float kMinGoldenFrameDt = 1.0e-6f;
inline constexpr float kMaxGoldenFrameDt = 1.0f;
/// Most nodes a golden may list (node indices of a model are 32-bit).
inline constexpr std::uint64_t kMaxGoldenNodes = 0xffffffffu;
/// Most substeps (last frame x substeps per frame) `golden` records and `check`
/// replays: about a day of simulated time at the default substep; more is a
/// broken or hostile file, not a regression test.
inline constexpr std::uint64_t kMaxGoldenSubsteps = 100'000'000;

/// What a version 2 golden records at a sample besides positions: quantities
/// that stay close across builds after positions have diverged (chaotic motion
/// turns 1e-5 m at 0.5 s into 4 cm at 2 s; the energies and bounds do not).
struct GoldenMeasures {
    double kinetic = 0.0;    ///< J, Simulation::kinetic_energy()
    double potential = 0.0;  ///< J, Simulation::potential_energy()
    Vec3 min{}, max{};       ///< m, bounds of the nodes
    double max_strain = 0.0; ///< largest |length / rest - 1| of a Hooke spring with rest > 0
    friend bool operator==(const GoldenMeasures&, const GoldenMeasures&) = default;
};

struct Golden {
    int version = kGoldenVersion;
    std::string model;       ///< the model's file name when it was recorded (informational)
    std::string hash;        ///< model_hash, 16 hex digits
    float frame_dt = 0.0f;   ///< s
    double seconds = 0.0;    ///< s, the simulated time asked for
    std::uint64_t nodes = 0;
    std::vector<std::uint64_t> frames;         ///< frames after which positions were recorded: >= 1, increasing
    std::vector<std::vector<Vec3>> positions;  ///< per sample, `nodes` positions
    // Version 2 only:
    std::string structure;  ///< the recorded model, canonical JSON (model_to_json)
    double horizon = 0.0;   ///< s: positions are compared at samples up to this time
    std::vector<GoldenMeasures> measures;  ///< per sample
};

/// Reads a golden file's text; `name` starts every error ("name: /samples/2/frame:
/// must be an integer, not 1.5"; "name: line 3, column 7: invalid JSON: ...").
/// Throws springkit::Error.
Golden golden_from_json(std::string_view text, const std::string& name);

/// The golden as `golden` writes it (round-trips through golden_from_json).
std::string golden_to_json(const Golden& golden);

/// Throws springkit::Error naming `name` when running `last_frame` frames of
/// `frame_dt` on `model` needs more than kMaxGoldenSubsteps substeps.
void check_golden_work(const Model& model, float frame_dt, std::uint64_t last_frame, const std::string& name);

}  // namespace springkit::cli
