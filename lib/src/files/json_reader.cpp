// springkit — the JSON reader: a model from its canonical JSON text
// (docs/FILE_FORMAT.md, schema/springkit-model.schema.json). Well-formed files
// take the fast parser (json_fast_parser.hpp); anything else is parsed by
// nlohmann/json, whose messages name the problem; both feed the same Reader.
#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "springkit/parameters.hpp"
#include "springkit/printable.hpp"
#include "files/json_fast_parser.hpp"
#include "files/json_reader.hpp"

namespace springkit {

using nlohmann::json;

namespace {

// nlohmann's DOM keeps numbers as double; converting a decimal to double and
// then to float can round twice. This SAX front end parses each decimal straight
// to float (std::from_chars) so the float written by to_chars comes back exact.
class FloatExactDom : public nlohmann::detail::json_sax_dom_parser<json> {
public:
    using Base = nlohmann::detail::json_sax_dom_parser<json>;
    using Base::Base;
    bool number_float(double value, const std::string& text) {
        float f = 0.0f;
        const auto r = std::from_chars(text.data(), text.data() + text.size(), f);
        const double exact = r.ec == std::errc() ? static_cast<double>(f) : value;
        return Base::number_float(exact, text);
    }
};

using detail::BigArrays;

class Reader {
public:
    explicit Reader(std::string name, const BigArrays* big = nullptr, bool validate_model = true)
        : name_(std::move(name)), big_(big), validate_(validate_model) {}

    [[noreturn]] void fail(const std::string& where, const std::string& what) const {
        throw Error(name_ + ": " + where + ": " + what);
    }

    const json& member(const json& object, const std::string& where, const char* key) const {
        auto it = object.find(key);
        if (it == object.end()) fail(where.empty() ? "/" : where, std::string("missing field \"") + key + "\"");
        return *it;
    }
    /// A field that may be left out; null counts as left out (e.g. "ground": null).
    const json* optional(const json& object, const char* key) const {
        auto it = object.find(key);
        return it == object.end() || it->is_null() ? nullptr : &*it;
    }
    /// A numeric field that may be left out: null is refused, because JSON writers
    /// (nlohmann/json among them) write NaN and infinity as null.
    const json* present(const json& object, const char* key) const {
        auto it = object.find(key);
        return it == object.end() ? nullptr : &*it;
    }

    float number(const json& v, const std::string& where) const {
        float f = 0.0f;
        if (const std::string problem = detail::float_from_json(v, f); !problem.empty()) fail(where, problem);
        return f;
    }
    std::uint32_t index(const json& v, const std::string& where) const {
        if (!v.is_number_integer()) fail(where, std::string("expected a node index (integer), found ") + v.type_name());
        if (v.is_number_unsigned() ? v.get<std::uint64_t>() > 0xFFFFFFF0u : true)
            fail(where, "index " + v.dump() + " is out of range");
        return v.get<std::uint32_t>();
    }
    Vec3 vec(const json& v, const std::string& where) const {
        if (!v.is_array() || v.size() != 3)
            fail(where, std::string("expected [x, y, z], found ") +
                            (v.is_array() ? "an array of " + std::to_string(v.size()) : std::string(v.type_name())));
        return {number(v[0], where + "/0"), number(v[1], where + "/1"), number(v[2], where + "/2")};
    }
    std::string text(const json& v, const std::string& where) const {
        if (!v.is_string()) fail(where, std::string("expected a string, found ") + v.type_name());
        return v.get<std::string>();
    }
    const json& array(const json& v, const std::string& where, std::size_t stride) const {
        if (!v.is_array()) fail(where, std::string("expected an array, found ") + v.type_name());
        check_stride(v.size(), where, stride);
        return v;
    }
    void check_stride(std::size_t size, const std::string& where, std::size_t stride) const {
        if (size % stride != 0)
            fail(where, "length " + std::to_string(size) + " is not a multiple of " + std::to_string(stride));
    }
    // The fast parser's typed array for a key, or null (then the DOM holds it).
    template <class T>
    const std::vector<T>* side(const std::optional<std::vector<T>> BigArrays::*member) const {
        return big_ && (big_->*member) ? &*(big_->*member) : nullptr;
    }

    // One row's value from its section's object; `v` is present (may be null).
    void parameter(const json& v, const ParameterInfo& row, Parameters& p) const {
        const std::string where = row.pointer();
        if (float* f = parameter_number(row, p)) {
            *f = number(v, where);
        } else if (Vec3* vector = parameter_vector(row, p)) {
            *vector = vec(v, where);
        } else if (int* count = parameter_count(row, p)) {
            if (!v.is_number_integer()) fail(where, "expected an integer");
            // Checked here, not only by validation: beyond int it would not convert.
            const double n = v.get<double>();
            if (!row.in_range(n) || std::abs(n) > std::numeric_limits<int>::max())
                fail(where, parameter_range_message(row, v.dump()));
            *count = static_cast<int>(n);
        } else if (Integrator* integrator = parameter_integrator(row, p)) {
            const std::string name = text(v, where);
            if (auto known = integrator_from_name(name)) *integrator = *known;
            else fail(where, "unknown integrator \"" + name + "\" (expected explicit_euler, symplectic_euler, verlet or implicit)");
        }
    }

    // Every row of the table. A left-out field keeps its default. Null is refused
    // for numbers and vectors of the main section and the ground (JSON writers
    // write NaN as null) and means "left out" for the integrator and the gust's
    // fields. A null or absent ground means no ground.
    Parameters parameters(const json& j) const {
        const std::string at = "/parameters";
        if (!j.is_object()) fail(at, "expected an object");
        Parameters p;
        const json* ground = optional(j, "ground");
        if (ground) {
            if (!ground->is_object()) fail(at + "/ground", "expected an object or null");
            p.ground = Ground{};
        }
        const json* gust = optional(j, "gust");
        if (gust && !gust->is_object()) fail(at + "/gust", "expected an object or null");
        for (const ParameterInfo& row : parameter_table()) {
            const std::string key(row.key);
            const json* v = nullptr;
            switch (row.section) {
                case ParameterSection::main:
                    v = row.type == ParameterType::integrator ? optional(j, key.c_str()) : present(j, key.c_str());
                    break;
                case ParameterSection::ground:
                    v = ground ? present(*ground, key.c_str()) : nullptr;
                    break;
                case ParameterSection::gust:
                    v = gust ? optional(*gust, key.c_str()) : nullptr;
                    break;
            }
            if (v) parameter(*v, row, p);
        }
        return p;
    }

    Model model(const json& root) const {
        if (!root.is_object()) fail("/", "expected a JSON object (a springkit model)");
        const json& format = member(root, "", "format");
        if (!format.is_string() || format.get<std::string>() != "springkit")
            fail("/format", "not a springkit model (\"format\" must be \"springkit\")");
        const json& version = member(root, "", "version");
        if (!version.is_number_integer()) fail("/version", "expected an integer");
        const auto file_version = version.get<std::int64_t>();
        if (file_version > kFormatVersion)
            fail("/version", "format version " + std::to_string(file_version) + " is newer than this springkit reads (" +
                                 std::to_string(kFormatVersion) + "); update springkit");
        if (file_version < 1) fail("/version", "invalid format version " + std::to_string(file_version));

        Model m;
        if (const json* x = optional(root, "name")) m.name = text(*x, "/name");
        if (const json* x = optional(root, "parameters")) m.params = parameters(*x);

        const json& positions = array(member(root, "", "positions"), "/positions", 3);
        if (const auto* v = side(&BigArrays::positions)) {
            check_stride(v->size(), "/positions", 3);
            m.positions.resize(v->size() / 3);
            for (std::size_t i = 0; i < m.positions.size(); ++i)
                m.positions[i] = {(*v)[3 * i], (*v)[3 * i + 1], (*v)[3 * i + 2]};
        }
        if (!side(&BigArrays::positions)) m.positions.resize(positions.size() / 3);
        for (std::size_t i = 0; !side(&BigArrays::positions) && i < m.positions.size(); ++i) {
            const std::string at = "/positions/";
            m.positions[i] = {number(positions[3 * i], at + std::to_string(3 * i)),
                              number(positions[3 * i + 1], at + std::to_string(3 * i + 1)),
                              number(positions[3 * i + 2], at + std::to_string(3 * i + 2))};
        }
        if (const auto* v = side(&BigArrays::masses)) m.masses = *v;
        if (const json* x = side(&BigArrays::masses) ? nullptr : present(root, "masses")) {
            const json& masses = array(*x, "/masses", 1);
            m.masses.reserve(masses.size());
            for (std::size_t i = 0; i < masses.size(); ++i)
                m.masses.push_back(number(masses[i], "/masses/" + std::to_string(i)));
        }

        if (const json* x = optional(root, "springs")) {
            if (!x->is_object()) fail("/springs", "expected an object with \"pairs\" and \"rest\"");
            const json& pairs = array(member(*x, "/springs", "pairs"), "/springs/pairs", 2);
            const json& rest = array(member(*x, "/springs", "rest"), "/springs/rest", 1);
            const auto* fast_pairs = side(&BigArrays::pairs);
            const auto* fast_rest = side(&BigArrays::rest);
            const auto* fast_k = side(&BigArrays::k);
            const auto* fast_kind = side(&BigArrays::kind);
            const auto* fast_role = side(&BigArrays::role);
            if (fast_pairs) check_stride(fast_pairs->size(), "/springs/pairs", 2);
            const std::size_t count = (fast_pairs ? fast_pairs->size() : pairs.size()) / 2;
            const std::size_t rest_count = fast_rest ? fast_rest->size() : rest.size();
            if (rest_count != count)
                fail("/springs/rest", "has " + counted(rest_count, "entry", "entries") + " for " +
                                          counted(count, "spring"));
            const json* k = present(*x, "k");
            if (k && (!k->is_array() || (fast_k ? fast_k->size() : k->size()) != count))
                fail("/springs/k", "must be an array with one stiffness per spring (" + std::to_string(count) + ")");
            const json* kind = present(*x, "kind");
            if (kind && (!kind->is_array() || (fast_kind ? fast_kind->size() : kind->size()) != count))
                fail("/springs/kind", "must be an array with one kind per spring (" + std::to_string(count) + ")");
            const json* role = present(*x, "role");
            if (role && (!role->is_array() || (fast_role ? fast_role->size() : role->size()) != count))
                fail("/springs/role", "must be an array with one role per spring (" + std::to_string(count) + ")");
            m.springs.resize(count);
            const bool filled =
                fast_pairs && fast_rest && (!k || fast_k) && (!kind || fast_kind) && (!role || fast_role);
            if (filled) {
                for (std::size_t i = 0; i < count; ++i) {
                    Spring& s = m.springs[i];
                    s.a = (*fast_pairs)[2 * i];
                    s.b = (*fast_pairs)[2 * i + 1];
                    s.rest = (*fast_rest)[i];
                    if (fast_k) s.k = (*fast_k)[i];
                    if (fast_kind) s.kind = static_cast<SpringKind>((*fast_kind)[i]);
                    if (fast_role) s.role = static_cast<SpringRole>((*fast_role)[i]);
                }
            }
            for (std::size_t i = 0; !filled && i < count; ++i) {
                Spring& s = m.springs[i];
                const std::string idx = std::to_string(i);
                s.a = index(pairs[2 * i], "/springs/pairs/" + std::to_string(2 * i));
                s.b = index(pairs[2 * i + 1], "/springs/pairs/" + std::to_string(2 * i + 1));
                s.rest = number(rest[i], "/springs/rest/" + idx);
                if (k) s.k = number((*k)[i], "/springs/k/" + idx);
                if (kind) {
                    const json& kv = (*kind)[i];
                    if (!kv.is_number_integer() || kv.get<std::int64_t>() < 0 || kv.get<std::int64_t>() > 1)
                        fail("/springs/kind/" + idx, "expected 0 (Hooke spring) or 1 (rope constraint)");
                    s.kind = static_cast<SpringKind>(kv.get<int>());
                }
                if (role) {
                    const json& rv = (*role)[i];
                    if (!rv.is_number_integer() || rv.get<std::int64_t>() < 0 || rv.get<std::int64_t>() > kMaxSpringRole)
                        fail("/springs/role/" + idx,
                             "expected 0 (unspecified), 1 (edge), 2 (shear), 3 (bend), 4 (volume) or 5 (user)");
                    s.role = static_cast<SpringRole>(rv.get<int>());
                }
            }
        }

        if (const json* x = optional(root, "anchors")) {
            const json& anchors = array(*x, "/anchors", 1);
            for (std::size_t i = 0; i < anchors.size(); ++i) {
                const std::string at = "/anchors/" + std::to_string(i);
                const json& a = anchors[i];
                if (!a.is_object()) fail(at, "expected an object {\"node\": N, ...}");
                Anchor anchor;
                anchor.node = index(member(a, at, "node"), at + "/node");
                if (const json* d = optional(a, "drive")) {
                    const std::string name = text(*d, at + "/drive");
                    if (name == "fixed") anchor.drive = AnchorDrive::fixed;
                    else if (name == "velocity") anchor.drive = AnchorDrive::velocity;
                    else if (name == "circle") anchor.drive = AnchorDrive::circle;
                    else if (name == "track") anchor.drive = AnchorDrive::track;
                    else fail(at + "/drive", "unknown drive \"" + name + "\" (expected fixed, velocity, circle or track)");
                }
                if (const json* v = present(a, "velocity")) anchor.velocity = vec(*v, at + "/velocity");
                if (const json* v = present(a, "center")) anchor.center = vec(*v, at + "/center");
                if (const json* v = present(a, "axis")) anchor.axis = vec(*v, at + "/axis");
                if (const json* v = present(a, "angular_speed"))
                    anchor.angular_speed = number(*v, at + "/angular_speed");
                if (const json* v = present(a, "track")) anchor.track = index(*v, at + "/track");
                m.anchors.push_back(anchor);
            }
        }

        if (const auto* v = side(&BigArrays::faces)) {
            check_stride(v->size(), "/faces", 6);
            m.faces.resize(v->size() / 6);
            for (std::size_t i = 0; i < m.faces.size(); ++i)
                for (int c = 0; c < 3; ++c) {
                    m.faces[i].node[c] = (*v)[6 * i + static_cast<std::size_t>(c)];
                    m.faces[i].texcoord[c] = (*v)[6 * i + 3 + static_cast<std::size_t>(c)];
                }
        }
        if (const json* x = side(&BigArrays::faces) ? nullptr : optional(root, "faces")) {
            const json& faces = array(*x, "/faces", 6);
            m.faces.resize(faces.size() / 6);
            for (std::size_t i = 0; i < m.faces.size(); ++i)
                for (int c = 0; c < 6; ++c) {
                    const std::uint32_t v = index(faces[6 * i + c], "/faces/" + std::to_string(6 * i + c));
                    (c < 3 ? m.faces[i].node[c] : m.faces[i].texcoord[c - 3]) = v;
                }
        }
        if (const auto* v = side(&BigArrays::texcoords)) {
            check_stride(v->size(), "/texcoords", 2);
            m.texcoords.resize(v->size() / 2);
            for (std::size_t i = 0; i < m.texcoords.size(); ++i) m.texcoords[i] = {(*v)[2 * i], (*v)[2 * i + 1]};
        }
        if (const json* x = side(&BigArrays::texcoords) ? nullptr : optional(root, "texcoords")) {
            const json& tc = array(*x, "/texcoords", 2);
            m.texcoords.resize(tc.size() / 2);
            for (std::size_t i = 0; i < m.texcoords.size(); ++i)
                m.texcoords[i] = {number(tc[2 * i], "/texcoords/" + std::to_string(2 * i)),
                                  number(tc[2 * i + 1], "/texcoords/" + std::to_string(2 * i + 1))};
        }
        if (const json* x = optional(root, "texture")) m.texture = text(*x, "/texture");
        attachments(root, m);
        volume_elements(root, m);
        if (validate_) validate(m, name_);
        return m;
    }

private:
    // Calls each(element, its JSON pointer) for the objects of an optional array.
    template <class F>
    void objects(const json& root, const char* key, F each) const {
        const json* x = optional(root, key);
        if (!x) return;
        const std::string where = std::string("/") + key;
        const json& items = array(*x, where, 1);
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::string at = where + "/" + std::to_string(i);
            if (!items[i].is_object()) fail(at, "expected an object");
            each(items[i], at);
        }
    }
    int small_integer(const json& v, const std::string& where) const {
        if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > 1000)
            fail(where, "expected an integer between 0 and 1000");
        return v.get<int>();
    }

    // constant_forces, tethers, beads, tubes and spring groups: all optional (absent = none).
    void attachments(const json& root, Model& m) const {
        objects(root, "constant_forces", [&](const json& o, const std::string& at) {
            m.constant_forces.push_back({index(member(o, at, "node"), at + "/node"),
                                         vec(member(o, at, "force"), at + "/force")});
        });
        objects(root, "tethers", [&](const json& o, const std::string& at) {
            Tether t;
            t.node = index(member(o, at, "node"), at + "/node");
            t.point = vec(member(o, at, "point"), at + "/point");
            t.length = number(member(o, at, "length"), at + "/length");
            if (const json* v = optional(o, "bounce")) t.bounce = number(*v, at + "/bounce");
            m.tethers.push_back(t);
        });
        objects(root, "beads", [&](const json& o, const std::string& at) {
            Bead b;
            b.first = index(member(o, at, "first"), at + "/first");
            b.last = index(member(o, at, "last"), at + "/last");
            b.mass = number(member(o, at, "mass"), at + "/mass");
            if (const json* v = optional(o, "start")) b.start = number(*v, at + "/start");
            if (const json* v = optional(o, "friction")) b.friction = number(*v, at + "/friction");
            m.beads.push_back(b);
        });
        objects(root, "tubes", [&](const json& o, const std::string& at) {
            Tube t;
            const json& nodes = array(member(o, at, "nodes"), at + "/nodes", 1);
            for (std::size_t k = 0; k < nodes.size(); ++k)
                t.nodes.push_back(index(nodes[k], at + "/nodes/" + std::to_string(k)));
            if (const json* v = optional(o, "radius")) t.radius = number(*v, at + "/radius");
            if (const json* v = optional(o, "sides")) t.sides = small_integer(*v, at + "/sides");
            if (const json* v = optional(o, "subdivisions"))
                t.subdivisions = small_integer(*v, at + "/subdivisions");
            m.tubes.push_back(t);
        });
        objects(root, "spring_groups", [&](const json& o, const std::string& at) {
            SpringGroup g;
            g.name = text(member(o, at, "name"), at + "/name");
            if (const json* v = present(o, "stiffness_scale")) g.stiffness_scale = number(*v, at + "/stiffness_scale");
            if (const json* v = present(o, "damping")) g.damping = number(*v, at + "/damping");
            const json& springs = array(member(o, at, "springs"), at + "/springs", 1);
            g.springs.reserve(springs.size());
            for (std::size_t k = 0; k < springs.size(); ++k)
                g.springs.push_back(spring_index(springs[k], at + "/springs/" + std::to_string(k)));
            m.spring_groups.push_back(std::move(g));
        });
        objects(root, "anchor_tracks", [&](const json& o, const std::string& at) {
            AnchorTrack t;
            if (const json* v = optional(o, "name")) t.name = text(*v, at + "/name");
            if (const json* v = optional(o, "loop")) {
                if (!v->is_boolean()) fail(at + "/loop", std::string("expected true or false, found ") + v->type_name());
                t.loop = v->get<bool>();
            }
            const json& times = array(member(o, at, "times"), at + "/times", 1);
            const json& positions = array(member(o, at, "positions"), at + "/positions", 3);
            const json& rotations = array(member(o, at, "rotations"), at + "/rotations", 4);
            const std::size_t keys = times.size();
            if (positions.size() != 3 * keys)
                fail(at + "/positions", "has " + std::to_string(positions.size()) + " numbers but the track has " +
                                            std::to_string(keys) + " keys (3 per key)");
            if (rotations.size() != 4 * keys)
                fail(at + "/rotations", "has " + std::to_string(rotations.size()) + " numbers but the track has " +
                                            std::to_string(keys) + " keys (4 per key: w, x, y, z)");
            t.keys.resize(keys);
            auto at_index = [&](const char* name, std::size_t i) { return at + name + std::to_string(i); };
            for (std::size_t k = 0; k < keys; ++k) {
                TrackKey& key = t.keys[k];
                key.time = number(times[k], at_index("/times/", k));
                key.position = {number(positions[3 * k], at_index("/positions/", 3 * k)),
                                number(positions[3 * k + 1], at_index("/positions/", 3 * k + 1)),
                                number(positions[3 * k + 2], at_index("/positions/", 3 * k + 2))};
                key.rotation = {number(rotations[4 * k], at_index("/rotations/", 4 * k)),
                                number(rotations[4 * k + 1], at_index("/rotations/", 4 * k + 1)),
                                number(rotations[4 * k + 2], at_index("/rotations/", 4 * k + 2)),
                                number(rotations[4 * k + 3], at_index("/rotations/", 4 * k + 3))};
            }
            m.anchor_tracks.push_back(std::move(t));
        });
    }
    // "volume_elements": {"nodes": [4 per element], "rest": [1 per element]}; optional.
    void volume_elements(const json& root, Model& m) const {
        const json* x = optional(root, "volume_elements");
        if (!x) return;
        if (!x->is_object()) fail("/volume_elements", std::string("expected an object, found ") + x->type_name());
        const json& nodes = array(member(*x, "/volume_elements", "nodes"), "/volume_elements/nodes", 4);
        const json& rest = array(member(*x, "/volume_elements", "rest"), "/volume_elements/rest", 1);
        const std::size_t count = nodes.size() / 4;
        if (rest.size() != count)
            fail("/volume_elements/rest", "has " + std::to_string(rest.size()) + " volumes but there are " +
                                              std::to_string(count) + " elements (4 nodes each)");
        m.volume_elements.resize(count);
        for (std::size_t i = 0; i < count; ++i) {
            VolumeElement& e = m.volume_elements[i];
            for (std::size_t c = 0; c < 4; ++c)
                e.node[c] = index(nodes[4 * i + c], "/volume_elements/nodes/" + std::to_string(4 * i + c));
            e.rest = number(rest[i], "/volume_elements/rest/" + std::to_string(i));
        }
    }
    std::uint32_t spring_index(const json& v, const std::string& where) const {
        if (!v.is_number_integer())
            fail(where, std::string("expected a spring index (integer), found ") + v.type_name());
        if (v.is_number_unsigned() ? v.get<std::uint64_t>() > 0xFFFFFFF0u : true)
            fail(where, "index " + v.dump() + " is out of range");
        return v.get<std::uint32_t>();
    }

    std::string name_;
    const BigArrays* big_;
    bool validate_;
};

// Error messages quote bits of the file: one printable line even when the file
// is binary garbage, and short, because the message names the place anyway.
constexpr std::size_t kQuotedBytes = 200;

}  // namespace

Model model_from_json(std::string_view text, const std::string& name) {
    return detail::model_from_json(text, name, true);
}

Model detail::model_from_json(std::string_view text, const std::string& name, bool validate_model) {
    {
        json root;
        BigArrays big;
        if (detail::parse_fast(text, root, big)) {
            try {
                return Reader(name, &big, validate_model).model(root);
            } catch (const json::exception& e) {
                throw Error(name + ": unexpected value: " + e.what());
            }
        }
    }
    const json root = detail::parse_json(text, name);
    try {
        return Reader(name, nullptr, validate_model).model(root);
    } catch (const json::exception& e) {
        throw Error(name + ": unexpected value: " + e.what());
    }
}

std::string detail::float_from_json(const json& v, float& out) {
    if (v.is_null()) return "expected a number, found null (NaN and infinity are not allowed)";
    if (!v.is_number()) return std::string("expected a number, found ") + v.type_name();
    // A decimal beyond the float range would turn into infinity silently.
    const double d = v.get<double>();
    if (!std::isfinite(d) || std::abs(d) > std::numeric_limits<float>::max())
        return "number " + v.dump() + " is too large for a 32-bit float";
    out = static_cast<float>(d);
    return {};
}

json detail::parse_json(std::string_view text, const std::string& name) {
    json root;
    try {
        FloatExactDom sax(root, true);
        json::sax_parse(text.begin(), text.end(), &sax);
    } catch (const json::parse_error& e) {
        std::string what = e.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." -> keep the reason.
        const auto colon = what.find(": ", what.find("parse error"));
        const std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
        throw Error(name + ": " + line_and_column(text, e.byte > 0 ? e.byte - 1 : 0) +
                    ": invalid JSON: " + printable(reason, kQuotedBytes));
    } catch (const json::out_of_range& e) {
        // "[json.exception.out_of_range.406] number overflow parsing '1e999'": nlohmann
        // gives no position, so find the number in the text.
        const std::string what = e.what();
        const auto quote = what.find('\'');
        const std::string token = quote == std::string::npos ? "" : what.substr(quote + 1, what.size() - quote - 2);
        const auto at = token.empty() ? std::string_view::npos : text.find(token);
        throw Error(name + ": " + (at == std::string_view::npos ? "" : line_and_column(text, at) + ": ") +
                    "invalid JSON: number " + printable(token, kQuotedBytes) + " is out of range");
    } catch (const json::exception& e) {
        throw Error(name + ": invalid JSON: " + printable(e.what(), kQuotedBytes));
    }
    return root;
}

std::string line_and_column(std::string_view text, std::size_t byte) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace springkit
