// springkit-editor — the document and its undo history.
#include "editing/document.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_set>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "springkit/scene_file.hpp"
#if SPRINGKIT_EDITOR_HAS_IMPORT
#include "springkit/import.hpp"
#endif

namespace springkit::editor {

namespace {

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

bool parameters_valid(const Parameters& params) {
    Model probe;  // no nodes: validate() checks only the parameters
    probe.params = params;
    try {
        validate(probe);
        return true;
    } catch (const Error&) {
        return false;
    }
}

std::vector<std::uint32_t> sorted_unique(std::span<const std::uint32_t> values) {
    std::vector<std::uint32_t> out(values.begin(), values.end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// The groups after the springs `removed` (ascending) are taken out: those
// springs leave their groups, and the later ones move down.
std::vector<SpringGroup> groups_without(std::vector<SpringGroup> groups, std::span<const std::uint32_t> removed) {
    for (SpringGroup& g : groups) {
        std::vector<std::uint32_t> kept;
        for (std::uint32_t s : g.springs) {
            const auto below = std::lower_bound(removed.begin(), removed.end(), s);
            if (below != removed.end() && *below == s) continue;
            kept.push_back(s - static_cast<std::uint32_t>(below - removed.begin()));
        }
        g.springs = std::move(kept);
    }
    return groups;
}

}  // namespace

const char* edit_name(const Edit& edit) {
    return std::visit(Overloaded{
                          [](const SetParameters&) { return "parameter change"; },
                          [](const AddSpring&) { return "add spring"; },
                          [](const RemoveSprings& e) {
                              return e.indices.size() == 1 ? "delete spring" : "delete springs";
                          },
                          [](const SetAnchors& e) {
                              return e.after.size() > e.before.size() ? "anchor" : "un-anchor";
                          },
                          [](const SetSpringK&) { return "spring k"; },
                          [](const SetTubes&) { return "rope drawing"; },
                          [](const SetMasses&) { return "node mass"; },
                          [](const SetColliders& e) { return e.what; },
                          [](const Paint& e) {
                              switch (e.target) {
                                  case PaintTarget::anchors: return "paint anchors";
                                  case PaintTarget::mass: return "paint mass";
                                  case PaintTarget::stiffness: return "paint stiffness";
                              }
                              return "paint";
                          },
                          [](const SetSpringGroups&) { return "spring groups"; },
                      },
                      edit);
}

bool is_scene_edit(const Edit& edit) { return std::holds_alternative<SetColliders>(edit); }

bool same_collider(const Collider& a, const Collider& b) {
    auto same_vec = [](const Vec3& u, const Vec3& v) { return u.x == v.x && u.y == v.y && u.z == v.z; };
    if (a.shape != b.shape || a.name != b.name || a.radius != b.radius || a.half_height != b.half_height ||
        !same_vec(a.half_extents, b.half_extents) || a.mesh != b.mesh || a.mesh_file != b.mesh_file ||
        !(a.pose == b.pose) ||
        a.static_friction != b.static_friction || a.dynamic_friction != b.dynamic_friction ||
        a.restitution != b.restitution || a.points.size() != b.points.size() || a.planes != b.planes)
        return false;
    for (std::size_t i = 0; i < a.points.size(); ++i)
        if (!same_vec(a.points[i], b.points[i])) return false;
    return true;
}

SceneMeshLoader scene_mesh_files() {
#if SPRINGKIT_EDITOR_HAS_IMPORT
    // Isolated like every mesh the editor opens: Assimp may hang or crash on a bad file.
    return scene_mesh_loader(true);
#else
    return {};
#endif
}

std::filesystem::path companion_scene_path(const std::filesystem::path& model_path) {
    std::filesystem::path scene = model_path;
    scene.replace_filename(model_path.stem().string() + ".scene.json");
    return scene;
}

Document::Document(Model model, std::filesystem::path suggested_path, bool unsaved)
    : model_(std::move(model)), suggested_path_(std::move(suggested_path)) {
    if (unsaved) saved_pos_.reset();
}

Document Document::open(const std::filesystem::path& path) {
    Document doc;
    doc.model_ = load_model(path);
    doc.path_ = path;
    doc.suggested_path_ = path;
    return doc;
}

std::string Document::display_name() const {
    if (!path_.empty()) return path_.filename().string();
    if (!suggested_path_.empty()) return suggested_path_.filename().string() + " (untitled)";
    return "untitled";
}

bool Document::differs_from(const std::optional<std::size_t>& saved, bool scene) const {
    if (!saved) return true;
    const std::size_t lo = std::min(*saved, undo_pos_), hi = std::max(*saved, undo_pos_);
    for (std::size_t i = lo; i < hi; ++i)
        if (is_scene_edit(history_[i]) == scene) return true;
    return false;
}

bool Document::model_dirty() const { return differs_from(saved_pos_, false); }
bool Document::scene_dirty() const { return differs_from(scene_saved_pos_, true); }

bool Document::add_spring(std::uint32_t a, std::uint32_t b) {
    const std::size_t n = model_.node_count();
    if (a >= n || b >= n) return false;
    // springkit::add_spring refuses a == b and duplicates; take its spring back out
    // so that the edit itself is what applies it.
    if (!springkit::add_spring(model_, a, b)) return false;
    Spring spring = model_.springs.back();
    spring.role = SpringRole::user;  // the editor's legend shows and filters these apart
    model_.springs.pop_back();
    if (!(spring.rest > 0.0f) || !std::isfinite(spring.rest)) return false;  // coincident nodes
    push(AddSpring{spring}, false);
    return true;
}

bool Document::remove_springs(std::span<const std::uint32_t> springs) {
    RemoveSprings edit;
    edit.indices = sorted_unique(springs);
    if (edit.indices.empty() || edit.indices.back() >= model_.springs.size()) return false;
    for (std::uint32_t i : edit.indices) edit.springs.push_back(model_.springs[i]);
    edit.groups = model_.spring_groups;
    push(std::move(edit), false);
    return true;
}

bool Document::set_anchored(std::span<const std::uint32_t> nodes, bool anchored) {
    const std::size_t n = model_.node_count();
    for (std::uint32_t node : nodes)
        if (node >= n) return false;
    std::vector<bool> is_anchor(n, false);
    for (const Anchor& a : model_.anchors) is_anchor[a.node] = true;

    SetAnchors edit{model_.anchors, {}};
    if (anchored) {
        edit.after = model_.anchors;
        for (std::uint32_t node : nodes) {
            if (is_anchor[node]) continue;
            is_anchor[node] = true;
            Anchor a;
            a.node = node;
            edit.after.push_back(a);
        }
    } else {
        std::vector<bool> drop(n, false);
        for (std::uint32_t node : nodes) drop[node] = true;
        for (const Anchor& a : model_.anchors)
            if (!drop[a.node]) edit.after.push_back(a);
    }
    if (edit.after == edit.before) return false;
    push(std::move(edit), false);
    return true;
}

bool Document::toggle_anchor(std::uint32_t node) {
    const bool anchored = std::any_of(model_.anchors.begin(), model_.anchors.end(),
                                      [&](const Anchor& a) { return a.node == node; });
    const std::uint32_t nodes[] = {node};
    return set_anchored(nodes, !anchored);
}

bool Document::set_parameters(const Parameters& params, bool continuing) {
    if (params == model_.params || !parameters_valid(params)) return false;
    push(SetParameters{model_.params, params}, continuing);
    return true;
}

bool Document::set_spring_k(std::span<const std::uint32_t> springs, float k, bool continuing) {
    if (!std::isfinite(k) || k < 0.0f) return false;
    SetSpringK edit;
    edit.indices = sorted_unique(springs);
    edit.after = k;
    if (edit.indices.empty() || edit.indices.back() >= model_.springs.size()) return false;
    bool changes = false;
    for (std::uint32_t i : edit.indices) {
        edit.before.push_back(model_.springs[i].k);
        changes = changes || model_.springs[i].k != k;
    }
    if (!changes) return false;
    push(std::move(edit), continuing);
    return true;
}

bool Document::set_tubes(std::vector<Tube> tubes, bool continuing) {
    if (tubes == model_.tubes) return false;
    Model check;  // the tubes against the node count only: cheap for big models
    check.positions.resize(model_.node_count());
    check.tubes = tubes;
    try {
        validate(check);
    } catch (const Error&) {
        return false;
    }
    push(SetTubes{model_.tubes, std::move(tubes)}, continuing);
    return true;
}

bool Document::set_node_mass(std::span<const std::uint32_t> nodes, float mass, bool continuing) {
    if (!std::isfinite(mass) || !(mass > 0.0f) || nodes.empty()) return false;
    const std::size_t n = model_.node_count();
    for (std::uint32_t node : nodes)
        if (node >= n) return false;
    SetMasses edit{model_.masses, model_.masses};
    if (edit.after.empty()) edit.after.assign(n, model_.params.mass);
    for (std::uint32_t node : nodes) edit.after[node] = mass;
    if (edit.after == edit.before) return false;
    push(std::move(edit), continuing);
    return true;
}

ColliderSet Document::collider_set() const {
    ColliderSet set;
    for (const Collider& c : colliders_) set.add(c);
    return set;
}

namespace {

bool collider_valid(const Collider& collider, std::size_t index) {
    try {
        check_collider(collider, index);
        return true;
    } catch (const Error&) {
        return false;
    }
}

}  // namespace

bool Document::add_collider(Collider collider) {
    if (!collider_valid(collider, colliders_.size())) return false;
    SetColliders edit{colliders_, colliders_, "add collider"};
    edit.after.push_back(std::move(collider));
    push(std::move(edit), false);
    return true;
}

bool Document::set_collider(std::size_t index, Collider collider, bool continuing, const char* what) {
    if (index >= colliders_.size() || same_collider(colliders_[index], collider) ||
        !collider_valid(collider, index))
        return false;
    SetColliders edit{colliders_, colliders_, what};
    edit.after[index] = std::move(collider);
    push(std::move(edit), continuing);
    return true;
}

bool Document::remove_collider(std::size_t index) {
    if (index >= colliders_.size()) return false;
    SetColliders edit{colliders_, colliders_, "delete collider"};
    edit.after.erase(edit.after.begin() + static_cast<std::ptrdiff_t>(index));
    push(std::move(edit), false);
    return true;
}

std::filesystem::path Document::suggested_scene_path() const {
    if (!scene_path_.empty()) return scene_path_;
    const std::filesystem::path& model = path_.empty() ? suggested_path_ : path_;
    return model.empty() ? std::filesystem::path("untitled.scene.json") : companion_scene_path(model);
}

void Document::open_scene(const std::filesystem::path& path) {
    const ColliderSet set = load_scene(path, scene_mesh_files());
    std::vector<Collider> colliders;
    for (ColliderId id = 0; id < set.size(); ++id) colliders.push_back(set[id]);
    push(SetColliders{colliders_, std::move(colliders), "open scene"}, false);
    scene_path_ = path;
    scene_saved_pos_ = undo_pos_;
}

void Document::save_scene_as(const std::filesystem::path& path) {
    if (path.empty()) throw Error("Save scene: no file name given");
    save_scene(collider_set(), path);
    scene_path_ = path;
    scene_saved_pos_ = undo_pos_;
    merge_open_ = false;
}

void Document::save_scene_if_changed() {
    if (!scene_dirty()) return;
    // An empty scene never saved has nothing to keep.
    if (scene_path_.empty() && colliders_.empty()) {
        scene_saved_pos_ = undo_pos_;
        return;
    }
    save_scene_as(suggested_scene_path());
}

bool Document::paint(const PaintValues& values, PaintTarget target, bool continuing) {
    PaintValues before = paint_values(model_);
    if (values == before) return false;
    if (values.spring_k.size() != model_.springs.size() ||
        (!values.masses.empty() && values.masses.size() != model_.node_count()))
        return false;
    Model check;  // the painted values against the node count only
    check.positions.resize(model_.node_count());
    check.masses = values.masses;
    check.anchors = values.anchors;
    try {
        validate(check);
    } catch (const Error&) {
        return false;
    }
    for (float k : values.spring_k)
        if (!std::isfinite(k) || k < 0.0f) return false;
    push(Paint{std::move(before), values, target}, continuing);
    return true;
}

bool Document::set_spring_groups(std::vector<SpringGroup> groups, bool continuing) {
    if (groups == model_.spring_groups) return false;
    Model check;  // the groups against the spring count; the springs themselves are valid already
    check.springs.resize(model_.springs.size());
    check.spring_groups = groups;
    try {
        validate_spring_groups(check);
    } catch (const Error&) {
        return false;
    }
    push(SetSpringGroups{model_.spring_groups, std::move(groups)}, continuing);
    return true;
}

void Document::push(Edit edit, bool continuing) {
    // A continuing change merges into the entry on top when it is the same kind of
    // change of the same things: one undo entry for one slider drag.
    if (continuing && merge_open_ && undo_pos_ == history_.size() && undo_pos_ > 0) {
        Edit& top = history_[undo_pos_ - 1];
        bool merged = false;
        if (auto* p = std::get_if<SetParameters>(&top); p && std::holds_alternative<SetParameters>(edit)) {
            p->after = std::get<SetParameters>(edit).after;
            merged = true;
        } else if (auto* g = std::get_if<SetSpringGroups>(&top); g && std::holds_alternative<SetSpringGroups>(edit)) {
            g->after = std::get<SetSpringGroups>(edit).after;
            merged = true;
        } else if (auto* d = std::get_if<Paint>(&top);
                   d && std::holds_alternative<Paint>(edit) && d->target == std::get<Paint>(edit).target) {
            d->after = std::get<Paint>(edit).after;
            merged = true;
        } else if (auto* t = std::get_if<SetTubes>(&top); t && std::holds_alternative<SetTubes>(edit)) {
            t->after = std::get<SetTubes>(edit).after;
            merged = true;
        } else if (auto* s = std::get_if<SetSpringK>(&top);
                   s && std::holds_alternative<SetSpringK>(edit) &&
                   s->indices == std::get<SetSpringK>(edit).indices) {
            s->after = std::get<SetSpringK>(edit).after;
            merged = true;
        } else if (auto* m = std::get_if<SetMasses>(&top); m && std::holds_alternative<SetMasses>(edit)) {
            m->after = std::get<SetMasses>(edit).after;
            merged = true;
        } else if (auto* c = std::get_if<SetColliders>(&top);
                   c && std::holds_alternative<SetColliders>(edit) &&
                   std::string_view(c->what) == std::get<SetColliders>(edit).what &&
                   c->after.size() == std::get<SetColliders>(edit).after.size()) {
            c->after = std::get<SetColliders>(edit).after;
            merged = true;
        }
        if (merged) {
            apply(top, true);
            // The saved state of what the entry changes was replaced.
            auto& saved = is_scene_edit(top) ? scene_saved_pos_ : saved_pos_;
            if (saved == undo_pos_) saved.reset();
            return;
        }
    }
    // The redo branch goes. A file saved on it still matches the state here when
    // no edit of its kind lies between (a scene edit undone after saving the model).
    for (auto* saved : {&saved_pos_, &scene_saved_pos_}) {
        if (!*saved || **saved <= undo_pos_) continue;
        const bool scene = saved == &scene_saved_pos_;
        bool between = false;
        for (std::size_t i = undo_pos_; i < **saved; ++i) between = between || is_scene_edit(history_[i]) == scene;
        if (between)
            saved->reset();
        else
            *saved = undo_pos_;
    }
    history_.resize(undo_pos_);
    history_.push_back(std::move(edit));
    apply(history_.back(), true);
    ++undo_pos_;
    merge_open_ = continuing;
}

void Document::apply(const Edit& edit, bool forward) {
    std::visit(Overloaded{
                   [&](const SetParameters& e) { model_.params = forward ? e.after : e.before; },
                   [&](const AddSpring& e) {
                       if (forward)
                           model_.springs.push_back(e.spring);
                       else
                           model_.springs.pop_back();
                   },
                   [&](const RemoveSprings& e) {
                       auto& springs = model_.springs;
                       if (forward) {
                           for (auto i = e.indices.size(); i-- > 0;)
                               springs.erase(springs.begin() + e.indices[i]);
                           model_.spring_groups = groups_without(e.groups, e.indices);
                       } else {
                           for (std::size_t i = 0; i < e.indices.size(); ++i)
                               springs.insert(springs.begin() + e.indices[i], e.springs[i]);
                           model_.spring_groups = e.groups;
                       }
                   },
                   [&](const SetAnchors& e) { model_.anchors = forward ? e.after : e.before; },
                   [&](const SetSpringK& e) {
                       for (std::size_t i = 0; i < e.indices.size(); ++i)
                           model_.springs[e.indices[i]].k = forward ? e.after : e.before[i];
                   },
                   [&](const SetTubes& e) { model_.tubes = forward ? e.after : e.before; },
                   [&](const SetMasses& e) { model_.masses = forward ? e.after : e.before; },
                   [&](const SetColliders& e) { colliders_ = forward ? e.after : e.before; },
                   [&](const Paint& e) {
                       const PaintValues& v = forward ? e.after : e.before;
                       model_.masses = v.masses;
                       model_.anchors = v.anchors;
                       for (std::size_t i = 0; i < model_.springs.size(); ++i) model_.springs[i].k = v.spring_k[i];
                   },
                   [&](const SetSpringGroups& e) { model_.spring_groups = forward ? e.after : e.before; },
               },
               edit);
    if (is_scene_edit(edit))
        ++scene_revision_;
    else
        ++revision_;
}

const char* Document::undo_name() const { return can_undo() ? edit_name(history_[undo_pos_ - 1]) : nullptr; }
const char* Document::redo_name() const { return can_redo() ? edit_name(history_[undo_pos_]) : nullptr; }

bool Document::undo() {
    if (!can_undo()) return false;
    merge_open_ = false;
    --undo_pos_;
    apply(history_[undo_pos_], false);
    return true;
}

bool Document::redo() {
    if (!can_redo()) return false;
    merge_open_ = false;
    apply(history_[undo_pos_], true);
    ++undo_pos_;
    return true;
}

void Document::save() {
    if (path_.empty()) throw Error("the document has no file yet: use Save As");
    save_model(model_, path_);
    saved_pos_ = undo_pos_;
    merge_open_ = false;
    save_scene_if_changed();
}

std::filesystem::path Document::folder() const {
    return (path_.empty() ? suggested_path_ : path_).parent_path();
}

void Document::save_as(const std::filesystem::path& path) {
    if (path.empty()) throw Error("Save As: no file name given");
    namespace fs = std::filesystem;
    // A model saved as "jelly.txt" or "jelly" would not be found as one.
    const std::string problem = model_extension_problem(path.extension().string());
    if (!problem.empty()) throw Error("Save As " + path.string() + ": " + problem);
    // The scene beside the model (or none yet) goes with it to its new name.
    const fs::path old_model = path_.empty() ? suggested_path_ : path_;
    const bool beside = scene_path_.empty() || (!old_model.empty() && scene_path_ == companion_scene_path(old_model));
    const std::string texture = model_.texture;
    if (!texture.empty() && fs::path(texture).is_relative()) {
        const fs::path image = fs::absolute(folder() / texture).lexically_normal();
        const fs::path relative = image.lexically_relative(fs::absolute(path).parent_path());
        model_.texture = (relative.empty() ? image : relative).generic_string();
    }
    try {
        save_model(model_, path);
    } catch (...) {
        model_.texture = texture;
        throw;
    }
    path_ = path;
    suggested_path_ = path;
    saved_pos_ = undo_pos_;
    merge_open_ = false;
    if (beside && !colliders_.empty())
        save_scene_as(companion_scene_path(path));
    else
        save_scene_if_changed();
}

void Document::recover(Model model, std::optional<std::vector<Collider>> colliders) {
    model_ = std::move(model);
    if (scene_saved_pos_) scene_saved_pos_ = scene_dirty() ? std::nullopt : std::optional<std::size_t>(0);
    if (colliders && !std::equal(colliders->begin(), colliders->end(), colliders_.begin(), colliders_.end(),
                                 same_collider)) {
        colliders_ = std::move(*colliders);
        scene_saved_pos_.reset();
        ++scene_revision_;
    }
    history_.clear();
    undo_pos_ = 0;
    saved_pos_.reset();
    merge_open_ = false;
    ++revision_;
}

}  // namespace springkit::editor
