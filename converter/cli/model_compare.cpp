// springkit CLI — model_differences: what changed between two models, named.
#include "model_compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "springkit/locality.hpp"
#include "springkit/printable.hpp"

namespace springkit::cli {

namespace {

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string vec(Vec3 v) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "(%.6g, %.6g, %.6g)", v.x, v.y, v.z);
    return buf;
}

std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) {
    return (std::uint64_t{std::min(a, b)} << 32) | std::max(a, b);
}

std::string pair_name(std::uint32_t a, std::uint32_t b) { return std::to_string(a) + "-" + std::to_string(b); }

/// Flattens a JSON object into "a/b/c" -> value (arrays are kept whole).
void flatten(const nlohmann::json& j, const std::string& prefix, std::map<std::string, nlohmann::json>& out) {
    if (j.is_object()) {
        for (const auto& [k, v] : j.items()) flatten(v, prefix.empty() ? k : prefix + "/" + k, out);
    } else {
        out[prefix] = j;
    }
}

/// The changes of one kind, listed up to `limit` one by one. Changes of a
/// number that all share one ratio (a global scale) are one line.
class ChangeList {
public:
    ChangeList(std::string what, std::string unit, std::string items, std::size_t total)
        : what_(std::move(what)), unit_(std::move(unit)), items_(std::move(items)), total_(total) {}

    void add(std::string item, double from, double to) { changes_.push_back({std::move(item), from, to}); }
    bool empty() const { return changes_.empty(); }

    void write(std::vector<std::string>& lines, std::size_t limit) const {
        if (changes_.empty()) return;
        const double ratio = changes_.front().from != 0.0 ? changes_.front().to / changes_.front().from : 0.0;
        bool one_ratio = changes_.size() > limit && ratio != 0.0;
        bool one_value = changes_.size() > limit;
        for (const Change& c : changes_) {
            one_ratio = one_ratio && c.from != 0.0 && std::fabs(c.to / c.from - ratio) <= 1e-6 * std::fabs(ratio);
            one_value = one_value && c.from == changes_.front().from && c.to == changes_.front().to;
        }
        const std::string all = changes_.size() == total_ ? "all " : "";
        const Change& first = changes_.front();
        if (one_value) {
            lines.push_back(what_ + " of " + all + std::to_string(changes_.size()) + " " + items_ + ": " +
                            num(first.from) + " -> " +
                            num(first.to) + unit_);
            return;
        }
        if (one_ratio) {
            lines.push_back(what_ + " of " + all + std::to_string(changes_.size()) + " " + items_ + ": scaled by " +
                            num(ratio) +
                            " (" + first.item + ": " + num(first.from) + " -> " + num(first.to) + unit_ + ")");
            return;
        }
        for (std::size_t i = 0; i < changes_.size() && i < limit; ++i)
            lines.push_back(changes_[i].item + ": " + what_ + " " + num(changes_[i].from) + " -> " +
                            num(changes_[i].to) + unit_);
        if (changes_.size() > limit)
            lines.push_back("  ... " + counted(changes_.size() - limit, "more " + what_ + " change"));
    }

private:
    struct Change {
        std::string item;
        double from, to;
    };
    std::string what_, unit_, items_;
    std::size_t total_;
    std::vector<Change> changes_;
};

/// b's node for each of a's nodes when b has the same positions in another
/// order (matched by exact bits; equal positions in their order), else empty.
std::vector<std::uint32_t> renumbering(const Model& a, const Model& b) {
    if (a.node_count() != b.node_count() || a.positions == b.positions) return {};
    auto key = [](Vec3 p) {
        std::uint32_t x, y, z;
        std::memcpy(&x, &p.x, 4);
        std::memcpy(&y, &p.y, 4);
        std::memcpy(&z, &p.z, 4);
        return std::tuple{x, y, z};
    };
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> at;
    for (std::size_t i = b.node_count(); i-- > 0;) at[key(b.positions[i])].push_back(static_cast<std::uint32_t>(i));
    std::vector<std::uint32_t> map(a.node_count());
    for (std::size_t i = 0; i < a.node_count(); ++i) {
        auto it = at.find(key(a.positions[i]));
        if (it == at.end() || it->second.empty()) return {};
        map[i] = it->second.back();
        it->second.pop_back();
    }
    return map;
}

/// `a` with its nodes renumbered by `map` (renumber_nodes(): springs, anchors,
/// faces, volume elements, masses and attachments follow), so that it can be
/// compared with `b` item by item; nullopt where the renumbering would break a
/// bead's chain of consecutive nodes (the models are then compared as they are).
std::optional<Model> renumbered(const Model& a, const std::vector<std::uint32_t>& map) {
    Model r = a;
    try {
        renumber_nodes(r, map);
    } catch (const Error&) {
        return std::nullopt;
    }
    return r;
}

}  // namespace

std::vector<std::string> model_differences(const Model& a_in, const Model& b, std::size_t limit) {
    std::vector<std::string> lines;
    std::vector<std::uint32_t> map = renumbering(a_in, b);
    std::optional<Model> renumbered_a;
    if (!map.empty()) renumbered_a = renumbered(a_in, map);
    if (!renumbered_a) map.clear();
    const Model& a = renumbered_a ? *renumbered_a : a_in;
    if (!map.empty()) {
        std::size_t moved = 0;
        for (std::size_t i = 0; i < map.size(); ++i) moved += map[i] != i;
        lines.push_back("nodes: the same " + std::to_string(map.size()) + " positions in another order (" +
                        counted(moved, "node") + " renumbered); compared through the renumbering:");
    }
    auto count = [&](const char* what, std::size_t x, std::size_t y) {
        if (x != y) lines.push_back(std::string(what) + ": " + std::to_string(x) + " -> " + std::to_string(y));
    };
    if (a.name != b.name) lines.push_back("name: \"" + a.name + "\" -> \"" + b.name + "\"");
    if (a.texture != b.texture) lines.push_back("texture: \"" + a.texture + "\" -> \"" + b.texture + "\"");

    // Parameters, whatever fields they have, through the canonical JSON form.
    std::map<std::string, nlohmann::json> pa, pb;
    const nlohmann::json ja = nlohmann::json::parse(model_to_json(a)), jb = nlohmann::json::parse(model_to_json(b));
    const nlohmann::json qa = ja.value("parameters", nlohmann::json::object());
    const nlohmann::json qb = jb.value("parameters", nlohmann::json::object());
    flatten(qa, "", pa);
    flatten(qb, "", pb);
    // A parameter that is an object on one side only (a ground against none) is
    // one line with the whole object, not "(unset) -> null" and a line per field.
    std::set<std::string> whole;
    for (const nlohmann::json* side : {&qa, &qb})
        for (const auto& [k, v] : side->items()) {
            const auto x = qa.find(k), y = qb.find(k);
            const bool xo = x != qa.end() && x->is_object(), yo = y != qb.end() && y->is_object();
            if (xo == yo || whole.count(k) > 0) continue;
            whole.insert(k);
            lines.push_back("parameter " + k + ": " + (x == qa.end() ? "(unset)" : x->dump()) + " -> " +
                            (y == qb.end() ? "(unset)" : y->dump()));
        }
    std::set<std::string> keys;
    for (const auto& [k, v] : pa) keys.insert(k);
    for (const auto& [k, v] : pb) keys.insert(k);
    for (const std::string& k : keys) {
        if (whole.count(k.substr(0, k.find('/'))) > 0) continue;
        const auto x = pa.find(k), y = pb.find(k);
        const std::string vx = x == pa.end() ? "(unset)" : x->second.dump();
        const std::string vy = y == pb.end() ? "(unset)" : y->second.dump();
        if (vx != vy) lines.push_back("parameter " + k + ": " + vx + " -> " + vy);
    }

    // Nodes: count, moved rest positions (one line when all moved alike), masses.
    count("nodes", a.node_count(), b.node_count());
    const std::size_t common = std::min(a.node_count(), b.node_count());
    std::vector<std::size_t> moved;
    for (std::size_t i = 0; i < common; ++i)
        if (!(a.positions[i] == b.positions[i])) moved.push_back(i);
    bool one_offset = moved.size() == common && moved.size() > limit;
    const Vec3 offset = moved.empty() ? Vec3{} : b.positions[moved[0]] - a.positions[moved[0]];
    for (std::size_t i : moved)
        one_offset = one_offset && length(b.positions[i] - a.positions[i] - offset) <= 1e-6f * (1.0f + length(offset));
    // ... or all scaled alike about the origin (--scale, another unit).
    float scale = 0.0f;
    for (std::size_t i : moved)
        if (length(a.positions[i]) > 0.0f) {
            scale = length(b.positions[i]) / length(a.positions[i]);
            break;
        }
    bool one_scale = moved.size() == common && moved.size() > limit && scale > 0.0f;
    for (std::size_t i : moved)
        one_scale = one_scale && length(b.positions[i] - scale * a.positions[i]) <= 1e-6f * (length(b.positions[i]) + 1e-30f);
    if (one_offset) {
        lines.push_back("nodes: all " + std::to_string(common) + " moved by " + vec(offset) + " m");
    } else if (one_scale) {
        lines.push_back("nodes: all " + std::to_string(common) + " scaled by " + num(scale) + " about the origin");
    } else {
        for (std::size_t k = 0; k < moved.size() && k < limit; ++k)
            lines.push_back("node " + std::to_string(moved[k]) + ": moved " + vec(a.positions[moved[k]]) + " -> " +
                            vec(b.positions[moved[k]]) + " m");
        if (moved.size() > limit) lines.push_back("  ... " + counted(moved.size() - limit, "more node") + " moved");
    }
    ChangeList masses("mass", " kg", "nodes", common);
    for (std::size_t i = 0; i < common; ++i)
        if (a.node_mass(i) != b.node_mass(i)) masses.add("node " + std::to_string(i), a.node_mass(i), b.node_mass(i));
    // A new global mass is the parameter line already.
    if (!(a.masses.empty() && b.masses.empty())) masses.write(lines, limit);

    // Springs, matched by their node pair, named by a's index and pair.
    std::unordered_map<std::uint64_t, std::size_t> in_b;
    for (std::size_t i = 0; i < b.springs.size(); ++i) in_b.emplace(pair_key(b.springs[i].a, b.springs[i].b), i);
    std::set<std::uint64_t> in_a;
    std::vector<const Spring*> removed, added;
    ChangeList rest("rest length", " m", "springs", a.springs.size()),
        stiffness("k", " N/m", "springs", a.springs.size());
    std::vector<std::string> kinds;
    for (std::size_t i = 0; i < a.springs.size(); ++i) {
        const Spring& s = a.springs[i];
        in_a.insert(pair_key(s.a, s.b));
        const auto it = in_b.find(pair_key(s.a, s.b));
        if (it == in_b.end()) {
            removed.push_back(&s);
            continue;
        }
        const Spring& t = b.springs[it->second];
        const std::string name = "spring " + std::to_string(i) + " (nodes " + pair_name(s.a, s.b) + ")";
        if (t.rest != s.rest) rest.add(name, s.rest, t.rest);
        // Springs on the global k on both sides change with "parameter k" alone.
        if ((s.k != 0.0f || t.k != 0.0f) && a.spring_k(s) != b.spring_k(t)) stiffness.add(name, a.spring_k(s), b.spring_k(t));
        if (t.kind != s.kind) kinds.push_back(name + ": " + (s.kind == SpringKind::hooke ? "Hooke -> rope" : "rope -> Hooke"));
    }
    for (const Spring& s : b.springs)
        if (!in_a.count(pair_key(s.a, s.b))) added.push_back(&s);
    count("springs", a.springs.size(), b.springs.size());
    auto list = [&](const char* sign, const std::vector<const Spring*>& springs, const char* word) {
        if (springs.empty()) return;
        lines.push_back("springs " + std::string(word) + ": " + std::to_string(springs.size()));
        for (std::size_t i = 0; i < springs.size() && i < limit; ++i)
            lines.push_back(std::string("  ") + sign + " nodes " + pair_name(springs[i]->a, springs[i]->b) + " rest " +
                            num(springs[i]->rest) + " m");
        if (springs.size() > limit) lines.push_back("  ... " + std::to_string(springs.size() - limit) + " more");
    };
    list("-", removed, "removed");
    list("+", added, "added");
    rest.write(lines, limit);
    stiffness.write(lines, limit);
    for (std::size_t i = 0; i < kinds.size() && i < limit; ++i) lines.push_back(kinds[i]);
    if (kinds.size() > limit) lines.push_back("  ... " + counted(kinds.size() - limit, "more kind change"));
    if (removed.empty() && added.empty() && a.springs.size() == b.springs.size() && a.springs != b.springs &&
        rest.empty() && stiffness.empty() && kinds.empty())
        lines.push_back("springs: the same springs in another order");  // the summing order: bits may differ

    // Anchors, matched by node.
    std::map<std::uint32_t, const Anchor*> anchors_a, anchors_b;
    for (const Anchor& x : a.anchors) anchors_a[x.node] = &x;
    for (const Anchor& x : b.anchors) anchors_b[x.node] = &x;
    std::string anchor_added, anchor_removed, anchor_driven;
    std::size_t n_driven = 0, n_added = 0, n_removed = 0;
    for (const auto& [node, x] : anchors_a) {
        auto it = anchors_b.find(node);
        if (it == anchors_b.end()) {
            if (n_removed++ < limit) anchor_removed += " " + std::to_string(node);
        } else if (!(*it->second == *x)) {
            if (n_driven++ < limit) anchor_driven += " " + std::to_string(node);
        }
    }
    for (const auto& [node, x] : anchors_b)
        if (!anchors_a.count(node) && n_added++ < limit) anchor_added += " " + std::to_string(node);
    count("anchors", a.anchors.size(), b.anchors.size());
    auto anchor_line = [&](const char* what, std::size_t n, const std::string& nodes) {
        if (n) lines.push_back(std::string(what) + std::to_string(n) + " (nodes" + nodes + (n > limit ? " ...)" : ")"));
    };
    anchor_line("anchors removed: ", n_removed, anchor_removed);
    anchor_line("anchors added: ", n_added, anchor_added);
    anchor_line("anchors with a new drive: ", n_driven, anchor_driven);
    count("anchor tracks", a.anchor_tracks.size(), b.anchor_tracks.size());
    for (std::size_t i = 0; i < std::min(a.anchor_tracks.size(), b.anchor_tracks.size()); ++i) {
        const AnchorTrack& x = a.anchor_tracks[i];
        const AnchorTrack& y = b.anchor_tracks[i];
        if (x == y) continue;
        std::string what = "anchor track " + std::to_string(i) + " (" + printable(y.name, 80) + "):";
        if (x.name != y.name) what += " renamed from " + printable(x.name, 80) + ";";
        if (x.loop != y.loop) what += y.loop ? " loops;" : " no longer loops;";
        if (x.keys.size() != y.keys.size())
            what += " keys " + std::to_string(x.keys.size()) + " -> " + std::to_string(y.keys.size()) + ";";
        else if (x.keys != y.keys)
            what += " new key values;";
        what.pop_back();
        lines.push_back(what);
    }

    // Drawing data, item by item.
    count("faces", a.faces.size(), b.faces.size());
    std::size_t faces_changed = 0;
    for (std::size_t i = 0; i < std::min(a.faces.size(), b.faces.size()); ++i) {
        const Face& f = a.faces[i];
        const Face& g = b.faces[i];
        if (f == g) continue;
        if (faces_changed++ >= limit) continue;
        auto corners = [](const Face& x) {
            return std::to_string(x.node[0]) + " " + std::to_string(x.node[1]) + " " + std::to_string(x.node[2]) +
                   " (texcoords " + std::to_string(x.texcoord[0]) + " " + std::to_string(x.texcoord[1]) + " " +
                   std::to_string(x.texcoord[2]) + ")";
        };
        lines.push_back("face " + std::to_string(i) + ": nodes " + corners(f) + " -> " + corners(g));
    }
    if (faces_changed > limit) lines.push_back("  ... " + counted(faces_changed - limit, "more face", "more faces") + " changed");
    count("texcoords", a.texcoords.size(), b.texcoords.size());
    std::size_t uv_changed = 0;
    for (std::size_t i = 0; i < std::min(a.texcoords.size(), b.texcoords.size()); ++i) {
        if (a.texcoords[i] == b.texcoords[i] || uv_changed++ >= limit) continue;
        char uv[128];
        std::snprintf(uv, sizeof uv, ": (%.6g, %.6g) -> (%.6g, %.6g)", a.texcoords[i].u, a.texcoords[i].v,
                      b.texcoords[i].u, b.texcoords[i].v);
        lines.push_back("texcoord " + std::to_string(i) + uv);
    }
    if (uv_changed > limit) lines.push_back("  ... " + counted(uv_changed - limit, "more texcoord", "more texcoords") + " changed");

    // Volume elements, item by item.
    count("volume elements", a.volume_elements.size(), b.volume_elements.size());
    std::size_t elements_changed = 0;
    for (std::size_t i = 0; i < std::min(a.volume_elements.size(), b.volume_elements.size()); ++i) {
        const VolumeElement& e = a.volume_elements[i];
        const VolumeElement& g = b.volume_elements[i];
        if (e == g || elements_changed++ >= limit) continue;
        auto corners = [](const VolumeElement& x) {
            return std::to_string(x.node[0]) + " " + std::to_string(x.node[1]) + " " + std::to_string(x.node[2]) +
                   " " + std::to_string(x.node[3]) + " (rest " + num(x.rest) + " m^3)";
        };
        lines.push_back("volume element " + std::to_string(i) + ": nodes " + corners(e) + " -> " + corners(g));
    }
    if (elements_changed > limit)
        lines.push_back("  ... " + counted(elements_changed - limit, "more volume element", "more volume elements") + " changed");

    // Spring groups, matched by name.
    auto group_named = [](const Model& m, const std::string& name) -> const SpringGroup* {
        for (const SpringGroup& g : m.spring_groups)
            if (g.name == name) return &g;
        return nullptr;
    };
    auto damping_text = [](const SpringGroup& g) { return g.damping ? num(*g.damping) + " N s/m" : std::string("the model's"); };
    for (const SpringGroup& g : a.spring_groups) {
        const std::string title = "spring group \"" + printable(g.name) + "\": ";
        const SpringGroup* h = group_named(b, g.name);
        if (!h) {
            lines.push_back(title + "removed (" + counted(g.springs.size(), "spring") + ")");
            continue;
        }
        if (h->stiffness_scale != g.stiffness_scale)
            lines.push_back(title + "stiffness x " + num(g.stiffness_scale) + " -> " + num(h->stiffness_scale));
        if (h->damping != g.damping) lines.push_back(title + "damping " + damping_text(g) + " -> " + damping_text(*h));
        if (h->springs != g.springs) {
            const std::set<std::uint32_t> before(g.springs.begin(), g.springs.end()), after(h->springs.begin(), h->springs.end());
            std::size_t gained = 0, lost = 0;
            for (std::uint32_t x : after) gained += !before.count(x);
            for (std::uint32_t x : before) lost += !after.count(x);
            lines.push_back(title + "springs " + std::to_string(g.springs.size()) + " -> " +
                            std::to_string(h->springs.size()) + " (" + std::to_string(gained) + " added, " +
                            std::to_string(lost) + " removed)");
        }
    }
    for (const SpringGroup& h : b.spring_groups)
        if (!group_named(a, h.name))
            lines.push_back("spring group \"" + printable(h.name) + "\": added (" + counted(h.springs.size(), "spring") +
                            ", stiffness x " + num(h.stiffness_scale) + ", damping " + damping_text(h) + ")");

    // Anything else in the file (attachments), compared as a whole.
    static const std::set<std::string> handled = {"format", "version", "name", "parameters", "positions",
                                                  "masses", "springs", "anchors", "faces", "texcoords", "texture",
                                                  "spring_groups", "volume_elements"};
    for (const auto& [k, v] : ja.items())
        if (!handled.count(k) && (!jb.contains(k) || jb.at(k) != v)) lines.push_back(k + ": changed");
    for (const auto& [k, v] : jb.items())
        if (!handled.count(k) && !ja.contains(k)) lines.push_back(k + ": added");
    // Only renumbered: the first line alone says so, and it is a difference of order.
    return lines;
}

}  // namespace springkit::cli
