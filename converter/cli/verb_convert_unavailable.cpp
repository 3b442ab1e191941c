// springkit CLI — `convert` in a springkit built without the mesh importer
// (SPRINGKIT_BUILD_IMPORT=OFF, or no Assimp when it was built). The verb stays in
// `springkit --help`, marked as unavailable: `springkit convert ...` then says
// why it cannot run instead of calling convert an unknown verb (a usage error,
// exit 2). Not being able to do the work is a failure, exit 1, whatever the
// arguments, so convert's options are accepted here and ignored.
#include "cli.hpp"

namespace springkit::cli {

std::string importer_version() { return "no mesh importer"; }

SceneMeshLoader scene_mesh_files() { return {}; }

VerbRun register_convert(CLI::App& app) {
    CLI::App* sub = app.add_subcommand(
        "convert", "Convert meshes into spring models (unavailable: this springkit was built without the mesh importer)");
    sub->allow_extras();
    sub->fallthrough(false);  // keep the extras here: the top level would call them unexpected
    return [] {
        print_error("convert is unavailable: this springkit was built without the mesh importer "
                    "(springkit::import, which needs Assimp)");
        return kExitFailure;
    };
}

}  // namespace springkit::cli
