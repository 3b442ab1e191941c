// Test support for the editor's panels: a Dear ImGui context without a window
// or backend, in which panels draw and widgets are activated by ID.
#pragma once

#include <imgui.h>

namespace springkit::test::editor {

// A Dear ImGui context of its own with a built font atlas: enough to run frames
// and lay out widgets with nothing drawn anywhere.
class HeadlessImGui {
public:
    HeadlessImGui() {
        context_ = ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(1280, 720);
        io.DeltaTime = 1.0f / 60.0f;
        unsigned char* pixels = nullptr;
        int width = 0, height = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    }
    ~HeadlessImGui() { ImGui::DestroyContext(context_); }
    HeadlessImGui(const HeadlessImGui&) = delete;
    HeadlessImGui& operator=(const HeadlessImGui&) = delete;

    // One frame with `draw` inside a fixed window at the top left.
    template <class Draw>
    void frame(Draw draw) {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(330, 700));
        ImGui::Begin("Tools", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove);
        draw();
        ImGui::End();
        ImGui::Render();
    }

private:
    ImGuiContext* context_;
};

}  // namespace springkit::test::editor
