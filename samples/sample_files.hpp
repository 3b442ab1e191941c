// springkit — the files of samples/: every sample model as JSON, the cloth's
// texture and the README, generated from the library's scene registry
// (springkit/scenes.hpp). samples/make_samples writes them; a test checks that
// the committed files are exactly what this generates.
#pragma once

#include <string>
#include <vector>

namespace springkit::samples {

struct SampleFile {
    std::string path;   ///< relative to samples/, e.g. "models/cloth.json"
    std::string bytes;  ///< the file's exact content
};

/// All generated files, in a fixed order.
std::vector<SampleFile> sample_files();

/// The cloth's texture: a checkerboard as an RGB PNG (uncompressed deflate, so no
/// zlib is needed and the bytes never change).
std::string checkerboard_png(int size, int squares);

}  // namespace springkit::samples
