// springkit-editor — the scene menus (scene_menu.hpp).
#include "editing/scene_menu.hpp"

#include "springkit/scenes.hpp"

namespace springkit::editor {

namespace {

SceneMenuItem item(const Scene& scene, std::string builder) {
    return {scene.name, std::move(builder), std::string(scene.source) + ": " + scene.shows};
}

}  // namespace

const std::vector<SceneMenuItem>& new_scene_menu() {
    static const std::vector<SceneMenuItem> items = [] {
        std::vector<SceneMenuItem> list;
        for (const Scene* scene : template_scenes()) list.push_back(item(*scene, scene->name));
        return list;
    }();
    return items;
}

const std::vector<SceneMenuItem>& sample_menu() {
    static const std::vector<SceneMenuItem> items = [] {
        std::vector<SceneMenuItem> list;
        for (const Scene& scene : scenes()) list.push_back(item(scene, std::string(kSampleBuilderPrefix) + scene.name));
        return list;
    }();
    return items;
}

Model build_menu_scene(std::string_view builder) {
    if (builder.starts_with(kSampleBuilderPrefix)) {
        Model m = build_scene(find_scene(builder.substr(kSampleBuilderPrefix.size())));
        m.texture.clear();
        return m;
    }
    return build_scene(find_scene(builder), TemplateOptions{});
}

}  // namespace springkit::editor
