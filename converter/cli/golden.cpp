// springkit CLI — golden files: the strict reader and writer of `golden`/`check`.
#include "golden.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "springkit/error.hpp"
#include "springkit/io.hpp"

namespace springkit::cli {

namespace {

using nlohmann::json;

/// A value for messages: its type, or the number (nlohmann prints the shortest
/// text that reads back as the same double).
std::string shown(const json& v) {
    switch (v.type()) {
        case json::value_t::null: return "null";
        case json::value_t::boolean: return v.get<bool>() ? "true" : "false";
        case json::value_t::string: return "a string";
        case json::value_t::array: return "an array";
        case json::value_t::object: return "an object";
        default: return v.dump();
    }
}

class Reader {
public:
    explicit Reader(std::string name) : name_(std::move(name)) {}

    [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
        throw Error(name_ + ": " + pointer + ": " + what);
    }

    const json& field(const json& object, const std::string& pointer, const char* key) const {
        const auto it = object.find(key);
        if (it == object.end()) fail(pointer, std::string("missing \"") + key + "\"");
        return *it;
    }

    void only(const json& object, const std::string& pointer, std::initializer_list<std::string_view> keys) const {
        for (const auto& [key, value] : object.items()) {
            bool known = false;
            for (std::string_view k : keys) known = known || key == k;
            if (!known) fail(pointer + "/" + key, "unknown field");
        }
    }

    std::uint64_t integer(const json& v, const std::string& pointer, std::uint64_t min, std::uint64_t max) const {
        if (v.is_number_unsigned()) {
            const auto n = v.get<std::uint64_t>();
            if (n < min) fail(pointer, "must be at least " + std::to_string(min) + ", not " + v.dump());
            if (n > max) fail(pointer, v.dump() + " is too large (at most " + std::to_string(max) + ")");
            return n;
        }
        if (v.is_number_integer())  // negative
            fail(pointer, "must be at least " + std::to_string(min) + ", not " + v.dump());
        // nlohmann keeps an integer beyond 64 bits only as a double, whose digits
        // are not the ones written: it is called too large rather than shown wrong.
        if (v.is_number_float() && v.get<double>() == std::floor(v.get<double>()) && std::fabs(v.get<double>()) >= 0x1p63)
            fail(pointer, v.get<double>() < 0 ? "too small a number (at least " + std::to_string(min) + ")"
                                              : "too large a number (at most " + std::to_string(max) + ")");
        fail(pointer, "must be an integer, not " + shown(v));
    }

    double number(const json& v, const std::string& pointer) const {
        if (!v.is_number()) fail(pointer, "must be a number, not " + shown(v));
        const double d = v.get<double>();
        if (!std::isfinite(d)) fail(pointer, "must be finite");
        return d;
    }

    float single(const json& v, const std::string& pointer) const {
        const double d = number(v, pointer);
        if (std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max()))
            fail(pointer, shown(v) + " is beyond single precision (at most 3.4e38 in size)");
        return static_cast<float>(d);
    }

    std::string string(const json& v, const std::string& pointer) const {
        if (!v.is_string()) fail(pointer, "must be a string, not " + shown(v));
        return v.get<std::string>();
    }

    const json& array(const json& v, const std::string& pointer) const {
        if (!v.is_array()) fail(pointer, "must be an array, not " + shown(v));
        return v;
    }

    const json& object(const json& v, const std::string& pointer) const {
        if (!v.is_object()) fail(pointer, "must be an object, not " + shown(v));
        return v;
    }

    Golden golden(const json& root) const {
        if (!root.is_object() || root.find("format") == root.end() || root.at("format") != "springkit-golden")
            throw Error(name_ + ": not a springkit golden file (no \"format\": \"springkit-golden\")");
        Golden g;
        // The version first: a newer file may have fields this reader does not know.
        const json& version = field(root, "", "version");
        if (version.is_number_unsigned() && version.get<std::uint64_t>() > kGoldenVersion)
            fail("/version", "golden version " + version.dump() + " is newer than this springkit reads (" +
                                 std::to_string(kGoldenVersion) + ")");
        if (version.is_number_float() && version.get<double>() >= 0x1p63)
            fail("/version", "too large a number for a golden version (this springkit reads versions 1 to " +
                                 std::to_string(kGoldenVersion) + ")");
        g.version = static_cast<int>(integer(version, "/version", 1, kGoldenVersion));
        const bool v2 = g.version >= 2;
        if (v2)
            only(root, "", {"format", "version", "model", "model_hash", "frame_dt", "seconds", "nodes", "horizon",
                            "structure", "samples"});
        else
            only(root, "", {"format", "version", "model", "model_hash", "frame_dt", "seconds", "nodes", "samples"});

        if (root.contains("model")) g.model = string(root.at("model"), "/model");
        g.hash = string(field(root, "", "model_hash"), "/model_hash");
        if (g.hash.size() != 16 || g.hash.find_first_not_of("0123456789abcdef") != std::string::npos)
            fail("/model_hash", "must be 16 lowercase hexadecimal digits");
        g.frame_dt = single(field(root, "", "frame_dt"), "/frame_dt");
        if (!(g.frame_dt >= kMinGoldenFrameDt && g.frame_dt <= kMaxGoldenFrameDt))
            fail("/frame_dt", shown(root.at("frame_dt")) + " s is outside the frame times golden records (1e-06 to 1 s)");
        g.seconds = number(field(root, "", "seconds"), "/seconds");
        if (!(g.seconds > 0.0)) fail("/seconds", "must be more than 0, not " + shown(root.at("seconds")));
        g.nodes = integer(field(root, "", "nodes"), "/nodes", 0, kMaxGoldenNodes);
        if (v2) {
            g.horizon = number(field(root, "", "horizon"), "/horizon");
            if (g.horizon < 0.0) fail("/horizon", "must be at least 0, not " + shown(root.at("horizon")));
            // The model is read as strictly as a model file, its errors placed under /structure.
            const json& structure = object(field(root, "", "structure"), "/structure");
            g.structure = structure.dump();
            try {
                const Model m = model_from_json(g.structure, name_ + ": /structure");
                if (m.node_count() != g.nodes)
                    fail("/structure", "has " + std::to_string(m.node_count()) + " nodes, /nodes says " +
                                           std::to_string(g.nodes));
            } catch (const json::exception&) {
                fail("/structure", "is not a valid model");
            }
        }

        const json& samples = array(field(root, "", "samples"), "/samples");
        if (samples.empty()) fail("/samples", "is empty: a golden records at least one time");
        for (std::size_t k = 0; k < samples.size(); ++k) {
            const std::string at = "/samples/" + std::to_string(k);
            const json& s = object(samples[k], at);
            if (v2)
                only(s, at, {"frame", "time", "positions", "kinetic", "potential", "bounds", "max_strain"});
            else
                only(s, at, {"frame", "time", "positions"});
            const std::uint64_t frame =
                integer(field(s, at, "frame"), at + "/frame", 1, std::numeric_limits<std::uint64_t>::max());
            if (!g.frames.empty() && frame <= g.frames.back())
                fail(at + "/frame", "frames must increase: " + std::to_string(frame) + " follows " +
                                        std::to_string(g.frames.back()));
            if (s.contains("time")) number(s.at("time"), at + "/time");
            const json& flat = array(field(s, at, "positions"), at + "/positions");
            if (flat.size() != g.nodes * 3)
                fail(at + "/positions", "has " + std::to_string(flat.size()) + " numbers, expected " +
                                            std::to_string(g.nodes * 3) + " (3 for each of /nodes " +
                                            std::to_string(g.nodes) + ")");
            std::vector<Vec3> p(g.nodes);
            for (std::size_t i = 0; i < g.nodes; ++i) {
                float xyz[3];
                for (std::size_t c = 0; c < 3; ++c)
                    xyz[c] = single(flat[3 * i + c], at + "/positions/" + std::to_string(3 * i + c));
                p[i] = {xyz[0], xyz[1], xyz[2]};
            }
            if (v2) {
                GoldenMeasures m;
                m.kinetic = number(field(s, at, "kinetic"), at + "/kinetic");
                m.potential = number(field(s, at, "potential"), at + "/potential");
                m.max_strain = number(field(s, at, "max_strain"), at + "/max_strain");
                const json& box = array(field(s, at, "bounds"), at + "/bounds");
                if (box.size() != 6) fail(at + "/bounds", "has " + std::to_string(box.size()) + " numbers, expected 6 (min x y z, max x y z)");
                float b[6];
                for (std::size_t c = 0; c < 6; ++c) b[c] = single(box[c], at + "/bounds/" + std::to_string(c));
                m.min = {b[0], b[1], b[2]};
                m.max = {b[3], b[4], b[5]};
                g.measures.push_back(m);
            }
            g.frames.push_back(frame);
            g.positions.push_back(std::move(p));
        }
        return g;
    }

private:
    std::string name_;
};

}  // namespace

Golden golden_from_json(std::string_view text, const std::string& name) {
    json root;
    try {
        root = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        // "[json.exception.parse_error.101] parse error at line 1, column 2: reason" -> the reason.
        const std::string what = e.what();
        const auto colon = what.find(": ", what.find("parse error"));
        throw Error(name + ": " + line_and_column(text, e.byte > 0 ? e.byte - 1 : 0) +
                    ": invalid JSON: " + (colon == std::string::npos ? std::string("syntax error") : what.substr(colon + 2)));
    } catch (const json::exception& e) {
        // "[json.exception.out_of_range.406] number overflow parsing '1e999'": nlohmann
        // gives no position, so find the number in the text.
        const std::string what = e.what();
        const auto quote = what.find('\'');
        const std::string token =
            quote == std::string::npos || what.size() < quote + 2 ? "" : what.substr(quote + 1, what.size() - quote - 2);
        const auto at = token.empty() ? std::string_view::npos : text.find(token);
        if (at == std::string_view::npos) throw Error(name + ": invalid JSON: a number is out of range");
        throw Error(name + ": " + line_and_column(text, at) + ": invalid JSON: number " + token.substr(0, 40) +
                    " is out of range");
    }
    try {
        return Reader(name).golden(root);
    } catch (const json::exception&) {
        throw Error(name + ": not a valid golden file");  // every access above is checked first
    }
}

std::string golden_to_json(const Golden& g) {
    json samples = json::array();
    for (std::size_t k = 0; k < g.frames.size(); ++k) {
        std::vector<float> flat;
        flat.reserve(g.positions[k].size() * 3);
        for (const Vec3& v : g.positions[k]) flat.insert(flat.end(), {v.x, v.y, v.z});
        json sample = {{"frame", g.frames[k]},
                       {"time", static_cast<double>(g.frames[k]) * static_cast<double>(g.frame_dt)},
                       {"positions", flat}};
        if (g.version >= 2) {
            const GoldenMeasures& m = g.measures[k];
            sample["kinetic"] = m.kinetic;
            sample["potential"] = m.potential;
            sample["bounds"] = {m.min.x, m.min.y, m.min.z, m.max.x, m.max.y, m.max.z};
            sample["max_strain"] = m.max_strain;
        }
        samples.push_back(std::move(sample));
    }
    json root = {{"format", "springkit-golden"}, {"version", g.version}, {"model", g.model},
                 {"model_hash", g.hash},         {"frame_dt", g.frame_dt}, {"seconds", g.seconds},
                 {"nodes", g.nodes},             {"samples", samples}};
    if (g.version >= 2) {
        root["horizon"] = g.horizon;
        root["structure"] = json::parse(g.structure);
    }
    // A model path that is not UTF-8 is kept with U+FFFD (nlohmann would throw).
    return root.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

void check_golden_work(const Model& model, float frame_dt, std::uint64_t last_frame, const std::string& name) {
    const std::uint64_t per_frame = substeps_per_frame(frame_dt, model.params.max_substep);
    std::uint64_t total = 0;
    const bool overflow = __builtin_mul_overflow(last_frame, per_frame, &total);
    if (overflow || total > kMaxGoldenSubsteps) {
        char dt[64];
        std::snprintf(dt, sizeof dt, "%.6g s with max_substep %.6g s", static_cast<double>(frame_dt),
                      static_cast<double>(model.params.max_substep));
        throw Error(name + ": " + std::to_string(last_frame) + " frames of " + std::to_string(per_frame) +
                    " substeps each (frame time " + dt + ") are " +
                    (overflow ? std::string("more than 2^64") : std::to_string(total)) +
                    " substeps to simulate, more than the limit of " + std::to_string(kMaxGoldenSubsteps));
    }
}

}  // namespace springkit::cli
