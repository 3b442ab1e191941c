// Every input the fuzzers found a problem with (tests/fuzz/regressions/<target>/)
// replayed through the same target function, built without libFuzzer: each must
// pass the target's invariants (a broken one aborts the test).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "fuzz/fuzz_targets.hpp"
#include "springkit/io.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> inputs_of(const std::string& target) {
    std::vector<fs::path> files;
    const fs::path dir = fs::path(SPRINGKIT_SOURCE_DIR) / "tests/fuzz/regressions" / target;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.is_regular_file() && entry.path().filename() != "README.md") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

template <class Target>
void replay(const std::string& target, Target run) {
    const auto files = inputs_of(target);
    for (const fs::path& file : files) {
        SCOPED_TRACE(file.filename().string());
        const std::string bytes = springkit::read_file(file);
        run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    }
}

}  // namespace

TEST(FuzzRegressions, ModelFileInputs) {
    EXPECT_FALSE(inputs_of("model").empty());
    replay("model", springkit::fuzz::model_file);
}

TEST(FuzzRegressions, SceneFileInputs) {
    EXPECT_FALSE(inputs_of("scene").empty());
    replay("scene", springkit::fuzz::scene_file);
}

#ifdef SPRINGKIT_HAVE_CLI
TEST(FuzzRegressions, GoldenFileInputs) {
    EXPECT_FALSE(inputs_of("golden").empty());
    replay("golden", springkit::fuzz::golden_file);
}
#endif

#ifdef SPRINGKIT_HAVE_IMPORT
TEST(FuzzRegressions, MeshImportInputs) {
    if (inputs_of("import").empty()) GTEST_SKIP() << "the importer fuzzer has found nothing to keep yet";
    replay("import", springkit::fuzz::mesh_import);
}

TEST(FuzzRegressions, ObjBothReadersInputs) {
    if (inputs_of("obj").empty()) GTEST_SKIP() << "the OBJ readers' fuzzer has found nothing to keep yet";
    replay("obj", springkit::fuzz::obj_both_readers);
}
#endif
