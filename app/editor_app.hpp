// springkit-editor — the editor itself: Oliveira's conversion and editing tool
// (Figure 13) grown up. It owns the document (app/editing), the live simulation,
// the camera and the renderer, and turns mouse, keys and what the panels (app/ui)
// ask for into edits.
// main.cpp is the thin GLFW/ImGui shell around it.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "editing/autosave.hpp"
#include "editing/document.hpp"
#include "editing/live_simulation.hpp"
#include "editing/recent_files.hpp"
#include "editing/selection.hpp"
#include "editing/unsaved_changes.hpp"
#include "render/scene_renderer.hpp"
#include "ui/actions.hpp"
#include "ui/file_dialog.hpp"
#include "ui/insight_panel.hpp"
#include "ui/menus.hpp"
#include "ui/paint_panel.hpp"
#include "view/camera.hpp"
#include "view/picking.hpp"

#if SPRINGKIT_EDITOR_HAS_IMPORT
#include "ui/import_dialog.hpp"
#endif

struct GLFWwindow;

namespace springkit::editor {

/// What the command line asked for.
struct EditorOptions {
    std::filesystem::path input;   ///< model or mesh to open; empty = an empty editor
    int frames = 0;                ///< > 0: render this many frames (1/60 s each), then quit
    std::filesystem::path screenshot;  ///< with frames: write the last frame here
    bool stats = false;            ///< print frame-time statistics at the end
    bool paused = false;           ///< start with the simulation paused
    std::vector<std::string> hide; ///< parts not to draw: ui, surface, lighting, texture, springs, nodes, anchors, ground, shadow
    std::vector<std::string> show; ///< parts a dense model hides at first, to draw anyway: springs, nodes
};

/// Milliseconds per frame, for --stats.
struct FrameStats {
    std::vector<double> frame_ms;  ///< whole frame: events, simulation, drawing, swap
    std::vector<double> step_ms;   ///< the simulation step alone
    double cpu_ms_after_skip = 0;  ///< process CPU time when the measured frames began
    double cpu_ms_at_end = 0;      ///< and when they ended
    double peak_kinetic_j = 0;     ///< the largest kinetic energy after any frame, J
    double last_kinetic_j = 0;     ///< after the last frame
    double last_max_stretch = 0;   ///< the largest stretch of a spring after the last frame (RunHealth::max_strain)
};

/// A key that went down, as the GLFW key callback reported it (GLFW codes).
/// Shortcuts read these from a queue, so a press and release between two frames
/// (a slow frame, a quick finger) is still seen.
struct KeyPress {
    int key = 0;
    int mods = 0;
};

/// Whether and how fast the simulation runs.
struct Playback {
    bool playing = true;
    bool step_once = false;  ///< run one frame, then hold (Step, ".")
    double clock = 0.0;      ///< s of wall time not yet simulated
    std::chrono::steady_clock::time_point last_frame = std::chrono::steady_clock::now();
};

/// What the editor last had to say: the status bar's line and the error box.
struct Messages {
    std::string status;
    double status_time = 0.0;  ///< glfwGetTime() when it was set: it expires (status_fresh)
    std::string last_error;
    bool show_error = false;  ///< open the error box in the next frame
};

/// A mouse drag that started in the viewport.
struct ViewportDrag {
    /// press: the left button is down but has not moved past the drag threshold
    /// yet; let go there, it is a click.
    enum class Kind { none, press, orbit, pan, box, node };
    Kind kind = Kind::none;
    float press_x = 0, press_y = 0;  ///< where the button went down (box selection)
    std::optional<PickHit> pressed_on;  ///< Kind::press: what was under the cursor
    std::uint32_t node = 0;          ///< Kind::node: the grabbed node
    Vec3 target{};                   ///< Kind::node: where it is pulled to
    Vec3 target_velocity{};          ///< Kind::node: how fast that moves, m/s
};

class EditorApp {
public:

    /// Needs a current OpenGL context and an ImGui context with its backends.
    EditorApp(GLFWwindow* window, EditorOptions options);
    /// Gives the window's key callback back to the one it had before.
    ~EditorApp();
    EditorApp(const EditorApp&) = delete;
    EditorApp& operator=(const EditorApp&) = delete;

    /// Opens options.input (a model, or a mesh through the import dialog). Returns
    /// false when it could not be opened; the error is printed and shown.
    bool open_initial();

    /// One frame: input, panels, simulation step(s), drawing. `fixed_step`: advance
    /// exactly 1/60 s (headless runs); otherwise follow the wall clock.
    void frame(bool fixed_step);

    /// The window's close button or Ctrl+Q: asks about unsaved changes first.
    void request_quit();
    bool quit_confirmed() const { return quit_confirmed_; }

    FrameStats& stats() { return stats_; }
    const std::string& last_error() const { return messages_.last_error; }
    const ViewOptions& view() const { return view_; }

private:
    // Files (editor_app.cpp).
    void request(CloseRequest request);
    void carry_out(const CloseRequest& request);
    bool open_now(const std::filesystem::path& path);
    bool open_model(const std::filesystem::path& path);
#if SPRINGKIT_EDITOR_HAS_IMPORT
    bool import_now(const std::filesystem::path& path, const ImportOptions& options);
#endif
    /// Makes `doc` the document: restarts the simulation, the renderer (a relative
    /// texture is found from doc.folder()), the camera and the selection.
    void adopt(Document doc);
    void new_model(const std::string& builder);
    bool save();
    bool save_as(const std::filesystem::path& path);
    void show_open_dialog();
    void report_error(const std::string& message);
    void set_status(std::string message);
    void sync_with_document();

    // Viewport input (editor_app.cpp).
    void handle_viewport_mouse();
    /// Paint mode's strokes (editor_paint.cpp): true when it took the left
    /// button this frame (a stroke goes on), so that nothing else does.
    bool paint_with_mouse(bool inside, float x, float y, std::span<const Vec3> positions,
                          const Mat4& view_projection, const Viewport& vp);
    /// A left click (pressed and let go without moving) on `hit` or empty space.
    void click(const std::optional<PickHit>& hit);
    void handle_shortcuts();
    void shortcut(const KeyPress& press, bool text_field);
    static void key_callback(GLFWwindow* window, int key, int scancode, int action, int mods);
    void move_anchor_with_keys(float dt);
    Viewport viewport() const;

    /// Carries out what a panel, menu or key asked for.
    void perform(const Action& action);
    // Edits shared by buttons, menus and keys.
    void add_spring_between_selected();
    void delete_selected_springs();
    void toggle_anchors_of_selection();
    void set_anchored_selection(bool anchored);
    void select_all();
    /// Home: frames the selected nodes where they are now, or else the box the
    /// model has swept since it started (and its floor).
    void frame_view();
    void undo();
    void redo();

    // The panels (app/ui) in their places, and the answers of the questions.
    void draw_ui();
    void draw_modals();

    GLFWwindow* window_;
    EditorOptions options_;
    bool show_ui_ = true;
    bool show_help_ = false;

    Document doc_;
    std::uint64_t seen_revision_ = 0;
    FrequencyCache frequency_;
    Selection selection_;
    LiveSimulation live_;
    SceneRenderer renderer_;
    OrbitCamera camera_;
    ViewOptions view_;
    UnsavedChangesGuard guard_;
    Autosaver autosaver_;
    RecentFiles recent_;
    std::filesystem::path recent_file_;
    FileDialog file_dialog_;
    bool saving_for_close_ = false;  ///< the Save As dialog answers "save changes before closing?"
#if SPRINGKIT_EDITOR_HAS_IMPORT
    ImportDialogState import_;
#endif
    std::optional<std::filesystem::path> recovery_;  ///< an autosave to offer

    Playback playback_;
    std::optional<Vec3> followed_;  ///< the centre of mass the camera followed last frame
    bool driving_ = false;  ///< keys are driving a velocity anchor (stop it when let go)
    ViewportDrag drag_;
    PaintMode paint_;
    bool quit_confirmed_ = false;
    std::string window_title_;  ///< what the title bar shows (set only when it changes)
    Messages messages_;

    FrameStats stats_;
    std::vector<KeyPress> key_presses_;  ///< queued by key_callback since the last frame
    void (*previous_key_callback_)(GLFWwindow*, int, int, int, int) = nullptr;  ///< Dear ImGui's: called on
};

}  // namespace springkit::editor
