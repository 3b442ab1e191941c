// springkit-editor — replaying input scripts (script_player.hpp).
#include "input/script_player.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

namespace springkit::editor {

namespace {

// The callback installed now (GLFW hands back the old one when a new one is set).
template <class Callback>
Callback installed(GLFWwindow* window, Callback (*set)(GLFWwindow*, Callback)) {
    const Callback current = set(window, nullptr);
    set(window, current);
    return current;
}

}  // namespace

ScriptPlayer::ScriptPlayer(GLFWwindow* window, InputScript script) : window_(window), script_(std::move(script)) {}

void ScriptPlayer::feed(int frame) {
    for (bool& p : pressed_) p = false;
    for (; next_ < script_.events.size() && script_.events[next_].frame <= frame; ++next_) {
        const InputEvent& e = script_.events[next_];
        switch (e.kind) {
            case InputEvent::Kind::cursor:
                x_ = e.x;
                y_ = e.y;
                moved_ = true;
                if (auto f = installed(window_, glfwSetCursorPosCallback)) f(window_, e.x, e.y);
                break;
            case InputEvent::Kind::button:
                if (e.code >= 0 && e.code < 3) {
                    held_[e.code] = e.down;
                    pressed_[e.code] |= e.down;
                }
                if (auto f = installed(window_, glfwSetMouseButtonCallback))
                    f(window_, e.code, e.down ? GLFW_PRESS : GLFW_RELEASE, e.mods);
                break;
            case InputEvent::Kind::scroll:
                if (auto f = installed(window_, glfwSetScrollCallback)) f(window_, 0.0, e.y);
                break;
            case InputEvent::Kind::key:
                if (auto f = installed(window_, glfwSetKeyCallback))
                    f(window_, e.code, glfwGetKeyScancode(e.code), e.down ? GLFW_PRESS : GLFW_RELEASE, e.mods);
                break;
            case InputEvent::Kind::character:
                if (auto f = installed(window_, glfwSetCharCallback)) f(window_, static_cast<unsigned>(e.code));
                break;
            case InputEvent::Kind::screenshot:
                break;
        }
    }
}

void ScriptPlayer::override_polled_input() const {
    ImGuiIO& io = ImGui::GetIO();
    if (moved_) io.MousePos = ImVec2(x_, y_);
    for (int b = 0; b < 3; ++b) io.MouseDown[b] = held_[b] || pressed_[b];
}

std::vector<std::filesystem::path> ScriptPlayer::screenshots(int frame) const {
    std::vector<std::filesystem::path> out;
    for (const InputEvent& e : script_.events)
        if (e.kind == InputEvent::Kind::screenshot && e.frame == frame) out.emplace_back(e.path);
    return out;
}

}  // namespace springkit::editor
