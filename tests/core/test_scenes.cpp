// The scene registry (springkit/scenes.hpp): one name per scene, the samples, the
// templates of `springkit new` and the editor's menus all come from it.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "springkit/springkit.hpp"
#include "support/test_files.hpp"

using namespace springkit;
using springkit::test::error_of;

TEST(Scenes, EveryNameBuildsAValidModelNamedAfterIt) {
    for (const Scene& scene : scenes()) {
        const Model sample = build_scene(scene);
        EXPECT_EQ(sample.name, scene.name);
        EXPECT_NO_THROW(validate(sample)) << scene.name;
        const Model from_template = build_scene(scene, TemplateOptions{});
        EXPECT_EQ(from_template.name, scene.name);
        EXPECT_NO_THROW(validate(from_template)) << scene.name;
        if (!scene.parametric) {
            EXPECT_EQ(from_template, sample) << scene.name;
        }
    }
}

TEST(Scenes, NamesAndAliasesAreUniqueAndFindTheirScene) {
    std::set<std::string> names;
    for (const Scene& scene : scenes()) {
        EXPECT_TRUE(names.insert(scene.name).second) << scene.name;
        EXPECT_EQ(&find_scene(scene.name), &scene);
        if (scene.alias) {
            EXPECT_TRUE(names.insert(scene.alias).second) << scene.alias;
            EXPECT_EQ(&find_scene(scene.alias), &scene);
        }
    }
    EXPECT_EQ(find_scene("rope").name, std::string("tunca-rope"));
}

TEST(Scenes, UnknownNameListsEveryKnownOne) {
    EXPECT_EQ(find_scene_or_null("trampoline"), nullptr);
    const std::string message = error_of([] { find_scene("trampoline"); });
    EXPECT_EQ(message.rfind("unknown scene \"trampoline\" (known: string, cloth, jelly,", 0), 0u) << message;
    for (const Scene& scene : scenes()) EXPECT_NE(message.find(scene.name), std::string::npos) << scene.name;
    EXPECT_NE(message.find("tunca-rope (alias rope)"), std::string::npos) << message;
    EXPECT_EQ(error_of([] { make_sample("trampoline"); }), message);
}

TEST(Scenes, TheSampleCatalogueIsTheRegistry) {
    ASSERT_EQ(sample_catalogue().data(), scenes().data());
    ASSERT_EQ(sample_catalogue().size(), scenes().size());
    for (const Scene& scene : scenes()) EXPECT_EQ(make_sample(scene.name), build_scene(scene)) << scene.name;
    EXPECT_EQ(make_sample("rope"), make_sample("tunca-rope"));
}

// The Source engine settles its ropes for 3 s: the registry says so once, and
// both the sample and the template are settled exactly that long.
TEST(Scenes, OnlyTheSourceRopeSettlesAndOnlyOnce) {
    for (const Scene& scene : scenes())
        EXPECT_EQ(scene.settle_seconds, std::string(scene.name) == "source-rope" ? 3.0f : 0.0f) << scene.name;
    Model sample = make_source_rope({.segments = 9});
    presimulate(sample, 3.0f);
    EXPECT_EQ(make_sample("source-rope"), sample);
    Model from_template = make_source_rope({.segments = 12, .slack = 0.25f});
    presimulate(from_template, 3.0f);
    EXPECT_EQ(build_scene(find_scene("source-rope"), {.resolution = 12, .slack = 0.25f}), from_template);
}

TEST(Scenes, TemplatesAreTheBuilderNamesOfNew) {
    std::set<const Scene*> listed;
    for (const char* name : kBuilderNames) {
        const Scene& scene = find_scene(name);
        EXPECT_NE(scene.parametric, nullptr) << name;
        listed.insert(&scene);
    }
    const std::set<const Scene*> templates(template_scenes().begin(), template_scenes().end());
    EXPECT_EQ(listed, templates);
    for (const Scene* scene : template_scenes()) {
        EXPECT_NE(scene->parametric->resolution, nullptr) << scene->name;
        EXPECT_NE(scene->parametric->size, nullptr) << scene->name;
    }
}

// An options struct whose parameters set k (and nothing else).
static TemplateOptions with_k(float k, TemplateOptions options = {}) {
    ParameterValue value;
    value.number = k;
    options.parameters.set(*find_parameter("k"), value);
    return options;
}

TEST(Scenes, TemplatesReadTheOptionsTheySayTheyRead) {
    const Scene& cloth = find_scene("cloth");
    const Model m =
        build_scene(cloth, with_k(321.0f, {.resolution = 6, .size = 3.0f, .anchors = ClothAnchors::top_edge}));
    EXPECT_EQ(m.node_count(), 36u);
    EXPECT_FLOAT_EQ(m.params.k, 321.0f);
    EXPECT_EQ(m.anchors.size(), 6u);
    EXPECT_NEAR(bounds(m).max.x - bounds(m).min.x, 3.0f, 1e-5f);
    // An option a template does not read leaves it as it was.
    const Scene& source_rope = find_scene("source-rope");
    ASSERT_FALSE(source_rope.parametric->reads & template_option::anchors);
    EXPECT_EQ(build_scene(source_rope, {.anchors = ClothAnchors::top_edge}), build_scene(source_rope, {}));
}

TEST(Scenes, ParametersApplyToEveryScene) {
    for (const Scene& scene : scenes()) {
        SCOPED_TRACE(scene.name);
        EXPECT_FLOAT_EQ(build_scene(scene, with_k(5.0f)).params.k, 5.0f);
    }
}
