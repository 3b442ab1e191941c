// Fuzz target: mesh import (see fuzz_targets.hpp). The first byte picks the file
// format (an index into kMeshFormats), the rest is the file. It is written to a
// file in /dev/shm (memory) and imported with springkit::import_mesh in this
// process, so the fuzzer exercises exactly what `springkit convert` runs in its
// importer child: Assimp's ReadFile with our settings, then the conversion.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_targets.hpp"
#include "springkit/import.hpp"
#include "springkit/springkit.hpp"

namespace springkit::fuzz {

namespace {

// The formats of Debian's assimp-testmodels that tests/fuzz/run seeds from; the
// "// format" marks are read by that script, keep one per line.
constexpr const char* kMeshFormats[] = {
    "obj",   // format
    "ply",   // format
    "stl",   // format
    "off",   // format
    "fbx",   // format
    "dae",   // format
    "3ds",   // format
    "ase",   // format
    "x",     // format
    "ms3d",  // format
    "md2",   // format
    "md3",   // format
    "ac",    // format
    "gltf",  // format
    "glb",   // format
    "nff",   // format
    "smd",   // format
    "lwo",   // format
    "b3d",   // format
    "q3o",   // format
    "raw",   // format
    "cob",   // format
    "irrmesh",  // format
    "xgl",   // format
    "mdl",   // format
};
constexpr std::size_t kFormatCount = sizeof kMeshFormats / sizeof kMeshFormats[0];

[[noreturn]] void broken(const char* invariant, const std::string& detail = {}) {
    std::fprintf(stderr, "fuzz invariant broken: %s %s\n", invariant, detail.c_str());
    std::abort();
}

}  // namespace

void mesh_import(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return;
    const char* format = kMeshFormats[data[0] % kFormatCount];
    static const std::filesystem::path dir =
        std::filesystem::exists("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    const std::filesystem::path file = dir / ("springkit-fuzz-" + std::to_string(::getpid()) + "." + format);
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
    }
    Model model;
    try {
        ImportOptions options;
        options.bend = true;
        options.volume = (data[0] / kFormatCount) % 2 == 1;  // the format byte's high part picks options
        model = import_mesh(file, options);
    } catch (const Error& e) {
        const std::string what = e.what();
        if (what.rfind(file.string() + ": ", 0) != 0) broken("error names the file", what);
        if (what.find('\n') != std::string::npos) broken("one-line error", what);
        return;
    } catch (const std::bad_alloc&) {
        return;  // a memory limit hit is reported by import_mesh_isolated, not a bug here
    }
    // Whatever converts is a valid model that survives a save/load round trip.
    try {
        validate(model);
    } catch (const Error& e) {
        broken("an imported model validates", e.what());
    }
    if (!(model_from_json(model_to_json(model)) == model)) broken("imported model round-trips");
}

void obj_both_readers(const std::uint8_t* data, std::size_t size) {
    static const std::filesystem::path dir =
        std::filesystem::exists("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    const std::filesystem::path file = dir / ("springkit-fuzz-" + std::to_string(::getpid()) + ".obj");
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    // springkit's reader first: a file it hands to Assimp has nothing to compare.
    ImportOptions options;
    ImportReport fast_report, assimp_report;
    std::string fast, assimp, fast_error, assimp_error;
    try {
        fast = model_to_binary(import_mesh(file, options, fast_report));
    } catch (const Error& e) {
        fast_error = e.what();
    }
    if (fast_report.reader != "obj") return;
    options.fast_obj = false;
    try {
        assimp = model_to_binary(import_mesh(file, options, assimp_report));
    } catch (const Error& e) {
        assimp_error = e.what();
    }
    if (fast_error != assimp_error) broken("both readers fail alike", fast_error + " | " + assimp_error);
    if (fast != assimp) broken("both readers give the same model");
    if (fast_report.input_vertices != assimp_report.input_vertices || fast_report.meshes != assimp_report.meshes ||
        fast_report.welded_vertices != assimp_report.welded_vertices || fast_report.warnings != assimp_report.warnings)
        broken("both readers give the same report");
}

}  // namespace springkit::fuzz
