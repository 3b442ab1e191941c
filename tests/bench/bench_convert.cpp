// `springkit convert` of a mesh with about 1M triangles (a 708 x 708 vertex grid
// with UVs as OBJ: 999,698 triangles) against Assimp's own ReadFile of the same
// file (the importer's flags: none), in the same run. The convert runs the real
// command line (its importer runs in a child process), writing JSON and the
// binary form.
#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

extern char** environ;
namespace fs = std::filesystem;

namespace {

constexpr int kGrid = 708;  // vertices per side

fs::path work_dir() {
    static const fs::path dir = [] {
        const fs::path d = fs::temp_directory_path() / ("springkit-bench-convert-" + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

// The grid OBJ, written once: positions, UVs, two triangles per quad.
const fs::path& grid_obj() {
    static const fs::path file = [] {
        const fs::path f = work_dir() / "grid.obj";
        std::ofstream out(f);
        char line[96];
        for (int r = 0; r < kGrid; ++r)
            for (int c = 0; c < kGrid; ++c) {
                std::snprintf(line, sizeof line, "v %.6f 0 %.6f\n", c / double(kGrid - 1), r / double(kGrid - 1));
                out << line;
            }
        for (int r = 0; r < kGrid; ++r)
            for (int c = 0; c < kGrid; ++c) {
                std::snprintf(line, sizeof line, "vt %.6f %.6f\n", c / double(kGrid - 1), r / double(kGrid - 1));
                out << line;
            }
        for (int r = 0; r + 1 < kGrid; ++r)
            for (int c = 0; c + 1 < kGrid; ++c) {
                const int a = r * kGrid + c + 1, b = a + 1, d = a + kGrid, e = d + 1;  // 1-based
                std::snprintf(line, sizeof line, "f %d/%d %d/%d %d/%d\nf %d/%d %d/%d %d/%d\n", a, a, d, d, b, b, b,
                              b, d, d, e, e);
                out << line;
            }
        return f;
    }();
    return file;
}

int run(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) return -1;
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void BM_AssimpReadFile(benchmark::State& state) {
    const std::string file = grid_obj().string();
    std::size_t vertices = 0, faces = 0;
    for (auto _ : state) {
        Assimp::Importer importer;
        const aiScene* scene = importer.ReadFile(file, 0);
        if (!scene) {
            state.SkipWithError("Assimp could not read the grid");
            return;
        }
        vertices = scene->mMeshes[0]->mNumVertices;
        faces = scene->mMeshes[0]->mNumFaces;
    }
    state.counters["triangles"] = static_cast<double>(faces);
    state.counters["assimp_vertices"] = static_cast<double>(vertices);
    state.counters["file_MB"] = static_cast<double>(fs::file_size(file)) / 1e6;
}

// `springkit convert` as a user runs it; `reader` "assimp" passes --assimp-obj
// (Assimp reads the OBJ, as for every file outside the plain OBJ subset);
// `springs` is a structural-springs option, or "" for the default (the grid is
// a flat sheet: bend and shear springs).
void BM_SpringkitConvert(benchmark::State& state, const char* output, const char* reader, const char* springs) {
    const std::string in = grid_obj().string(), out = (work_dir() / output).string();
    std::vector<std::string> command{SPRINGKIT_CLI, "convert", in, "-o", out};
    if (std::string_view(reader) == "assimp") command.push_back("--assimp-obj");
    if (*springs != '\0') command.push_back(springs);
    for (auto _ : state) {
        if (run(command) != 0) {
            state.SkipWithError("springkit convert failed");
            return;
        }
    }
    state.counters["output_MB"] = static_cast<double>(fs::file_size(out)) / 1e6;
}

}  // namespace

BENCHMARK(BM_AssimpReadFile)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK_CAPTURE(BM_SpringkitConvert, binary, "grid.skb", "obj", "")->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK_CAPTURE(BM_SpringkitConvert, binary_edges, "grid.skb", "obj", "--springs=edges")
    ->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK_CAPTURE(BM_SpringkitConvert, binary_volume, "grid.skb", "obj", "--volume")
    ->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK_CAPTURE(BM_SpringkitConvert, json, "grid.json", "obj", "")->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK_CAPTURE(BM_SpringkitConvert, json_volume, "grid.json", "obj", "--volume")
    ->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK_CAPTURE(BM_SpringkitConvert, binary_assimp, "grid.skb", "assimp", "")
    ->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK_CAPTURE(BM_SpringkitConvert, json_assimp, "grid.json", "assimp", "")
    ->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::error_code ec;
    fs::remove_all(work_dir(), ec);
    return 0;
}
