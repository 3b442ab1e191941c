// springkit fuzz targets (docs/RELIABILITY.md). Each function takes one input,
// runs it through a part of springkit that reads untrusted bytes, and checks the
// invariants that must hold for any input; a broken invariant aborts. libFuzzer
// drives them (libfuzzer_main.cpp, built by tests/fuzz/run); the regression test
// (tests/reliability/test_fuzz_regressions.cpp) replays every input kept in
// tests/fuzz/regressions/.
#pragma once

#include <cstddef>
#include <cstdint>

namespace springkit::fuzz {

/// A model file in any form load_model() reads: parse, validate, save and load
/// again (must round-trip exactly), and step a few frames.
void model_file(const std::uint8_t* data, std::size_t size);

/// A mesh file (any format Assimp reads) converted into a model in this process:
/// Assimp reads it from memory, springkit converts it; any model that comes out
/// must be valid and round-trip through the model file.
void mesh_import(const std::uint8_t* data, std::size_t size);

/// An OBJ file read by springkit's own OBJ reader and by Assimp: whenever
/// springkit's reader takes the file (rather than handing it to Assimp), both
/// must give the same model bytes and report, or fail with the same message.
void obj_both_readers(const std::uint8_t* data, std::size_t size);

/// A golden file as `springkit check` reads it: loads or fails with one line
/// naming the file; whatever loads is in range (frames >= 1 and increasing, a
/// frame time golden records, finite positions, one per node), its replay work
/// is within the limit for any model, and it writes and reads back the same.
void golden_file(const std::uint8_t* data, std::size_t size);

/// A scene file: loads or fails with one line naming the file; whatever loads
/// passes check_collider, writes and reads back to the same text, and a string
/// steps against it to finite positions or a SimulationError.
void scene_file(const std::uint8_t* data, std::size_t size);

}  // namespace springkit::fuzz
