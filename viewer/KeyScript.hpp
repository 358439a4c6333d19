#pragma once
// A key sequence given on the command line (--keys WWDD{Home}), played through the same GLFW
// key callback a person's key presses go through, each key held for a fixed number of frames.
#include <string>
#include <vector>

struct GLFWwindow;

namespace marey {

class KeyScript {
public:
    // Letters and digits are keys; {Home}, {End}, {Enter}, {Esc}, {Shift} name the others, and
    // {Ctrl+O} holds Ctrl around a key; text in double quotes ("/tmp/a.json") is typed as
    // characters, as into a text box.
    // Returns false with 'error' set for an unknown name.
    bool Parse(const std::string& text, std::string* error);
    // Advances one frame: presses or releases keys. Returns true while keys remain.
    bool Step(GLFWwindow* window);
    bool Empty() const { return m_keys.empty(); }

    static constexpr int kHoldFrames = 6;  // 0.1 s at the scripted 60 frames per second

private:
    struct Press {
        int key;  // GLFW_KEY_UNKNOWN: a typed character
        bool withCtrl;
        unsigned character = 0;
    };
    std::vector<Press> m_keys;
    size_t m_next = 0;
    int m_frame = 0;
};

}  // namespace marey
