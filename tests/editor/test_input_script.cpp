// Input scripts (app/input/input_script.hpp): what each command expands to, on
// which frame, and the errors a bad script gets.
#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <string>

#include "input/input_script.hpp"
#include "springkit/error.hpp"

using namespace springkit;
using namespace springkit::editor;
using Kind = InputEvent::Kind;

namespace {

std::string error_of(const std::string& text) {
    try {
        parse_input_script(text, "s.txt");
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST(InputScript, clickPressesOnOneFrameAndReleasesOnTheNext) {
    const InputScript s = parse_input_script("wait 3\nclick left 10 20.5\nwheel -2\n", "s.txt");
    ASSERT_EQ(s.events.size(), 4u);
    EXPECT_EQ(s.events[0].kind, Kind::cursor);
    EXPECT_EQ(s.events[0].frame, 3);
    EXPECT_EQ(s.events[0].x, 10.0f);
    EXPECT_EQ(s.events[0].y, 20.5f);
    EXPECT_EQ(s.events[1].kind, Kind::button);
    EXPECT_EQ(s.events[1].code, GLFW_MOUSE_BUTTON_LEFT);
    EXPECT_TRUE(s.events[1].down);
    EXPECT_EQ(s.events[1].frame, 3);
    EXPECT_FALSE(s.events[2].down);
    EXPECT_EQ(s.events[2].frame, 4);
    EXPECT_EQ(s.events[3].kind, Kind::scroll);
    EXPECT_EQ(s.events[3].y, -2.0f);
    EXPECT_EQ(s.events[3].frame, 5);
    EXPECT_EQ(s.frames, 6);
}

TEST(InputScript, dragMovesInEqualStepsBetweenPressAndRelease) {
    const InputScript s = parse_input_script("drag right 0 0 100 50 4", "s.txt");
    // cursor + press on frame 0, four moves on frames 1-4, release on frame 5.
    ASSERT_EQ(s.events.size(), 7u);
    EXPECT_EQ(s.events[1].code, GLFW_MOUSE_BUTTON_RIGHT);
    EXPECT_EQ(s.events[3].frame, 2);
    EXPECT_EQ(s.events[3].x, 50.0f);
    EXPECT_EQ(s.events[3].y, 25.0f);
    EXPECT_EQ(s.events[5].x, 100.0f);
    EXPECT_EQ(s.events[6].frame, 5);
    EXPECT_FALSE(s.events[6].down);
    EXPECT_EQ(s.frames, 7);
}

TEST(InputScript, chordsHoldTheirModifiersAndTypingTakesAFramePerCharacter) {
    const InputScript s = parse_input_script("key ctrl+shift+Z\ntype 5e4\nscreenshot out.png\n", "s.txt");
    ASSERT_EQ(s.events.size(), 6u + 3u + 1u);
    EXPECT_EQ(s.events[0].code, GLFW_KEY_LEFT_CONTROL);
    EXPECT_EQ(s.events[2].code, GLFW_KEY_Z);
    EXPECT_EQ(s.events[2].mods, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT);
    EXPECT_TRUE(s.events[2].down);
    EXPECT_EQ(s.events[3].code, GLFW_KEY_Z);  // released first, on the next frame
    EXPECT_FALSE(s.events[3].down);
    EXPECT_EQ(s.events[3].frame, 1);
    EXPECT_EQ(s.events[5].code, GLFW_KEY_LEFT_CONTROL);
    EXPECT_EQ(s.events[6].kind, Kind::character);
    EXPECT_EQ(s.events[6].code, '5');
    EXPECT_EQ(s.events[6].frame, 2);
    EXPECT_EQ(s.events[8].code, '4');
    EXPECT_EQ(s.events[8].frame, 4);
    EXPECT_EQ(s.events[9].kind, Kind::screenshot);
    EXPECT_EQ(s.events[9].path, "out.png");
    EXPECT_EQ(s.events[9].frame, 5);
}

TEST(InputScript, keyNames) {
    EXPECT_EQ(input_key_code("a"), GLFW_KEY_A);
    EXPECT_EQ(input_key_code("7"), GLFW_KEY_7);
    EXPECT_EQ(input_key_code("f1"), GLFW_KEY_F1);
    EXPECT_EQ(input_key_code("F12"), GLFW_KEY_F12);
    EXPECT_EQ(input_key_code("enter"), GLFW_KEY_ENTER);
    EXPECT_EQ(input_key_code("f13"), -1);
    EXPECT_EQ(input_key_code("hyper"), -1);
}

TEST(InputScript, badLinesNameFileLineAndProblem) {
    EXPECT_EQ(error_of("wait 1\n# fine\njump 3"),
              "s.txt:3: jump: unknown command 'jump' (wait, move, press, release, click, drag, wheel, key, keydown, "
              "keyup, type, screenshot)");
    EXPECT_EQ(error_of("click thumb"), "s.txt:1: click: unknown button 'thumb' (left, right, middle)");
    EXPECT_EQ(error_of("move 10"), "s.txt:1: move: takes 2 argument(s), not 1");
    EXPECT_EQ(error_of("move 10 x"), "s.txt:1: move: 'x' is not a number");
    EXPECT_EQ(error_of("wait -1"), "s.txt:1: wait: '-1' is not a frame count (0 to 1000000)");
    EXPECT_EQ(error_of("key ctrl+hyper"), "s.txt:1: key: unknown key 'hyper' in 'ctrl+hyper'");
    EXPECT_EQ(error_of("drag left 0 0 1 1 0"), "s.txt:1: drag: needs at least 1 frame to move");
    EXPECT_EQ(error_of("type   "), "s.txt:1: type: needs the text to type");
}
