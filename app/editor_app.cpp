// springkit-editor — files, input and the frame loop of the editor.
#include "editor_app.hpp"

#define GLFW_INCLUDE_NONE
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <system_error>
#include <utility>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "editing/collider_shapes.hpp"
#include "editing/scene_menu.hpp"
#include "ui/colliders_panel.hpp"
#include "ui/dialogs.hpp"
#include "ui/groups_panel.hpp"
#include "ui/overlays.hpp"
#include "ui/physics_panel.hpp"
#include "ui/spring_legend.hpp"
#include "ui/timeline_panel.hpp"
#include "ui/tools_panel.hpp"
#include "ui/widgets.hpp"

namespace springkit::editor {

namespace fs = std::filesystem;

namespace {

// Mesh formats go through the converter (Assimp); anything else is a model file.
bool is_mesh(const fs::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    static constexpr const char* kMeshes[] = {".obj", ".fbx", ".ply", ".stl", ".dae", ".gltf", ".glb",
                                              ".3ds", ".blend", ".off", ".x", ".ase", ".md3"};
    return std::any_of(std::begin(kMeshes), std::end(kMeshes), [&](const char* m) { return ext == m; });
}

constexpr float kFrameDt = 1.0f / 60.0f;
// px the mouse moves with the button held before a press becomes a drag (a hand
// clicking moves a pixel or two; Blender's drag threshold is 3 px).
constexpr float kDragThreshold = 4.0f;

}  // namespace

EditorApp::EditorApp(GLFWwindow* window, EditorOptions options)
    : window_(window),
      options_(std::move(options)),
      autosaver_(default_state_dir(), options_.autosave_seconds.value_or(30.0)),
      recent_file_(default_state_dir() / "recent.txt") {
    recent_ = RecentFiles::load(recent_file_);
    playback_.playing = !options_.paused;
    show_ui_ = std::find(options_.hide.begin(), options_.hide.end(), "ui") == options_.hide.end();
    // Ahead of Dear ImGui's key callback (installed by its backend), which this one
    // passes every event on to.
    glfwSetWindowUserPointer(window_, this);
    previous_key_callback_ = glfwSetKeyCallback(window_, key_callback);
    previous_char_callback_ = glfwSetCharCallback(window_, char_callback);
    previous_cursor_callback_ = glfwSetCursorPosCallback(window_, cursor_callback);
    previous_mouse_button_callback_ = glfwSetMouseButtonCallback(window_, mouse_button_callback);
}

EditorApp::~EditorApp() {
    if (stepper_.joinable()) stepper_.join();
    glfwSetKeyCallback(window_, previous_key_callback_);
    glfwSetCharCallback(window_, previous_char_callback_);
    glfwSetCursorPosCallback(window_, previous_cursor_callback_);
    glfwSetMouseButtonCallback(window_, previous_mouse_button_callback_);
    glfwSetWindowUserPointer(window_, nullptr);
}

namespace {

bool modifier_key(int key) { return key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_RIGHT_SUPER; }

}  // namespace

void EditorApp::key_callback(GLFWwindow* window, int key, int scancode, int action, int mods) {
    auto* app = static_cast<EditorApp*>(glfwGetWindowUserPointer(window));
    if (app) app->key_input({false, key, scancode, action, mods, 0});
}

void EditorApp::char_callback(GLFWwindow* window, unsigned int codepoint) {
    auto* app = static_cast<EditorApp*>(glfwGetWindowUserPointer(window));
    if (app) app->key_input({true, 0, 0, 0, 0, codepoint});
}

bool EditorApp::waits_for_next_frame(const KeyInput& e) const {
    if (!deferred_input_.empty()) return true;  // in order behind those already waiting
    for (const KeyRelease& r : held_back_releases_)
        if (modifier_key(r.key) || (!e.character && e.action == GLFW_PRESS && r.key == e.key)) return true;
    return false;
}

void EditorApp::key_input(const KeyInput& e) {
    // Dear ImGui 1.86's GLFW backend keeps only whether a key is down (KeysDown),
    // which NewFrame reads: a key that goes down and up between two frames (a
    // brisk Enter at 10 frames a second) never reaches a text field. Its release
    // waits until a whole frame has seen it down (release_held_back_keys(), after
    // the frame): widgets read the modifiers (io.KeyCtrl) while they run, so a
    // Ctrl+A in a text field needs Ctrl down until then, and a text field checks
    // them against the io.KeyMods that NewFrame took (an assertion). What comes
    // after a modifier held so (the 3 typed after a Ctrl+A: a text field takes
    // no character while Ctrl is down), or a key pressed again, waits for the
    // next frame: the frame sees the events of one moment, in their order, as
    // Dear ImGui 1.87's input queue trickles them.
    if (waits_for_next_frame(e)) {
        deferred_input_.push_back(e);
        return;
    }
    if (e.character) {
        if (previous_char_callback_) previous_char_callback_(window_, e.codepoint);
        return;
    }
    if (e.action == GLFW_PRESS) {
        key_presses_.push_back({e.key, e.mods});
        keys_down_unseen_.push_back(e.key);
    }
    if (e.action == GLFW_RELEASE &&
        std::find(keys_down_unseen_.begin(), keys_down_unseen_.end(), e.key) != keys_down_unseen_.end()) {
        held_back_releases_.push_back({e.key, e.scancode, e.mods});
        return;
    }
    if (previous_key_callback_) previous_key_callback_(window_, e.key, e.scancode, e.action, e.mods);
}

void EditorApp::cursor_callback(GLFWwindow* window, double x, double y) {
    auto* app = static_cast<EditorApp*>(glfwGetWindowUserPointer(window));
    if (!app) return;
    // Floored, as Dear ImGui floors its MousePos (NewFrame), so that the press and
    // the moves after it are measured alike.
    app->cursor_at_ = CursorAt{std::floor(static_cast<float>(x)), std::floor(static_cast<float>(y))};
    if (app->previous_cursor_callback_) app->previous_cursor_callback_(window, x, y);
}

void EditorApp::mouse_button_callback(GLFWwindow* window, int button, int action, int mods) {
    auto* app = static_cast<EditorApp*>(glfwGetWindowUserPointer(window));
    if (!app) return;
    // The events come in order: the cursor's last one is where the button went down.
    if (button == GLFW_MOUSE_BUTTON_LEFT && action == GLFW_PRESS && !app->left_pressed_at_)
        app->left_pressed_at_ = app->cursor_at_;
    // The keys held at the press, from the event itself (X11's state field): by
    // the frame that carries the click out they may have come up.
    if (action == GLFW_PRESS && button >= 0 && button < 3 && !app->pressed_mods_[button])
        app->pressed_mods_[button] = mods;
    if (app->previous_mouse_button_callback_) app->previous_mouse_button_callback_(window, button, action, mods);
}

void EditorApp::release_held_back_keys() {
    keys_down_unseen_.clear();
    for (const KeyRelease& r : std::exchange(held_back_releases_, {}))
        if (previous_key_callback_) previous_key_callback_(window_, r.key, r.scancode, GLFW_RELEASE, r.mods);
    // What waited goes in now, before the next frame's events; some of it may
    // hold back and wait again.
    for (const KeyInput& e : std::exchange(deferred_input_, {})) key_input(e);
}

// ---------------------------------------------------------------------------
// Files

bool EditorApp::open_initial() {
    if (options_.input.empty()) {
        new_model("cloth");
        // An untitled model (a converted mesh, say) of a session that crashed.
        if (offers_recovery()) recovery_ = find_recovery({}, autosaver_.state_dir());
        return true;
    }
    return open_now(options_.input);
}

void EditorApp::new_model(const std::string& builder) {
    Model model;
    try {
        model = build_menu_scene(builder);
    } catch (const Error& e) {
        report_error(e.what());
        return;
    }
    adopt(Document(Model(model), fs::current_path() / (model.name + ".json"), false));
    set_status("New " + model.name + " (untitled)");
}

bool EditorApp::open_now(const fs::path& path) {
    if (is_mesh(path)) {
#if SPRINGKIT_EDITOR_HAS_IMPORT
        // Headless runs take the converter's default options; people (and
        // scripts recording them) get the dialog.
        if (options_.frames > 0 && !options_.scripted) return import_now(path, import_.options);
        import_.path = path;
        return true;
#else
        report_error(path.string() + ": opening meshes needs springkit::import (convert it first with "
                     "`springkit convert`)");
        return false;
#endif
    }
    return open_model(path);
}

#if SPRINGKIT_EDITOR_HAS_IMPORT
bool EditorApp::import_now(const fs::path& path, const ImportOptions& options) {
    Model model;
    ImportReport report;
    try {
        // In a child process with a time and memory limit: Assimp can hang or crash
        // on a corrupt file, and that must not take the editor (and its edits) down.
        model = import_mesh_isolated(path, options, report);
    } catch (const std::exception& e) {
        report_error(e.what());
        return false;
    }
    adopt_converted(path, std::move(model), report);
    return true;
}

void EditorApp::start_preview(const fs::path& path, const ImportOptions& options) {
    ImportPreview preview;
    try {
        // The conversion itself, isolated as import_now's: what it reports is
        // exactly what Convert makes.
        preview.model = import_mesh_isolated(path, options, preview.report);
        preview.shown = std::make_unique<Simulation>(preview.model);
    } catch (const std::exception& e) {
        report_error(e.what());
        import_.path = path;  // back to the options
        return;
    }
    preview.path = path;
    preview.options = options;
    preview.camera_before = camera_;
    frame_camera(framing_bounds(preview.model));
    renderer_.set_model(preview.model, path.parent_path());
    preview_ = std::move(preview);
    set_status("Preview of " + path.string() + ": nothing is converted until Convert");
}

void EditorApp::adopt_converted(const fs::path& path, Model model, const ImportReport& report) {
    fs::path suggested = path;
    suggested.replace_extension(".json");
    // The converter resolves the texture against the mesh's folder; the document
    // keeps it relative to its own folder, which starts as the mesh's.
    if (!model.texture.empty()) {
        std::error_code ec;
        const fs::path image = fs::absolute(model.texture, ec).lexically_normal();
        const fs::path relative = image.lexically_relative(fs::absolute(path.parent_path(), ec).lexically_normal());
        if (!relative.empty()) model.texture = relative.generic_string();
    }
    model.name = path.stem().string();
    conversion_report_ = {model, report, options_.frames == 0 || options_.stats};
    adopt(Document(std::move(model), suggested, true));
    recent_.add(path);
    recent_.save(recent_file_);
    set_status("Converted " + path.string() + " (unsaved: Save As to keep it as a model)");
    if (options_.stats) {
        const Bounds box = bounds(doc_.model());
        const auto& ground = doc_.model().params.ground;
        std::printf("converted: unit %s; %zu nodes, %zu faces, %zu islands; springs %zu edge %zu bend %zu shear "
                    "%zu volume; %zu anchors; bottom y %.6g; ground %s\n",
                    report.unit.c_str(), doc_.model().node_count(), doc_.model().faces.size(), report.islands.size(),
                    report.edge_springs, report.bend_springs, report.shear_springs, report.volume_springs,
                    doc_.model().anchors.size(), static_cast<double>(box.min.y),
                    ground ? ("y " + std::to_string(ground->height)).c_str() : "none");
    }
}
#endif

bool EditorApp::open_model(const fs::path& path) {
    try {
        Document doc = Document::open(path);
        adopt(std::move(doc));
    } catch (const std::exception& e) {
        // The current document stays as it was; the bad file is not adopted, so it
        // can never be saved over.
        report_error(e.what());
        return false;
    }
    recent_.add(path);
    recent_.save(recent_file_);
    if (offers_recovery()) recovery_ = find_recovery(path, autosaver_.state_dir());
    set_status("Opened " + path.string());
    // The scene that goes with it: --scene the first time, else the one beside it.
    fs::path scene = std::exchange(options_.scene, {});
    std::error_code ec;
    if (scene.empty() && fs::is_regular_file(companion_scene_path(path), ec)) scene = companion_scene_path(path);
    if (!scene.empty()) return open_scene(scene);
    return true;
}

bool EditorApp::open_scene(const fs::path& path) {
    if (!reporting([&] { doc_.open_scene(path); })) return false;
    selected_collider_.reset();
    sync_with_document(false);  // the file's colliders stand where it puts them
    set_status("Opened scene " + path.string() + " (" + std::to_string(doc_.colliders().size()) + " colliders)");
    return true;
}

bool EditorApp::save_scene_as(const fs::path& path) {
    if (!reporting([&] { doc_.save_scene_as(path); })) return false;
    set_status("Saved scene " + path.string());
    return true;
}

void EditorApp::add_mesh_collider(const fs::path& path) {
#if SPRINGKIT_EDITOR_HAS_IMPORT
    reporting([&] {
        // Isolated like any mesh (import_now): Assimp may hang or crash on a bad file.
        ImportOptions options;
        options.fast_obj = import_.options.fast_obj;
        Model mesh = import_mesh_isolated(path, options);
        mesh.name = path.stem().string();
        if (doc_.add_collider(mesh_collider_from_model(mesh))) {
            selected_collider_ = doc_.colliders().size() - 1;
            set_status("Added a mesh collider from " + path.string());
        }
    });
#else
    report_error(path.string() + ": mesh colliders need springkit::import");
#endif
    sync_with_document();
}

void EditorApp::add_collider(ColliderShape shape) {
    if (doc_.add_collider(default_collider(shape, bounds(doc_.model()), doc_.colliders().size()))) {
        selected_collider_ = doc_.colliders().size() - 1;
        set_status("Added " + doc_.colliders().back().name + " (Ctrl+Z takes it back)");
    }
    sync_with_document();
}

void EditorApp::add_hull_of_selection() {
    if (!live_.running()) return;
    reporting([&] {
        if (doc_.add_collider(hull_around_nodes(live_.simulation().positions(), selection_.nodes()))) {
            selected_collider_ = doc_.colliders().size() - 1;
            set_status("Added a hull around " + std::to_string(selection_.nodes().size()) + " nodes");
        }
    });
    sync_with_document();
}

void EditorApp::delete_selected_collider() {
    if (!selected_collider_) {
        set_status("Select a collider first (Colliders panel, or click it)");
        return;
    }
    if (doc_.remove_collider(*selected_collider_)) set_status("Deleted a collider");
    selected_collider_.reset();
    sync_with_document();
}

void EditorApp::adopt(Document doc) {
    doc_ = std::move(doc);
    seen_revision_ = doc_.revision();
    seen_scene_revision_ = doc_.scene_revision();
    selected_collider_.reset();
    live_.set_colliders(doc_.colliders(), 0.0f);
    frequency_.reset();  // another document: its revisions count anew
    class_counts_revision_ = ~std::uint64_t{0};
    selection_.clear();
    selection_.fit(doc_.model());
    live_.restart(doc_.model());
    renderer_.set_model(doc_.model(), doc_.folder());  // a relative texture is relative to it
    // The model opens without its texture; the status bar keeps saying so while
    // it is open (status_bar), and stderr gets one line.
    if (!renderer_.texture_error().empty())
        std::fprintf(stderr, "warning: %s (drawn without it)\n", renderer_.texture_error().c_str());
    frame_camera(framing_bounds(doc_.model()));

    // Dense models hide their springs and nodes until asked (they would cover the
    // surface); --hide wins over everything.
    const Model& m = doc_.model();
    view_.surface = true;
    view_.springs = m.faces.empty() || m.springs.size() <= 20000;
    view_.nodes = m.faces.empty() || m.node_count() <= 3000;
    for (const std::string& part : options_.show) {
        if (part == "springs") view_.springs = true;
        if (part == "nodes") view_.nodes = true;
        if (part == "legend") view_.legend = true;
        if (part == "xray") view_.xray = true;
    }
    for (const std::string& part : options_.hide) {
        if (part == "surface") view_.surface = false;
        if (part == "lighting") view_.lighting = false;
        if (part == "texture") view_.texture = false;
        if (part == "springs") view_.springs = false;
        if (part == "nodes") view_.nodes = false;
        if (part == "anchors") view_.anchors = false;
        if (part == "grid" || part == "ground") view_.ground = false;  // "ground": the old name
        if (part == "colliders") view_.colliders = false;
        if (part == "shadow") view_.shadow = false;
        if (part == "ropes") view_.ropes = false;
    }
}

bool EditorApp::save() {
    if (doc_.path().empty()) {
        file_dialog_.show(FileDialog::Mode::save, doc_.suggested_path(), {".json"});
        return false;
    }
    if (!reporting([&] { doc_.save(); })) return false;
    autosaver_.discard(doc_);
    recent_.add(doc_.path());
    recent_.save(recent_file_);
    set_status("Saved " + doc_.path().string());
    return true;
}

bool EditorApp::save_as(const fs::path& path) {
    const fs::path old = doc_.path();
    if (!reporting([&] { doc_.save_as(path); })) return false;
    // The autosave of the old name (or of the untitled document) is stale now.
    remove_autosave(old, autosaver_.state_dir());
    autosaver_.discard(doc_);
    recent_.add(path);
    recent_.save(recent_file_);
    set_status("Saved " + path.string());
    return true;
}

void EditorApp::show_open_dialog() {
    file_purpose_ = FilePurpose::model;
    file_dialog_.show(FileDialog::Mode::open, doc_.path().empty() ? fs::current_path() : doc_.path().parent_path(),
                      {}, recent_.paths());
}

void EditorApp::request(CloseRequest request) {
    if (auto go = guard_.request(doc_, std::move(request))) carry_out(*go);
}

void EditorApp::carry_out(const CloseRequest& request) {
    // Either the document is clean or the person chose to drop its changes: its
    // autosave has nothing left to recover.
    autosaver_.discard(doc_);
    switch (request.kind) {
        case CloseRequest::Kind::quit:
            quit_confirmed_ = true;
            break;
        case CloseRequest::Kind::open:
            open_now(request.path);
            break;
        case CloseRequest::Kind::new_model:
            new_model(request.builder);
            break;
    }
}

void EditorApp::request_quit() {
    finish_steps();
    request({CloseRequest::Kind::quit, {}, {}});
}

void EditorApp::report_error(const std::string& message) {
    messages_.last_error = message;
    messages_.status = "error: " + message;
    messages_.status_time = glfwGetTime();
    std::fprintf(stderr, "error: %s\n", message.c_str());
    messages_.show_error = options_.frames == 0;
}

void EditorApp::set_status(std::string message) {
    messages_.status = std::move(message);
    messages_.status_time = glfwGetTime();
}

void EditorApp::sync_with_document(bool sweep) {
    if (doc_.scene_revision() != seen_scene_revision_) {
        seen_scene_revision_ = doc_.scene_revision();
        if (selected_collider_ && *selected_collider_ >= doc_.colliders().size()) selected_collider_.reset();
        // Moved while it runs: the collider sweeps there over the next frame and
        // pushes what it meets (LiveSimulation::set_colliders). An undo jumps back
        // over the whole path of a drag in one frame, through whatever lies
        // between: it puts the collider there instead. An edit never makes an
        // invalid collider; reporting is a bug guard.
        reporting([&] { live_.set_colliders(doc_.colliders(), sweep && playback_.playing ? kFrameDt : 0.0f); });
    }
    if (doc_.revision() == seen_revision_) return;
    seen_revision_ = doc_.revision();
    selection_.fit(doc_.model());
    try {
        live_.update_model(doc_.model());
    } catch (const std::exception& e) {
        report_error(e.what());  // an edit never makes an invalid model; this is a bug guard
    }
}

// ---------------------------------------------------------------------------
// Edits

void EditorApp::show_file_dialog(FilePurpose purpose, FileDialog::Mode mode, const fs::path& start,
                                 std::vector<std::string> extensions) {
    file_purpose_ = purpose;
    file_dialog_.show(mode, start, std::move(extensions));
}

void EditorApp::perform(const Action& action) {
    switch (action.command) {
        case Command::none: break;
        case Command::new_model: request({CloseRequest::Kind::new_model, {}, action.builder}); break;
        case Command::open: request({CloseRequest::Kind::open, action.path, {}}); break;
        case Command::show_open: show_open_dialog(); break;
        case Command::show_save_as:
            show_file_dialog(FilePurpose::model, FileDialog::Mode::save, doc_.suggested_path(), {".json"});
            break;
        case Command::show_open_scene:
            show_file_dialog(FilePurpose::scene, FileDialog::Mode::open, doc_.suggested_scene_path().parent_path(),
                             {".json"});
            break;
        case Command::save_scene:
            if (!doc_.scene_path().empty())
                save_scene_as(doc_.scene_path());
            else
                perform(Command::show_save_scene_as);
            break;
        case Command::show_save_scene_as:
            show_file_dialog(FilePurpose::scene, FileDialog::Mode::save, doc_.suggested_scene_path(), {".json"});
            break;
        case Command::show_add_mesh_collider:
            show_file_dialog(FilePurpose::collider_mesh, FileDialog::Mode::open,
                             doc_.folder().empty() ? fs::current_path() : doc_.folder(), {});
            break;
        case Command::add_collider: add_collider(action.shape); break;
        case Command::add_hull_of_selection: add_hull_of_selection(); break;
        case Command::delete_collider: delete_selected_collider(); break;
        case Command::toggle_mesh_view: {
            // Mesh view: the surface alone; spring view: springs and nodes over a
            // hidden surface (a model without faces has only the spring view).
            const bool to_springs = view_.surface;
            view_.surface = !to_springs;
            view_.springs = to_springs;
            view_.nodes = to_springs;
            set_status(to_springs ? "Spring view (V: mesh view)" : "Mesh view (V: spring view)");
            break;
        }
        case Command::save: save(); break;
        case Command::quit: request_quit(); break;
        case Command::undo: undo(); break;
        case Command::redo: redo(); break;
        case Command::add_spring: add_spring_between_selected(); break;
        case Command::delete_springs: delete_selected_springs(); break;
        case Command::toggle_anchors: toggle_anchors_of_selection(); break;
        case Command::anchor_selection: set_anchored_selection(true); break;
        case Command::free_selection: set_anchored_selection(false); break;
        case Command::select_all: select_all(); break;
        case Command::select_none: selection_.clear(); break;
        case Command::next_node: selection_.next_node(doc_.model().node_count()); break;
        case Command::previous_node: selection_.previous_node(doc_.model().node_count()); break;
        case Command::frame_model: frame_view(); break;
        case Command::play_pause: playback_.playing = !playback_.playing; break;
        case Command::single_step:
            playback_.playing = false;
            playback_.step_once = true;
            break;
        case Command::reset_simulation: live_.reset(); break;
        case Command::toggle_help: show_help_ = !show_help_; break;
    }
}

void EditorApp::add_spring_between_selected() {
    const auto pair = spring_candidate(selection_);
    if (!pair) {
        set_status("Select two nodes to join with a spring");
        return;
    }
    const bool added = doc_.add_spring(pair->first, pair->second);
    if (added)
        set_status("Added spring " + std::to_string(pair->first) + "-" + std::to_string(pair->second));
    else
        set_status("Nodes " + std::to_string(pair->first) + " and " + std::to_string(pair->second) +
                   " already have a spring (or lie on top of each other)");
    sync_with_document();  // the panels drawn after this in the frame see the new model
    // The new spring (the last one) is selected, drawn highlighted, and its k is
    // in the Selection panel; its two nodes stay selected for the next one.
    if (added) selection_.select_spring(static_cast<std::uint32_t>(doc_.model().springs.size() - 1), SelectMode::add);
}

void EditorApp::delete_selected_springs() {
    const std::size_t count = selection_.springs().size();
    if (count == 0) {
        set_status("Click a spring to select it first");
        return;
    }
    if (doc_.remove_springs(selection_.springs())) set_status("Deleted " + std::to_string(count) + " spring(s)");
    sync_with_document();  // the panels drawn after this in the frame see the new model
}

void EditorApp::toggle_anchors_of_selection() {
    const auto& nodes = selection_.nodes();
    if (nodes.empty()) {
        set_status("Select nodes to anchor");
        return;
    }
    // All anchored: free them; otherwise anchor them all (Blender's pin toggle).
    const bool all_anchored = std::all_of(nodes.begin(), nodes.end(), [&](std::uint32_t n) {
        return std::any_of(doc_.model().anchors.begin(), doc_.model().anchors.end(),
                           [&](const Anchor& a) { return a.node == n; });
    });
    set_anchored_selection(!all_anchored);
}

void EditorApp::set_anchored_selection(bool anchored) {
    if (doc_.set_anchored(selection_.nodes(), anchored))
        set_status(std::string(anchored ? "Anchored " : "Freed ") + std::to_string(selection_.nodes().size()) +
                   " node(s)");
    sync_with_document();  // the panels drawn after this in the frame see the new model
}

void EditorApp::select_all() {
    std::vector<std::uint32_t> all(doc_.model().node_count());
    for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    selection_.select_nodes(all, SelectMode::replace);
}

void EditorApp::frame_camera(const Bounds& box) {
    // Before the first frame Dear ImGui has no font, so the bars' height (and the
    // viewport's shape) is not known yet: frame() frames it then.
    if (ImGui::GetFrameCount() == 0) {
        framing_before_first_frame_ = box;
        camera_.frame(box);
        return;
    }
    const Viewport vp = viewport();
    camera_.frame(box, vp.width / std::max(vp.height, 1.0f));
}

void EditorApp::frame_view() {
    if (!live_.running()) return;
    if (!selection_.nodes().empty()) {
        frame_camera(bounds_of(live_.simulation().positions(), selection_.nodes()));
        return;
    }
    frame_camera(merged(framing_bounds(doc_.model()), live_.motion_bounds()));
}

void EditorApp::show_frame(std::uint64_t frame) {
    playback_.playing = false;  // scrubbing holds the run where it is shown
    drag_.kind = drag_.kind == ViewportDrag::Kind::node ? ViewportDrag::Kind::none : drag_.kind;
    live_.show_frame(frame);
}

void EditorApp::undo() {
    const char* name = doc_.undo_name();
    if (doc_.undo()) set_status(std::string("Undo ") + name);
    sync_with_document(false);  // the panels drawn after this in the frame see the new model
}

void EditorApp::redo() {
    const char* name = doc_.redo_name();
    if (doc_.redo()) set_status(std::string("Redo ") + name);
    sync_with_document(false);  // the panels drawn after this in the frame see the new model
}

// ---------------------------------------------------------------------------
// Input

EditorApp::WindowSize EditorApp::window_size() const {
    WindowSize size;
    const ImGuiIO& io = ImGui::GetIO();
    if (io.DisplaySize.x < 0.0f || io.DisplaySize.y < 0.0f) {  // no frame yet
        glfwGetWindowSize(window_, &size.width, &size.height);
        glfwGetFramebufferSize(window_, &size.framebuffer_width, &size.framebuffer_height);
        return size;
    }
    // The backend sets DisplaySize to glfwGetWindowSize() and DisplayFramebufferScale
    // to glfwGetFramebufferSize() over it (kept from before while the window has
    // no area); the product is within a rounding of the framebuffer's size.
    size.width = static_cast<int>(io.DisplaySize.x);
    size.height = static_cast<int>(io.DisplaySize.y);
    size.framebuffer_width = static_cast<int>(std::lround(io.DisplaySize.x * io.DisplayFramebufferScale.x));
    size.framebuffer_height = static_cast<int>(std::lround(io.DisplaySize.y * io.DisplayFramebufferScale.y));
    return size;
}

Viewport EditorApp::viewport() const {
    const WindowSize size = window_size();
    const int w = size.width, h = size.height;
    if (!show_ui_) return scene_viewport(static_cast<float>(w), static_cast<float>(h), 0.0f, 0.0f, 0.0f);
    // The menu bar above, the status bar below, one frame high each.
    const SidePanels panels = side_panels(static_cast<float>(w), kToolsWidth, kInsightWidth);
    return scene_viewport(static_cast<float>(w), static_cast<float>(h), ImGui::GetFrameHeight(), panels.left,
                          panels.right);
}

Viewport EditorApp::uncovered_viewport() const {
    if (!show_ui_) return viewport();
    const float w = static_cast<float>(window_size().width);
    return uncovered_scene(viewport(), w, side_panels(w, kToolsWidth, kInsightWidth));
}

void EditorApp::handle_shortcuts() {
    // Every press since the last frame, in order: at 3 frames a second a Ctrl+Z
    // comes and goes between two frames, and polling the keys' state would miss it.
    const std::vector<KeyPress> presses = std::exchange(key_presses_, {});
    const ImGuiIO& io = ImGui::GetIO();
    // A text field, the file dialog or a question (unsaved changes, recovery) has the
    // keyboard: no shortcut may edit or close the document behind it.
    if (file_dialog_.is_open() || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) return;
#if SPRINGKIT_EDITOR_HAS_IMPORT
    if (preview_) return;  // the viewport shows the preview: no edit of the document behind it
#endif
    for (const KeyPress& press : presses) shortcut(press, io.WantTextInput);
}

void EditorApp::shortcut(const KeyPress& press, bool text_field) {
    if (text_field) return;
    const int key = press.key;
    if (key == GLFW_KEY_F1 || (key == GLFW_KEY_ESCAPE && show_help_)) {
        perform(Command::toggle_help);
        return;
    }
    const bool ctrl = (press.mods & GLFW_MOD_CONTROL) != 0, shift = (press.mods & GLFW_MOD_SHIFT) != 0;
    if (ctrl) {
        // The timeline: a recorded frame back or on (ten with Shift).
        if ((key == GLFW_KEY_LEFT || key == GLFW_KEY_RIGHT) && live_.running() && live_.frame()) {
            const std::uint64_t step = shift ? 10 : 1, now = *live_.frame();
            const RunRecording& rec = live_.recording();
            show_frame(key == GLFW_KEY_LEFT ? (now >= rec.first_frame() + step ? now - step : rec.first_frame())
                                            : std::min(now + step, rec.last_frame()));
        }
        if (key == GLFW_KEY_Z) perform(shift ? Command::redo : Command::undo);
        if (key == GLFW_KEY_Y) perform(Command::redo);
        if (key == GLFW_KEY_S) perform(shift || doc_.path().empty() ? Command::show_save_as : Command::save);
        if (key == GLFW_KEY_O) perform(Command::show_open);
        if (key == GLFW_KEY_Q) perform(Command::quit);
        return;
    }
    if (ImGui::GetIO().WantCaptureKeyboard) return;
    switch (key) {
        case GLFW_KEY_SPACE: perform(Command::play_pause); break;
        case GLFW_KEY_PERIOD: perform(Command::single_step); break;
        case GLFW_KEY_R: perform(Command::reset_simulation); break;
        case GLFW_KEY_HOME: perform(Command::frame_model); break;
        case GLFW_KEY_F: perform(Command::add_spring); break;
        case GLFW_KEY_DELETE:
        case GLFW_KEY_X:
            // The selected collider when no spring is selected.
            perform(selection_.springs().empty() && selected_collider_ ? Command::delete_collider
                                                                      : Command::delete_springs);
            break;
        case GLFW_KEY_V: perform(Command::toggle_mesh_view); break;
        case GLFW_KEY_P: perform(Command::toggle_anchors); break;
        case GLFW_KEY_B: paint_.active = !paint_.active; break;
        case GLFW_KEY_A: perform((press.mods & GLFW_MOD_ALT) != 0 ? Command::select_none : Command::select_all); break;
        case GLFW_KEY_ESCAPE:
            perform(Command::select_none);
            selected_collider_.reset();
            break;
        case GLFW_KEY_RIGHT_BRACKET: perform(Command::next_node); break;
        case GLFW_KEY_LEFT_BRACKET: perform(Command::previous_node); break;
        default: break;
    }
}

Vec3 EditorApp::arrow_direction() const {
    const ImGuiIO& io = ImGui::GetIO();
    const Vec3 forward = normalized(Vec3{camera_.target.x - camera_.eye().x, 0, camera_.target.z - camera_.eye().z});
    const Vec3 right = cross(forward, {0, 1, 0});
    Vec3 direction{};
    const bool arrows = !io.KeyCtrl;  // Ctrl+Left/Right step the timeline
    if (arrows && io.KeysDown[GLFW_KEY_LEFT]) direction -= right;
    if (arrows && io.KeysDown[GLFW_KEY_RIGHT]) direction += right;
    if (io.KeysDown[GLFW_KEY_UP]) direction += forward;
    if (io.KeysDown[GLFW_KEY_DOWN]) direction -= forward;
    if (io.KeysDown[GLFW_KEY_PAGE_UP]) direction.y += 1;
    if (io.KeysDown[GLFW_KEY_PAGE_DOWN]) direction.y -= 1;
    return direction;
}

void EditorApp::move_collider_with_keys(float dt) {
    const ImGuiIO& io = ImGui::GetIO();
    const bool active = selected_collider_ && selection_.nodes().empty() && !io.WantCaptureKeyboard &&
                        *selected_collider_ < doc_.colliders().size();
    // As the anchor keys, at half the model's size a second.
    const Vec3 direction = active ? arrow_direction() : Vec3{};
    if (dot(direction, direction) == 0.0f) {
        if (nudging_collider_) doc_.seal();  // one undo entry per press-and-hold
        nudging_collider_ = false;
        return;
    }
    const float speed = 0.5f * std::max(bounds(doc_.model()).diagonal(), 0.5f);  // m/s
    Collider c = doc_.colliders()[*selected_collider_];
    // Headless runs step 1/60 s a frame whatever the wall clock says.
    c.pose.position += normalized(direction) * (speed * (options_.frames > 0 ? kFrameDt : dt));
    doc_.set_collider(*selected_collider_, c, true, "move collider");
    nudging_collider_ = true;
}

void EditorApp::move_anchor_with_keys(float dt) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantCaptureKeyboard || !live_.running()) return;
    if (selected_collider_ && selection_.nodes().empty()) return;  // the arrows move the collider
    // The selected anchor, or else the model's one velocity-driven anchor (Tunca's
    // rope connection point), so his demo's keys work without picking it first.
    const auto node = selection_.active_node();
    std::optional<std::size_t> anchor = node ? live_.anchor_of(*node) : std::nullopt;
    if (!anchor) anchor = live_.sole_velocity_anchor();
    if (!anchor) return;
    // Like the seed demos' keys (Tunca moves his rope's connection point with the arrows).
    const Vec3 direction = arrow_direction();
    const float speed = 0.5f * std::max(bounds(doc_.model()).diagonal(), 0.5f);  // m/s
    const bool keys = dot(direction, direction) > 0.0f;
    if (live_.model().anchors[*anchor].drive == AnchorDrive::velocity) {
        // Tunca sets ropeConnectionVel from the keys: the point moves at that
        // velocity, so the rope feels how fast it is pulled; letting go stops it.
        if (keys || driving_) live_.drive_anchor(*anchor, keys ? normalized(direction) * speed : Vec3{});
        driving_ = keys;
        return;
    }
    if (!keys) return;
    live_.move_anchor(live_.model().anchors[*anchor].node, normalized(direction) * (speed * dt));
}

void EditorApp::handle_viewport_mouse() {
    const ImGuiIO& io = ImGui::GetIO();
    if (!live_.running()) return;
#if SPRINGKIT_EDITOR_HAS_IMPORT
    if (preview_) return;  // the viewport shows the preview, not the document
#endif
    const Viewport vp = viewport();
    const float mx = io.MousePos.x, my = io.MousePos.y;
    const bool inside = mx >= vp.x && mx < vp.x + vp.width && my >= vp.y && my < vp.y + vp.height;
    const auto positions = live_.simulation().positions();
    const Mat4 view_projection = camera_.view_projection(vp);

    if (paint_.active && drag_.kind == ViewportDrag::Kind::none &&
        paint_with_mouse(inside && !io.WantCaptureMouse, mx, my, positions, view_projection, vp))
        return;
    // ImGui keeps the mouse when it wants it (over a panel, dragging a slider),
    // except for a drag that started in the viewport.
    if (drag_.kind == ViewportDrag::Kind::none && !io.WantCaptureMouse && inside) {
        if (io.MouseWheel != 0.0f) camera_.zoom(io.MouseWheel);
        const auto pressed = [&](ImGuiMouseButton button) {
            if (!ImGui::IsMouseClicked(button)) return false;
            drag_.press_mods = pressed_mods_[static_cast<std::size_t>(button)].value_or(0);
            return true;
        };
        if (pressed(ImGuiMouseButton_Left)) {
            // Where the button went down, not where the cursor is as the frame
            // starts: at 10 frames a second a quick grab has moved on by then.
            const CursorAt at = left_pressed_at_.value_or(CursorAt{mx, my});
            const float px = at.x, py = at.y;
            drag_.press_x = px;
            drag_.press_y = py;
            // Nothing happens until the button is let go (a click) or the mouse
            // moves past the threshold (a drag): a click never moves the model.
            drag_.kind = (held_mods() & GLFW_MOD_ALT) != 0 ? ViewportDrag::Kind::orbit : ViewportDrag::Kind::press;
            // Hidden springs cannot be clicked: those of a class the legend hides
            // are left out, and the hit's index mapped back.
            std::span<const Spring> springs = view_.springs ? std::span<const Spring>(live_.model().springs)
                                                            : std::span<const Spring>();
            std::vector<Spring> shown;
            std::vector<std::uint32_t> shown_index;
            if (std::find(view_.show_class.begin(), view_.show_class.end(), false) != view_.show_class.end()) {
                for (std::uint32_t i = 0; i < springs.size(); ++i)
                    if (view_.shows(springs[i])) {
                        shown.push_back(springs[i]);
                        shown_index.push_back(i);
                    }
                springs = shown;
            }
            drag_.pressed_on = pick(positions, springs, view_projection, vp, px, py);
            if (drag_.pressed_on && drag_.pressed_on->kind == PickHit::Kind::spring && !shown_index.empty())
                drag_.pressed_on->index = shown_index[drag_.pressed_on->index];
            drag_.collider.reset();
            if (!drag_.pressed_on) {
                if (auto hit = collider_under(camera_.ray(vp, px, py))) {
                    drag_.collider = hit->first;
                    drag_.grabbed = hit->second;
                }
            }
        } else if (pressed(ImGuiMouseButton_Right) || pressed(ImGuiMouseButton_Middle)) {
            drag_.kind = (held_mods() & GLFW_MOD_SHIFT) != 0 ? ViewportDrag::Kind::pan : ViewportDrag::Kind::orbit;
        }
    }

    switch (drag_.kind) {
        case ViewportDrag::Kind::none:
            break;
        case ViewportDrag::Kind::press: {
            if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
                drag_.kind = ViewportDrag::Kind::none;
                click(drag_.pressed_on);
                break;
            }
            const float dx = mx - drag_.press_x, dy = my - drag_.press_y;
            if (dx * dx + dy * dy < kDragThreshold * kDragThreshold) break;
            // A drag: a node grabbed without a modifier is pulled; anything else,
            // or Shift/Ctrl anywhere, draws a selection box.
            const bool modifier = (held_mods() & (GLFW_MOD_SHIFT | GLFW_MOD_CONTROL)) != 0;
            if (!modifier && drag_.pressed_on && drag_.pressed_on->kind == PickHit::Kind::node) {
                drag_.kind = ViewportDrag::Kind::node;
                drag_.node = drag_.pressed_on->index;
                drag_.target = positions[drag_.node];
                drag_.target_velocity = {};
                if (!selection_.has_node(drag_.node)) selection_.select_node(drag_.node, SelectMode::replace);
            } else if (!modifier && drag_.collider) {
                // A collider grabbed: it follows the mouse (one undo entry per drag).
                drag_.kind = ViewportDrag::Kind::collider;
                selected_collider_ = drag_.collider;
                drag_.collider_start = doc_.colliders()[*drag_.collider].pose.position;
            } else {
                drag_.kind = ViewportDrag::Kind::box;
            }
            break;
        }
        case ViewportDrag::Kind::orbit:
            camera_.orbit(io.MouseDelta.x, io.MouseDelta.y);
            if (!ImGui::IsAnyMouseDown()) drag_.kind = ViewportDrag::Kind::none;
            break;
        case ViewportDrag::Kind::pan:
            camera_.pan(io.MouseDelta.x, io.MouseDelta.y, vp);
            if (!ImGui::IsAnyMouseDown()) drag_.kind = ViewportDrag::Kind::none;
            break;
        case ViewportDrag::Kind::node: {
            // The target follows the mouse on the plane through it facing the camera;
            // the node follows the target through LiveSimulation::pull_node.
            const Vec3 facing = normalized(camera_.eye() - camera_.target);
            const auto hit = intersect_plane(camera_.ray(vp, mx, my), drag_.target, facing);
            const Vec3 target = hit ? *hit : drag_.target;
            drag_.target_velocity = (target - drag_.target) * (1.0f / kFrameDt);
            drag_.target = target;
            if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) drag_.kind = ViewportDrag::Kind::none;
            break;
        }
        case ViewportDrag::Kind::collider: {
            const Vec3 facing = normalized(camera_.eye() - camera_.target);
            const std::size_t index = *drag_.collider;
            if (index < doc_.colliders().size()) {
                if (const auto hit = intersect_plane(camera_.ray(vp, mx, my), drag_.grabbed, facing)) {
                    Collider c = doc_.colliders()[index];
                    c.pose.position = drag_.collider_start + (*hit - drag_.grabbed);
                    doc_.set_collider(index, c, true, "move collider");
                }
            }
            if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
                drag_.kind = ViewportDrag::Kind::none;
                doc_.seal();
            }
            break;
        }
        case ViewportDrag::Kind::box: {
            ImDrawList* draw = ImGui::GetForegroundDrawList();
            draw->AddRectFilled(ImVec2(drag_.press_x, drag_.press_y), ImVec2(mx, my), IM_COL32(255, 220, 60, 30));
            draw->AddRect(ImVec2(drag_.press_x, drag_.press_y), ImVec2(mx, my), IM_COL32(255, 220, 60, 200));
            if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) break;
            drag_.kind = ViewportDrag::Kind::none;
            const int mods = held_mods();
            const SelectMode mode = (mods & GLFW_MOD_SHIFT) != 0     ? SelectMode::add
                                    : (mods & GLFW_MOD_CONTROL) != 0 ? SelectMode::subtract
                                                                     : SelectMode::replace;
            selection_.select_nodes(nodes_in_rect(positions, view_projection, vp, drag_.press_x, drag_.press_y, mx, my),
                                    mode);
            break;
        }
    }
}

std::optional<std::pair<std::size_t, Vec3>> EditorApp::collider_under(const Ray& ray) const {
    if (!view_.colliders) return std::nullopt;
    std::optional<std::pair<std::size_t, Vec3>> nearest;
    float distance = 0.0f;
    for (std::size_t i = 0; i < doc_.colliders().size(); ++i)
        if (auto t = ray_collider(doc_.colliders()[i], ray.origin, ray.direction, 1e4f); t && (!nearest || *t < distance)) {
            distance = *t;
            nearest = {i, ray.origin + ray.direction * *t};
        }
    return nearest;
}

int EditorApp::held_mods() const {
    const ImGuiIO& io = ImGui::GetIO();
    const int now = (io.KeyShift ? GLFW_MOD_SHIFT : 0) | (io.KeyCtrl ? GLFW_MOD_CONTROL : 0) |
                    (io.KeyAlt ? GLFW_MOD_ALT : 0);
    return now | drag_.press_mods;
}

void EditorApp::click(const std::optional<PickHit>& hit) {
    // Blender's rules: a click replaces the selection, Shift toggles, Ctrl removes.
    const int mods = held_mods();
    const SelectMode mode = (mods & GLFW_MOD_SHIFT) != 0     ? SelectMode::toggle
                            : (mods & GLFW_MOD_CONTROL) != 0 ? SelectMode::subtract
                                                             : SelectMode::replace;
    if (!hit) {
        if (mode == SelectMode::replace) selection_.clear();
        // Nothing of the model under the cursor: the nearest collider there, if any.
        selected_collider_ = drag_.collider;
    } else if (hit->kind == PickHit::Kind::node) {
        selection_.select_node(hit->index, mode);
    } else {
        selection_.select_spring(hit->index, mode);
    }
}

// ---------------------------------------------------------------------------
// Panels: app/ui draws them over the state each one needs; what they ask for is
// carried out here, right after the panel that asked, so the panels below it in
// the frame see the result.

void EditorApp::draw_ui() {
    perform(menu_bar({doc_, recent_, playback_.playing, renderer_.has_texture()}, view_));

    const SidePanels panels = panel_widths();
    begin_side_panel("Tools", 0.0f, panels.left);
    perform(simulation_controls(doc_, live_, playback_.playing));
    perform(selection_section(doc_, selection_, live_));
    physics_section(doc_);
    perform(colliders_section(doc_, selected_collider_, selection_));
    sync_with_document();  // the simulation collides with what the panel changed
    drives_section(live_);
    ropes_section(doc_);
    paint_section(paint_, doc_.model());
    spring_groups_section(doc_, selection_);
    view_section(view_, renderer_.texture_error());
    end_side_panel();

    perform(insight_panel(doc_, live_, frequency_));
    // The timeline goes on at the bottom of the insight panel (its window again).
    begin_side_panel("Insight", ImGui::GetMainViewport()->Size.x - panels.right, panels.right);
    if (auto frame = timeline_section(live_, selection_, timeline_)) show_frame(*frame);
    end_side_panel();
    if (view_.springs && !view_.colour_by_class && !doc_.model().springs.empty())
        strain_legend(uncovered_viewport(), view_.strain_full);
    if (view_.legend && live_.running()) {
        if (class_counts_revision_ != doc_.revision() || class_counts_model_ != &live_.model()) {
            class_counts_ = count_spring_classes(live_.model().springs);
            class_counts_revision_ = doc_.revision();
            class_counts_model_ = &live_.model();
        }
        spring_legend(uncovered_viewport(), view_, class_counts_);
    }
    if (live_.running() && !selection_.springs().empty())
        selected_springs_overlay(live_.model().springs, selection_.springs(), live_.simulation().positions(),
                                 camera_.view_projection(viewport()), viewport());
    if (paint_.active && live_.running() && live_.model().node_count() == doc_.model().node_count())
        paint_overlay(doc_.model(), live_.simulation().positions(), camera_.view_projection(viewport()), viewport(),
                      paint_.brush, ImGui::GetIO().MousePos.x, ImGui::GetIO().MousePos.y);
    const bool fresh = status_fresh(messages_.status, glfwGetTime() - messages_.status_time);
    status_bar(fresh ? messages_.status : std::string(), renderer_.texture_error(), autosaver_.last_error());
    help_window(show_help_);
    draw_modals();
#if SPRINGKIT_EDITOR_HAS_IMPORT
    if (auto convert = import_dialog(import_)) {
        if (convert->preview)
            start_preview(convert->path, convert->options);
        else
            import_now(convert->path, convert->options);
    }
    if (preview_) {
        if (auto answer = preview_window(preview_->path, preview_->model, preview_->report)) {
            ImportPreview preview = std::move(*preview_);
            preview_.reset();
            camera_ = preview.camera_before;
            renderer_.set_model(doc_.model(), doc_.folder());
            if (*answer == PreviewAnswer::convert) {
                adopt_converted(preview.path, std::move(preview.model), preview.report);
            } else if (*answer == PreviewAnswer::change_options) {
                import_.path = preview.path;
            }
        }
    }
    conversion_report_window(conversion_report_.open, conversion_report_.model, conversion_report_.report);
#endif
}

void EditorApp::draw_modals() {
    // The file dialog: open, save as, or save as on the way to closing.
    if (auto chosen = file_dialog_.draw()) {
        if (file_purpose_ == FilePurpose::scene) {
            if (file_dialog_.mode() == FileDialog::Mode::open)
                open_scene(*chosen);
            else
                save_scene_as(*chosen);
        } else if (file_purpose_ == FilePurpose::collider_mesh) {
            add_mesh_collider(*chosen);
        } else if (file_dialog_.mode() == FileDialog::Mode::open) {
            request({CloseRequest::Kind::open, *chosen, {}});
        } else {
            save_as(*chosen);
            if (saving_for_close_) {
                saving_for_close_ = false;
                if (auto go = guard_.saved(doc_)) carry_out(*go);
            }
        }
    } else if (file_dialog_.take_cancelled() && saving_for_close_) {
        saving_for_close_ = false;
        guard_.saved(doc_);  // still dirty: forget the request, lose nothing
    }

    // Save changes before closing?
    const bool asking = guard_.pending() && !saving_for_close_ && !file_dialog_.is_open();
    if (auto answer = unsaved_changes_dialog(asking, doc_.display_name())) {
        switch (*answer) {
            case CloseAnswer::save:
                guard_.answer(CloseAnswer::save);
                if (doc_.path().empty()) {
                    saving_for_close_ = true;
                    file_dialog_.show(FileDialog::Mode::save, doc_.suggested_path(), {".json"});
                } else {
                    save();
                    if (auto go = guard_.saved(doc_)) carry_out(*go);
                }
                break;
            case CloseAnswer::discard:
                if (auto go = guard_.answer(CloseAnswer::discard)) carry_out(*go);
                break;
            case CloseAnswer::cancel:
                guard_.answer(CloseAnswer::cancel);
                break;
        }
    }

    // An autosave newer than the file: the last session did not end cleanly.
    if (auto answer = recovery_dialog(recovery_, doc_.display_name())) {
        if (*answer == RecoveryAnswer::recover) {
            try {
                Document recovered = doc_;
                Recovered autosave = load_autosave(*recovery_);
                recovered.recover(std::move(autosave.model), std::move(autosave.colliders));
                adopt(std::move(recovered));
                set_status("Recovered the autosave; save to keep it");
            } catch (const std::exception& e) {
                report_error(e.what());
            }
        } else if (*answer == RecoveryAnswer::delete_autosave) {
            std::error_code ec;
            fs::remove(*recovery_, ec);
            fs::remove(scene_autosave_path(*recovery_), ec);
        }
        recovery_.reset();
    }

    error_dialog(messages_.show_error, messages_.last_error);
}

// ---------------------------------------------------------------------------
// The frame

void EditorApp::run_steps(int steps) {
    const bool pulling = drag_.kind == ViewportDrag::Kind::node;
    const std::uint32_t node = drag_.node;
    const Vec3 target = drag_.target, target_velocity = drag_.target_velocity;
    for (int i = 0; i < steps; ++i) {
        const auto start = std::chrono::steady_clock::now();
        if (pulling) live_.pull_node(node, target, target_velocity, kFrameDt);
        live_.step(kFrameDt);
        stats_.step_ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
}

void EditorApp::finish_steps() {
    if (!stepper_.joinable()) return;
    stepper_.join();
    if (stepper_error_) std::rethrow_exception(std::exchange(stepper_error_, nullptr));
    after_steps(stepper_last_);
}

void EditorApp::after_steps(bool last) {
    if (!options_.stats || !live_.running()) return;
    stats_.last_kinetic_j = live_.simulation().kinetic_energy();
    stats_.peak_kinetic_j = std::max(stats_.peak_kinetic_j, stats_.last_kinetic_j);
    // The stretch of every spring, for the report: once, on the last frame of a
    // headless run, so the frames measured do not pay for it.
    if (options_.frames == 0 || last) stats_.last_max_stretch = live_.health().max_strain;
    stats_.last_center_of_mass = live_.simulation().center_of_mass();
    stats_.last_contacts = live_.simulation().contacts().size();
}

void EditorApp::lay_out() {
    if (show_ui_) draw_ui();
}

void EditorApp::frame(bool fixed_step, bool exact) {
    // The steps the frame before left running end before anything reads input,
    // edits the document or looks at the simulation.
    finish_steps();
    const auto now = std::chrono::steady_clock::now();
    const double real_dt = std::clamp(std::chrono::duration<double>(now - playback_.last_frame).count(), 0.0, 0.1);
    playback_.last_frame = now;
    if (framing_before_first_frame_) frame_camera(*std::exchange(framing_before_first_frame_, std::nullopt));

    if (show_ui_) draw_ui();
    handle_shortcuts();
    handle_viewport_mouse();
    left_pressed_at_.reset();
    pressed_mods_ = {};
    sync_with_document();
    move_anchor_with_keys(static_cast<float>(real_dt));
    move_collider_with_keys(static_cast<float>(real_dt));
    sync_with_document();

    int steps = 0;
    if (playback_.step_once) {
        steps = 1;
        playback_.step_once = false;
    } else if (playback_.playing) {
        if (fixed_step) {
            steps = 1;
        } else {
            // Fixed 1/60 s frames at the wall clock's pace; a slow frame drops time
            // rather than piling up steps.
            playback_.clock += real_dt;
            steps = static_cast<int>(playback_.clock / kFrameDt);
            playback_.clock -= steps * static_cast<double>(kFrameDt);
            if (steps > 3) {
                steps = 3;
                playback_.clock = 0.0;
            }
        }
    }
    const bool last = options_.frames > 0 && static_cast<int>(stats_.frame_ms.size()) + 1 >= options_.frames;
    // The steps run while this frame draws, unless the frame must show their result.
    bool overlap = steps > 0 && live_.running() && !exact && !options_.sequential;
#if SPRINGKIT_EDITOR_HAS_IMPORT
    if (preview_) overlap = false;
#endif
    if (!overlap) {
        run_steps(steps);
        after_steps(last);
    }
    // Follow: the camera's target moves as the centre of mass drawn does.
    if (view_.follow && live_.running()) {
        const Vec3 centre = live_.simulation().center_of_mass();
        if (followed_) camera_.target += centre - *followed_;
        followed_ = centre;
    } else {
        followed_.reset();
    }
    // Not once the person chose to quit without saving (carry_out() deleted the
    // autosave): the edits are still in the document until the window closes.
    if (!quit_confirmed_ && (options_.frames == 0 || options_.autosave_seconds))
        autosaver_.tick(doc_, std::chrono::duration<double>(now.time_since_epoch()).count());
    if (options_.frames == 0) {
        std::string title = doc_.display_name() + (doc_.dirty() ? " *" : "") + " - springkit-editor";
        if (title != window_title_) {
            glfwSetWindowTitle(window_, title.c_str());
            window_title_ = std::move(title);
        }
    }

    // Draw the scene under the panels.
    const WindowSize size = window_size();
    const int win_w = size.width, fb_w = size.framebuffer_width, fb_h = size.framebuffer_height;
    glViewport(0, 0, fb_w, fb_h);
    // The panels' background (they draw none themselves: see ui/widgets.cpp).
    glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    const float scale = win_w > 0 ? static_cast<float>(fb_w) / static_cast<float>(win_w) : 1.0f;
    const Viewport vp = viewport();
    const Viewport pixels{vp.x * scale, vp.y * scale, vp.width * scale, vp.height * scale};
#if SPRINGKIT_EDITOR_HAS_IMPORT
    if (preview_) {
        // The mesh as it would convert: its surface and springs, the anchors the
        // selectors picked, the floor grid at the ground under it.
        ViewOptions shown = view_;
        shown.surface = shown.springs = shown.anchors = shown.ground = true;
        shown.nodes = false;
        renderer_.draw(*preview_->shown, camera_, pixels, fb_h, shown, Selection{});
        return;
    }
#endif
    if (!live_.running()) return;
    if (!overlap) {
        renderer_.draw(live_.simulation(), camera_, pixels, fb_h, view_, selection_, doc_.colliders(),
                       selected_collider_);
        return;
    }
    // What the drawing reads of the simulation is copied into the renderer's
    // buffers first; then the steps may change it while the draw calls go out.
    renderer_.prepare(live_.simulation(), camera_, pixels, view_, selection_);
    const Model& model = live_.simulation().model();  // the body's: no step changes it
    stepper_last_ = last;
    stepper_ = std::thread([this, steps] {
        try {
            run_steps(steps);
        } catch (...) {
            stepper_error_ = std::current_exception();
        }
    });
    renderer_.render(model, camera_, pixels, fb_h, view_, selection_, doc_.colliders(),
                     selected_collider_);
}

}  // namespace springkit::editor
