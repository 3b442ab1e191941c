// springkit-editor — the shell, after Dear ImGui's example_glfw_opengl3: set up
// GLFW, OpenGL 3.3 core (glad) and ImGui, run frames, shut down. Everything the
// editor does is in EditorApp; the editing logic underneath is plain C++ (app/editing).
//
//   springkit-editor [MODEL_OR_MESH] [--scene SCENE] [--frames N --screenshot out.png]
//                    [--stats] [--input-script FILE]
#define GLFW_INCLUDE_NONE
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <sys/resource.h>

#include "editor_app.hpp"
#include "input/script_player.hpp"
#include "render/screenshot.hpp"
#include "springkit/error.hpp"

namespace {

constexpr int kExitOk = 0, kExitFailure = 1, kExitUsage = 2;
// --stats leaves out the first frames: they build buffers and compile shaders.
constexpr std::size_t kStatsSkip = 10;

void print_error(const std::string& message) { std::fprintf(stderr, "error: %s\n", message.c_str()); }

void glfw_error(int code, const char* description) {
    std::fprintf(stderr, "error: GLFW %d: %s\n", code, description);
}

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const auto i = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
    return values[std::min(i, values.size() - 1)];
}

// CPU time of the whole process (all threads, llvmpipe's included), ms.
double process_cpu_ms() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    auto ms = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3; };
    return ms(usage.ru_utime) + ms(usage.ru_stime);
}

void print_stats(const springkit::editor::FrameStats& stats, int width, int height) {
    const std::size_t skip = stats.frame_ms.size() > kStatsSkip ? kStatsSkip : 0;
    const std::vector<double> frames(stats.frame_ms.begin() + static_cast<std::ptrdiff_t>(skip), stats.frame_ms.end());
    const std::vector<double> steps(stats.step_ms.begin() + static_cast<std::ptrdiff_t>(std::min(skip, stats.step_ms.size())),
                                    stats.step_ms.end());
    double sum = 0.0;
    for (double v : frames) sum += v;
    const double cpu = stats.cpu_ms_at_end - stats.cpu_ms_after_skip;
    std::printf("frames %zu (first %zu skipped) at %dx%d: frame ms median %.2f p95 %.2f max %.2f mean %.2f; "
                "simulation step ms median %.2f; process CPU ms per frame %.2f\n",
                frames.size(), skip, width, height, percentile(frames, 0.5), percentile(frames, 0.95),
                percentile(frames, 1.0), frames.empty() ? 0.0 : sum / static_cast<double>(frames.size()),
                percentile(steps, 0.5), frames.empty() ? 0.0 : cpu / static_cast<double>(frames.size()));
    // Round-trip precision (17 digits for a double, 9 for a float): two runs whose
    // readings differ in any bit print differently.
    std::printf("kinetic energy J: peak %.17g, last %.17g; largest stretch last frame %.17g\n", stats.peak_kinetic_j,
                stats.last_kinetic_j, stats.last_max_stretch);
    const springkit::Vec3 c = stats.last_center_of_mass;
    std::printf("centre of mass m: %.9g %.9g %.9g; collider contacts last step %zu\n", static_cast<double>(c.x),
                static_cast<double>(c.y), static_cast<double>(c.z), stats.last_contacts);
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    using namespace springkit::editor;
    EditorOptions options;
    int width = 1280, height = 720;
    CLI::App cli{"springkit-editor: view, edit and tune spring models"};
    cli.set_version_flag("--version", "springkit-editor 0.1.0");
    cli.add_option("model", options.input, "Model (.json) or mesh (.obj, .fbx, ...) to open");
    cli.add_option("--scene", options.scene,
                   "Scene file (colliders, as springkit simulate --scene) to open with the model; default: "
                   "MODEL's <stem>.scene.json beside it, when there is one");
    cli.add_option("--frames", options.frames, "Render N frames of 1/60 s, then quit (tests, screenshots)")
        ->check(CLI::Range(1, 1000000));
    auto* shot = cli.add_option("--screenshot", options.screenshot, "With --frames: write the last frame to this PNG");
    cli.add_flag("--stats", options.stats, "Print frame-time statistics when done");
    cli.add_flag("--paused", options.paused, "Start with the simulation paused");
    cli.add_flag("--sequential", options.sequential,
                 "Step, then draw the stepped state (measurements); by default a frame's steps run while it draws "
                 "the state they start from");
    cli.add_option("--autosave-seconds", options.autosave_seconds,
                   "Seconds between autosaves of unsaved edits (default 30; a --frames run without a script "
                   "autosaves only with this)")
        ->check(CLI::Range(0.0, 86400.0));
    std::filesystem::path script_path;
    auto* script_option = cli.add_option("--input-script", script_path,
                                         "Replay mouse and keys from this script (docs/EDITOR.md), then quit; "
                                         "frames as the script needs unless --frames says");
    cli.add_option("--width", width, "Window width in pixels (default 1280)")->check(CLI::Range(64, 16384));
    cli.add_option("--height", height, "Window height in pixels (default 720)")->check(CLI::Range(64, 16384));
    cli.add_option("--hide", options.hide,
                   "Parts not to draw, comma separated: ui, surface, lighting, texture, springs, nodes, anchors, "
                   "grid (the floor grid; its old name ground still works), shadow, ropes, colliders")
        ->delimiter(',')
        ->check(CLI::IsMember({"ui", "surface", "lighting", "texture", "springs", "nodes", "anchors", "grid",
                               "ground", "shadow", "ropes", "colliders"}));
    cli.add_option("--show", options.show,
                   "Parts to draw that are hidden at first, comma separated: springs, nodes (which a dense model "
                   "hides), legend (the spring kinds), xray (--hide wins)")
        ->delimiter(',')
        ->check(CLI::IsMember({"springs", "nodes", "legend", "xray"}));
    try {
        cli.parse(argc, argv);
        if (shot->count() > 0 && options.frames == 0)
            throw CLI::ValidationError("--screenshot", "needs --frames N");
    } catch (const CLI::CallForHelp& e) {
        return cli.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return cli.exit(e);
    } catch (const CLI::ParseError& e) {
        print_error(std::string(e.what()) + " (see springkit-editor --help)");
        return kExitUsage;
    }
    std::optional<InputScript> script;
    if (script_option->count() > 0) {
        try {
            script = load_input_script(script_path);
        } catch (const std::exception& e) {
            print_error(e.what());
            return kExitFailure;
        }
        if (options.frames == 0) options.frames = script->frames;
        options.scripted = true;
    }

    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) {
        print_error("cannot start GLFW (is there a display? try xvfb-run -a springkit-editor ...)");
        return kExitFailure;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GL_TRUE);
    glfwWindowHint(GLFW_SAMPLES, options.frames > 0 ? 0 : 4);
    GLFWwindow* window = glfwCreateWindow(width, height, "springkit-editor", nullptr, nullptr);
    if (!window) {
        print_error("cannot open an OpenGL 3.3 core window");
        glfwTerminate();
        return kExitFailure;
    }
    glfwMakeContextCurrent(window);
    // Headless runs measure and must not wait for a vertical blank.
    glfwSwapInterval(options.frames > 0 ? 0 : 1);
    if (gladLoadGL(glfwGetProcAddress) == 0) {
        print_error("cannot load OpenGL 3.3 functions");
        glfwDestroyWindow(window);
        glfwTerminate();
        return kExitFailure;
    }

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // fixed panel layout; nothing to remember between runs
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");

    int status = kExitOk;
    try {
        EditorApp app(window, options);
        std::optional<ScriptPlayer> player;
        if (script) player.emplace(window, std::move(*script));
        const bool opened = app.open_initial();
        if (!opened && options.frames > 0) status = kExitFailure;  // headless: nothing to show is a failure

        if (status == kExitOk) {
            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            ImGui::NewFrame();
            app.lay_out();
            ImGui::EndFrame();
        }
        int frame = 0;
        while (status == kExitOk) {
            const auto start = std::chrono::steady_clock::now();
            glfwPollEvents();
            if (player) player->feed(frame);
            if (glfwWindowShouldClose(window)) {
                glfwSetWindowShouldClose(window, GLFW_FALSE);
                app.request_quit();
            }
            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            if (player) player->override_polled_input();
            ImGui::NewFrame();
            std::vector<std::filesystem::path> shots;
            if (player) shots = player->screenshots(frame);
            ++frame;
            const bool last = options.frames > 0 && frame >= options.frames;
            if (last && !options.screenshot.empty()) shots.push_back(options.screenshot);
            // A frame whose picture is kept, and the last, show their own steps.
            app.frame(options.frames > 0, last || !shots.empty());
            ImGui::Render();
            // After Render's EndFrame, which drops the characters typed into it.
            app.release_held_back_keys();
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            if (!shots.empty()) {
                int fb_width = 0, fb_height = 0;
                glfwGetFramebufferSize(window, &fb_width, &fb_height);
                for (const auto& shot_path : shots) save_screenshot(shot_path, fb_width, fb_height);
            }
            glfwSwapBuffers(window);
            app.stats().frame_ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            if (app.stats().frame_ms.size() == kStatsSkip) app.stats().cpu_ms_after_skip = process_cpu_ms();
            if (last || app.quit_confirmed()) break;
        }
        app.finish_steps();
        app.stats().cpu_ms_at_end = process_cpu_ms();
        if (options.stats) print_stats(app.stats(), width, height);
    } catch (const springkit::Error& e) {
        print_error(e.what());
        status = kExitFailure;
    } catch (const std::exception& e) {
        print_error(e.what());
        status = kExitFailure;
    }

    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return status;
}
