// springkit — the canonical JSON model file (docs/FILE_FORMAT.md,
// schema/springkit-model.schema.json) and atomic file writing.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <limits>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <random>
#include <span>
#include <sstream>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "springkit/parameters.hpp"
#include "files/io_internal.hpp"

namespace springkit {

using nlohmann::json;

// ---------------------------------------------------------------- files

std::string read_file(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw Error(path.string() + ": is a directory, not a model file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path.string() + ": cannot open for reading (" + std::strerror(errno) + ")");
    // One read into a string of the file's size (big models: no stream copies).
    std::string bytes;
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    in.seekg(0, std::ios::beg);
    if (size > 0) {
        bytes.resize(static_cast<std::size_t>(size));
        in.read(bytes.data(), size);
        if (in.gcount() != size) throw Error(path.string() + ": read failed");
    }
    std::ostringstream rest;  // anything past the size seen (a file still growing, a pipe)
    rest << in.rdbuf();
    if (in.bad()) throw Error(path.string() + ": read failed");
    bytes += std::move(rest).str();
    return bytes;
}

namespace {

constexpr std::string_view kTempPrefix = ".springkit-tmp-";

// A save killed between creating its temp file and the rename leaves the temp file
// behind (".springkit-tmp-<pid>-<random>-<counter>-<name>"). The next save of the
// same file removes those whose process is gone; a live process may still be saving.
void remove_stale_temp_files(const std::filesystem::path& dir, const std::string& name) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string file = it->path().filename().string();
        const std::string suffix = "-" + name;
        if (file.size() <= kTempPrefix.size() + suffix.size() || file.rfind(kTempPrefix, 0) != 0 ||
            file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        const std::string middle =
            file.substr(kTempPrefix.size(), file.size() - kTempPrefix.size() - suffix.size());
        const auto dash = middle.find('-');
        if (dash == std::string::npos || dash == 0 ||
            middle.find_first_not_of("0123456789-") != std::string::npos ||
            std::count(middle.begin(), middle.end(), '-') != 2)
            continue;
        const long pid = std::strtol(middle.substr(0, dash).c_str(), nullptr, 10);
        if (pid <= 0 || pid == ::getpid()) continue;
        if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) std::filesystem::remove(it->path(), ec);
    }
}

}  // namespace

PendingFile::PendingFile(const std::filesystem::path& path, std::string_view bytes)
    : PendingFile(path, std::span<const std::string_view>(&bytes, 1)) {}

PendingFile::PendingFile(const std::filesystem::path& requested, std::span<const std::string_view> parts)
    : target_(requested.string()), path_(requested) {
    const std::string& target = target_;
    std::error_code ec;
    if (std::filesystem::is_directory(requested, ec))
        throw Error(target + ": is a directory; give a file name to save to");
    // Saving through a symbolic link replaces the file it points to, not the link.
    if (std::filesystem::is_symlink(requested, ec)) {
        path_ = std::filesystem::weakly_canonical(requested, ec);
        if (ec) throw Error(target + ": cannot resolve the link (" + ec.message() + ")");
    }
    const std::filesystem::path& path = path_;
    // The temp file sits beside the target so that rename() stays on one file system.
    static std::atomic<unsigned> counter{0};
    std::random_device random;
    const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
    const std::filesystem::path temp =
        dir / (std::string(kTempPrefix) + std::to_string(::getpid()) + "-" + std::to_string(random()) + "-" +
               std::to_string(counter++) + "-" + path.filename().string());
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) throw Error(target + ": cannot write (" + std::strerror(errno) + ")");
    // The new file keeps the permissions of the one it replaces (a private file stays private).
    struct stat old_file {};
    if (::stat(path.c_str(), &old_file) == 0) ::fchmod(fd, old_file.st_mode & 07777);
    auto fail = [&](const char* what) {
        const std::string reason = std::strerror(errno);
        ::close(fd);
        ::unlink(temp.c_str());
        throw Error(target + ": " + what + " (" + reason + "); the old file is untouched");
    };
    for (const std::string_view bytes : parts) {
        std::size_t written = 0;
        while (written < bytes.size()) {
            const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
            if (n < 0) {
                if (errno == EINTR) continue;
                fail("write failed");
            }
            written += static_cast<std::size_t>(n);
        }
    }
    if (::fsync(fd) != 0) fail("flush to disk failed");
    if (::close(fd) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(temp.c_str());
        throw Error(target + ": close failed (" + reason + "); the old file is untouched");
    }
    temp_ = temp;
}

PendingFile::PendingFile(PendingFile&& other) noexcept
    : target_(std::move(other.target_)), path_(std::move(other.path_)), temp_(std::move(other.temp_)) {
    other.temp_.clear();
}

PendingFile::~PendingFile() {
    if (!temp_.empty()) ::unlink(temp_.c_str());
}

void PendingFile::commit() {
    if (temp_.empty()) throw Error(target_ + ": nothing to save (already saved)");
    const std::filesystem::path temp = std::move(temp_);
    temp_.clear();
    if (::rename(temp.c_str(), path_.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(temp.c_str());
        throw Error(target_ + ": cannot replace the file (" + reason + "); the old file is untouched");
    }
    // Make the rename itself durable.
    const std::filesystem::path dir = path_.has_parent_path() ? path_.parent_path() : ".";
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    remove_stale_temp_files(dir, path_.filename().string());
}

void write_file_atomically(const std::filesystem::path& requested, std::string_view bytes) {
    PendingFile(requested, bytes).commit();
}

// ---------------------------------------------------------------- writing

namespace {

const char* drive_name(AnchorDrive d) {
    switch (d) {
        case AnchorDrive::fixed: return "fixed";
        case AnchorDrive::velocity: return "velocity";
        case AnchorDrive::circle: return "circle";
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

/// A model's JSON text in one or two pieces (big models: written on two threads
/// and saved without joining them).
struct JsonText {
    Writer head, rest;
    std::array<std::string_view, 2> parts() const { return {head.view(), rest.view()}; }
    std::string joined() const {
        std::string text;
        text.reserve(head.view().size() + rest.view().size());
        text.append(head.view()).append(rest.view());
        return text;
    }
};

JsonText json_text(const Model& model, bool with_arrays);

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

// "parameters": one line per row of the table, in its order; a section (ground,
// gust) is one object on one line where its first row stands. The ground is null
// when there is none. The gust is written only when set, like the attachments;
// set means any field, even with period 0 (no gusts), so that what was loaded is
// saved again.
void write_parameters(Writer& w, const Parameters& p) {
    const std::span<const ParameterInfo> rows = parameter_table();
    w.raw(",\n  \"parameters\": {");
    std::string_view separator = "\n    \"";
    for (std::size_t i = 0; i < rows.size();) {
        const ParameterSection section = rows[i].section;
        std::size_t end = i + 1;
        if (section != ParameterSection::main)
            while (end < rows.size() && rows[end].section == section) ++end;
        if (section == ParameterSection::gust && p.gust == Gust{}) {
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

JsonText json_text(const Model& model, bool with_arrays) {
    // The binary form's header: the same text with the big arrays left empty.
    static const Model no_arrays{};
    const Model& arrays = with_arrays ? model : no_arrays;
    // About 17 bytes per float and 12 per index with their separators.
    const std::size_t spring_count = arrays.springs.size();
    const std::size_t rest_size = 256 + 100 * model.anchors.size() + 12 * 6 * arrays.faces.size() +
                                  17 * 2 * arrays.texcoords.size();
    JsonText text{Writer(1024 + 17 * 3 * arrays.positions.size() + 17 * arrays.masses.size() + (2 * 12 + 2 * 17 + 3) * spring_count +
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

void save_model(const Model& model, const std::filesystem::path& path) { save_model(model, path, Check::validate); }

void save_model(const Model& model, const std::filesystem::path& path, Check check) {
    std::string binary;
    JsonText text;
    std::array<std::string_view, 2> parts{};
    try {
        if (check == Check::validate) validate(model);
        if (is_binary_model_path(path)) {
            binary = model_to_binary(model, Check::already_validated);
            parts[0] = binary;
        } else {
            text = json_text(model, true);
            parts = text.parts();
        }
    } catch (const Error& e) {
        throw Error(path.string() + ": not saved: " + e.what());
    }
    PendingFile(path, parts).commit();
}

// ---------------------------------------------------------------- reading

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

// The big numeric arrays of a model file, parsed straight into typed vectors by
// FastParser (absent: the array was not in the file, or the DOM holds it).
struct BigArrays {
    std::optional<std::vector<float>> positions, masses, rest, k, texcoords;
    std::optional<std::vector<std::uint32_t>> pairs, faces;
    std::optional<std::vector<std::uint8_t>> kind;
};

// A direct parser for well-formed model files: the big arrays go straight to
// BigArrays with std::from_chars (no DOM node per number), everything else into
// a small nlohmann DOM. It accepts only plain valid JSON whose big arrays hold
// what the Reader accepts (numbers; node indices as integers in range; kinds 0
// or 1) and gives up on anything else (returns false): the caller then parses
// with nlohmann, whose messages name the problem. So both paths read the same
// model from the same text, and only valid files take the fast one.
class FastParser {
public:
    explicit FastParser(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

    bool parse(json& root, BigArrays& big) {
        skip_space();
        const bool ok = members(root, [&](const std::string& key) {
            bool read = true;
            if (key == "positions") read = floats(big.positions);
            else if (key == "masses") read = floats(big.masses);
            else if (key == "texcoords") read = floats(big.texcoords);
            else if (key == "faces") read = indices(big.faces);
            else if (key == "springs" && peek('{')) read = springs(root[key], big);
            else read = value(root[key], 0);
            if (read && big_key(key)) root[key] = json::array();  // placeholder for the Reader
            return read;
        });
        return ok && finish();
    }

private:
    static bool big_key(const std::string& key) {
        return key == "positions" || key == "masses" || key == "texcoords" || key == "faces";
    }
    bool finish() {
        skip_space();
        return p_ == end_;
    }
    void skip_space() {
        while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    }
    bool peek(char c) const { return p_ < end_ && *p_ == c; }
    bool eat(char c) {
        if (!peek(c)) return false;
        ++p_;
        return true;
    }

    // "springs": {"pairs": [...], "rest": [...], "k": [...], "kind": [...]}; other
    // members go to the DOM.
    bool springs(json& out, BigArrays& big) {
        return members(out, [&](const std::string& key) {
            bool read = true;
            if (key == "pairs") read = indices(big.pairs);
            else if (key == "rest") read = floats(big.rest);
            else if (key == "k") read = floats(big.k);
            else if (key == "kind") read = kinds(big.kind);
            else return value(out[key], 1);
            if (read) out[key] = json::array();  // placeholder for the Reader
            return read;
        });
    }

    // An object from its '{' to its '}': each member's key is read here (a key
    // given twice gives up, as nlohmann would keep only one) and its value by
    // read_value(key), which leaves the parser after the value.
    template <class ReadValue>
    bool members(json& out, ReadValue read_value) {
        if (!eat('{')) return false;
        out = json::object();
        skip_space();
        if (eat('}')) return true;
        for (;;) {
            std::string key;
            skip_space();
            if (!string(key) || out.contains(key)) return false;
            skip_space();
            if (!eat(':')) return false;
            skip_space();
            if (!read_value(key)) return false;
            skip_space();
            if (eat('}')) return true;
            if (!eat(',')) return false;
        }
    }

    // A JSON number token: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    bool number_token(const char*& begin, bool& integer) {
        begin = p_;
        integer = true;
        if (peek('-')) ++p_;
        if (peek('0')) {
            ++p_;
        } else {
            if (!(p_ < end_ && *p_ >= '1' && *p_ <= '9')) return false;
            while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
        }
        if (peek('.')) {
            integer = false;
            ++p_;
            if (!(p_ < end_ && *p_ >= '0' && *p_ <= '9')) return false;
            while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
        }
        if (peek('e') || peek('E')) {
            integer = false;
            ++p_;
            if (peek('+') || peek('-')) ++p_;
            if (!(p_ < end_ && *p_ >= '0' && *p_ <= '9')) return false;
            while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
        }
        return true;
    }

    // A number as the Reader reads it: a decimal straight to float; an integer
    // as nlohmann keeps it (64-bit), then through double to float as Reader::number.
    bool float_number(float& out) {
        const char* begin = nullptr;
        bool integer = false;
        if (!number_token(begin, integer)) return false;
        if (integer) {
            if (*begin == '-') {
                std::int64_t v = 0;
                if (std::from_chars(begin, p_, v).ec == std::errc()) {
                    out = static_cast<float>(static_cast<double>(v));
                    return true;
                }
            } else {
                std::uint64_t v = 0;
                if (std::from_chars(begin, p_, v).ec == std::errc()) {
                    out = static_cast<float>(static_cast<double>(v));
                    return true;
                }
            }
        }
        return std::from_chars(begin, p_, out).ec == std::errc();
    }

    bool unsigned_integer(std::uint64_t& out) {
        const char* begin = nullptr;
        bool integer = false;
        if (!number_token(begin, integer) || !integer || *begin == '-') return false;
        return std::from_chars(begin, p_, out).ec == std::errc();
    }

    template <class T, class Element>
    bool numbers(std::optional<std::vector<T>>& out, Element element) {
        if (!eat('[')) return false;
        std::vector<T> values;
        skip_space();
        if (eat(']')) {
            out = std::move(values);
            return true;
        }
        for (;;) {
            skip_space();
            T v{};
            if (!element(v)) return false;
            values.push_back(v);
            skip_space();
            if (eat(']')) break;
            if (!eat(',')) return false;
        }
        out = std::move(values);
        return true;
    }
    bool floats(std::optional<std::vector<float>>& out) {
        return numbers(out, [&](float& v) { return float_number(v); });
    }
    bool indices(std::optional<std::vector<std::uint32_t>>& out) {
        return numbers(out, [&](std::uint32_t& v) {
            std::uint64_t u = 0;
            if (!unsigned_integer(u) || u > 0xFFFFFFF0u) return false;
            v = static_cast<std::uint32_t>(u);
            return true;
        });
    }
    bool kinds(std::optional<std::vector<std::uint8_t>>& out) {
        return numbers(out, [&](std::uint8_t& v) {
            std::uint64_t u = 0;
            if (!unsigned_integer(u) || u > 1) return false;
            v = static_cast<std::uint8_t>(u);
            return true;
        });
    }

    // A string; with escapes or non-ASCII bytes nlohmann decodes and checks it.
    bool string(std::string& out) {
        if (!peek('"')) return false;
        const char* begin = p_++;
        bool plain = true;
        while (p_ < end_ && *p_ != '"') {
            const auto c = static_cast<unsigned char>(*p_);
            if (c < 0x20) return false;
            if (c == '\\') {
                plain = false;
                if (++p_ == end_) return false;
            } else if (c >= 0x80) {
                plain = false;
            }
            ++p_;
        }
        if (!eat('"')) return false;
        if (plain) {
            out.assign(begin + 1, p_ - 1);
            return true;
        }
        try {
            out = json::parse(begin, p_).get<std::string>();
            return true;
        } catch (const json::exception&) {
            return false;
        }
    }

    // Any other value, as nlohmann (with FloatExactDom) would store it.
    bool value(json& out, int depth) {
        if (depth > 64 || p_ == end_) return false;
        switch (*p_) {
            case '{': return members(out, [&](const std::string& key) { return value(out[key], depth + 1); });
            case '[': {
                ++p_;
                out = json::array();
                skip_space();
                if (eat(']')) return true;
                for (;;) {
                    skip_space();
                    json item;
                    if (!value(item, depth + 1)) return false;
                    out.push_back(std::move(item));
                    skip_space();
                    if (eat(']')) return true;
                    if (!eat(',')) return false;
                }
            }
            case '"': {
                std::string text;
                if (!string(text)) return false;
                out = std::move(text);
                return true;
            }
            case 't': return literal("true", true, out);
            case 'f': return literal("false", false, out);
            case 'n': return literal("null", nullptr, out);
            default: {
                const char* begin = nullptr;
                bool integer = false;
                if (!number_token(begin, integer)) return false;
                if (integer && *begin == '-') {
                    std::int64_t v = 0;
                    if (std::from_chars(begin, p_, v).ec != std::errc()) return false;
                    out = v;
                } else if (integer) {
                    std::uint64_t v = 0;
                    if (std::from_chars(begin, p_, v).ec != std::errc()) return false;
                    out = v;
                } else {
                    float f = 0.0f;
                    if (std::from_chars(begin, p_, f).ec != std::errc()) return false;
                    out = static_cast<double>(f);
                }
                return true;
            }
        }
    }
    template <class T>
    bool literal(std::string_view word, T v, json& out) {
        if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word)
            return false;
        p_ += word.size();
        out = v;
        return true;
    }

    const char* p_;
    const char* end_;
};

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
        if (v.is_null()) fail(where, "expected a number, found null (NaN and infinity are not allowed)");
        if (!v.is_number()) fail(where, std::string("expected a number, found ") + v.type_name());
        // A decimal beyond the float range would turn into infinity silently.
        const double d = v.get<double>();
        if (!std::isfinite(d) || std::abs(d) > std::numeric_limits<float>::max())
            fail(where, "number " + v.dump() + " is too large for a 32-bit float");
        return static_cast<float>(d);
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
            else fail(where, "unknown integrator \"" + name + "\" (expected explicit_euler, symplectic_euler or verlet)");
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
            if (fast_pairs) check_stride(fast_pairs->size(), "/springs/pairs", 2);
            const std::size_t count = (fast_pairs ? fast_pairs->size() : pairs.size()) / 2;
            const std::size_t rest_count = fast_rest ? fast_rest->size() : rest.size();
            if (rest_count != count)
                fail("/springs/rest", "has " + std::to_string(rest_count) + " entries for " +
                                          std::to_string(count) + " springs");
            const json* k = present(*x, "k");
            if (k && (!k->is_array() || (fast_k ? fast_k->size() : k->size()) != count))
                fail("/springs/k", "must be an array with one stiffness per spring (" + std::to_string(count) + ")");
            const json* kind = present(*x, "kind");
            if (kind && (!kind->is_array() || (fast_kind ? fast_kind->size() : kind->size()) != count))
                fail("/springs/kind", "must be an array with one kind per spring (" + std::to_string(count) + ")");
            m.springs.resize(count);
            const bool filled = fast_pairs && fast_rest && (!k || fast_k) && (!kind || fast_kind);
            if (filled) {
                for (std::size_t i = 0; i < count; ++i) {
                    Spring& s = m.springs[i];
                    s.a = (*fast_pairs)[2 * i];
                    s.b = (*fast_pairs)[2 * i + 1];
                    s.rest = (*fast_rest)[i];
                    if (fast_k) s.k = (*fast_k)[i];
                    if (fast_kind) s.kind = static_cast<SpringKind>((*fast_kind)[i]);
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
                    else fail(at + "/drive", "unknown drive \"" + name + "\" (expected fixed, velocity or circle)");
                }
                if (const json* v = present(a, "velocity")) anchor.velocity = vec(*v, at + "/velocity");
                if (const json* v = present(a, "center")) anchor.center = vec(*v, at + "/center");
                if (const json* v = present(a, "axis")) anchor.axis = vec(*v, at + "/axis");
                if (const json* v = present(a, "angular_speed"))
                    anchor.angular_speed = number(*v, at + "/angular_speed");
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

    // constant_forces, tethers, beads and tubes: all optional (absent = none).
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
    }

    std::string name_;
    const BigArrays* big_;
    bool validate_;
};

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

// Error messages quote bits of the file; keep them one printable line even when
// the file is binary garbage.
std::string printable(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (const char c : text.substr(0, 200)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f) {
            out += c;
        } else {
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 15];
        }
    }
    if (text.size() > 200) out += "...";
    return out;
}

}  // namespace

Model model_from_json(std::string_view text, const std::string& name) {
    return detail::model_from_json(text, name, true);
}

Model detail::model_from_json(std::string_view text, const std::string& name, bool validate_model) {
    {
        json root;
        BigArrays big;
        if (FastParser(text).parse(root, big)) {
            try {
                return Reader(name, &big, validate_model).model(root);
            } catch (const json::exception& e) {
                throw Error(name + ": unexpected value: " + e.what());
            }
        }
    }
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
                    ": invalid JSON: " + printable(reason));
    } catch (const json::out_of_range& e) {
        // "[json.exception.out_of_range.406] number overflow parsing '1e999'": nlohmann
        // gives no position, so find the number in the text.
        const std::string what = e.what();
        const auto quote = what.find('\'');
        const std::string token = quote == std::string::npos ? "" : what.substr(quote + 1, what.size() - quote - 2);
        const auto at = token.empty() ? std::string_view::npos : text.find(token);
        throw Error(name + ": " + (at == std::string_view::npos ? "" : line_and_column(text, at) + ": ") +
                    "invalid JSON: number " + printable(token) + " is out of range");
    } catch (const json::exception& e) {
        throw Error(name + ": invalid JSON: " + printable(e.what()));
    }
    try {
        return Reader(name, nullptr, validate_model).model(root);
    } catch (const json::exception& e) {
        throw Error(name + ": unexpected value: " + e.what());
    }
}

Model load_model(const std::filesystem::path& path) {
    if (is_binary_model_path(path)) return model_from_binary(read_file(path), path.string());
    return model_from_json(read_file(path), path.string());
}

}  // namespace springkit
