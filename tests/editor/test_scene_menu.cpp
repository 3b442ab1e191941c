// The editor's File > New and File > Samples (editing/scene_menu.hpp) list the
// scene registry and build what the registry builds.
#include <gtest/gtest.h>

#include <string>

#include "editing/scene_menu.hpp"
#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
using namespace springkit::editor;

TEST(SceneMenu, SamplesAreEveryRegistrySceneInOrder) {
    const auto& items = sample_menu();
    ASSERT_EQ(items.size(), scenes().size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Scene& scene = scenes()[i];
        EXPECT_EQ(items[i].label, scene.name);
        EXPECT_EQ(items[i].builder, std::string(kSampleBuilderPrefix) + scene.name);
        EXPECT_NE(items[i].tooltip.find(scene.shows), std::string::npos) << scene.name;
        Model expected = make_sample(scene.name);
        expected.texture.clear();  // the texture stays beside samples/models/cloth.json
        EXPECT_EQ(build_menu_scene(items[i].builder), expected) << scene.name;
    }
}

TEST(SceneMenu, NewIsEveryTemplateAtItsDefaults) {
    const auto& items = new_scene_menu();
    ASSERT_EQ(items.size(), template_scenes().size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Scene& scene = *template_scenes()[i];
        EXPECT_EQ(items[i].label, scene.name);
        EXPECT_EQ(build_menu_scene(items[i].builder), build_scene(scene, TemplateOptions{})) << scene.name;
    }
    // What `springkit new tunca-rope` and the older `new rope` write.
    EXPECT_EQ(build_menu_scene("rope"), build_menu_scene("tunca-rope"));
}

TEST(SceneMenu, UnknownSceneIsAnErrorNamingTheKnownOnes) {
    EXPECT_NE(springkit::test::error_of([] { build_menu_scene("sample/trampoline"); }).find(scene_names()),
              std::string::npos);
    EXPECT_NE(springkit::test::error_of([] { build_menu_scene("trampoline"); }).find(scene_names()),
              std::string::npos);
}
