// A minimal game loop around springkit: load a model, step it at a fixed rate
// while "rendering" at whatever rate the game runs, and read positions and
// normals every frame as a renderer would. No editor, no Assimp, no OpenGL.
//
//   springkit-game MODEL.json [FRAMES]
//
// The fixed-rate accumulator is the usual game-loop pattern: rendering frames of
// varying length feed a clock, and the physics consumes it in equal 1/60 s steps,
// so the model behaves the same at any frame rate.
#include <springkit/springkit.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: springkit-game MODEL.json [FRAMES]\n");
        return 2;
    }
    const int frames = argc > 2 ? std::atoi(argv[2]) : 600;
    try {
        const springkit::Model model = springkit::load_model(argv[1]);
        springkit::Simulation sim(model);

        constexpr float kPhysicsStep = 1.0f / 60.0f;
        float accumulator = 0.0f;
        double height_sum = 0.0;
        springkit::Vec3 normal_sum{};
        for (int frame = 0; frame < frames; ++frame) {
            // A render frame of uneven length, as a real game would see (30-100 Hz).
            const float frame_time = 0.010f + 0.023f * static_cast<float>(frame % 7) / 6.0f;
            accumulator += frame_time;
            while (accumulator >= kPhysicsStep) {
                sim.step(kPhysicsStep);
                accumulator -= kPhysicsStep;
            }
            // "Draw": a renderer would upload these two arrays as vertex buffers.
            for (const springkit::Vec3& p : sim.positions()) height_sum += p.y;
            for (const springkit::Vec3& n : sim.normals()) normal_sum += n;
        }
        const double mean_height = height_sum / (static_cast<double>(frames) * sim.positions().size());
        std::printf("%s: %d frames, %.3f s simulated, %zu nodes, mean height %.4f m, kinetic energy %.6g J\n",
                    argv[1], frames, sim.time(), sim.positions().size(), mean_height, sim.kinetic_energy());
        if (!sim.normals().empty()) {
            const springkit::Vec3 mean = springkit::normalized(normal_sum);
            std::printf("mean normal direction (%.3f, %.3f, %.3f)\n", mean.x, mean.y, mean.z);
        }
        return 0;
    } catch (const springkit::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
