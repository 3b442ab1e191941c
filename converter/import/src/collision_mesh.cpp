// springkit::import — mesh files as static triangle mesh colliders (import.hpp,
// import_collision_mesh): the scene file's "file" form, read with the same
// importer as models.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "springkit/colliders.hpp"
#include "springkit/error.hpp"
#include "springkit/import.hpp"

namespace springkit {

std::shared_ptr<const TriangleMesh> import_collision_mesh(const std::filesystem::path& path, bool isolated) {
    // The faces as the file has them: no structural springs (edges only), no
    // reordering, exact duplicates welded (a shared corner is one vertex).
    ImportOptions options;
    options.weld = 0.0;
    options.structure = ImportOptions::Structure::edges;
    options.keep_order = true;
    Model model = isolated ? import_mesh_isolated(path, options) : import_mesh(path, options);
    if (model.faces.empty()) throw Error(path.string() + ": the mesh has no faces to collide with");
    std::vector<std::array<std::uint32_t, 3>> triangles;
    triangles.reserve(model.faces.size());
    for (const Face& f : model.faces) triangles.push_back({f.node[0], f.node[1], f.node[2]});
    try {
        return make_triangle_mesh(std::move(model.positions), std::move(triangles));
    } catch (const Error& e) {
        throw Error(path.string() + ": " + e.what());
    }
}

SceneMeshLoader scene_mesh_loader(bool isolated) {
    return [isolated](const std::filesystem::path& path) { return import_collision_mesh(path, isolated); };
}

}  // namespace springkit
