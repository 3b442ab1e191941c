// springkit — the JSON reader's fast path: a direct parser for well-formed
// model files (see detail::parse_fast).
#include <charconv>
#include <cmath>
#include <limits>

#include "files/json_fast_parser.hpp"
#include "springkit/model.hpp"

namespace springkit::detail {

using nlohmann::json;

namespace {

// parse_fast (json_fast_parser.hpp): one pass over the text.
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

    // "springs": {"pairs": [...], "rest": [...], "k": [...], "kind": [...], "role": [...]}; other
    // members go to the DOM.
    bool springs(json& out, BigArrays& big) {
        return members(out, [&](const std::string& key) {
            bool read = true;
            if (key == "pairs") read = indices(big.pairs);
            else if (key == "rest") read = floats(big.rest);
            else if (key == "k") read = floats(big.k);
            else if (key == "kind") read = small_integers(big.kind, 1);
            else if (key == "role") read = small_integers(big.role, kMaxSpringRole);
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
    // Spring kinds and roles: integers from 0 to `max`.
    bool small_integers(std::optional<std::vector<std::uint8_t>>& out, std::uint8_t max) {
        return numbers(out, [&](std::uint8_t& v) {
            std::uint64_t u = 0;
            if (!unsigned_integer(u) || u > max) return false;
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

}  // namespace

bool parse_fast(std::string_view text, json& root, BigArrays& big) { return FastParser(text).parse(root, big); }

}  // namespace springkit::detail
