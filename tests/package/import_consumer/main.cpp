// Converts one mesh to a model file through the installed springkit::import, with
// Assimp reading it (not springkit's own OBJ reader), as `springkit convert
// --assimp-obj` does; tests/package/test_install.sh compares the two outputs.
//
//   mesh-to-model MESH MODEL
#include <springkit/import.hpp>
#include <springkit/springkit.hpp>

#include <cstdio>
#include <filesystem>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: mesh-to-model MESH MODEL\n");
        return 2;
    }
    try {
        const std::filesystem::path out = argv[2];
        springkit::ImportOptions options;
        options.fast_obj = false;
        options.texture_folder = std::filesystem::absolute(out).lexically_normal().parent_path();
        const springkit::Model model = springkit::import_mesh_isolated(argv[1], options);
        springkit::save_model(model, out);
        std::printf("%s: %zu nodes, %zu springs\n", out.string().c_str(), model.node_count(), model.springs.size());
    } catch (const springkit::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
