// springkit-editor run headless under xvfb-run (Mesa llvmpipe): it renders real
// frames in a real window and writes PNG screenshots, and these tests check the
// pictures: the model covers a plausible share of the image, lighting changes it,
// the texture shows, and the shading of a swinging cloth changes between frame 1
// and frame 120 because normals are recomputed every step (relighting).
#include <gtest/gtest.h>
#include <stb_image_write.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "springkit/builders.hpp"
#include "springkit/io.hpp"
#include "springkit/samples.hpp"
#include "editor_process.hpp"
#include "support/test_files.hpp"

namespace fs = std::filesystem;
using namespace springkit;
using springkit::test::TempDir;
using namespace springkit::test::editor;

namespace {

constexpr int kWidth = 320, kHeight = 240;

// Standard deviation of the brightness of the model's pixels.
double brightness_spread(const Image& image) {
    double sum = 0, sum2 = 0;
    std::size_t n = 0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            if (image.background(x, y)) continue;
            const unsigned char* p = image.at(x, y);
            const double b = (p[0] + p[1] + p[2]) / 3.0;
            sum += b;
            sum2 += b * b;
            ++n;
        }
    if (n == 0) return 0;
    const double mean = sum / static_cast<double>(n);
    return std::sqrt(std::max(0.0, sum2 / static_cast<double>(n) - mean * mean));
}

// A horizontal cloth held at two corners: it falls, swings and folds.
fs::path write_cloth(const fs::path& dir, const std::string& texture = {}) {
    ClothSpec spec;
    spec.columns = 16;
    spec.rows = 16;
    Model model = make_cloth(spec);
    model.texture = texture;
    const fs::path path = dir / "cloth.json";
    save_model(model, path);
    return path;
}

std::string size_args() { return " --width " + std::to_string(kWidth) + " --height " + std::to_string(kHeight); }

// Only the surface: no panels, ground, shadow, springs or points.
constexpr const char* kSurfaceOnly = " --hide ui,grid,shadow,springs,nodes,anchors";

}  // namespace

TEST(EditorScreenshots, modelCoversAPlausibleShareOfTheImage) {
    TempDir dir;
    const fs::path model = write_cloth(dir.path());
    const fs::path shot = dir.path() / "shot.png";
    const EditorRun run = run_editor("'" + model.string() + "' --frames 3 --stats --screenshot '" + shot.string() + "'" +
                                   size_args() + " --hide ui",
                               dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("frame ms median"), std::string::npos) << run.out;
    const Image image = load_png(shot);
    ASSERT_EQ(image.width, kWidth);
    ASSERT_EQ(image.height, kHeight);
    const double share = coverage(image);
    EXPECT_GT(share, 0.15) << "the model and its ground should fill a good part of the view";
    EXPECT_LT(share, 0.98);

    const fs::path bare = dir.path() / "bare.png";
    ASSERT_EQ(run_editor("'" + model.string() + "' --frames 3 --screenshot '" + bare.string() + "'" + size_args() +
                             kSurfaceOnly,
                         dir.path())
                  .exit_code,
              0);
    const double surface = coverage(load_png(bare));
    EXPECT_GT(surface, 0.05) << "the framed cloth alone";
    EXPECT_LT(surface, 0.7);
}

TEST(EditorScreenshots, litViewDiffersFromUnlit) {
    TempDir dir;
    const fs::path model = write_cloth(dir.path());
    const fs::path lit = dir.path() / "lit.png", flat = dir.path() / "flat.png";
    // Paused: both pictures show the same geometry.
    const std::string common = "'" + model.string() + "' --paused --frames 2" + size_args() + kSurfaceOnly;
    ASSERT_EQ(run_editor(common + " --screenshot '" + lit.string() + "'", dir.path()).exit_code, 0);
    ASSERT_EQ(run_editor(common + ",lighting --screenshot '" + flat.string() + "'", dir.path()).exit_code, 0);
    const Image a = load_png(lit), b = load_png(flat);
    ASSERT_EQ(a.rgb.size(), b.rgb.size());
    double difference = 0;
    std::size_t model_pixels = 0;
    for (int y = 0; y < a.height; ++y)
        for (int x = 0; x < a.width; ++x) {
            if (a.background(x, y) || b.background(x, y)) continue;
            ++model_pixels;
            for (int c = 0; c < 3; ++c) difference += std::abs(a.at(x, y)[c] - b.at(x, y)[c]);
        }
    ASSERT_GT(model_pixels, 1000u);
    EXPECT_GT(difference / (3.0 * static_cast<double>(model_pixels)), 8.0)
        << "lighting should change the model's colour by several levels on average";
}

TEST(EditorScreenshots, shadingOfASwingingClothChangesBetweenFrame1And120) {
    TempDir dir;
    const fs::path model = write_cloth(dir.path());
    const fs::path first = dir.path() / "frame1.png", later = dir.path() / "frame120.png";
    const std::string common = "'" + model.string() + "'" + size_args() + kSurfaceOnly;
    ASSERT_EQ(run_editor(common + " --frames 1 --screenshot '" + first.string() + "'", dir.path()).exit_code, 0);
    ASSERT_EQ(run_editor(common + " --frames 120 --screenshot '" + later.string() + "'", dir.path()).exit_code, 0);
    // Frame 1: the cloth is still flat, so one normal lights it evenly. Frame 120: it
    // hangs in folds; only normals recomputed from the moved nodes shade them apart.
    const double flat = brightness_spread(load_png(first));
    const double folded = brightness_spread(load_png(later));
    EXPECT_LT(flat, 4.0);
    EXPECT_GT(folded, flat + 10.0) << "flat " << flat << ", folded " << folded;
}

TEST(EditorScreenshots, modelTextureIsDrawn) {
    TempDir dir;
    // A red and green checkerboard, 8 x 8 texels.
    std::vector<unsigned char> texels(8 * 8 * 3);
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            unsigned char* t = &texels[(y * 8 + x) * 3];
            const bool red = (x + y) % 2 == 0;
            t[0] = red ? 230 : 20;
            t[1] = red ? 20 : 230;
            t[2] = 20;
        }
    ASSERT_TRUE(stbi_write_png((dir.path() / "checker.png").string().c_str(), 8, 8, 3, texels.data(), 8 * 3));
    const fs::path model = write_cloth(dir.path(), "checker.png");
    const fs::path shot = dir.path() / "textured.png", plain = dir.path() / "plain.png";
    const std::string common = "'" + model.string() + "' --paused --frames 2" + size_args() + kSurfaceOnly;
    ASSERT_EQ(run_editor(common + ",lighting --screenshot '" + shot.string() + "'", dir.path()).exit_code, 0);
    ASSERT_EQ(run_editor(common + ",lighting,texture --screenshot '" + plain.string() + "'", dir.path()).exit_code,
              0);
    auto count_green = [](const Image& image) {
        std::size_t green = 0;
        for (int y = 0; y < image.height; ++y)
            for (int x = 0; x < image.width; ++x) {
                const unsigned char* p = image.at(x, y);
                green += (p[1] > 150 && p[0] < 100 && p[2] < 100) ? 1 : 0;
            }
        return green;
    };
    EXPECT_GT(count_green(load_png(shot)), 500u);
    EXPECT_EQ(count_green(load_png(plain)), 0u);
}

TEST(EditorScreenshots, missingTextureIsSaidInTheStatusBarAndOnStderr) {
    // A texture written as another machine's absolute path: the model opens
    // untextured, stderr has one warning line naming the file, and the status
    // bar says so in the warning colour (kWarn: 255, 191, 64) for as long as
    // the model is open, here 40 frames after the "Opened" message.
    TempDir dir;
    const fs::path model = write_cloth(dir.path(), "D:/projects/cloth/nowhere.png");
    const fs::path shot = dir.path() / "shot.png", fine = dir.path() / "fine.png";
    const EditorRun run = run_editor("'" + model.string() + "' --paused --frames 40" + size_args() +
                                         " --screenshot '" + shot.string() + "'",
                                     dir.path());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.err.find("warning: "), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("nowhere.png: texture not found (drawn without it)\n"), std::string::npos) << run.err;
    const fs::path plain = write_cloth(dir.path());
    ASSERT_EQ(run_editor("'" + plain.string() + "' --paused --frames 40" + size_args() + " --screenshot '" +
                             fine.string() + "'",
                         dir.path())
                  .exit_code,
              0);
    // Warning-coloured pixels in the status bar's row (the bottom 20 pixels).
    const auto warned = [](const Image& image) {
        std::size_t n = 0;
        for (int y = image.height - 20; y < image.height; ++y)
            for (int x = 0; x < image.width; ++x) {
                const unsigned char* p = image.at(x, y);
                n += (p[0] > 200 && p[1] > 140 && p[1] < 220 && p[2] < 110) ? 1 : 0;
            }
        return n;
    };
    EXPECT_GT(warned(load_png(shot)), 50u);
    EXPECT_EQ(warned(load_png(fine)), 0u);
}

TEST(EditorScreenshots, ropesAreDrawnAsTubesAndBeadsAsBalls) {
    // Garrido's bead rope has no faces: with springs and nodes hidden, all that
    // shows is its tube (Model::tubes, make_tube) and the blue bead.
    TempDir dir;
    const fs::path model = dir.path() / "bead-rope.json";
    save_model(make_sample("bead-rope"), model);
    const fs::path shot = dir.path() / "ropes.png", bare = dir.path() / "bare.png";
    const std::string common = "'" + model.string() + "' --paused --frames 2" + size_args() + kSurfaceOnly;
    ASSERT_EQ(run_editor(common + " --screenshot '" + shot.string() + "'", dir.path()).exit_code, 0);
    ASSERT_EQ(run_editor(common + ",ropes --screenshot '" + bare.string() + "'", dir.path()).exit_code, 0);
    const Image image = load_png(shot);
    std::size_t blue = 0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const unsigned char* p = image.at(x, y);
            blue += (p[2] > 200 && p[0] < 120 && p[1] > 110 && p[1] < 170) ? 1 : 0;  // kBeadColor
        }
    EXPECT_GT(blue, 40u);
    EXPECT_GT(coverage(image), 0.002);
    EXPECT_EQ(coverage(load_png(bare)), 0.0);
}

TEST(EditorScreenshots, unreadableModelFailsWithOneLineErrorAndIsLeftAlone) {
    TempDir dir;
    const fs::path bad = dir.path() / "bad.json";
    const std::string text = "{\"format\": \"springkit\", \"version\": 1, \"positions\": [[0, 0";
    std::ofstream(bad) << text;
    const EditorRun run = run_editor("'" + bad.string() + "' --frames 2 --screenshot '" +
                                   (dir.path() / "x.png").string() + "'" + size_args(),
                               dir.path());
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_EQ(run.err.rfind("error: ", 0), 0u) << run.err;
    EXPECT_NE(run.err.find("bad.json"), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(dir.path() / "x.png"));
    EXPECT_EQ(read_file(bad), text);
}

TEST(EditorScreenshots, usageErrorsExitWithTwo) {
    TempDir dir;
    EXPECT_EQ(run_editor("--frames 0", dir.path()).exit_code, 2);
    const EditorRun run = run_editor("--screenshot x.png", dir.path());
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_EQ(run.err.rfind("error: ", 0), 0u) << run.err;
    EXPECT_EQ(run_editor("--hide sky", dir.path()).exit_code, 2);
}

TEST(EditorScreenshots, springsAreRedWhenStretchedAndBlueWhenCompressed) {
    TempDir dir;
    // A cloth whose springs are all 10% too short (stretched at their rest positions)
    // and one whose springs are all 10% too long (compressed), seen before any step.
    auto shot_of = [&](float rest_scale, const std::string& name) {
        ClothSpec spec;
        spec.columns = 8;
        spec.rows = 8;
        Model model = make_cloth(spec);
        for (Spring& s : model.springs) s.rest *= rest_scale;
        const fs::path path = dir.path() / (name + ".json"), png = dir.path() / (name + ".png");
        save_model(model, path);
        const EditorRun run = run_editor("'" + path.string() + "' --paused --frames 2 --screenshot '" + png.string() +
                                             "'" + size_args() + " --hide ui,surface,grid,nodes,anchors",
                                         dir.path());
        EXPECT_EQ(run.exit_code, 0) << run.err;
        return load_png(png);
    };
    auto count = [](const Image& image, bool red) {
        std::size_t n = 0;
        for (int y = 0; y < image.height; ++y)
            for (int x = 0; x < image.width; ++x) {
                const unsigned char* p = image.at(x, y);
                const int warm = p[0] - p[2];
                n += (red ? warm > 120 : warm < -120) ? 1 : 0;
            }
        return n;
    };
    const Image stretched = shot_of(0.9f, "stretched"), compressed = shot_of(1.1f, "compressed");
    EXPECT_GT(count(stretched, true), 200u);
    EXPECT_EQ(count(stretched, false), 0u);
    EXPECT_GT(count(compressed, false), 200u);
    EXPECT_EQ(count(compressed, true), 0u);
}
