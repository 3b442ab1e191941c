// springkit — the sample models: every system of the source texts, built with
// the constants each text gives, or ours where it gives none. They are the scenes
// of the registry (scenes.hpp); samples/models/*.json are these models saved
// (samples/make_samples); tests, the editor and games can build them directly.
#pragma once

#include <span>
#include <string_view>

#include "springkit/model.hpp"
#include "springkit/scenes.hpp"

namespace springkit {

/// A sample is a scene of the registry: name, source, shows (and its builder).
using SampleInfo = Scene;

/// Every sample, in the order the README lists them: scenes().
std::span<const SampleInfo> sample_catalogue();

/// Builds the named sample, settled where its source says so:
/// build_scene(find_scene(name)). Throws springkit::Error naming the known
/// scenes for an unknown name.
Model make_sample(std::string_view name);

/// The texture file the cloth sample names (Model::texture), relative to the model.
inline constexpr const char* kClothTexture = "cloth.png";

}  // namespace springkit
