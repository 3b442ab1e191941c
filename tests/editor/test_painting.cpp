// Painting and spring groups in the editor's document, without a window: the
// brush's weights and dabs, one undo entry per stroke, the running simulation
// taking a painted change, and groups surviving spring deletion and undo.
#include <gtest/gtest.h>

#include <cmath>

#include "editing/document.hpp"
#include "editing/live_simulation.hpp"
#include "editing/paint.hpp"
#include "editing/spring_groups.hpp"
#include "editor_models.hpp"
#include "springkit/builders.hpp"
#include "view/camera.hpp"

using namespace springkit;
using namespace springkit::editor;

using springkit::test::editor::small_cloth;

namespace {

std::vector<BrushHit> hits(std::initializer_list<std::pair<std::uint32_t, float>> list) {
    std::vector<BrushHit> h;
    for (auto [node, weight] : list) h.push_back({node, weight});
    return h;
}

}  // namespace

TEST(Paint, falloffCurvesGoFromOneAtTheCentreToZeroAtTheRim) {
    BrushSettings b;
    b.radius_px = 10.0f;
    b.falloff = PaintFalloff::constant;
    EXPECT_EQ(brush_weight(b, 0.0f), 1.0f);
    EXPECT_EQ(brush_weight(b, 9.9f), 1.0f);
    EXPECT_EQ(brush_weight(b, 10.5f), 0.0f);
    b.falloff = PaintFalloff::linear;
    EXPECT_FLOAT_EQ(brush_weight(b, 2.5f), 0.75f);
    b.falloff = PaintFalloff::smooth;  // 1 - 3 d^2 + 2 d^3
    EXPECT_FLOAT_EQ(brush_weight(b, 5.0f), 0.5f);
    EXPECT_FLOAT_EQ(brush_weight(b, 2.0f), 1.0f - 3 * 0.04f + 2 * 0.008f);
    EXPECT_EQ(brush_weight(b, 10.0f), 0.0f);
    EXPECT_EQ(brush_weight(b, NAN), 0.0f);
}

TEST(Paint, nodesUnderTheBrushAreThoseDrawnWithinItsRadius) {
    Model m;
    m.positions = {{0, 0, 0}, {0.1f, 0, 0}, {1, 0, 0}};
    OrbitCamera camera;
    camera.frame(bounds(m));
    const Viewport vp{0, 0, 800, 600};
    const Mat4 vpm = camera.view_projection(vp);
    const auto p0 = project(vpm, vp, m.positions[0]);
    const auto p1 = project(vpm, vp, m.positions[1]);
    ASSERT_TRUE(p0 && p1);
    BrushSettings b;
    b.radius_px = std::hypot(p1->x - p0->x, p1->y - p0->y) * 1.5f;
    b.falloff = PaintFalloff::linear;
    const auto h = nodes_under_brush(m.positions, vpm, vp, p0->x, p0->y, b);
    ASSERT_EQ(h.size(), 2u);
    EXPECT_EQ(h[0].node, 0u);
    EXPECT_FLOAT_EQ(h[0].weight, 1.0f);
    EXPECT_EQ(h[1].node, 1u);
    EXPECT_NEAR(h[1].weight, 1.0f / 3.0f, 1e-4f);
}

TEST(Paint, dabsPinFreeWeighMassesAndScaleSprings) {
    const Model m = small_cloth();  // anchored at its two top corners
    BrushSettings b;
    PaintValues v = paint_values(m);
    // Anchors: pinned once, fixed, in the order hit; erasing frees.
    EXPECT_TRUE(apply_dab(m, v, hits({{7, 1.0f}, {8, 0.2f}, {0, 1.0f}}), b));
    ASSERT_EQ(v.anchors.size(), m.anchors.size() + 2);
    EXPECT_EQ(v.anchors[m.anchors.size()].node, 7u);
    EXPECT_EQ(v.anchors.back().node, 8u);
    EXPECT_FALSE(apply_dab(m, v, hits({{7, 1.0f}}), b)) << "already pinned";
    b.erase = true;
    EXPECT_TRUE(apply_dab(m, v, hits({{7, 1.0f}, {0, 1.0f}}), b));
    EXPECT_EQ(v.anchors.size(), m.anchors.size());
    // Mass towards a value: m + (value - m) w s.
    b = {};
    b.target = PaintTarget::mass;
    b.mass_value = 0.25f;
    b.strength = 0.5f;
    v = paint_values(m);
    EXPECT_TRUE(apply_dab(m, v, hits({{3, 1.0f}, {4, 0.5f}}), b));
    ASSERT_EQ(v.masses.size(), m.node_count());
    EXPECT_FLOAT_EQ(v.masses[3], 0.05f + 0.2f * 0.5f);
    EXPECT_FLOAT_EQ(v.masses[4], 0.05f + 0.2f * 0.25f);
    EXPECT_EQ(v.masses[5], 0.05f);
    b.mass_mode = MassMode::multiply;  // m * factor^(w s)
    b.mass_factor = 4.0f;
    b.strength = 1.0f;
    EXPECT_TRUE(apply_dab(m, v, hits({{5, 0.5f}}), b));
    EXPECT_FLOAT_EQ(v.masses[5], 0.1f);
    // Stiffness: springs at painted nodes, by the mean weight of their ends.
    b = {};
    b.target = PaintTarget::stiffness;
    b.stiffness_value = 3.0f;
    b.strength = 1.0f;
    v = paint_values(m);
    EXPECT_TRUE(apply_dab(m, v, hits({{0, 1.0f}}), b));
    for (std::size_t i = 0; i < m.springs.size(); ++i) {
        const Spring& s = m.springs[i];
        const float w = (s.a == 0 || s.b == 0) ? 0.5f : 0.0f;
        EXPECT_FLOAT_EQ(v.spring_k[i], w > 0 ? (1.0f + 2.0f * w) * m.params.k : 0.0f) << "spring " << i;
    }
}

TEST(Paint, aStrokeIsOneUndoEntryAndTheSimulationTakesIt) {
    Document doc(small_cloth(), "cloth.json", false);
    LiveSimulation live;
    live.restart(doc.model());
    BrushSettings b;
    b.target = PaintTarget::mass;
    b.mass_value = 0.5f;
    b.strength = 0.5f;
    for (std::uint32_t node : {5u, 6u, 7u}) {  // three dabs of one stroke
        PaintValues v = paint_values(doc.model());
        ASSERT_TRUE(apply_dab(doc.model(), v, hits({{node, 1.0f}, {node + 1, 1.0f}}), b));
        ASSERT_TRUE(doc.paint(v, b.target, true));
        live.update_model(doc.model());
    }
    doc.seal();
    EXPECT_EQ(doc.history_size(), 1u);
    EXPECT_STREQ(doc.undo_name(), "paint mass");
    EXPECT_FLOAT_EQ(doc.model().masses[6], 0.05f + 0.45f * 0.75f);  // painted twice
    EXPECT_EQ(live.simulation().model().masses, doc.model().masses);
    // The running instance steps on with the painted masses.
    for (int i = 0; i < 30; ++i) live.step(1.0f / 60.0f);
    EXPECT_TRUE(doc.undo());
    EXPECT_TRUE(doc.model().masses.empty()) << "back to the model's mass for every node";
    EXPECT_TRUE(doc.model() == small_cloth());
    // A new stroke is a new entry.
    PaintValues v = paint_values(doc.model());
    b.target = PaintTarget::anchors;
    ASSERT_TRUE(apply_dab(doc.model(), v, hits({{9, 1.0f}}), b));
    ASSERT_TRUE(doc.paint(v, b.target, true));
    doc.seal();
    EXPECT_STREQ(doc.undo_name(), "paint anchors");
    EXPECT_FALSE(doc.paint(paint_values(doc.model()), b.target)) << "nothing changed";
}

TEST(SpringGroupsEditing, newGroupsTakeTheirSpringsFromOtherGroups) {
    std::vector<SpringGroup> groups = with_new_group({}, std::vector<std::uint32_t>{4, 2, 2, 7});
    ASSERT_EQ(groups.size(), 1u);
    EXPECT_EQ(groups[0].name, "group 1");
    EXPECT_EQ(groups[0].springs, (std::vector<std::uint32_t>{2, 4, 7}));
    EXPECT_EQ(groups[0].stiffness_scale, 1.0f);
    EXPECT_FALSE(groups[0].damping.has_value());
    groups = with_new_group(groups, std::vector<std::uint32_t>{7, 9}, "stiff");
    EXPECT_EQ(groups[0].springs, (std::vector<std::uint32_t>{2, 4}));
    EXPECT_EQ(groups[1].springs, (std::vector<std::uint32_t>{7, 9}));
    EXPECT_EQ(unused_group_name(groups), "group 2");
    groups = with_springs_in_group(groups, 0, std::vector<std::uint32_t>{9, 1});
    EXPECT_EQ(groups[0].springs, (std::vector<std::uint32_t>{1, 2, 4, 9}));
    EXPECT_EQ(groups[1].springs, (std::vector<std::uint32_t>{7}));
}

TEST(SpringGroupsEditing, deletingSpringsRenumbersGroupsAndUndoRestoresThem) {
    Document doc(small_cloth(), "cloth.json", false);
    ASSERT_TRUE(doc.set_spring_groups(with_new_group({}, std::vector<std::uint32_t>{1, 3, 5, 8}, "g")));
    EXPECT_FALSE(doc.set_spring_groups(doc.model().spring_groups)) << "unchanged";
    std::vector<SpringGroup> bad = doc.model().spring_groups;
    bad.push_back(bad[0]);  // the same name and springs twice
    EXPECT_FALSE(doc.set_spring_groups(bad));
    bad = doc.model().spring_groups;
    bad[0].springs.push_back(static_cast<std::uint32_t>(doc.model().springs.size()));
    EXPECT_FALSE(doc.set_spring_groups(bad));
    const Model before = doc.model();
    const std::uint32_t removed[] = {3, 0};
    ASSERT_TRUE(doc.remove_springs(removed));
    EXPECT_EQ(doc.model().spring_groups[0].springs, (std::vector<std::uint32_t>{0, 3, 6}));
    EXPECT_NO_THROW(validate(doc.model()));
    ASSERT_TRUE(doc.undo());
    EXPECT_TRUE(doc.model() == before);
    ASSERT_TRUE(doc.undo());
    EXPECT_TRUE(doc.model().spring_groups.empty());
}
