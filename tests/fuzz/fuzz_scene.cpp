// Fuzz target: scene files (see fuzz_targets.hpp).
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "fuzz_checks.hpp"
#include "fuzz_targets.hpp"
#include "springkit/springkit.hpp"

namespace springkit::fuzz {

void scene_file(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const std::string name = "fuzz.scene.json";
    // A mesh file a scene names (one that exists: the reader checks that
    // first) becomes one triangle, so the "file" form reaches the writer and
    // the round trip below without reading any file.
    const SceneMeshLoader meshes = [](const std::filesystem::path&) {
        return make_triangle_mesh({{0, 0, 0}, {1, 0, 0}, {0, 0, 1}}, {{{0, 1, 2}}});
    };
    ColliderSet scene;
    try {
        scene = scene_from_json(bytes, name, meshes);
    } catch (const Error& e) {
        check_file_error(e.what(), name, bytes);
        return;
    }
    // Whatever loads passes the colliders' own checks and round-trips exactly.
    for (ColliderId i = 0; i < scene.size(); ++i) {
        try {
            check_collider(scene[i], i);
        } catch (const Error& e) {
            broken("a loaded collider passes check_collider", e.what());
        }
    }
    const std::string text = scene_to_json(scene);
    try {
        if (scene_to_json(scene_from_json(text, name, meshes)) != text) broken("write, read, write gives the same text");
    } catch (const Error& e) {
        broken("a written scene reads back", e.what());
    }
    // A short string falls through the scene for a few frames: finite or a
    // SimulationError, never a crash.
    Simulation sim(make_string({.nodes = 4}));
    sim.set_colliders(std::make_shared<const ColliderSet>(std::move(scene)));
    three_frames_stay_finite(sim);
}

}  // namespace springkit::fuzz
