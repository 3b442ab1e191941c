// The committed samples/ files are exactly what the generator writes, and load.
#include <gtest/gtest.h>

#include <filesystem>

#include "sample_files.hpp"
#include "springkit/springkit.hpp"
#include "support/build_arithmetic.hpp"

using namespace springkit;

namespace {
const std::filesystem::path kSamples = std::filesystem::path(SPRINGKIT_SOURCE_DIR) / "samples";

// The scenes the registry settles (Scene::settle_seconds) come out a few ulp off
// the committed files in a build for a given CPU (support/build_arithmetic.hpp).
bool presimulated_differently(const std::string& path) {
    if (test::kStepsToPortableBits) return false;
    for (const Scene& scene : scenes())
        if (scene.settle_seconds > 0 && path.find(scene.name) != std::string::npos) return true;
    return false;
}
}  // namespace

TEST(SampleFiles, CommittedFilesAreWhatTheGeneratorWrites) {
    for (const samples::SampleFile& f : samples::sample_files()) {
        std::string committed;
        ASSERT_NO_THROW(committed = read_file(kSamples / f.path)) << f.path << " is missing";
        if (presimulated_differently(f.path)) continue;
        EXPECT_TRUE(committed == f.bytes)
            << "samples/" << f.path << " differs from what the builders make; regenerate with "
            << "build/samples/make_samples samples";
    }
}

TEST(SampleFiles, EveryCommittedModelLoadsAndTheMainOneIsTheTexturedCloth) {
    for (const SampleInfo& info : sample_catalogue()) {
        const Model m = load_model(kSamples / "models" / (std::string(info.name) + ".json"));
        if (presimulated_differently(info.name)) continue;
        EXPECT_EQ(m, make_sample(info.name)) << info.name;
    }
    const Model cloth = load_model(kSamples / "models" / "cloth.json");
    EXPECT_TRUE(std::filesystem::exists(kSamples / "models" / cloth.texture));
}

TEST(SampleFiles, CheckerboardIsAValidPngOfTheRightSize) {
    const std::string png = samples::checkerboard_png(16, 4);
    ASSERT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n"));
    EXPECT_EQ(png.substr(12, 4), "IHDR");
    EXPECT_EQ(static_cast<unsigned char>(png[19]), 16u);  // width, big-endian
    EXPECT_EQ(static_cast<unsigned char>(png[23]), 16u);  // height
    // 16 rows of a filter byte and 16 RGB pixels, stored uncompressed.
    EXPECT_EQ(png.size(), 8u + 25u + (12u + 2u + 5u + 16u * 49u + 4u) + 12u);
    EXPECT_EQ(png.substr(png.size() - 8, 4), "IEND");
}
