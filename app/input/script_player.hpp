// springkit-editor — replays an input script (input_script.hpp) into the window.
//
// Buttons, wheel, keys and characters go through the callbacks installed on the
// GLFW window (Dear ImGui's backend and the editor's key queue behind it), the
// path real input takes. Dear ImGui 1.86's GLFW backend does not take the cursor
// position and the held buttons from callbacks: every frame it polls them from
// GLFW (glfwGetCursorPos, glfwGetMouseButton). For those two the player writes
// its own state into ImGui's IO right after the backend's NewFrame, where the
// backend has just written the polled state.
#pragma once

#include <filesystem>
#include <vector>

#include "input/input_script.hpp"

struct GLFWwindow;

namespace springkit::editor {

class ScriptPlayer {
public:
    ScriptPlayer(GLFWwindow* window, InputScript script);

    /// Frames the script needs.
    int frames() const { return script_.frames; }
    /// Sends the events of `frame` through the window's callbacks; call after
    /// glfwPollEvents, before the ImGui backend's NewFrame.
    void feed(int frame);
    /// Sets ImGui's cursor position and held buttons to the script's; call right
    /// after ImGui_ImplGlfw_NewFrame.
    void override_polled_input() const;
    /// The screenshots the script asks for at the end of `frame`.
    std::vector<std::filesystem::path> screenshots(int frame) const;

private:
    GLFWwindow* window_;
    InputScript script_;
    std::size_t next_ = 0;  ///< the first event not sent yet
    float x_ = 0, y_ = 0;
    bool moved_ = false;       ///< the script has placed the cursor
    bool held_[3] = {};        ///< buttons the script holds down
    bool pressed_[3] = {};     ///< went down in this frame (a press and release in one frame still counts)
};

}  // namespace springkit::editor
