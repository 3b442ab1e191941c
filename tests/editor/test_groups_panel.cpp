// The spring groups and paint sections of the tools panel in a headless Dear
// ImGui context: a group made from the selected springs, its members selected,
// its own damping, deleted and undone, each one undo entry, saved in the file.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <filesystem>

#include "editing/document.hpp"
#include "editing/selection.hpp"
#include "editor_models.hpp"
#include "headless_imgui.hpp"
#include "springkit/builders.hpp"
#include "springkit/io.hpp"
#include "support/test_files.hpp"
#include "ui/groups_panel.hpp"
#include "ui/paint_panel.hpp"

using namespace springkit;
using namespace springkit::editor;
using springkit::test::editor::HeadlessImGui;

namespace {

ImGuiWindow* tools() { return ImGui::FindWindowByName("Tools"); }

// A widget's ID in the Tools window, inside the group row `row` (PushID(int)) or not.
ImGuiID widget_id(const char* label, int row = -1) {
    ImGuiID seed = tools()->ID;
    if (row >= 0) seed = ImHashData(&row, sizeof row, seed);
    return ImHashStr(label, 0, seed);
}

// Activates a widget by ID, as the keyboard would, over the next frames.
template <class Draw>
void activate(HeadlessImGui& imgui, ImGuiID id, Draw draw) {
    ImGui::ActivateItem(id);
    for (int i = 0; i < 2; ++i) imgui.frame(draw);
}

}  // namespace

TEST(GroupsPanel, makeSelectTuneAndDeleteAGroupThatIsSavedInTheFile) {
    const test::TempDir dir;
    Document doc(springkit::test::editor::small_cloth(), {}, false);
    Selection selection;
    const std::uint32_t picked[] = {6, 2, 9};
    selection.select_springs(picked, SelectMode::replace);
    HeadlessImGui imgui;
    auto draw = [&] { spring_groups_section(doc, selection); };
    imgui.frame(draw);
    ASSERT_NE(tools(), nullptr);
    tools()->StateStorage.SetInt(widget_id("Spring groups###groups"), 1);  // opened, as a click would
    imgui.frame(draw);
    EXPECT_EQ(doc.history_size(), 0u) << "drawing edits nothing";

    activate(imgui, widget_id("New group from selected springs"), draw);
    ASSERT_EQ(doc.model().spring_groups.size(), 1u);
    const SpringGroup& g = doc.model().spring_groups[0];
    EXPECT_EQ(g.name, "group 1");
    EXPECT_EQ(g.springs, (std::vector<std::uint32_t>{2, 6, 9}));
    EXPECT_EQ(doc.history_size(), 1u);

    selection.clear();
    activate(imgui, widget_id("Select", 0), draw);
    EXPECT_EQ(selection.springs(), (std::vector<std::uint32_t>{2, 6, 9}));

    activate(imgui, widget_id("own damping", 0), draw);
    ASSERT_TRUE(doc.model().spring_groups[0].damping.has_value());
    EXPECT_EQ(*doc.model().spring_groups[0].damping, doc.model().params.spring_damping);
    EXPECT_EQ(doc.history_size(), 2u);

    doc.save_as(dir.path() / "cloth.json");
    const Model saved = load_model(dir.path() / "cloth.json");
    EXPECT_EQ(saved.spring_groups, doc.model().spring_groups);

    activate(imgui, widget_id("Delete", 0), draw);
    EXPECT_TRUE(doc.model().spring_groups.empty());
    EXPECT_TRUE(doc.undo());
    EXPECT_EQ(doc.model().spring_groups, saved.spring_groups);
    EXPECT_FALSE(doc.dirty()) << "undone back to the saved state";
}

TEST(GroupsPanel, paintSectionSetsTheBrushAndDrawsNothingIntoTheModel) {
    ClothSpec spec;
    spec.columns = 4;
    spec.rows = 4;
    const Model m = make_cloth(spec);
    PaintMode paint;
    HeadlessImGui imgui;
    auto draw = [&] { paint_section(paint, m); };
    imgui.frame(draw);
    tools()->StateStorage.SetInt(widget_id("Paint###paint"), 1);
    imgui.frame(draw);
    activate(imgui, widget_id("paint mode (B)"), draw);
    EXPECT_TRUE(paint.active);
    activate(imgui, widget_id("erase (free nodes)"), draw);
    EXPECT_TRUE(paint.brush.erase);
}
