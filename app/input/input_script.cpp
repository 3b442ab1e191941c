// springkit-editor — parsing input scripts (input_script.hpp).
#include "input/input_script.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cctype>
#include <cmath>
#include <charconv>
#include <sstream>
#include <utility>

#include "springkit/error.hpp"
#include "springkit/io.hpp"

namespace springkit::editor {

namespace {

struct KeyName {
    std::string_view name;
    int code;
};
constexpr KeyName kKeys[] = {
    {"space", GLFW_KEY_SPACE},         {"period", GLFW_KEY_PERIOD},
    {"comma", GLFW_KEY_COMMA},         {"minus", GLFW_KEY_MINUS},
    {"equal", GLFW_KEY_EQUAL},         {"[", GLFW_KEY_LEFT_BRACKET},
    {"]", GLFW_KEY_RIGHT_BRACKET},     {"enter", GLFW_KEY_ENTER},
    {"escape", GLFW_KEY_ESCAPE},       {"tab", GLFW_KEY_TAB},
    {"backspace", GLFW_KEY_BACKSPACE}, {"delete", GLFW_KEY_DELETE},
    {"insert", GLFW_KEY_INSERT},       {"home", GLFW_KEY_HOME},
    {"end", GLFW_KEY_END},             {"pageup", GLFW_KEY_PAGE_UP},
    {"pagedown", GLFW_KEY_PAGE_DOWN},  {"left", GLFW_KEY_LEFT},
    {"right", GLFW_KEY_RIGHT},         {"up", GLFW_KEY_UP},
    {"down", GLFW_KEY_DOWN},           {"ctrl", GLFW_KEY_LEFT_CONTROL},
    {"shift", GLFW_KEY_LEFT_SHIFT},    {"alt", GLFW_KEY_LEFT_ALT},
    {"super", GLFW_KEY_LEFT_SUPER},
};

// The modifier bit a key sets while held (GLFW_MOD_*), 0 for other keys.
int modifier_bit(int code) {
    switch (code) {
        case GLFW_KEY_LEFT_CONTROL: return GLFW_MOD_CONTROL;
        case GLFW_KEY_LEFT_SHIFT: return GLFW_MOD_SHIFT;
        case GLFW_KEY_LEFT_ALT: return GLFW_MOD_ALT;
        case GLFW_KEY_LEFT_SUPER: return GLFW_MOD_SUPER;
        default: return 0;
    }
}

class Parser {
public:
    explicit Parser(std::string file) : file_(std::move(file)) {}

    void line(int number, std::string_view text) {
        line_ = number;
        words_.clear();
        std::istringstream in{std::string(text)};
        for (std::string w; in >> w;) words_.push_back(w);
        if (words_.empty() || words_[0].starts_with('#')) return;
        const std::string& command = words_[0];
        if (command == "wait") {
            arguments(1, 1);
            frame_ += count(1);
        } else if (command == "move") {
            arguments(2, 2);
            cursor(number_at(1), number_at(2));
        } else if (command == "press" || command == "release") {
            arguments(1, 3);
            if (words_.size() == 4) cursor(number_at(2), number_at(3));
            else if (words_.size() != 2) fail("takes a button, optionally followed by X Y");
            button(button_at(1), command == "press");
        } else if (command == "click") {
            arguments(1, 3);
            if (words_.size() == 4) cursor(number_at(2), number_at(3));
            else if (words_.size() != 2) fail("takes a button, optionally followed by X Y");
            const int b = button_at(1);
            button(b, true);
            ++frame_;
            button(b, false);
            ++frame_;
        } else if (command == "drag") {
            arguments(5, 6);
            const int b = button_at(1);
            const float x0 = number_at(2), y0 = number_at(3), x1 = number_at(4), y1 = number_at(5);
            const int steps = words_.size() == 7 ? count(6) : 10;
            if (steps < 1) fail("needs at least 1 frame to move");
            cursor(x0, y0);
            button(b, true);
            for (int i = 1; i <= steps; ++i) {
                ++frame_;
                const float t = static_cast<float>(i) / static_cast<float>(steps);
                cursor(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t);
            }
            ++frame_;
            button(b, false);
            ++frame_;
        } else if (command == "wheel") {
            arguments(1, 1);
            InputEvent e = event(InputEvent::Kind::scroll);
            e.y = number_at(1);
            push(std::move(e));
        } else if (command == "key") {
            arguments(1, 1);
            chord(words_[1]);
        } else if (command == "keydown" || command == "keyup") {
            arguments(1, 1);
            key(key_at(1), command == "keydown");
        } else if (command == "type") {
            // The rest of the line as typed, one character per frame (as fast as a
            // quick typist at 60 frames a second), spaces inside kept.
            const std::size_t start = text.find("type") + 4;
            std::string_view typed = text.substr(start);
            while (!typed.empty() && std::isspace(static_cast<unsigned char>(typed.front()))) typed.remove_prefix(1);
            while (!typed.empty() && std::isspace(static_cast<unsigned char>(typed.back()))) typed.remove_suffix(1);
            if (typed.empty()) fail("needs the text to type");
            for (const char c : typed) {
                if (static_cast<unsigned char>(c) >= 0x80) fail("types ASCII only");
                InputEvent e = event(InputEvent::Kind::character);
                e.code = static_cast<unsigned char>(c);
                push(std::move(e));
                ++frame_;
            }
        } else if (command == "screenshot") {
            arguments(1, 1);
            InputEvent e = event(InputEvent::Kind::screenshot);
            e.path = words_[1];
            push(std::move(e));
        } else {
            fail("unknown command '" + command +
                 "' (wait, move, press, release, click, drag, wheel, key, keydown, keyup, type, screenshot)");
        }
    }

    InputScript finish() {
        script_.frames = frame_ + 1;
        return std::move(script_);
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(file_ + ":" + std::to_string(line_) + ": " + words_[0] + ": " + what);
    }
    void arguments(std::size_t least, std::size_t most) const {
        const std::size_t n = words_.size() - 1;
        if (n < least || n > most)
            fail("takes " + (least == most ? std::to_string(least) : std::to_string(least) + " to " + std::to_string(most)) +
                 " argument(s), not " + std::to_string(n));
    }
    float number_at(std::size_t i) const {
        const std::string& w = words_[i];
        float v = 0;
        const auto [end, error] = std::from_chars(w.data(), w.data() + w.size(), v);
        if (error != std::errc{} || end != w.data() + w.size() || !std::isfinite(v))
            fail("'" + w + "' is not a number");
        return v;
    }
    int count(std::size_t i) const {
        const std::string& w = words_[i];
        int v = 0;
        const auto [end, error] = std::from_chars(w.data(), w.data() + w.size(), v);
        if (error != std::errc{} || end != w.data() + w.size() || v < 0 || v > 1'000'000)
            fail("'" + w + "' is not a frame count (0 to 1000000)");
        return v;
    }
    int button_at(std::size_t i) const {
        const std::string& w = words_[i];
        if (w == "left") return GLFW_MOUSE_BUTTON_LEFT;
        if (w == "right") return GLFW_MOUSE_BUTTON_RIGHT;
        if (w == "middle") return GLFW_MOUSE_BUTTON_MIDDLE;
        fail("unknown button '" + w + "' (left, right, middle)");
    }
    int key_at(std::size_t i) const {
        const int code = input_key_code(words_[i]);
        if (code < 0) fail("unknown key '" + words_[i] + "'");
        return code;
    }

    InputEvent event(InputEvent::Kind kind) const {
        InputEvent e;
        e.kind = kind;
        e.frame = frame_;
        e.mods = mods_;
        return e;
    }
    void push(InputEvent e) { script_.events.push_back(std::move(e)); }
    void cursor(float x, float y) {
        InputEvent e = event(InputEvent::Kind::cursor);
        e.x = x;
        e.y = y;
        push(std::move(e));
    }
    void button(int code, bool down) {
        InputEvent e = event(InputEvent::Kind::button);
        e.code = code;
        e.down = down;
        push(std::move(e));
    }
    void key(int code, bool down) {
        // GLFW reports a modifier key's own press without its bit, and its release
        // with it still set (X11 does so); the bits of other held keys always.
        InputEvent e = event(InputEvent::Kind::key);
        e.code = code;
        e.down = down;
        push(std::move(e));
        if (down) mods_ |= modifier_bit(code);
        else mods_ &= ~modifier_bit(code);
    }
    // "ctrl+shift+z": the modifiers and the key go down on this frame, all come
    // up on the next (in reverse order), and the script goes on the frame after.
    void chord(const std::string& text) {
        std::vector<int> keys;
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t plus = text.find('+', start);
            const std::string name = text.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
            const int code = input_key_code(name);
            if (code < 0) fail("unknown key '" + name + "' in '" + text + "'");
            keys.push_back(code);
            if (plus == std::string::npos) break;
            start = plus + 1;
        }
        for (int code : keys) key(code, true);
        ++frame_;
        for (auto k = keys.rbegin(); k != keys.rend(); ++k) key(*k, false);
        ++frame_;
    }

    std::string file_;
    int line_ = 0;
    std::vector<std::string> words_;
    int frame_ = 0;
    int mods_ = 0;
    InputScript script_;
};

}  // namespace

int input_key_code(std::string_view name) {
    if (name.size() == 1) {
        const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
        if (c >= 'a' && c <= 'z') return GLFW_KEY_A + (c - 'a');
        if (c >= '0' && c <= '9') return GLFW_KEY_0 + (c - '0');
    }
    if (name.size() >= 2 && (name[0] == 'f' || name[0] == 'F')) {
        int n = 0;
        const auto [end, error] = std::from_chars(name.data() + 1, name.data() + name.size(), n);
        if (error == std::errc{} && end == name.data() + name.size() && n >= 1 && n <= 12) return GLFW_KEY_F1 + n - 1;
    }
    for (const KeyName& k : kKeys)
        if (k.name == name) return k.code;
    return -1;
}

InputScript parse_input_script(std::string_view text, const std::string& file_name) {
    Parser parser(file_name);
    int number = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        parser.line(++number, line);
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return parser.finish();
}

InputScript load_input_script(const std::filesystem::path& path) {
    return parse_input_script(read_file(path), path.string());
}

}  // namespace springkit::editor
