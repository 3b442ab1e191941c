// springkit — the JSON writer: a model's canonical JSON text
// (docs/FILE_FORMAT.md, schema/springkit-model.schema.json), and the binary
// form's JSON header.
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <future>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "springkit/parameters.hpp"
#include "files/json_writer.hpp"

namespace springkit {

using nlohmann::json;

namespace {

const char* drive_name(AnchorDrive d) {
    switch (d) {
        case AnchorDrive::fixed: return "fixed";
        case AnchorDrive::velocity: return "velocity";
        case AnchorDrive::circle: return "circle";
        case AnchorDrive::track: return "track";
    }
    return "fixed";
}

// A direct writer: shortest round-trip text for each float (std::to_chars), so a
// saved model loads back bit-identical and stays readable.
class Writer {
public:
    /// `expected`: about the bytes it will write. The buffer is not cleared
    /// first, so a generous guess costs address space only.
    explicit Writer(std::size_t expected = 0) { grow(std::max<std::size_t>(expected, 256)); }
    void number(float v) {
        // -0 would be written "-0", which JSON readers take as the integer 0: write
        // 0 so that saving what was loaded gives the same text.
        if (v == 0.0f) v = 0.0f;
        char* at = room(32);
        size_ = static_cast<std::size_t>(std::to_chars(at, at + 32, v).ptr - buffer_.get());
    }
    void number(std::uint64_t v) {
        char* at = room(24);
        size_ = static_cast<std::size_t>(std::to_chars(at, at + 24, v).ptr - buffer_.get());
    }
    void text(std::string_view s) { raw(json(std::string(s)).dump()); }
    void raw(std::string_view s) {
        std::memcpy(room(s.size()), s.data(), s.size());
        size_ += s.size();
    }
    template <std::size_t N>
    void raw(const char (&s)[N]) {  // literals: a copy of known length
        std::memcpy(room(N - 1), s, N - 1);
        size_ += N - 1;
    }
    void vec(const Vec3& v) {
        raw("[");
        number(v.x);
        raw(", ");
        number(v.y);
        raw(", ");
        number(v.z);
        raw("]");
    }
    template <class T, class F>
    void array(const std::vector<T>& items, int per_line, F each) {
        raw("[");
        int on_line = 0;
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (i > 0) {
                if (on_line == per_line) {
                    on_line = 0;
                    raw(",\n    ");
                } else {
                    raw(", ");
                }
            }
            ++on_line;
            each(items[i]);
        }
        raw("]");
    }
    std::string_view view() const { return {buffer_.get(), size_}; }

    /// One field of a one-line object: its name and value (Writer::object).
    template <class T>
    struct Field {
        std::string_view name;
        const T& value;
    };
    template <class T>
    static Field<T> field(std::string_view name, const T& value) {  // (clang 14 deduces no aggregates)
        return {name, value};
    }
    /// {"name": value, ...} on one line.
    template <class... T>
    void object(const Field<T>&... fields) {
        std::string_view separator = "{\"";
        ((raw(separator), raw(fields.name), raw("\": "), value(fields.value), separator = ", \""), ...);
        raw("}");
    }

private:
    void value(float v) { number(v); }
    void value(std::uint32_t v) { number(std::uint64_t{v}); }
    void value(int v) { number(static_cast<std::uint64_t>(v)); }  // validated >= 0
    void value(const Vec3& v) { vec(v); }
    void value(const std::vector<std::uint32_t>& v) {
        raw("[");
        for (std::size_t k = 0; k < v.size(); ++k) {
            if (k > 0) raw(", ");
            number(std::uint64_t{v[k]});
        }
        raw("]");
    }
    char* room(std::size_t n) {
        if (capacity_ - size_ < n) grow(std::max(2 * capacity_, size_ + n));
        return buffer_.get() + size_;
    }
    void grow(std::size_t capacity) {
        std::unique_ptr<char[]> bigger(new char[capacity]);
        if (size_ > 0) std::memcpy(bigger.get(), buffer_.get(), size_);
        buffer_ = std::move(bigger);
        capacity_ = capacity;
    }
    std::unique_ptr<char[]> buffer_;
    std::size_t size_ = 0, capacity_ = 0;
};

/// A model's JSON text in one or two pieces (big models: written on two threads).
struct Pieces {
    Writer head, rest;
    std::array<std::string_view, 2> parts() const { return {head.view(), rest.view()}; }
    std::string joined() const {
        std::string text;
        text.reserve(head.view().size() + rest.view().size());
        text.append(head.view()).append(rest.view());
        return text;
    }
};

Pieces json_text(const Model& model, bool with_arrays);

/// Bytes of anchors, faces and texcoords from which a second thread writes them.
constexpr std::size_t kSecondThread = std::size_t{8} << 20;


}  // namespace

std::string model_to_json(const Model& model) { return model_to_json(model, Check::validate); }

std::string model_to_json(const Model& model, Check check) {
    if (check == Check::validate) validate(model);
    return json_text(model, true).joined();
}

std::string detail::model_to_json(const Model& model, bool with_arrays) { return json_text(model, with_arrays).joined(); }

namespace {

// One parameter's value as the file spells it.
void write_parameter(Writer& w, const ParameterInfo& row, const Parameters& p) {
    if (const float* x = parameter_number(row, p)) w.number(*x);
    else if (const Vec3* v = parameter_vector(row, p)) w.vec(*v);
    else if (const int* n = parameter_count(row, p)) w.number(static_cast<std::uint64_t>(*n));  // validated >= 0
    else if (const Integrator* i = parameter_integrator(row, p)) w.text(integrator_name(*i));
}

// True when a main-section row holds parameter_defaults()'s value, bit for bit.
bool holds_default(const ParameterInfo& row, const Parameters& p) {
    const Parameters& d = parameter_defaults();
    if (const float* x = parameter_number(row, p))
        return std::bit_cast<std::uint32_t>(*x) == std::bit_cast<std::uint32_t>(*parameter_number(row, d));
    if (const Vec3* v = parameter_vector(row, p)) return *v == *parameter_vector(row, d);
    if (const int* n = parameter_count(row, p)) return *n == *parameter_count(row, d);
    if (const Integrator* i = parameter_integrator(row, p)) return *i == *parameter_integrator(row, d);
    return false;
}

// "parameters": one line per row of the table, in its order; a section (ground,
// gust) is one object on one line where its first row stands. The ground is null
// when there is none. The gust is written only when set, like the attachments;
// set means any field, even with period 0 (no gusts), so that what was loaded is
// saved again. A main row marked written_when_default = false is left out
// while it holds its default.
void write_parameters(Writer& w, const Parameters& p) {
    const std::span<const ParameterInfo> rows = parameter_table();
    w.raw(",\n  \"parameters\": {");
    std::string_view separator = "\n    \"";
    for (std::size_t i = 0; i < rows.size();) {
        const ParameterSection section = rows[i].section;
        std::size_t end = i + 1;
        if (section != ParameterSection::main)
            while (end < rows.size() && rows[end].section == section) ++end;
        if ((section == ParameterSection::gust && p.gust == Gust{}) ||
            (section == ParameterSection::main && !rows[i].written_when_default && holds_default(rows[i], p))) {
            i = end;
            continue;
        }
        w.raw(separator);
        separator = ",\n    \"";
        if (section == ParameterSection::main) {
            w.raw(rows[i].key);
            w.raw("\": ");
            write_parameter(w, rows[i], p);
        } else {
            w.raw(section == ParameterSection::ground ? std::string_view("ground") : std::string_view("gust"));
            w.raw("\": ");
            if (section == ParameterSection::ground && !p.ground) {
                w.raw("null");
            } else {
                std::string_view field_separator = "{\"";
                for (std::size_t k = i; k < end; ++k) {
                    w.raw(field_separator);
                    field_separator = ", \"";
                    w.raw(rows[k].key);
                    w.raw("\": ");
                    write_parameter(w, rows[k], p);
                }
                w.raw("}");
            }
        }
        i = end;
    }
    w.raw("\n  }");
}

Pieces json_text(const Model& model, bool with_arrays) {
    // The binary form's header: the same text with the big arrays left empty.
    static const Model no_arrays{};
    const Model& arrays = with_arrays ? model : no_arrays;
    // About 17 bytes per float and 12 per index with their separators.
    const std::size_t spring_count = arrays.springs.size();
    const std::size_t rest_size = 256 + 100 * model.anchors.size() + 12 * 6 * arrays.faces.size() +
                                  17 * 2 * arrays.texcoords.size() + (4 * 12 + 17) * model.volume_elements.size();
    Pieces text{Writer(1024 + 17 * 3 * arrays.positions.size() + 17 * arrays.masses.size() + (2 * 12 + 2 * 17 + 3) * spring_count +
                         (rest_size < kSecondThread ? rest_size : 0)),
                  Writer()};
    Writer& w = text.head;
    w.raw("{\n  \"format\": \"springkit\",\n  \"version\": ");
    w.number(std::uint64_t{kFormatVersion});
    w.raw(",\n  \"name\": ");
    w.text(model.name);
    write_parameters(w, model.params);
    w.raw(",\n  \"positions\": ");
    w.array(arrays.positions, 4, [&](const Vec3& v) {
        w.number(v.x);
        w.raw(", ");
        w.number(v.y);
        w.raw(", ");
        w.number(v.z);
    });
    if (!arrays.masses.empty()) {
        w.raw(",\n  \"masses\": ");
        w.array(arrays.masses, 12, [&](float m) { w.number(m); });
    }
    w.raw(",\n  \"springs\": {\n    \"pairs\": ");
    w.array(arrays.springs, 8, [&](const Spring& s) {
        w.number(std::uint64_t{s.a});
        w.raw(", ");
        w.number(std::uint64_t{s.b});
    });
    w.raw(",\n    \"rest\": ");
    w.array(arrays.springs, 12, [&](const Spring& s) { w.number(s.rest); });
    const bool own_k = std::any_of(arrays.springs.begin(), arrays.springs.end(),
                                   [](const Spring& s) { return s.k != 0.0f; });
    if (own_k) {
        w.raw(",\n    \"k\": ");
        w.array(arrays.springs, 12, [&](const Spring& s) { w.number(s.k); });
    }
    const bool ropes = std::any_of(arrays.springs.begin(), arrays.springs.end(),
                                   [](const Spring& s) { return s.kind != SpringKind::hooke; });
    if (ropes) {
        w.raw(",\n    \"kind\": ");
        w.array(arrays.springs, 24, [&](const Spring& s) { w.number(static_cast<std::uint64_t>(s.kind)); });
    }
    // Roles are written only when some spring has one, so files without them
    // keep their bytes.
    const bool roles = std::any_of(arrays.springs.begin(), arrays.springs.end(),
                                   [](const Spring& s) { return s.role != SpringRole::unspecified; });
    if (roles) {
        w.raw(",\n    \"role\": ");
        w.array(arrays.springs, 24, [&](const Spring& s) { w.number(static_cast<std::uint64_t>(s.role)); });
    }
    // The rest (anchors, faces, texcoords, attachments) is as big as the part
    // above for a mesh; big models write it on a second thread.
    auto write_rest = [&model, &arrays](Writer& v) {
        v.raw("\n  },\n  \"anchors\": ");
        v.array(model.anchors, 1, [&v](const Anchor& a) {
            v.raw("{\"node\": ");
            v.number(std::uint64_t{a.node});
            if (a.drive != AnchorDrive::fixed) {
                v.raw(", \"drive\": ");
                v.text(drive_name(a.drive));
            }
            // A drive's fields are written for that drive, and for any other drive
            // when they are set (an editor may switch drives back and forth): what was
            // loaded is saved again, nothing is dropped.
            const Anchor defaults{};
            if (a.drive == AnchorDrive::velocity || a.velocity != defaults.velocity) {
                v.raw(", \"velocity\": ");
                v.vec(a.velocity);
            }
            if (a.drive == AnchorDrive::circle || a.center != defaults.center || a.axis != defaults.axis ||
                a.angular_speed != defaults.angular_speed) {
                v.raw(", \"center\": ");
                v.vec(a.center);
                v.raw(", \"axis\": ");
                v.vec(a.axis);
                v.raw(", \"angular_speed\": ");
                v.number(a.angular_speed);
            }
            if (a.drive == AnchorDrive::track || a.track != defaults.track) {
                v.raw(", \"track\": ");
                v.number(std::uint64_t{a.track});
            }
            v.raw("}");
        });
        v.raw(",\n  \"faces\": ");
        v.array(arrays.faces, 4, [&v](const Face& f) {
            for (int c = 0; c < 3; ++c) {
                v.number(std::uint64_t{f.node[c]});
                v.raw(", ");
            }
            for (int c = 0; c < 3; ++c) {
                v.number(std::uint64_t{f.texcoord[c]});
                if (c < 2) v.raw(", ");
            }
        });
        v.raw(",\n  \"texcoords\": ");
        v.array(arrays.texcoords, 8, [&v](const TexCoord& t) {
            v.number(t.u);
            v.raw(", ");
            v.number(t.v);
        });
        v.raw(",\n  \"texture\": ");
        v.text(model.texture);
        // Attachments: written only when present, so models without them keep the
        // layout they had before these fields existed.
        using W = Writer;
        if (!model.constant_forces.empty()) {
            v.raw(",\n  \"constant_forces\": ");
            v.array(model.constant_forces, 1, [&v](const ConstantForce& c) {
                v.object(W::field("node", c.node), W::field("force", c.force));
            });
        }
        if (!model.tethers.empty()) {
            v.raw(",\n  \"tethers\": ");
            v.array(model.tethers, 1, [&v](const Tether& t) {
                v.object(W::field("node", t.node), W::field("point", t.point), W::field("length", t.length),
                         W::field("bounce", t.bounce));
            });
        }
        if (!model.beads.empty()) {
            v.raw(",\n  \"beads\": ");
            v.array(model.beads, 1, [&v](const Bead& b) {
                v.object(W::field("first", b.first), W::field("last", b.last), W::field("mass", b.mass),
                         W::field("start", b.start), W::field("friction", b.friction));
            });
        }
        if (!model.tubes.empty()) {
            v.raw(",\n  \"tubes\": ");
            v.array(model.tubes, 1, [&v](const Tube& t) {
                v.object(W::field("nodes", t.nodes), W::field("radius", t.radius), W::field("sides", t.sides),
                         W::field("subdivisions", t.subdivisions));
            });
        }
        if (!model.spring_groups.empty()) {
            v.raw(",\n  \"spring_groups\": ");
            v.array(model.spring_groups, 1, [&v](const SpringGroup& g) {
                v.raw("{\"name\": ");
                v.text(g.name);
                v.raw(", \"stiffness_scale\": ");
                v.number(g.stiffness_scale);
                if (g.damping) {
                    v.raw(", \"damping\": ");
                    v.number(*g.damping);
                }
                v.raw(", \"springs\": [");
                for (std::size_t k = 0; k < g.springs.size(); ++k) {
                    if (k > 0) v.raw(", ");
                    v.number(std::uint64_t{g.springs[k]});
                }
                v.raw("]}");
            });
        }
        if (!model.anchor_tracks.empty()) {
            v.raw(",\n  \"anchor_tracks\": ");
            v.array(model.anchor_tracks, 1, [&v](const AnchorTrack& t) {
                v.raw("{\"name\": ");
                v.text(t.name);
                v.raw(t.loop ? ", \"loop\": true, \"times\": [" : ", \"loop\": false, \"times\": [");
                for (std::size_t k = 0; k < t.keys.size(); ++k) {
                    if (k > 0) v.raw(", ");
                    v.number(t.keys[k].time);
                }
                v.raw("], \"positions\": [");
                for (std::size_t k = 0; k < t.keys.size(); ++k) {
                    if (k > 0) v.raw(", ");
                    v.number(t.keys[k].position.x);
                    v.raw(", ");
                    v.number(t.keys[k].position.y);
                    v.raw(", ");
                    v.number(t.keys[k].position.z);
                }
                v.raw("], \"rotations\": [");
                for (std::size_t k = 0; k < t.keys.size(); ++k) {
                    const Quat& q = t.keys[k].rotation;
                    if (k > 0) v.raw(", ");
                    const float c[4] = {q.w, q.x, q.y, q.z};
                    for (int j = 0; j < 4; ++j) {
                        if (j > 0) v.raw(", ");
                        v.number(c[j]);
                    }
                }
                v.raw("]}");
            });
        }
        if (!model.volume_elements.empty()) {
            v.raw(",\n  \"volume_elements\": {\n    \"nodes\": ");
            v.array(model.volume_elements, 2, [&v](const VolumeElement& e) {
                for (int c = 0; c < 4; ++c) {
                    v.number(std::uint64_t{e.node[c]});
                    if (c < 3) v.raw(", ");
                }
            });
            v.raw(",\n    \"rest\": ");
            v.array(model.volume_elements, 12, [&v](const VolumeElement& e) { v.number(e.rest); });
            v.raw("\n  }");
        }
        v.raw("\n}\n");
    };
    if (rest_size < kSecondThread) {
        write_rest(w);
        return text;
    }
    text.rest = Writer(rest_size);
    auto rest = std::async(std::launch::async, [&] { write_rest(text.rest); });
    rest.get();
    return text;
}

}  // namespace

struct detail::JsonText::Pieces : springkit::Pieces {};

detail::JsonText::JsonText(const Model& model, bool with_arrays)
    : pieces_(std::make_unique<Pieces>(Pieces{json_text(model, with_arrays)})) {}
detail::JsonText::JsonText(JsonText&&) noexcept = default;
detail::JsonText::~JsonText() = default;
std::array<std::string_view, 2> detail::JsonText::parts() const { return pieces_->parts(); }

}  // namespace springkit
