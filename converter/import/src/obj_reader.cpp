// springkit's own reader for plain OBJ files (see read_plain_obj in
// import_internal.hpp).
//
// Why: a converted mesh is mostly an OBJ, and Assimp's OBJ importer spends most
// of a convert's time (docs/PERFORMANCE.md, "d"): it allocates a small array
// per face, a vertex per face corner, and reads every number through a word
// copy. This reader makes one pass over the text into flat arrays. It is strict
// on purpose: a line it does not know, a token it does not expect or an index
// out of range hands the whole file back to Assimp, so the two readers never
// disagree; tests/import/test_obj_reader.cpp converts files both ways and
// compares the models byte for byte.
//
// What it reproduces of Assimp 5.2's OBJ importer (ObjFileParser.cpp and
// fast_atof.h, read as documentation):
//   - decimals: the integer part as a 64-bit integer rounded to float, plus the
//     first 15 fraction digits as an integer times 10^-digits in double, rounded
//     to float, the float sum times powf(10, exponent). That is not always the
//     float nearest the text, but it is what every Assimp import gave;
//   - indices: 1-based, negative ones relative to the elements read so far;
//   - one mesh vertex per face corner, in face order: the weld numbers distinct
//     positions by first appearance, so listing each position once, at its first
//     use by a corner, gives the same nodes in the same order (and vertices no
//     face uses are left out, as Assimp leaves them);
//   - the scene's identity node transform, which turns -0 coordinates into +0;
//   - which mesh each face goes into, in which order, with which material: that
//     follows from the o, g, usemtl and mtllib lines alone, so Assimp itself reads
//     those lines with one stand-in triangle per run of faces (import.cpp).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "import_internal.hpp"
#include "springkit/io.hpp"

namespace springkit::detail {

namespace {

constexpr std::uint32_t kUnused = 0xFFFFFFFFu;

/// Powers of ten Assimp multiplies a decimal fraction's digits by (fast_atof.h's
/// table, the same double constants).
constexpr double kFractionScale[16] = {0.0,   0.1,   0.01,   0.001,   0.0001,   0.00001,  0.000001, 0.0000001,
                                       1e-8,  1e-9,  1e-10,  1e-11,   1e-12,    1e-13,    1e-14,    1e-15};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_blank(char c) { return c == ' ' || c == '\t'; }

/// One pass over the text. Every parse function returns false for anything
/// outside the subset; the caller then gives the file to Assimp.
class PlainObjParser {
public:
    explicit PlainObjParser(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

    bool parse() {
        while (p_ < end_) {
            bool ok = false;
            switch (*p_) {
                case 'v':
                    if (is_blank(p_[1])) {
                        p_ += 1;
                        ok = position();
                    } else if ((p_[1] == 't' || p_[1] == 'n') && is_blank(p_[2])) {
                        const bool uv = p_[1] == 't';
                        p_ += 2;
                        ok = uv ? texcoord() : normal();
                    }
                    break;
                case 'f':
                    ok = is_blank(p_[1]) && (++p_, face());
                    break;
                case '#':
                case 's':
                    ok = skip_line(nullptr);
                    break;
                case 'o':
                case 'g':
                case 'u':
                case 'm':
                    ok = statement();
                    break;
                case ' ':
                case '\t':
                case '\r':
                case '\n':
                    ok = end_of_line();
                    break;
                default:
                    break;
            }
            if (!ok) return false;
        }
        // Run numbers are floats in the outline: exact below 2^24.
        return obj_.face_start.size() > 1 && indices_in_range() && obj_.run_count() < (1u << 23);
    }

    PlainObj result() {
        close_run();
        if (uv_corners_ != Corners::all) {
            obj_.texcoords.clear();
            obj_.corner_uvs.clear();
        }
        return std::move(obj_);
    }

private:
    enum class Corners { unknown, all, none };  // which corners name a UV

    // --- lines -------------------------------------------------------------

    bool position() {
        Vec3 v;
        if (!number(v.x) || !number(v.y) || !number(v.z) || !end_of_line()) return false;
        if (!is_finite(v)) return false;  // Assimp's path names the problem
        obj_.positions.push_back(v);
        return true;
    }

    bool texcoord() {
        TexCoord t;
        float w = 0.0f;
        if (!number(t.u) || !number(t.v)) return false;
        if (!at_line_end() && !number(w)) return false;
        if (!end_of_line() || !std::isfinite(t.u) || !std::isfinite(t.v) || !std::isfinite(w)) return false;
        obj_.texcoords.push_back(t);
        return true;
    }

    bool normal() {
        float x, y, z;
        if (!number(x) || !number(y) || !number(z) || !end_of_line()) return false;
        ++normal_count_;
        return true;
    }

    /// f with three or more corners: v, v/t, v//n or v/t/n, UVs on all or none.
    bool face() {
        std::size_t count = 0;
        while (true) {
            const bool blank = is_blank(*p_);
            while (is_blank(*p_)) ++p_;
            if (at_line_end()) break;
            if (!blank) return false;  // corners are separated by blanks
            std::uint32_t v = 0, t = 0, n = 0;
            if (!index(obj_.positions.size(), v)) return false;
            bool has_uv = false;
            if (*p_ == '/') {
                ++p_;
                if (*p_ != '/') {
                    // Assimp reads "v/x" as a normal when no vt came before: not ours.
                    if (obj_.texcoords.empty() || !index(obj_.texcoords.size(), t)) return false;
                    has_uv = true;
                }
                if (*p_ == '/') {
                    ++p_;
                    if (!index(normal_count_, n)) return false;
                    max_normal_ = std::max<std::size_t>(max_normal_, n + std::size_t{1});
                }
            }
            const Corners kind = has_uv ? Corners::all : Corners::none;
            if (uv_corners_ != Corners::unknown && uv_corners_ != kind) return false;
            uv_corners_ = kind;
            obj_.corners.push_back(v);
            max_position_ = std::max<std::size_t>(max_position_, v + std::size_t{1});
            if (has_uv) {
                obj_.corner_uvs.push_back(t);
                max_texcoord_ = std::max<std::size_t>(max_texcoord_, t + std::size_t{1});
            }
            ++count;
        }
        if (count < 3 || obj_.corners.size() >= 0xF0000000u) return false;
        obj_.face_start.push_back(static_cast<std::uint32_t>(obj_.corners.size()));
        return end_of_line();
    }

    /// o, g, usemtl and mtllib lines: they end a run of faces, and go into the
    /// outline for Assimp to read.
    bool statement() {
        std::string_view line;
        if (!skip_line(&line)) return false;
        const std::size_t word = line.find_first_of(" \t");
        if (word == std::string_view::npos) return false;
        const std::string_view keyword = line.substr(0, word);
        if (keyword != "o" && keyword != "g" && keyword != "usemtl" && keyword != "mtllib") return false;
        close_run();
        obj_.outline.append(line);
        obj_.outline += '\n';
        return true;
    }

    /// Ends the current run of faces, if it has any: a triangle at x = its number
    /// stands for it in the outline.
    void close_run() {
        const auto faces = static_cast<std::uint32_t>(obj_.face_start.size() - 1);
        if (faces == obj_.run_start.back()) return;
        const std::string x = std::to_string(obj_.run_count());
        obj_.outline += "v " + x + " 0 0\nv " + x + " 1 0\nv " + x + " 0 1\nf -3 -2 -1\n";
        obj_.run_start.push_back(faces);
    }

    // --- tokens ------------------------------------------------------------

    /// A comment or a statement: the line up to its end. No character that
    /// Assimp reads as a line break or continuation may hide inside it.
    bool skip_line(std::string_view* line) {
        const char* start = p_;
        const auto* eol = static_cast<const char*>(std::memchr(p_, '\n', static_cast<std::size_t>(end_ - p_)));
        const char* stop = eol != nullptr ? eol : end_;
        const char* content_end = stop > start && stop[-1] == '\r' ? stop - 1 : stop;
        for (const char* q = start; q < content_end; ++q)
            if (*q == '\0' || *q == '\\' || *q == '\f' || *q == '\r') return false;
        if (line != nullptr) *line = std::string_view(start, static_cast<std::size_t>(content_end - start));
        p_ = eol != nullptr ? eol + 1 : end_;
        return true;
    }

    bool at_line_end() const {
        const char* q = p_;
        while (is_blank(*q)) ++q;
        return q == end_ || *q == '\n' || (*q == '\r' && (q + 1 == end_ || q[1] == '\n'));
    }

    /// Blanks, then the end of the line (or of the file).
    bool end_of_line() {
        while (p_ < end_ && is_blank(*p_)) ++p_;
        if (p_ == end_) return true;
        if (*p_ == '\r') ++p_;
        if (p_ == end_) return true;
        if (*p_ != '\n') return false;
        ++p_;
        return true;
    }

    /// Blanks, then a decimal [+-]digits[.digits][(e|E)[+-]digits] (or [+-].digits),
    /// ended by a blank or the line's end; read as Assimp's fast_atoreal_move<float>.
    bool number(float& out) {
        if (!is_blank(*p_)) return false;
        while (is_blank(*p_)) ++p_;
        const char* start = p_;
        // Assimp counts a line's numbers by their first character (a digit or a
        // sign): ".5" is not one to it.
        if (*p_ == '.') return false;
        const bool negative = *p_ == '-';
        if (*p_ == '-' || *p_ == '+') ++p_;
        std::uint64_t integer = 0;
        int integer_digits = 0;
        for (; is_digit(*p_); ++p_) {
            if (++integer_digits > 19) return false;  // Assimp's overflow check would come into play
            integer = integer * 10 + static_cast<unsigned>(*p_ - '0');
        }
        float value = integer_digits > 0 ? static_cast<float>(integer) : 0.0f;
        if (*p_ == '.') {
            ++p_;
            if (!is_digit(*p_)) return false;  // "1." or "1.e5": Assimp's quirks, not ours
            std::uint64_t fraction = 0;
            unsigned digits = 0;
            for (; is_digit(*p_); ++p_)
                if (digits < 15) {  // Assimp reads 15 fraction digits and skips the rest
                    fraction = fraction * 10 + static_cast<unsigned>(*p_ - '0');
                    ++digits;
                }
            value += static_cast<float>(static_cast<double>(fraction) * kFractionScale[digits]);
        } else if (integer_digits == 0) {
            return false;
        }
        if (*p_ == 'e' || *p_ == 'E') {
            ++p_;
            const bool negative_exponent = *p_ == '-';
            if (*p_ == '-' || *p_ == '+') ++p_;
            if (!is_digit(*p_)) return false;
            std::uint64_t exponent = 0;
            for (int digits = 0; is_digit(*p_); ++p_) {
                if (++digits > 19) return false;
                exponent = exponent * 10 + static_cast<unsigned>(*p_ - '0');
            }
            float e = static_cast<float>(exponent);
            if (negative_exponent) e = -e;
            value *= std::pow(10.0f, e);
        }
        if (p_ - start > 64) return false;  // Assimp copies at most 4095 characters of a word
        out = negative ? -value : value;
        return is_blank(*p_) || *p_ == '\r' || *p_ == '\n' || p_ == end_;
    }

    /// A face index: [-]digits, no leading zero, at most 9 digits. Negative ones
    /// count back from `count` (the elements read so far).
    bool index(std::size_t count, std::uint32_t& out) {
        const bool negative = *p_ == '-';
        if (negative) ++p_;
        if (*p_ < '1' || *p_ > '9') return false;
        std::uint32_t value = 0;
        for (int digits = 0; is_digit(*p_); ++p_) {
            if (++digits > 9) return false;
            value = value * 10 + static_cast<unsigned>(*p_ - '0');
        }
        if (negative) {
            if (value > count) return false;
            out = static_cast<std::uint32_t>(count - value);
        } else {
            out = value - 1;
        }
        return *p_ == '/' || is_blank(*p_) || *p_ == '\r' || *p_ == '\n' || p_ == end_;
    }

    /// Indices may point forward; they are checked once everything is read.
    bool indices_in_range() const {
        return max_position_ <= obj_.positions.size() && max_texcoord_ <= obj_.texcoords.size() &&
               max_normal_ <= normal_count_;
    }

    const char* p_;
    const char* end_;  // *end_ is readable: the text is a std::string's, ended by '\0'

    PlainObj obj_;
    std::size_t normal_count_ = 0;
    Corners uv_corners_ = Corners::unknown;
    std::size_t max_position_ = 0, max_texcoord_ = 0, max_normal_ = 0;  // largest index + 1
};

}  // namespace

std::optional<PlainObj> read_plain_obj(const std::filesystem::path& path) {
    std::string text;
    try {
        text = read_file(path);
    } catch (const std::exception&) {
        return std::nullopt;  // Assimp reports what is wrong with the file
    }
    // A byte-order mark: Assimp's reading.
    if (text.starts_with("\xEF\xBB\xBF")) return std::nullopt;
    PlainObjParser parser(text);
    if (!parser.parse()) return std::nullopt;
    return parser.result();
}

Soup plain_obj_soup(PlainObj&& obj, const std::vector<std::uint32_t>& order) {
    Soup soup;
    const bool uvs = !obj.corner_uvs.empty();
    soup.corners.reserve(obj.corners.size());
    if (uvs) soup.corner_uvs.reserve(obj.corners.size());
    soup.polygon_start.reserve(obj.face_start.size());
    soup.positions.reserve(obj.positions.size());
    // Positions listed once each, at their first use (see the header).
    std::vector<std::uint32_t> node(obj.positions.size(), kUnused);
    for (const std::uint32_t run : order) {
        const std::uint32_t first = obj.face_start[obj.run_start[run]], last = obj.face_start[obj.run_start[run + 1]];
        for (std::uint32_t c = first; c < last; ++c) {
            std::uint32_t& n = node[obj.corners[c]];
            if (n == kUnused) {
                n = static_cast<std::uint32_t>(soup.positions.size());
                const Vec3 p = obj.positions[obj.corners[c]];
                soup.positions.push_back({p.x + 0.0f, p.y + 0.0f, p.z + 0.0f});  // -0 -> +0, as Assimp's transform
            }
            soup.corners.push_back(n);
        }
        if (uvs) soup.corner_uvs.insert(soup.corner_uvs.end(), obj.corner_uvs.begin() + first,
                                        obj.corner_uvs.begin() + last);
        for (std::uint32_t f = obj.run_start[run]; f < obj.run_start[run + 1]; ++f)
            soup.polygon_start.push_back(soup.polygon_start.back() + (obj.face_start[f + 1] - obj.face_start[f]));
    }
    if (uvs) soup.uvs = std::move(obj.texcoords);
    return soup;
}

}  // namespace springkit::detail
