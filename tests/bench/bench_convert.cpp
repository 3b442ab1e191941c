// `springkit convert` against Assimp's own ReadFile of the same file (the
// importer's flags: none), in the same run: a mesh with about 1M triangles (a
// 708 x 708 vertex grid with UVs as OBJ: 999,698 triangles), and a closed mesh
// of 200,000 triangles as a glTF binary (a torus as exporters write one: indexed,
// with normals and UVs, its seam vertices doubled). The convert runs the real
// command line (its importer runs in a child process), writing JSON and the
// binary form.
//
// The command line is the `springkit` next to this program when there is one,
// else the build's: tests/bench/ab then compares two builds' converters with
// one benchmark program (copy it beside each build's `springkit`).
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

extern char** environ;
namespace fs = std::filesystem;

namespace {

constexpr int kGrid = 708;  // vertices per side
constexpr int kTorusAround = 500, kTorusTube = 200;  // 2 x 500 x 200 triangles

/// The command line to time: see the top of the file.
const std::string& springkit_cli() {
    static const std::string path = [] {
        std::error_code ec;
        const fs::path beside = fs::read_symlink("/proc/self/exe", ec).parent_path() / "springkit";
        return !ec && fs::is_regular_file(beside) ? beside.string() : std::string(SPRINGKIT_CLI);
    }();
    return path;
}

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

// The torus as a glTF 2.0 binary (GLB: a 12-byte header, a JSON chunk and a
// binary chunk, each 4-byte aligned): major radius 0.5 m, tube radius 0.2 m;
// (around + 1) x (tube + 1) vertices, the first row and column repeated at the
// seams with their own UVs, as exporters write a textured mesh.
const fs::path& torus_glb() {
    static const fs::path file = [] {
        const int nu = kTorusAround, nv = kTorusTube, vertices = (nu + 1) * (nv + 1);
        std::vector<float> position, normal, uv;
        float low[3] = {1e9f, 1e9f, 1e9f}, high[3] = {-1e9f, -1e9f, -1e9f};
        for (int i = 0; i <= nu; ++i)
            for (int j = 0; j <= nv; ++j) {
                const double a = 2 * M_PI * (i % nu) / nu, b = 2 * M_PI * (j % nv) / nv;
                const float p[3] = {float((0.5 + 0.2 * std::cos(b)) * std::cos(a)), float(0.2 * std::sin(b)),
                                    float((0.5 + 0.2 * std::cos(b)) * std::sin(a))};
                for (int c = 0; c < 3; ++c) {
                    position.push_back(p[c]);
                    low[c] = std::min(low[c], p[c]);
                    high[c] = std::max(high[c], p[c]);
                }
                normal.insert(normal.end(), {float(std::cos(b) * std::cos(a)), float(std::sin(b)),
                                             float(std::cos(b) * std::sin(a))});
                uv.insert(uv.end(), {float(i) / nu, float(j) / nv});
            }
        std::vector<std::uint32_t> index;
        for (int i = 0; i < nu; ++i)
            for (int j = 0; j < nv; ++j) {
                const std::uint32_t a = i * (nv + 1) + j, b = a + nv + 1;
                index.insert(index.end(), {a, a + 1, b, b, a + 1, b + 1});
            }
        std::string bin;
        auto append = [&bin](const auto& values) {
            const std::size_t at = bin.size();
            bin.resize(at + values.size() * sizeof values[0]);
            std::memcpy(bin.data() + at, values.data(), values.size() * sizeof values[0]);
            return at;
        };
        const std::size_t views[4] = {append(position), append(normal), append(uv), append(index)};
        const std::size_t ends[4] = {views[1], views[2], views[3], bin.size()};
        char json[2048];
        std::snprintf(json, sizeof json,
                      R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],)"
                      R"("meshes":[{"primitives":[{"attributes":{"POSITION":0,"NORMAL":1,"TEXCOORD_0":2},"indices":3}]}],)"
                      R"("buffers":[{"byteLength":%zu}],"bufferViews":[)"
                      R"({"buffer":0,"byteOffset":%zu,"byteLength":%zu},{"buffer":0,"byteOffset":%zu,"byteLength":%zu},)"
                      R"({"buffer":0,"byteOffset":%zu,"byteLength":%zu},{"buffer":0,"byteOffset":%zu,"byteLength":%zu}],)"
                      R"("accessors":[{"bufferView":0,"componentType":5126,"count":%d,"type":"VEC3",)"
                      R"("min":[%.9g,%.9g,%.9g],"max":[%.9g,%.9g,%.9g]},)"
                      R"({"bufferView":1,"componentType":5126,"count":%d,"type":"VEC3"},)"
                      R"({"bufferView":2,"componentType":5126,"count":%d,"type":"VEC2"},)"
                      R"({"bufferView":3,"componentType":5125,"count":%zu,"type":"SCALAR"}]})",
                      bin.size(), views[0], ends[0] - views[0], views[1], ends[1] - views[1], views[2],
                      ends[2] - views[2], views[3], ends[3] - views[3], vertices, low[0], low[1], low[2], high[0],
                      high[1], high[2], vertices, vertices, index.size());
        std::string text = json;
        text.resize((text.size() + 3) / 4 * 4, ' ');
        auto u32 = [](std::string& out, std::uint32_t x) {
            for (int k = 0; k < 4; ++k) out += static_cast<char>(x >> (8 * k));
        };
        std::string glb;
        u32(glb, 0x46546C67u);  // "glTF"
        u32(glb, 2);
        u32(glb, static_cast<std::uint32_t>(12 + 8 + text.size() + 8 + bin.size()));
        u32(glb, static_cast<std::uint32_t>(text.size()));
        u32(glb, 0x4E4F534Au);  // "JSON"
        glb += text;
        u32(glb, static_cast<std::uint32_t>(bin.size()));
        u32(glb, 0x004E4942u);  // "BIN"
        glb += bin;
        const fs::path f = work_dir() / "torus.glb";
        std::ofstream(f, std::ios::binary) << glb;
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

// `flags` 0 is what the importer asks for; a preset shows what a program that
// loads the file with Assimp to draw it pays.
void BM_AssimpReadFile(benchmark::State& state, const fs::path& (*mesh)(), unsigned flags) {
    const std::string file = mesh().string();
    std::size_t vertices = 0, faces = 0;
    for (auto _ : state) {
        Assimp::Importer importer;
        const aiScene* scene = importer.ReadFile(file, flags);
        if (!scene) {
            state.SkipWithError("Assimp could not read the mesh");
            return;
        }
        vertices = scene->mMeshes[0]->mNumVertices;
        faces = scene->mMeshes[0]->mNumFaces;
    }
    state.counters["triangles"] = static_cast<double>(faces);
    state.counters["assimp_vertices"] = static_cast<double>(vertices);
    state.counters["file_MB"] = static_cast<double>(fs::file_size(file)) / 1e6;
}

// `springkit convert in -o out` plus `options` ("" ones left out), as a user runs it.
void time_convert(benchmark::State& state, const fs::path& in, const char* output,
                  std::initializer_list<const char*> options) {
    const std::string out = (work_dir() / output).string();
    std::vector<std::string> command{springkit_cli(), "convert", in.string(), "-o", out};
    for (const char* option : options)
        if (*option != '\0') command.push_back(option);
    for (auto _ : state) {
        if (run(command) != 0) {
            state.SkipWithError("springkit convert failed");
            return;
        }
    }
    state.counters["output_MB"] = static_cast<double>(fs::file_size(out)) / 1e6;
}

// The grid: `reader` "assimp" passes --assimp-obj (Assimp reads the OBJ, as for
// every file outside the plain OBJ subset); `springs` is a structural-springs
// option, or "" for the default (the grid is a flat sheet: bend and shear springs).
void BM_SpringkitConvert(benchmark::State& state, const char* output, const char* reader, const char* springs) {
    time_convert(state, grid_obj(), output, {std::string_view(reader) == "assimp" ? "--assimp-obj" : "", springs});
}

// The torus GLB: `springs` as for the grid ("" for the default: a closed surface
// gets volume springs); the output's extension picks the form.
void BM_SpringkitConvertGlb(benchmark::State& state, const char* output, const char* springs) {
    time_convert(state, torus_glb(), output, {springs});
}

}  // namespace

BENCHMARK_CAPTURE(BM_AssimpReadFile, grid_obj, grid_obj, 0u)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
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

BENCHMARK_CAPTURE(BM_AssimpReadFile, torus_glb, torus_glb, 0u)->Unit(benchmark::kMillisecond)->UseRealTime();
// What a game's importer asks Assimp for: triangles, one vertex per distinct
// corner, normals (the steps `springkit convert` does itself: it triangulates
// and welds, and needs no normals); then Assimp's two realtime presets.
BENCHMARK_CAPTURE(BM_AssimpReadFile, torus_glb_game, torus_glb,
                  unsigned{aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_AssimpReadFile, torus_glb_realtime_fast, torus_glb,
                  unsigned{aiProcessPreset_TargetRealtime_Fast})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_AssimpReadFile, torus_glb_realtime_quality, torus_glb,
                  unsigned{aiProcessPreset_TargetRealtime_Quality})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_SpringkitConvertGlb, binary, "torus.skb", "")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_SpringkitConvertGlb, json, "torus.json", "")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_SpringkitConvertGlb, binary_edges, "torus.skb", "--springs=edges")
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_SpringkitConvertGlb, json_edges, "torus.json", "--springs=edges")
    ->Unit(benchmark::kMillisecond)->UseRealTime();

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::error_code ec;
    fs::remove_all(work_dir(), ec);
    return 0;
}
