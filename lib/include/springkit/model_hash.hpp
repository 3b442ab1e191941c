// springkit — a content hash of a model: goldens name the model they were
// recorded from by it, and a saved simulation state names the body it belongs to.
#pragma once

#include <cstdint>

#include "springkit/model.hpp"

namespace springkit {

/// What model_hash() covers.
enum class HashScope {
    /// Everything a simulation depends on (parameters, positions, masses,
    /// springs, anchors, attachments) plus faces, texcoords and tubes: the model's
    /// canonical JSON form (docs/FILE_FORMAT.md) without its name and texture path,
    /// so a field added to the file is covered without a change here.
    whole_model,
    /// Only what the running body reads and a saved state does not carry: nodes,
    /// masses, springs, face corners, anchors and their drives, tethers, beads,
    /// constant forces, and the parameters k and mass. Texcoords, tubes and the
    /// other parameters (settings, which a saved state holds itself) are left out.
    physics,
};

/// FNV-1a 64-bit hash (Fowler, Noll, Vo) of `model` over `scope`. The bytes hashed
/// are the same on every platform (the JSON text; little-endian values), so
/// equal models hash equal everywhere and stored hashes stay valid.
std::uint64_t model_hash(const Model& model, HashScope scope = HashScope::whole_model);

}  // namespace springkit
