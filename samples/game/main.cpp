// A minimal game loop around springkit: load a model, step it at a fixed rate
// while "rendering" at whatever rate the game runs, and read positions and
// normals every frame as a renderer would, and what each step reports. Then a
// second instance of the same prepared body placed elsewhere with its own
// settings, a ray cast at it, as a game's picking would, its state saved and
// restored as a savegame would, and its anchors following a game object's
// handle. No editor, no Assimp, no OpenGL.
//
//   springkit-game MODEL.json [FRAMES]
//
// The fixed-rate accumulator is the usual game-loop pattern: rendering frames of
// varying length feed a clock, and the physics consumes it in equal 1/60 s steps,
// so the model behaves the same at any frame rate.
#include <springkit/springkit.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: springkit-game MODEL.json [FRAMES]\n");
        return 2;
    }
    const int frames = argc > 2 ? std::atoi(argv[2]) : 600;
    try {
        // Once per asset: the prepared body every instance shares.
        const auto body = springkit::prepare(springkit::load_model(argv[1]));
        // A game that must not stop on a runaway: go back to the frame's start and
        // report it; and at most 64 substeps a frame, so that a hitch (a long
        // frame) costs a bounded time.
        springkit::Simulation sim(body, {.runaway = springkit::RunawayPolicy::restore_last_good,
                                         .substep_budget = 64});
        int clamped = 0, runaways = 0;

        constexpr float kPhysicsStep = 1.0f / 60.0f;
        float accumulator = 0.0f;
        double height_sum = 0.0;
        springkit::Vec3 normal_sum{};
        for (int frame = 0; frame < frames; ++frame) {
            // A render frame of uneven length, as a real game would see (30-100 Hz).
            const float frame_time = 0.010f + 0.023f * static_cast<float>(frame % 7) / 6.0f;
            accumulator += frame_time;
            while (accumulator >= kPhysicsStep) {
                const springkit::StepResult result = sim.step(kPhysicsStep);
                accumulator -= kPhysicsStep;
                if (result.dropped_substeps > 0) ++clamped;  // fell behind the clock
                if (result.runaway != springkit::RunawayCause::none) {
                    ++runaways;  // restored; a game would lower the stiffness or the substep
                    std::fprintf(stderr, "runaway at node %u: %s\n", result.node, sim.failure().c_str());
                }
            }
            // "Draw": a renderer would upload these two arrays as vertex buffers.
            for (const springkit::Vec3& p : sim.positions()) height_sum += p.y;
            for (const springkit::Vec3& n : sim.normals()) normal_sum += n;
        }
        const double mean_height = height_sum / (static_cast<double>(frames) * sim.positions().size());
        std::printf("%s: %d frames, %.3f s simulated, %zu nodes, mean height %.4f m, kinetic energy %.6g J\n",
                    argv[1], frames, sim.time(), sim.positions().size(), mean_height, sim.kinetic_energy());
        std::printf("step results: %d frames clamped by the substep budget, %d runaways\n", clamped, runaways);
        if (!sim.normals().empty()) {
            const springkit::Vec3 mean = springkit::normalized(normal_sum);
            std::printf("mean normal direction (%.3f, %.3f, %.3f)\n", mean.x, mean.y, mean.z);
        }

        // Another instance of the body, placed 5 m along x and turned a quarter
        // turn about y, in a wind of its own.
        const springkit::Transform placed{{5.0f, 0.0f, 0.0f},
                                          springkit::quat_from_axis_angle({0.0f, 1.0f, 0.0f}, 1.5707964f)};
        springkit::Simulation other(body, placed);
        springkit::Parameters windy = other.parameters();
        windy.wind = {0.0f, 0.0f, 3.0f};
        other.set_parameters(windy);
        for (int step = 0; step < 60; ++step) other.step(kPhysicsStep);
        const springkit::Vec3 center = other.center_of_mass();
        std::printf("placed instance: centre of mass (%.3f, %.3f, %.3f) m, mass %.4g kg\n", center.x, center.y,
                    center.z, other.total_mass());
        std::printf("overridden setting: wind (%.1f, %.1f, %.1f) m/s, the model's (%.1f, %.1f, %.1f) m/s\n",
                    other.parameters().wind.x, other.parameters().wind.y, other.parameters().wind.z,
                    other.model().params.wind.x, other.model().params.wind.y, other.model().params.wind.z);

        // Picking: a ray from a camera up and aside towards the middle of one of
        // the instance's triangles (of a node, for a model without faces).
        const auto now = other.positions();
        springkit::Vec3 target = now[0];
        if (!other.model().faces.empty()) {
            const springkit::Face& face = other.model().faces[other.model().faces.size() / 2];
            target = (now[face.node[0]] + now[face.node[1]] + now[face.node[2]]) * (1.0f / 3.0f);
        }
        const springkit::Vec3 eye = target + springkit::Vec3{3.0f, 4.0f, 2.0f};
        if (const auto hit = springkit::raycast(other.model(), now, eye, target - eye, 100.0f))
            std::printf("raycast: hit at %.3f m, point (%.3f, %.3f, %.3f)\n", hit->distance, hit->point.x,
                        hit->point.y, hit->point.z);
        else
            std::printf("raycast: no hit\n");

        // A savegame: the placed instance's state, restored into a fresh instance
        // of the body, which then steps on exactly as the saved one does.
        const std::vector<std::byte> saved = other.save_state();
        springkit::Simulation loaded(body);
        loaded.restore_state(saved);
        for (int step = 0; step < 30; ++step) {
            other.step(kPhysicsStep);
            loaded.step(kPhysicsStep);
        }
        const bool same = std::equal(other.positions().begin(), other.positions().end(),
                                     loaded.positions().begin());
        std::printf("saved state: %zu bytes, restored instance %s\n", saved.size(),
                    same ? "steps on identically" : "DIFFERS");

        // Anchors held by a game object: the first anchor follows a handle moving
        // at 1 m/s along x, given once a frame where the handle is at the frame's
        // end; the runtime spreads each move over the substeps, so the anchor is at
        // the handle when the frame ends and moves with its velocity (no lag).
        if (!loaded.model().anchors.empty()) {
            const springkit::Vec3 handle_start = loaded.positions()[loaded.model().anchors[0].node];
            const springkit::Vec3 handle_velocity{1.0f, 0.0f, 0.0f};
            springkit::Vec3 handle = handle_start;
            for (int step = 1; step <= 60; ++step) {
                handle = handle_start + handle_velocity * (kPhysicsStep * static_cast<float>(step));
                loaded.set_anchor_target(0, handle);
                loaded.step(kPhysicsStep);
            }
            const std::uint32_t node = loaded.model().anchors[0].node;
            const springkit::Vec3 v = loaded.velocities()[node];
            std::printf("anchor target: %.6f m from the handle, velocity (%.3f, %.3f, %.3f) m/s\n",
                        springkit::length(loaded.positions()[node] - handle), v.x, v.y, v.z);
        }
        return same ? 0 : 1;
    } catch (const springkit::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
