// springkit — scene files: a world's colliders in a file of their own.
//
// The form is JSON (schema/springkit-scene.schema.json, docs/FILE_FORMAT.md,
// "Scene file"): {"format": "springkit-scene", "version": 1, "colliders": [...]},
// each collider with its kind, name, pose, dimensions and surface. A triangle
// mesh carries its vertices and triangles inline, or names a mesh file
// ("file": "stairs.obj", relative to the scene file's folder) that a
// SceneMeshLoader reads: the core reads no mesh formats, springkit::import's
// scene_mesh_loader() reads any Assimp reads. `springkit simulate --scene`
// steps a model against one; a game loads one into the ColliderSet it hands to
// Simulation::set_colliders().
//
// The reader is as strict as the model reader: every problem is one
// springkit::Error naming the file, a JSON pointer and the collider
// ("scene.json: /colliders/2 (\"paddle\"): radius must be a finite number > 0
// (got 0)"). The file keeps where each collider stands, not how it moves.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "springkit/colliders.hpp"

namespace springkit {

/// The scene format version this library writes, and the newest it reads.
inline constexpr int kSceneFormatVersion = 1;
/// Bounds checked before anything is allocated for them: colliders per scene,
/// vertices and triangles per mesh, bytes per file.
inline constexpr std::size_t kMaxSceneColliders = 4096;
inline constexpr std::size_t kMaxSceneMeshVertices = std::size_t{1} << 22;
inline constexpr std::size_t kMaxSceneMeshTriangles = std::size_t{1} << 22;
inline constexpr std::size_t kMaxSceneFileBytes = std::size_t{1} << 28;

/// Reads the mesh file a triangle_mesh collider of a scene names, at `path`
/// (already resolved against the scene file's folder): its triangles in the
/// file's coordinates. Throws springkit::Error naming the file and the problem.
using SceneMeshLoader = std::function<std::shared_ptr<const TriangleMesh>(const std::filesystem::path& path)>;

/// Loads a scene file (a regular file of at most kMaxSceneFileBytes). Throws
/// springkit::Error naming the file, the location and the problem. Mesh files
/// it names are read with `meshes`; without one such a scene is refused.
ColliderSet load_scene(const std::filesystem::path& path, const SceneMeshLoader& meshes = {});
/// Saves atomically (write_file_atomically; the save targets of io.hpp). A
/// mesh read from a file is written as that file, relative to `path`'s folder.
void save_scene(const ColliderSet& scene, const std::filesystem::path& path);

/// The same, from and to memory; `name` stands for the file in messages, and
/// `folder` is what mesh file names are relative to. scene_to_json writes each
/// float's shortest exact text, so a scene read back equals the one written,
/// bit for bit.
ColliderSet scene_from_json(std::string_view text, const std::string& name = "<memory>",
                            const SceneMeshLoader& meshes = {}, const std::filesystem::path& folder = {});
std::string scene_to_json(const ColliderSet& scene, const std::filesystem::path& folder = {});

}  // namespace springkit
