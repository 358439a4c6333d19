#pragma once
// ImGui 1.86 keeps only whether a key is down, sampled once a frame: a key pressed and released
// between two frames (a quick tap while the window waited, a tool's synthetic key) would never be
// seen down, nor would a quick chord whose Ctrl goes up before the frame that sees its 3. This
// decides which releases wait for the frame after: the release of a key pressed in this frame,
// and every release that comes in a frame where a key was pressed.
#include <vector>

namespace marey {

struct KeyRelease {
    int key, scancode, mods;
};

class KeyReleaseHold {
public:
    // A key event as GLFW gives it (GLFW_PRESS, GLFW_RELEASE, GLFW_REPEAT). True when it is a
    // release that waits: it is kept, and the caller does not pass it on.
    bool Hold(int key, int scancode, int action, int mods);
    // Before a frame: the releases held back, to pass on now; a new frame starts.
    std::vector<KeyRelease> StartFrame();
    bool Holding() const { return !m_held.empty(); }

private:
    bool m_pressedThisFrame = false;
    std::vector<KeyRelease> m_held;
};

}  // namespace marey
