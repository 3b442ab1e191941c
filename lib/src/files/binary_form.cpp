// springkit — the binary model file (docs/FILE_FORMAT.md, "Binary form"): the
// model's JSON without its big arrays as a header, then the arrays raw,
// little-endian, read in bulk and validated like a JSON file.
#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>

#include "springkit/error.hpp"
#include "springkit/io.hpp"
#include "files/json_reader.hpp"
#include "files/json_writer.hpp"
#include "files/byte_order.hpp"

namespace springkit {

namespace {

constexpr std::uint32_t kBinaryVersion = 1;
constexpr std::uint64_t kHasK = 1, kHasKind = 2, kHasRole = 4;  // spring flags

// The fixed part after the magic: version, header length, then six counts.
struct Counts {
    std::uint64_t nodes = 0, masses = 0, springs = 0, spring_flags = 0, faces = 0, texcoords = 0;
};

using detail::byte_swapped;

// Writes little-endian values into a buffer sized up front (one allocation,
// no copies as it grows: a million-spring model is some 50 MB).
class Out {
public:
    Out(char* data, std::size_t size) : data_(data), size_(size) {}
    template <class T>
    void put(T v) {
        if constexpr (std::endian::native == std::endian::big) v = byte_swapped(v);
        std::memcpy(data_ + at_, &v, sizeof v);
        at_ += sizeof v;
    }
    /// `count` values, `value(i)` each.
    template <class T, class F>
    void put_each(std::size_t count, F value) {
        if constexpr (std::endian::native == std::endian::little) {
            char* out = data_ + at_;
            for (std::size_t i = 0; i < count; ++i, out += sizeof(T)) {
                const T v = value(i);
                std::memcpy(out, &v, sizeof v);
            }
            at_ += count * sizeof(T);
        } else {
            for (std::size_t i = 0; i < count; ++i) put(T(value(i)));
        }
    }
    template <class T>
    void put_array(const T* values, std::size_t count) {
        if (count == 0) return;
        if constexpr (std::endian::native == std::endian::little) {
            std::memcpy(data_ + at_, values, count * sizeof(T));
            at_ += count * sizeof(T);
        } else {
            for (std::size_t i = 0; i < count; ++i) put(values[i]);
        }
    }
    void raw(std::string_view s) {
        std::memcpy(data_ + at_, s.data(), s.size());
        at_ += s.size();
    }
    void pad_to(std::size_t alignment) {
        const std::size_t n = padding(at_, alignment);
        std::memset(data_ + at_, 0, n);
        at_ += n;
    }
    static std::size_t padding(std::size_t at, std::size_t alignment) { return (alignment - at % alignment) % alignment; }
    void finish() const {
        if (at_ != size_) throw Error("binary writer: wrote " + std::to_string(at_) + " of " + std::to_string(size_) + " bytes");
    }

private:
    char* data_;
    std::size_t size_;
    std::size_t at_ = 0;
};

// Reads little-endian values; every read is bounds-checked and a short file is
// a one-line error naming what was being read.

// The little-endian T at p.
template <class T>
T load(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::big) v = byte_swapped(v);
    return v;
}

class In {
public:
    In(std::string_view bytes, const std::string& name) : bytes_(bytes), name_(name) {}

    [[noreturn]] void fail(const std::string& what) const { throw Error(name_ + ": " + what); }
    std::size_t offset() const { return at_; }
    std::size_t left() const { return bytes_.size() - at_; }

    void need(std::uint64_t count, std::uint64_t size, const char* what) const {
        if (count > left() / size)
            fail("truncated binary model: " + std::string(what) + " needs " + std::to_string(count) + " x " +
                 std::to_string(size) + " bytes at offset " + std::to_string(at_) + ", the file has " +
                 std::to_string(left()) + " left");
    }
    template <class T>
    T get(const char* what) {
        need(1, sizeof(T), what);
        T v;
        std::memcpy(&v, bytes_.data() + at_, sizeof v);
        at_ += sizeof v;
        if constexpr (std::endian::native == std::endian::big) v = byte_swapped(v);
        return v;
    }
    template <class T>
    void get_array(T* out, std::size_t count, const char* what) {
        need(count, sizeof(T), what);
        if (count == 0) return;
        std::memcpy(out, bytes_.data() + at_, count * sizeof(T));
        at_ += count * sizeof(T);
        if constexpr (std::endian::native == std::endian::big)
            for (std::size_t i = 0; i < count; ++i) out[i] = byte_swapped(out[i]);
    }
    std::string_view take(std::uint64_t count, const char* what) {
        need(count, 1, what);
        const std::string_view s = bytes_.substr(at_, count);
        at_ += count;
        return s;
    }
    void skip_to(std::size_t alignment, const char* what) {
        const std::size_t padding = (alignment - at_ % alignment) % alignment;
        take(padding, what);
    }

private:
    std::string_view bytes_;
    const std::string& name_;
    std::size_t at_ = 0;
};

}  // namespace

std::string model_to_binary(const Model& model) { return model_to_binary(model, Check::validate); }

std::string model_to_binary(const Model& model, Check check) {
    std::string bytes;
    model_to_binary(model, check, [&bytes](std::size_t size) {
        bytes.resize(size);
        return bytes.data();
    });
    return bytes;
}

void model_to_binary(const Model& model, Check check, const std::function<char*(std::size_t)>& place) {
    if (check == Check::validate) validate(model);
    const std::string header = detail::model_to_json(model, false);
    const std::size_t s = model.springs.size();
    const bool has_k = std::any_of(model.springs.begin(), model.springs.end(), [](const Spring& x) { return x.k != 0.0f; });
    const bool has_kind = std::any_of(model.springs.begin(), model.springs.end(),
                                      [](const Spring& x) { return x.kind != SpringKind::hooke; });
    const bool has_role = std::any_of(model.springs.begin(), model.springs.end(),
                                      [](const Spring& x) { return x.role != SpringRole::unspecified; });
    static_assert(sizeof(Vec3) == 12 && sizeof(TexCoord) == 8 && sizeof(Face) == 24);
    std::size_t size = sizeof kBinaryMagic + 8 + header.size();
    size += Out::padding(size, 8) + 6 * 8 + 12 * model.positions.size() + 4 * model.masses.size() + 12 * s +
            (has_k ? 4 * s : 0);
    if (has_kind) size += s + Out::padding(size + s, 4);
    if (has_role) size += s + Out::padding(size + s, 4);
    size += 24 * model.faces.size() + 8 * model.texcoords.size();
    Out out(place(size), size);
    out.raw(std::string_view(kBinaryMagic, sizeof kBinaryMagic));
    out.put(kBinaryVersion);
    out.put(static_cast<std::uint32_t>(header.size()));
    out.raw(header);
    out.pad_to(8);
    out.put(std::uint64_t{model.positions.size()});
    out.put(std::uint64_t{model.masses.size()});
    out.put(std::uint64_t{s});
    out.put(std::uint64_t{(has_k ? kHasK : 0) | (has_kind ? kHasKind : 0) | (has_role ? kHasRole : 0)});
    out.put(std::uint64_t{model.faces.size()});
    out.put(std::uint64_t{model.texcoords.size()});
    out.put_array(reinterpret_cast<const float*>(model.positions.data()), 3 * model.positions.size());
    out.put_array(model.masses.data(), model.masses.size());
    const Spring* springs = model.springs.data();
    out.put_each<std::uint32_t>(2 * s, [&](std::size_t i) { return i % 2 == 0 ? springs[i / 2].a : springs[i / 2].b; });
    out.put_each<float>(s, [&](std::size_t i) { return springs[i].rest; });
    if (has_k) out.put_each<float>(s, [&](std::size_t i) { return springs[i].k; });
    if (has_kind) {
        out.put_each<std::uint8_t>(s, [&](std::size_t i) { return static_cast<std::uint8_t>(springs[i].kind); });
        out.pad_to(4);
    }
    if (has_role) {
        out.put_each<std::uint8_t>(s, [&](std::size_t i) { return static_cast<std::uint8_t>(springs[i].role); });
        out.pad_to(4);
    }
    out.put_array(reinterpret_cast<const std::uint32_t*>(model.faces.data()), 6 * model.faces.size());
    out.put_array(reinterpret_cast<const float*>(model.texcoords.data()), 2 * model.texcoords.size());
    out.finish();
}

Model model_from_binary(std::string_view bytes, const std::string& name) {
    In in(bytes, name);
    if (bytes.size() < sizeof kBinaryMagic || std::memcmp(bytes.data(), kBinaryMagic, sizeof kBinaryMagic) != 0)
        in.fail("not a springkit binary model (it does not start with \"SPRINGKB\")");
    in.take(sizeof kBinaryMagic, "the magic");
    const auto version = in.get<std::uint32_t>("the binary layout version");
    if (version > kBinaryVersion)
        in.fail("binary layout version " + std::to_string(version) + " is newer than this springkit reads (" +
                std::to_string(kBinaryVersion) + "); update springkit");
    if (version < 1) in.fail("invalid binary layout version " + std::to_string(version));
    const auto header_size = in.get<std::uint32_t>("the header length");
    const std::string_view header = in.take(header_size, "the JSON header");
    Model m = detail::model_from_json(header, name + " (JSON header)", false);
    if (!m.positions.empty() || !m.springs.empty() || !m.faces.empty() || !m.texcoords.empty() || !m.masses.empty())
        in.fail("the JSON header must leave positions, masses, springs, faces and texcoords empty");
    in.skip_to(8, "the padding after the header");
    Counts c;
    c.nodes = in.get<std::uint64_t>("the node count");
    c.masses = in.get<std::uint64_t>("the mass count");
    c.springs = in.get<std::uint64_t>("the spring count");
    c.spring_flags = in.get<std::uint64_t>("the spring flags");
    c.faces = in.get<std::uint64_t>("the face count");
    c.texcoords = in.get<std::uint64_t>("the texcoord count");
    if (c.masses != 0 && c.masses != c.nodes)
        in.fail("has " + std::to_string(c.masses) + " masses for " + std::to_string(c.nodes) + " nodes");
    if (c.spring_flags > (kHasK | kHasKind | kHasRole)) in.fail("unknown spring flags " + std::to_string(c.spring_flags));
    // Every count is checked against the bytes left before anything is allocated.
    in.need(c.nodes, 12, "positions");
    m.positions.resize(c.nodes);
    in.get_array(reinterpret_cast<float*>(m.positions.data()), 3 * c.nodes, "positions");
    in.need(c.masses, 4, "masses");
    m.masses.resize(c.masses);
    in.get_array(m.masses.data(), c.masses, "masses");
    // The springs' arrays decoded straight from the bytes into the springs.
    in.need(c.springs, 8, "spring pairs");
    const char* pairs = in.take(8 * c.springs, "spring pairs").data();
    in.need(c.springs, 4, "spring rest lengths");
    const char* rests = in.take(4 * c.springs, "spring rest lengths").data();
    m.springs.resize(c.springs);
    for (std::size_t i = 0; i < c.springs; ++i) {
        Spring& s = m.springs[i];
        s.a = load<std::uint32_t>(pairs + 8 * i);
        s.b = load<std::uint32_t>(pairs + 8 * i + 4);
        s.rest = load<float>(rests + 4 * i);
    }
    if (c.spring_flags & kHasK) {
        in.need(c.springs, 4, "spring stiffnesses");
        const char* ks = in.take(4 * c.springs, "spring stiffnesses").data();
        for (std::size_t i = 0; i < c.springs; ++i) m.springs[i].k = load<float>(ks + 4 * i);
    }
    if (c.spring_flags & kHasKind) {
        const std::string_view kinds = in.take(c.springs, "spring kinds");
        for (std::size_t i = 0; i < c.springs; ++i) {
            const auto kind = static_cast<unsigned char>(kinds[i]);
            if (kind > 1)
                in.fail("spring " + std::to_string(i) + ": kind " + std::to_string(kind) +
                        " (expected 0, Hooke spring, or 1, rope constraint)");
            m.springs[i].kind = static_cast<SpringKind>(kind);
        }
        in.skip_to(4, "the padding after the spring kinds");
    }
    if (c.spring_flags & kHasRole) {
        const std::string_view roles = in.take(c.springs, "spring roles");
        for (std::size_t i = 0; i < c.springs; ++i) {
            const auto role = static_cast<unsigned char>(roles[i]);
            if (role > kMaxSpringRole)
                in.fail("spring " + std::to_string(i) + ": role " + std::to_string(role) + " (expected 0 to " +
                        std::to_string(kMaxSpringRole) + ")");
            m.springs[i].role = static_cast<SpringRole>(role);
        }
        in.skip_to(4, "the padding after the spring roles");
    }
    in.need(c.faces, 24, "faces");
    m.faces.resize(c.faces);
    in.get_array(reinterpret_cast<std::uint32_t*>(m.faces.data()), 6 * c.faces, "faces");
    in.need(c.texcoords, 8, "texcoords");
    m.texcoords.resize(c.texcoords);
    in.get_array(reinterpret_cast<float*>(m.texcoords.data()), 2 * c.texcoords, "texcoords");
    if (in.left() != 0)
        in.fail(std::to_string(in.left()) + " unexpected bytes after the arrays (at offset " +
                std::to_string(in.offset()) + ")");
    validate(m, name);
    return m;
}

}  // namespace springkit
