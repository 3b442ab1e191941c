// The editor's panels (app/ui) without a window: the Physics section's widget
// plan covers the parameter table, and the panels draw in a headless Dear ImGui
// context (no backend, no OpenGL) without editing anything on their own, with
// one undo entry per drag.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "editing/document.hpp"
#include "editing/live_simulation.hpp"
#include "editing/selection.hpp"
#include "editor_models.hpp"
#include "springkit/builders.hpp"
#include "springkit/parameters.hpp"
#include "ui/colliders_panel.hpp"
#include "ui/insight_panel.hpp"
#include "ui/overlays.hpp"
#include "ui/widgets.hpp"
#include "headless_imgui.hpp"
#if SPRINGKIT_EDITOR_HAS_IMPORT
#include "ui/import_dialog.hpp"
#endif
#include "ui/parameter_widgets.hpp"
#include "ui/physics_panel.hpp"
#include "ui/tools_panel.hpp"

using namespace springkit;
using namespace springkit::editor;
using springkit::test::editor::HeadlessImGui;

using springkit::test::editor::small_cloth;

namespace {

constexpr ParameterTopic kGroups[] = {ParameterTopic::main, ParameterTopic::ground, ParameterTopic::wind,
                                    ParameterTopic::implicit, ParameterTopic::self_collision, ParameterTopic::material};

}  // namespace

TEST(PhysicsWidgets, everyRowOfTheTableHasExactlyOneWidget) {
    std::set<const ParameterInfo*> shown;
    std::set<std::string> labels;  // ImGui tells widgets apart by label
    std::size_t widgets = 0;
    for (ParameterTopic group : kGroups)
        for (const ParameterWidget& w : physics_widgets(group)) {
            ++widgets;
            EXPECT_EQ(w.row->topic, group);
            EXPECT_TRUE(shown.insert(w.row).second) << w.row->label << " is shown twice";
            EXPECT_FALSE(w.label.empty());
            EXPECT_TRUE(labels.insert(w.label).second) << w.label << " labels two widgets";
        }
    const auto table = parameter_table();
    EXPECT_EQ(widgets, table.size());
    for (const ParameterInfo& row : table) EXPECT_TRUE(shown.count(&row)) << row.label << " has no widget";
}

TEST(PhysicsWidgets, groupsFollowTheTableSections) {
    for (const ParameterInfo& row : parameter_table()) {
        const ParameterWidget w = parameter_widget(row);
        if (row.section == ParameterSection::ground) {
            EXPECT_EQ(w.row->topic, ParameterTopic::ground) << row.label;
        }
        if (row.section == ParameterSection::gust) {
            EXPECT_EQ(w.row->topic, ParameterTopic::wind) << row.label;
        }
    }
    EXPECT_EQ(parameter_widget(*find_parameter("wind")).row->topic, ParameterTopic::wind);
    EXPECT_EQ(parameter_widget(*find_parameter("k")).row->topic, ParameterTopic::main);
    EXPECT_EQ(parameter_widget(*find_parameter("strain_limit")).row->topic, ParameterTopic::implicit);
    EXPECT_EQ(parameter_widget(*find_parameter("self_friction")).row->topic, ParameterTopic::self_collision);
    EXPECT_EQ(parameter_widget(*find_parameter("long_range_attachments")).row->topic, ParameterTopic::implicit);
    EXPECT_EQ(parameter_widget(*find_parameter("strain_limit_passes")).row->topic, ParameterTopic::implicit);
    EXPECT_EQ(parameter_widget(*find_parameter("total_mass")).row->topic, ParameterTopic::material);
    EXPECT_EQ(parameter_widget(*find_parameter("stretch_stiffness")).row->topic, ParameterTopic::material);
    // Under the "ground" checkbox the rows need not say "ground" again.
    EXPECT_EQ(parameter_widget(*find_parameter("ground/repulsion")).label, "repulsion");
    EXPECT_EQ(parameter_widget(*find_parameter("gust/period")).label, "gust period");
}

TEST(PhysicsWidgets, controlsFitTheRowTypes) {
    for (const ParameterInfo& row : parameter_table()) {
        const ParameterWidget w = parameter_widget(row);
        switch (row.type) {
            case ParameterType::number: EXPECT_EQ(w.control, ParameterControl::drag_float) << row.label; break;
            case ParameterType::vector: EXPECT_EQ(w.control, ParameterControl::drag_float3) << row.label; break;
            case ParameterType::count: EXPECT_EQ(w.control, ParameterControl::drag_int) << row.label; break;
            case ParameterType::integrator: EXPECT_EQ(w.control, ParameterControl::combo) << row.label; break;
        }
        if (row.type == ParameterType::number && !row.unit.empty()) {
            EXPECT_NE(w.format.find(std::string(row.unit)), std::string::npos) << row.label;
        }
        EXPECT_NE(w.help.find(std::string(row.doc)), std::string::npos) << row.label;
        if (row.type != ParameterType::integrator) {
            EXPECT_GT(w.speed_at(0.0f), 0.0f) << row.label;
        }
    }
    const Parameters& defaults = parameter_defaults();
    EXPECT_EQ(integrator_labels().size(), static_cast<std::size_t>(defaults.integrator) + 3)
        << "explicit Euler, symplectic Euler (the default), Verlet and implicit";
}

TEST(PhysicsWidgets, clampsStayWithinTheRowBoundsAndHoldTheDefaults) {
    for (const ParameterInfo& row : parameter_table()) {
        const ParameterWidget w = parameter_widget(row);
        const bool bounded = std::isfinite(row.min.value) || std::isfinite(row.max.value);
        EXPECT_EQ(w.clamped(), bounded) << row.label;
        if (!bounded) continue;
        // Whatever the widget lets through is a valid value, open bounds included.
        if (std::isfinite(row.min.value)) {
            EXPECT_TRUE(row.in_range(w.min)) << row.label << " min " << w.min;
        }
        if (std::isfinite(row.max.value)) {
            EXPECT_TRUE(row.in_range(w.max)) << row.label << " max " << w.max;
        }
        const Parameters& defaults = parameter_defaults();
        if (const float* v = parameter_number(row, defaults)) {
            EXPECT_GE(*v, w.min) << row.label;
            EXPECT_LE(*v, w.max) << row.label;
        }
        if (const int* v = parameter_count(row, defaults)) {
            EXPECT_GE(static_cast<float>(*v), w.min) << row.label;
            EXPECT_LE(static_cast<float>(*v), w.max) << row.label;
        }
    }
}

TEST(PhysicsWidgets, stiffnessAndMassDragByAShareOfTheirValue) {
    const ParameterWidget k = parameter_widget(*find_parameter("k"));
    EXPECT_FLOAT_EQ(k.speed_at(1000.0f), 10.0f);
    EXPECT_FLOAT_EQ(k.speed_at(100000.0f), 1000.0f);
    const ParameterWidget mass = parameter_widget(*find_parameter("mass"));
    EXPECT_FLOAT_EQ(mass.speed_at(0.05f), 0.0005f);
    EXPECT_GT(mass.speed_at(0.0f), 0.0f);
}

TEST(PhysicsWidgets, fitGustKeepsTheDurationWithinThePeriod) {
    Parameters p;
    fit_gust(p);
    EXPECT_EQ(p.gust, Gust{}) << "no gusts: nothing to fit";
    p.gust.period = 2.0f;  // dragged up from 0, duration still 0
    fit_gust(p);
    EXPECT_FLOAT_EQ(p.gust.duration, 1.0f);
    p.gust.period = 0.5f;  // dragged below the duration
    fit_gust(p);
    EXPECT_FLOAT_EQ(p.gust.duration, 0.5f);
    Model m = small_cloth();
    m.params = p;
    EXPECT_NO_THROW(validate(m));
}

TEST(PanelsHeadless, drawingEditsNothing) {
    HeadlessImGui imgui;
    Model model = small_cloth();
    model.params.ground = Ground{};
    model.params.gust.period = 3.0f;
    model.params.gust.duration = 1.0f;
    Document doc(model, "cloth.json", false);
    LiveSimulation live;
    live.restart(doc.model());
    Selection selection;
    selection.fit(doc.model());
    ViewOptions view;
    FrequencyCache frequency;
    for (int i = 0; i < 3; ++i)
        imgui.frame([&] {
            // The closed "Wind and gusts" group opened, as a click would.
            ImGui::PushID("physics");
            ImGui::GetStateStorage()->SetInt(ImGui::GetID("Wind and gusts"), 1);
            ImGui::PopID();
            EXPECT_FALSE(simulation_controls(doc, live, true));
            EXPECT_FALSE(selection_section(doc, selection, live));
            physics_section(doc);
            drives_section(live);
            ropes_section(doc);
            view_section(view, {});
            EXPECT_FALSE(insight_panel(doc, live, frequency));
        });
    EXPECT_EQ(doc.history_size(), 0u);
    EXPECT_FALSE(doc.dirty());
    EXPECT_TRUE(frequency.value.has_value());
}

namespace {

// The middle of the Physics section's k field: the first widget under its open header.
ImVec2 k_field(HeadlessImGui& imgui, Document& doc) {
    ImVec2 at{};
    imgui.frame([&] {
        const ImVec2 start = ImGui::GetCursorScreenPos();
        at = ImVec2(start.x + 75.0f, start.y + ImGui::GetFrameHeightWithSpacing() + ImGui::GetFrameHeight() * 0.5f);
        physics_section(doc);
    });
    return at;
}

}  // namespace

TEST(PanelsHeadless, oneUndoEntryPerDragOfAPhysicsWidget) {
    HeadlessImGui imgui;
    Document doc(small_cloth(), "cloth.json", false);
    const float k_before = doc.model().params.k;
    const ImVec2 at = k_field(imgui, doc);
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    imgui.frame([&] { physics_section(doc); });
    io.MouseDown[0] = true;
    for (int i = 0; i < 6; ++i) {
        imgui.frame([&] { physics_section(doc); });
        io.MousePos.x += 10.0f;
    }
    io.MouseDown[0] = false;
    imgui.frame([&] { physics_section(doc); });
    imgui.frame([&] { physics_section(doc); });
    EXPECT_GT(doc.model().params.k, k_before) << "dragging right stiffens";
    EXPECT_EQ(doc.history_size(), 1u) << "a whole drag is one edit";
    ASSERT_TRUE(doc.undo());
    EXPECT_EQ(doc.model().params.k, k_before);
}

TEST(PanelsHeadless, aTypedNumberAppliesOnEnterNotAtEveryKeystroke) {
    HeadlessImGui imgui;
    Document doc(small_cloth(), "cloth.json", false);
    const float k_before = doc.model().params.k;
    const ImVec2 at = k_field(imgui, doc);
    ImGuiIO& io = ImGui::GetIO();
    constexpr int kEnter = 257, kEscape = 256;  // any free slots of KeysDown
    io.KeyMap[ImGuiKey_Enter] = kEnter;
    io.KeyMap[ImGuiKey_Escape] = kEscape;
    auto draw = [&] { physics_section(doc); };
    auto ctrl_click = [&] {
        io.MousePos = at;
        imgui.frame(draw);
        io.KeyCtrl = true;  // Ctrl+click turns the drag field into a text field
        io.MouseDown[0] = true;
        imgui.frame(draw);
        io.MouseDown[0] = false;
        io.KeyCtrl = false;
        imgui.frame(draw);
    };
    auto press = [&](int key) {
        io.KeysDown[key] = true;
        imgui.frame(draw);
        io.KeysDown[key] = false;
        imgui.frame(draw);
    };
    ctrl_click();
    for (const char c : std::string("50000")) {
        io.AddInputCharacter(static_cast<unsigned>(c));
        imgui.frame(draw);
        EXPECT_EQ(doc.model().params.k, k_before) << "nothing applies while typing";
        EXPECT_EQ(doc.history_size(), 0u);
    }
    press(kEnter);
    EXPECT_EQ(doc.model().params.k, 50000.0f);
    EXPECT_EQ(doc.history_size(), 1u) << "one edit for the typed number";

    // Escape gives the old value back: nothing changes.
    ctrl_click();
    for (const char c : std::string("7")) io.AddInputCharacter(static_cast<unsigned>(c));
    imgui.frame(draw);
    press(kEscape);
    EXPECT_EQ(doc.model().params.k, 50000.0f);
    EXPECT_EQ(doc.history_size(), 1u);
    ASSERT_TRUE(doc.undo());
    EXPECT_EQ(doc.model().params.k, k_before);
}

// Choosing the implicit integrator in the Physics panel takes one step a
// frame, as --integrator implicit does: max substep 2 ms -> 1/60 s, one undo
// entry for both.
TEST(PanelsHeadless, choosingTheImplicitIntegratorTakesOneStepAFrame) {
    HeadlessImGui imgui;
    Document doc(small_cloth(), "cloth.json", false);
    ASSERT_EQ(doc.model().params.max_substep, 0.002f);
    // The integrator's combo: the eighth main row (k, energy loss, mass,
    // gravity, spring damping, air friction, max substep, integrator).
    const ImVec2 k_at = k_field(imgui, doc);
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(k_at.x, k_at.y + 7.0f * ImGui::GetFrameHeightWithSpacing());
    auto draw = [&] { physics_section(doc); };
    imgui.frame(draw);
    io.MouseDown[0] = true;
    imgui.frame(draw);
    io.MouseDown[0] = false;
    for (int i = 0; i < 3; ++i) imgui.frame(draw);  // the popup sizes itself
    ImGuiWindow* popup = ImGui::FindWindowByName("##Combo_00");
    ASSERT_NE(popup, nullptr) << "the combo opened";
    // A click on its last item, "implicit".
    const ImGuiStyle& style = ImGui::GetStyle();
    io.MousePos = ImVec2(popup->Pos.x + style.WindowPadding.x + 10.0f,
                         popup->Pos.y + popup->Size.y - style.WindowPadding.y - 0.5f * ImGui::GetTextLineHeight());
    imgui.frame(draw);
    io.MouseDown[0] = true;
    imgui.frame(draw);
    io.MouseDown[0] = false;
    for (int i = 0; i < 2; ++i) imgui.frame(draw);
    EXPECT_EQ(doc.model().params.integrator, Integrator::implicit);
    EXPECT_EQ(doc.model().params.max_substep, 1.0f / 60.0f);
    EXPECT_EQ(doc.history_size(), 1u);
    ASSERT_TRUE(doc.undo());
    EXPECT_EQ(doc.model().params.integrator, Integrator::symplectic_euler);
    EXPECT_EQ(doc.model().params.max_substep, 0.002f);
}

TEST(PanelsHeadless, statusMessagesExpireErrorsLater) {
    EXPECT_TRUE(status_fresh("Saved cloth.json", kStatusSeconds - 0.1));
    EXPECT_FALSE(status_fresh("Saved cloth.json", kStatusSeconds));
    EXPECT_TRUE(status_fresh("error: cloth.json: cannot write", kStatusSeconds + 1.0));
    EXPECT_FALSE(status_fresh("error: cloth.json: cannot write", kErrorSeconds));
}

TEST(PanelsHeadless, helpListsEveryShortcutKeyOfTheEditor) {
    // The keys EditorApp::shortcut() carries out, each named in some help line.
    std::string keys;
    for (const Shortcut& s : shortcuts()) keys += std::string(s.keys) + "\n";
    for (const char* key : {"F1", "Space", ".", "R", "Home", "F", "Delete", "X", "P", "B", "A", "Alt+A", "Esc", "[ ]",
                            "Page Up", "Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+Y", "Ctrl+S", "Ctrl+Shift+S", "Ctrl+O",
                            "Ctrl+Q", "wheel", "Ctrl+click", "Ctrl+Left", "Ctrl+Right"})
        EXPECT_NE(keys.find(key), std::string::npos) << key;
    HeadlessImGui imgui;
    bool open = true;
    imgui.frame([&] { help_window(open); });
    EXPECT_TRUE(open);
    EXPECT_NE(ImGui::FindWindowByName("Help: shortcuts (F1)"), nullptr);
}

#if SPRINGKIT_EDITOR_HAS_IMPORT
namespace {

// The dialog's IDs as ImGui computes them (ImGuiWindow::GetID): the popup is a
// window named "Convert mesh"; a row pushes its table row, the closed group its
// tree node's ID.
ImGuiWindow* import_window() { return ImGui::FindWindowByName("Convert mesh"); }

ImGuiID dialog_id(const char* label) { return ImHashStr(label, 0, import_window()->ID); }

ImGuiID set_checkbox_id(const ParameterInfo& row) {
    ImGuiID seed = import_window()->ID;
    if (parameter_widget(row).row->topic == ParameterTopic::wind) seed = ImHashStr("Wind and gusts", 0, seed);
    if (parameter_widget(row).row->topic == ParameterTopic::implicit) seed = ImHashStr("Implicit integrator", 0, seed);
    if (parameter_widget(row).row->topic == ParameterTopic::self_collision) seed = ImHashStr("Self-collision", 0, seed);
    if (parameter_widget(row).row->topic == ParameterTopic::material) seed = ImHashStr("Material", 0, seed);
    const ParameterInfo* pushed = &row;
    return ImHashStr("##set", 0, ImHashData(&pushed, sizeof pushed, seed));
}

// Clicks an item by ID, as a keyboard would activate it, in the next frame.
std::optional<ImportRequest> activate(HeadlessImGui& imgui, ImportDialogState& state, ImGuiID id) {
    std::optional<ImportRequest> request;
    ImGui::ActivateItem(id);
    for (int i = 0; i < 2; ++i)
        imgui.frame([&] {
            if (auto r = import_dialog(state)) request = std::move(r);
        });
    return request;
}

}  // namespace

TEST(PanelsHeadless, importDialogWaitsForConvert) {
    HeadlessImGui imgui;
    ImportDialogState state;
    state.path = "mesh.obj";
    state.options.parameters.set(*find_parameter("k"), {.number = 500.0f});
    state.options.anchors = {"top:10%"};
    for (int i = 0; i < 3; ++i) imgui.frame([&] { EXPECT_FALSE(import_dialog(state).has_value()); });
    EXPECT_TRUE(state.path.has_value()) << "still open";
    ASSERT_NE(state.options.parameters.find(*find_parameter("k")), nullptr) << "drawing leaves the options alone";
    EXPECT_EQ(state.options.parameters.find(*find_parameter("k"))->number, 500.0f);
    EXPECT_EQ(state.anchors_text, "top:10%\n") << "the anchors, one a line, to edit";
}

TEST(PanelsHeadless, importDialogOverridesEveryRowOfTheTable) {
    HeadlessImGui imgui;
    ImportDialogState state;
    state.path = "mesh.obj";
    imgui.frame([&] { EXPECT_FALSE(import_dialog(state).has_value()); });
    ASSERT_NE(import_window(), nullptr);
    import_window()->StateStorage.SetInt(dialog_id("Wind and gusts"), 1);  // opened, as a click would
    import_window()->StateStorage.SetInt(dialog_id("Implicit integrator"), 1);
    import_window()->StateStorage.SetInt(dialog_id("Self-collision"), 1);
    import_window()->StateStorage.SetInt(dialog_id("Material"), 1);
    imgui.frame([&] { EXPECT_FALSE(import_dialog(state).has_value()); });
    EXPECT_TRUE(state.options.parameters.empty()) << "nothing is set until it is ticked";

    // Tick every row's "set", in table order (the ground height first gives the
    // other ground rows a ground): each is drawn and lands in the options with
    // the value the converter would have used anyway.
    Parameters expected = parameter_defaults();
    expected.spring_damping = state.options.spring_damping;
    ImGui::GetIO().DisplaySize = ImVec2(1280, 1440);  // a tall screen: every row in view
    for (const ParameterInfo& row : parameter_table()) {
        EXPECT_FALSE(activate(imgui, state, set_checkbox_id(row)));
        const ParameterValue* set = state.options.parameters.find(row);
        ASSERT_NE(set, nullptr) << row.label << ": no \"set\" checkbox in the dialog";
        ParameterValue value;
        ASSERT_TRUE(read_parameter(row, expected, value));
        EXPECT_EQ(*set, value) << row.label;
    }
    // Unticking unsets.
    EXPECT_FALSE(activate(imgui, state, set_checkbox_id(*find_parameter("mass"))));
    EXPECT_EQ(state.options.parameters.find(*find_parameter("mass")), nullptr);

    // With every group open the dialog is taller than the 720-pixel screen and
    // scrolls; closing the groups brings Convert into view, as scrolling would.
    ImGui::GetIO().DisplaySize = ImVec2(1280, 720);
    for (const char* group : {"Wind and gusts", "Implicit integrator", "Self-collision", "Material"})
        import_window()->StateStorage.SetInt(dialog_id(group), 0);
    const std::optional<ImportRequest> request = activate(imgui, state, dialog_id("Convert"));
    ASSERT_TRUE(request.has_value());
    EXPECT_EQ(request->path, "mesh.obj");
    EXPECT_FALSE(state.path.has_value()) << "Convert closes the dialog";
    for (const ParameterInfo& row : parameter_table())
        EXPECT_EQ(request->options.parameters.find(row) != nullptr, row.key != "mass") << row.label;
    Parameters applied;
    request->options.parameters.apply(applied);
    EXPECT_NO_THROW(validate_parameters(applied, "dialog"));
}

TEST(PanelsHeadless, importDialogPreviewsBeforeConverting) {
    HeadlessImGui imgui;
    ImportDialogState state;
    state.path = "mesh.obj";
    state.options.units = 0.01;
    state.options.islands = ImportOptions::Islands::largest;
    state.options.anchors = {"top:10%"};
    imgui.frame([&] { EXPECT_FALSE(import_dialog(state).has_value()); });
    const std::optional<ImportRequest> request = activate(imgui, state, dialog_id("Preview"));
    ASSERT_TRUE(request.has_value());
    EXPECT_TRUE(request->preview);
    EXPECT_EQ(request->options.units, 0.01) << "the options as set";
    EXPECT_EQ(request->options.islands, ImportOptions::Islands::largest);
    EXPECT_EQ(request->options.anchors, std::vector<std::string>{"top:10%"});
    EXPECT_FALSE(state.path.has_value()) << "the preview window takes over";

    // The preview window lists the report's facts and answers with its buttons.
    Model model = small_cloth();
    ImportReport report;
    report.islands = {12, 8};
    report.edge_springs = 31;
    report.unit = "given: 0.01 m per unit";
    for (int i = 0; i < 2; ++i)
        imgui.frame([&] { EXPECT_FALSE(preview_window("mesh.obj", model, report).has_value()); });
    ImGuiWindow* window = ImGui::FindWindowByName("Conversion preview");
    ASSERT_NE(window, nullptr);
    ImGui::ActivateItem(ImHashStr("Change options", 0, window->ID));
    std::optional<PreviewAnswer> answer;
    for (int i = 0; i < 2; ++i)
        imgui.frame([&] {
            if (auto a = preview_window("mesh.obj", model, report)) answer = a;
        });
    EXPECT_EQ(answer, PreviewAnswer::change_options);
}

TEST(PanelsHeadless, importDialogGroundUnderTheModel) {
    HeadlessImGui imgui;
    ImportDialogState state;
    state.path = "mesh.obj";
    state.options.parameters.set(*find_parameter("ground/height"), {.number = 2.0f});
    state.options.parameters.set(*find_parameter("ground/friction"), {.number = 5.0f});
    imgui.frame([&] { EXPECT_FALSE(import_dialog(state).has_value()); });
    EXPECT_FALSE(activate(imgui, state, dialog_id("collide with the ground under the model")));
    EXPECT_TRUE(state.options.ground_at_bottom);
    EXPECT_EQ(state.options.parameters.find(*find_parameter("ground/height")), nullptr)
        << "the model's bottom gives the height";
    EXPECT_NE(state.options.parameters.find(*find_parameter("ground/friction")), nullptr) << "kept for that ground";
    // Without any ground the ground's constants have nothing to change.
    EXPECT_FALSE(activate(imgui, state, dialog_id("collide with the ground under the model")));
    EXPECT_FALSE(state.options.ground_at_bottom);
    EXPECT_EQ(state.options.parameters.find(*find_parameter("ground/friction")), nullptr);
}
#endif

TEST(PanelsHeadless, collidersAndNodeMassesDrawWithoutEditing) {
    HeadlessImGui imgui;
    Document doc(small_cloth(), "cloth.json", false);
    Collider ball = sphere_collider(0.3f);
    ball.name = "ball";
    ASSERT_TRUE(doc.add_collider(ball));
    Collider hull = convex_hull_collider(std::vector<Vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
    ASSERT_TRUE(doc.add_collider(hull));
    const std::size_t history = doc.history_size();
    LiveSimulation live;
    live.restart(doc.model());
    Selection selection;
    selection.fit(doc.model());
    selection.select_node(3, SelectMode::replace);
    for (std::size_t shown : {0u, 1u}) {
        std::optional<std::size_t> selected = shown;
        for (int i = 0; i < 3; ++i)
            imgui.frame([&] {
                EXPECT_FALSE(selection_section(doc, selection, live));
                EXPECT_FALSE(colliders_section(doc, selected, selection));
            });
        EXPECT_EQ(selected, shown);
    }
    EXPECT_EQ(doc.history_size(), history);
    // A collider that is gone is not selected any more.
    std::optional<std::size_t> gone = 7;
    imgui.frame([&] { colliders_section(doc, gone, selection); });
    EXPECT_FALSE(gone.has_value());
}

TEST(PanelsHeadless, oneUndoEntryPerDragOfAColliderField) {
    HeadlessImGui imgui;
    Document doc(small_cloth(), "cloth.json", false);
    ASSERT_TRUE(doc.add_collider(sphere_collider(0.3f)));
    const Vec3 before = doc.colliders()[0].pose.position;
    // The position field: the first widget after the name field.
    ImVec2 at{};
    imgui.frame([&] {
        ImGui::PushItemWidth(170);
        const ImVec2 start = ImGui::GetCursorScreenPos();
        at = ImVec2(start.x + 20.0f, start.y + ImGui::GetFrameHeightWithSpacing() + ImGui::GetFrameHeight() * 0.5f);
        collider_fields(doc, 0);
        ImGui::PopItemWidth();
    });
    auto draw = [&] {
        ImGui::PushItemWidth(170);
        collider_fields(doc, 0);
        ImGui::PopItemWidth();
    };
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    imgui.frame(draw);
    io.MouseDown[0] = true;
    for (int i = 0; i < 6; ++i) {
        imgui.frame(draw);
        io.MousePos.x += 10.0f;
    }
    io.MouseDown[0] = false;
    imgui.frame(draw);
    imgui.frame(draw);
    EXPECT_GT(doc.colliders()[0].pose.position.x, before.x) << "dragging right moves it along +x";
    EXPECT_EQ(doc.colliders()[0].pose.position.y, before.y);
    EXPECT_EQ(doc.history_size(), 2u) << "the add, and one edit for the whole drag";
    EXPECT_STREQ(doc.undo_name(), "move collider");
    ASSERT_TRUE(doc.undo());
    EXPECT_EQ(doc.colliders()[0].pose.position.x, before.x);
}

TEST(PanelsHeadless, theCollisionGroundAndTheFloorGridHaveTheirOwnNames) {
    HeadlessImGui imgui;
    Model model = small_cloth();
    model.params.ground = Ground{};
    Document doc(model, "cloth.json", false);
    ViewOptions view;
    auto draw = [&] {
        physics_section(doc);
        view_section(view, {});
    };
    imgui.frame(draw);
    ImGuiWindow* tools = ImGui::FindWindowByName("Tools");
    ASSERT_NE(tools, nullptr);
    tools->StateStorage.SetInt(ImHashStr("View", 0, tools->ID), 1);  // opened, as a click would
    // ImGui keys widgets by label: "Ground (collision)" in the Physics section
    // (under its "physics" ID), "floor grid" in the View section.
    const ImGuiID ground = ImHashStr("Ground (collision)", 0, ImHashStr("physics", 0, tools->ID));
    const ImGuiID grid = ImHashStr("floor grid", 0, tools->ID);
    ImGui::ActivateItem(ground);
    imgui.frame(draw);
    imgui.frame(draw);
    EXPECT_FALSE(doc.model().params.ground.has_value()) << "\"Ground (collision)\" is the model's ground";
    EXPECT_TRUE(view.ground);
    ImGui::ActivateItem(grid);
    imgui.frame(draw);
    imgui.frame(draw);
    EXPECT_FALSE(view.ground) << "\"floor grid\" only hides the drawn grid";
    EXPECT_EQ(doc.history_size(), 1u) << "and is no edit";
}
