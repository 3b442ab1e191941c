// springkit — the sample models: every system of the source texts, built in one
// place (builders.hpp) with the constants each text gives, or ours where it gives
// none. samples/models/*.json are these models saved (samples/make_samples);
// tests, the editor and games can build them directly.
#pragma once

#include <span>
#include <string_view>

#include "springkit/model.hpp"

namespace springkit {

struct SampleInfo {
    const char* name;    ///< `make_sample` key; the file is samples/models/<name>.json
    const char* source;  ///< the seed text it comes from
    const char* shows;   ///< what it shows, and the constants we chose where the text gives none
};

/// Every sample, in the order the README lists them.
std::span<const SampleInfo> sample_catalogue();

/// Builds the named sample (presimulated where its source says so). Throws
/// springkit::Error naming the known samples for an unknown name.
Model make_sample(std::string_view name);

/// The texture file the cloth sample names (Model::texture), relative to the model.
inline constexpr const char* kClothTexture = "cloth.png";

}  // namespace springkit
