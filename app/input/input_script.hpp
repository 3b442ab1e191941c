// springkit-editor — recorded input: a small text script of mouse moves, clicks,
// drags, wheel turns and keys, each placed on a frame, that `springkit-editor
// --input-script FILE` replays through the window's GLFW callbacks. Tests drive
// the real editor with it; people can record a bug with it. The format is in
// docs/EDITOR.md ("Input scripts"). Plain C++: parsing needs no window.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace springkit::editor {

/// One input event on one frame. Keys and buttons use GLFW's codes.
struct InputEvent {
    enum class Kind : std::uint8_t {
        cursor,      ///< the cursor moves to (x, y), window pixels, y down
        button,      ///< mouse button `code` goes down (`down`) or up
        scroll,      ///< wheel: y steps (positive: away from the person, zooms in)
        key,         ///< key `code` goes down or up, with modifier bits `mods`
        character,   ///< text typed: Unicode `code`
        screenshot,  ///< write this frame to the PNG `path` once it is drawn
    };
    Kind kind = Kind::cursor;
    int frame = 0;  ///< 0-based frame whose input this is
    float x = 0, y = 0;
    int code = 0;
    int mods = 0;
    bool down = false;
    std::string path;
};

struct InputScript {
    std::vector<InputEvent> events;  ///< in the order they happen, frames ascending
    int frames = 0;                  ///< frames the script needs (its last event's frame + 1)
};

/// Parses a script. Throws springkit::Error "FILE:LINE: ..." naming what is wrong
/// (an unknown command, key or button, a missing or bad number).
InputScript parse_input_script(std::string_view text, const std::string& file_name);
/// Reads and parses a script file; throws springkit::Error when it cannot be read.
InputScript load_input_script(const std::filesystem::path& path);

/// GLFW's key code for a key name of the script ("a", "f1", "enter", "ctrl"...);
/// -1 for an unknown name.
int input_key_code(std::string_view name);

}  // namespace springkit::editor
