#include "shell/KeyReleaseHold.hpp"

#include <GLFW/glfw3.h>

#include <utility>

namespace marey {

bool KeyReleaseHold::Hold(int key, int scancode, int action, int mods) {
    if (action == GLFW_PRESS) m_pressedThisFrame = true;
    if (action != GLFW_RELEASE || !m_pressedThisFrame) return false;
    m_held.push_back({key, scancode, mods});
    return true;
}

std::vector<KeyRelease> KeyReleaseHold::StartFrame() {
    m_pressedThisFrame = false;
    return std::exchange(m_held, {});
}

}  // namespace marey
