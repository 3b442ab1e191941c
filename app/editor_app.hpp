// springkit-editor — the editor itself: Oliveira's conversion and editing tool
// (Figure 13) grown up. It owns the document (app/editing), the live simulation,
// the camera and the renderer, and turns mouse, keys and what the panels (app/ui)
// ask for into edits.
// main.cpp is the thin GLFW/ImGui shell around it.
#pragma once

#include <array>
#include <chrono>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <string>
#include <thread>
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
#include "ui/timeline_panel.hpp"
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
    /// scene file (colliders) to open with it; empty = the one beside the model
    /// (companion_scene_path), if there is one
    std::filesystem::path scene;
    int frames = 0;                ///< > 0: render this many frames (1/60 s each), then quit
    std::filesystem::path screenshot;  ///< with frames: write the last frame here
    bool stats = false;            ///< print frame-time statistics at the end
    bool paused = false;           ///< start with the simulation paused
    bool scripted = false;         ///< input comes from --input-script: a mesh still gets its dialog
    /// seconds between autosaves (--autosave-seconds); a headless run (frames > 0)
    /// autosaves only when it is given
    std::optional<double> autosave_seconds;
    std::vector<std::string> hide; ///< parts not to draw: ui, surface, lighting, texture, springs, nodes, anchors, grid, shadow, ropes, colliders
    std::vector<std::string> show; ///< parts hidden at first, to draw anyway: springs, nodes (a dense model hides them), legend, xray
    /// Step and draw one after the other: the frame's steps finish before it is
    /// drawn, instead of running while the frame before them is drawn.
    bool sequential = false;
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
    Vec3 last_center_of_mass{};    ///< m, after the last frame
    std::size_t last_contacts = 0; ///< node-collider contacts in the last step
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
    /// collider: a collider grabbed where no node or spring is under the cursor,
    /// moved on the plane through the grabbed point facing the camera.
    enum class Kind { none, press, orbit, pan, box, node, collider };
    Kind kind = Kind::none;
    float press_x = 0, press_y = 0;  ///< where the button went down (box selection)
    /// The modifier keys (GLFW_MOD_*) held when the button went down, as the
    /// mouse-button callback reported them (EditorApp::held_mods).
    int press_mods = 0;
    std::optional<PickHit> pressed_on;  ///< Kind::press: what was under the cursor
    std::uint32_t node = 0;          ///< Kind::node: the grabbed node
    Vec3 target{};                   ///< Kind::node: where it is pulled to
    Vec3 target_velocity{};          ///< Kind::node: how fast that moves, m/s
    /// Kind::press: the collider under the cursor (where no node or spring is), and
    /// the point of it hit; Kind::collider: the one being moved.
    std::optional<std::size_t> collider;
    Vec3 grabbed{};                  ///< Kind::collider: the grabbed point where the drag started
    Vec3 collider_start{};           ///< Kind::collider: the collider's position then
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
    ///
    /// The steps run on a worker thread while the frame draws the state they
    /// start from (the one its panels show), and the next frame() waits for them
    /// before it reads input or touches the simulation: the scene appears one
    /// frame later, the simulation and the drawing share the cores, and the steps
    /// get the same inputs at the same frame boundaries as stepping first would,
    /// so the run is the same bit for bit. `exact` (a frame whose picture is
    /// saved: the last of a headless run, a script's screenshot), and
    /// EditorOptions::sequential, step first and draw the stepped state.
    void frame(bool fixed_step, bool exact = false);
    /// Lays out the panels with no input, steps or drawing, inside a Dear ImGui
    /// frame of its own before the first frame(): Dear ImGui hovers and clicks a
    /// window where the frame before placed it, so without it a press on the
    /// first frame (an input script's frame 0) falls through a panel to the scene.
    void lay_out();
    /// Passes on the key releases key_callback held back, and the events that
    /// waited behind them, once the frame is over (after ImGui::Render(), whose
    /// EndFrame drops typed characters; before the next frame's events): a key
    /// that went down and up between two frames is down for exactly the one frame.
    void release_held_back_keys();
    /// Waits for the steps frame() left running (a no-op when none are).
    void finish_steps();

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
    /// Whether an autosave left by a crash is offered back on opening: in a
    /// person's session, and in a scripted one (a script replays a person).
    bool offers_recovery() const { return options_.frames == 0 || options_.scripted; }
#if SPRINGKIT_EDITOR_HAS_IMPORT
    bool import_now(const std::filesystem::path& path, const ImportOptions& options);
    /// Converts for the preview (ImportRequest::preview): the viewport shows the
    /// result until it is converted or dropped.
    void start_preview(const std::filesystem::path& path, const ImportOptions& options);
    /// Makes a converted mesh the document (untitled, unsaved).
    void adopt_converted(const std::filesystem::path& path, Model model, const ImportReport& report);
#endif
    /// Makes `doc` the document: restarts the simulation, the renderer (a relative
    /// texture is found from doc.folder()), the camera and the selection.
    void adopt(Document doc);
    void new_model(const std::string& builder);
    bool save();
    bool save_as(const std::filesystem::path& path);
    /// Opens a scene file: its colliders become the document's (one undo entry).
    bool open_scene(const std::filesystem::path& path);
    bool save_scene_as(const std::filesystem::path& path);
    /// Adds a triangle mesh collider from a mesh file (through springkit::import).
    void add_mesh_collider(const std::filesystem::path& path);
    void add_hull_of_selection();
    /// A collider of `shape` sized and placed under the model (default_collider), selected.
    void add_collider(ColliderShape shape);
    void delete_selected_collider();
    /// Arrows and Page Up/Down move the selected collider (no node selected):
    /// one undo entry per press-and-hold.
    void move_collider_with_keys(float dt);
    void show_open_dialog();
    void report_error(const std::string& message);
    /// Runs `f`; what it throws is reported (report_error) and gives false.
    template <class F>
    bool reporting(F&& f) {
        try {
            f();
            return true;
        } catch (const std::exception& e) {
            report_error(e.what());
            return false;
        }
    }
    void set_status(std::string message);
    /// Brings the simulation up to the document's model and colliders. `sweep`: a
    /// collider moved while the model runs sweeps to its new place over the next
    /// frame, pushing what it meets (a drag, the arrows); otherwise it is put
    /// there at once (undo and redo: it goes back, it is not thrown across).
    void sync_with_document(bool sweep = true);

    // Viewport input (editor_app.cpp).
    void handle_viewport_mouse();
    /// The nearest collider the ray meets (drawn ones only) and where.
    std::optional<std::pair<std::size_t, Vec3>> collider_under(const Ray& ray) const;
    /// Paint mode's strokes (editor_paint.cpp): true when it took the left
    /// button this frame (a stroke goes on), so that nothing else does.
    bool paint_with_mouse(bool inside, float x, float y, std::span<const Vec3> positions,
                          const Mat4& view_projection, const Viewport& vp);
    /// The modifier keys (GLFW_MOD_*) of the viewport drag under way: those held
    /// when its button went down, and those held now. Dear ImGui 1.86's KeyShift
    /// is the key's state as the last key event left it: a Shift let go before the
    /// frame that sees the button come up is not held any more by then.
    int held_mods() const;
    /// A left click (pressed and let go without moving) on `hit` or empty space.
    void click(const std::optional<PickHit>& hit);
    void handle_shortcuts();
    void shortcut(const KeyPress& press, bool text_field);
    static void key_callback(GLFWwindow* window, int key, int scancode, int action, int mods);
    static void char_callback(GLFWwindow* window, unsigned int codepoint);
    /// A key event (GLFW's) or a typed character, from the callbacks or waiting.
    struct KeyInput {
        bool character = false;
        int key = 0, scancode = 0, action = 0, mods = 0;
        unsigned int codepoint = 0;
    };
    /// Passes a key event or character on to the shortcut queue and Dear ImGui,
    /// holding back a quick release, or keeps it for after the frame.
    void key_input(const KeyInput& e);
    /// Whether `e` must wait for the next frame: a modifier's release is held back
    /// (it stays down for this frame), `e` presses a key whose release is, or
    /// events wait already.
    bool waits_for_next_frame(const KeyInput& e) const;
    /// The cursor's place at each of its events, and where the left button went
    /// down (mouse_button_callback), ahead of Dear ImGui's callbacks.
    static void cursor_callback(GLFWwindow* window, double x, double y);
    static void mouse_button_callback(GLFWwindow* window, int button, int action, int mods);
    void move_anchor_with_keys(float dt);
    /// Where the held arrows point, relative to the camera: the arrows slide on the
    /// ground, Page Up/Down lift (not normalised; zero when none is held).
    Vec3 arrow_direction() const;
    Viewport viewport() const;
    /// The part of viewport() no side panel covers (uncovered_scene): where the
    /// legends go.
    Viewport uncovered_viewport() const;
    /// The window's size and its framebuffer's, in pixels, as the frame's
    /// ImGui_ImplGlfw_NewFrame() read them (before the first frame, from GLFW).
    /// Each GLFW query is a round trip to the X server (XGetWindowAttributes),
    /// which on a loaded machine costs the frame a wait for that server.
    struct WindowSize {
        int width = 0, height = 0, framebuffer_width = 0, framebuffer_height = 0;
    };
    WindowSize window_size() const;

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
    /// Points the camera at the whole of `box` in the scene's viewport.
    void frame_camera(const Bounds& box);
    void undo();
    void redo();
    /// The timeline: pauses and puts the simulation at a recorded frame.
    void show_frame(std::uint64_t frame);

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
    TimelineState timeline_;
    Selection selection_;
    LiveSimulation live_;
    SceneRenderer renderer_;
    OrbitCamera camera_;
    /// What frame_camera() was asked to frame before the first frame, framed again
    /// at its start.
    std::optional<Bounds> framing_before_first_frame_;
    ViewOptions view_;
    std::array<std::size_t, kSpringClasses> class_counts_{};  ///< springs per class, for the legend
    std::uint64_t class_counts_revision_ = ~std::uint64_t{0};  ///< of the document they were counted at
    const Model* class_counts_model_ = nullptr;                ///< and of the running model
    UnsavedChangesGuard guard_;
    Autosaver autosaver_;
    RecentFiles recent_;
    std::filesystem::path recent_file_;
    FileDialog file_dialog_;
    bool saving_for_close_ = false;  ///< the Save As dialog answers "save changes before closing?"
    /// What the file dialog is choosing.
    enum class FilePurpose { model, scene, collider_mesh };
    FilePurpose file_purpose_ = FilePurpose::model;
    /// Shows the file dialog for `purpose` (what draw_modals() does with the choice).
    void show_file_dialog(FilePurpose purpose, FileDialog::Mode mode, const std::filesystem::path& start,
                          std::vector<std::string> extensions);
    std::optional<std::size_t> selected_collider_;
    std::uint64_t seen_scene_revision_ = 0;
    bool nudging_collider_ = false;  ///< arrows are moving the selected collider
#if SPRINGKIT_EDITOR_HAS_IMPORT
    ImportDialogState import_;
    /// A conversion shown before it is made: the model drawn (never stepped) in
    /// place of the document's, with what the importer reported.
    struct ImportPreview {
        std::filesystem::path path;
        ImportOptions options;
        Model model;
        ImportReport report;
        std::unique_ptr<Simulation> shown;  ///< what the renderer draws
        OrbitCamera camera_before;          ///< the view to go back to on Cancel
    };
    std::optional<ImportPreview> preview_;
    /// What the last conversion made, shown until closed.
    struct ConversionReport {
        Model model;
        ImportReport report;
        bool open = false;
    };
    ConversionReport conversion_report_;
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

    /// What follows the frame's steps: --stats readings of the stepped state
    /// (`last`: the last frame of a headless run).
    void after_steps(bool last);
    /// Runs `steps` steps of 1/60 s, with the mouse's pull before each.
    void run_steps(int steps);
    std::thread stepper_;                   ///< frame()'s steps, while the frame draws
    bool stepper_last_ = false;             ///< they are the last frame's
    std::exception_ptr stepper_error_;      ///< what escaped them, rethrown by finish_steps()

    FrameStats stats_;
    std::vector<KeyPress> key_presses_;  ///< queued by key_callback since the last frame
    /// Keys that went down since Dear ImGui last looked (its NewFrame), and the
    /// releases of such keys held back until it has seen them down (key_callback).
    std::vector<int> keys_down_unseen_;
    struct KeyRelease {
        int key, scancode, mods;
    };
    std::vector<KeyRelease> held_back_releases_;
    std::vector<KeyInput> deferred_input_;  ///< events after a held-back release, for the next frame
    /// The cursor at its last event, and where the left button last went down
    /// since the frame before looked (Dear ImGui's MousePos is the cursor when the
    /// frame starts: after a quick grab and pull, already off the node).
    struct CursorAt {
        float x, y;
    };
    std::optional<CursorAt> cursor_at_, left_pressed_at_;
    /// The modifier keys the mouse-button callback reported with the first press
    /// of each button (left, right, middle) since the frame before looked.
    std::array<std::optional<int>, 3> pressed_mods_{};
    void (*previous_cursor_callback_)(GLFWwindow*, double, double) = nullptr;
    void (*previous_mouse_button_callback_)(GLFWwindow*, int, int, int) = nullptr;
    void (*previous_char_callback_)(GLFWwindow*, unsigned int) = nullptr;
    void (*previous_key_callback_)(GLFWwindow*, int, int, int, int) = nullptr;  ///< Dear ImGui's: called on
};

}  // namespace springkit::editor
