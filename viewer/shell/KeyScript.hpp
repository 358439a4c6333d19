#pragma once
// A key sequence given on the command line (--keys WWDD{Home}), played through the same GLFW
// key callback a person's key presses go through, each key held for a fixed number of frames.
#include <string>
#include <vector>

struct GLFWwindow;
struct ImGuiIO;

namespace marey {

class KeyScript {
public:
    // Letters and digits are keys; {Home}, {End}, {Enter}, {Esc}, {Shift} name the others, and
    // {Ctrl+O} holds Ctrl around a key; text in double quotes ("/tmp/a.json") is typed as
    // characters, as into a text box.
    // {Click X,Y} and {DoubleClick X,Y} press the left mouse button at window pixel (X, Y).
    // Returns false with 'error' set for an unknown name.
    bool Parse(const std::string& text, std::string* error);
    // Advances one frame: presses or releases keys. Returns true while keys remain.
    bool Step(GLFWwindow* window);
    bool Empty() const { return m_keys.empty(); }
    // The scripted mouse of this frame, set after the backend's (which polls the real pointer):
    // at the click's place while it plays, else off the window (no hover).
    void ApplyMouse(ImGuiIO& io) const;

    static constexpr int kHoldFrames = 6;  // 0.1 s at the scripted 60 frames per second

private:
    struct Press {
        int key;  // GLFW_KEY_UNKNOWN: a typed character
        bool withCtrl;
        unsigned character = 0;
        int clicks = 0;  // a mouse press: 1 or 2 clicks at (x, y)
        float x = 0, y = 0;
    };
    bool ParseClick(const std::string& name, std::string* error);
    std::vector<Press> m_keys;
    size_t m_next = 0;
    int m_frame = 0;
    bool m_mouseShown = false, m_mouseDown = false;
    float m_mouseX = 0, m_mouseY = 0;
};

}  // namespace marey
