#include "shell/KeyScript.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

#include <imgui.h>

#include <cctype>
#include <cfloat>
#include <cstdio>

namespace marey {

bool KeyScript::ParseClick(const std::string& name, std::string* error) {
    const bool twice = name.rfind("DoubleClick ", 0) == 0;
    if (!twice && name.rfind("Click ", 0) != 0) return false;
    Press press{GLFW_KEY_UNKNOWN, false};
    press.clicks = twice ? 2 : 1;
    if (std::sscanf(name.c_str() + (twice ? 12 : 6), "%f,%f", &press.x, &press.y) != 2) {
        *error = "{" + name + "} in --keys needs a place: {Click X,Y}";
        return true;
    }
    m_keys.push_back(press);
    return true;
}

void KeyScript::ApplyMouse(ImGuiIO& io) const {
    io.MousePos = m_mouseShown ? ImVec2(m_mouseX, m_mouseY) : ImVec2(-FLT_MAX, -FLT_MAX);
    io.MouseDown[0] = m_mouseShown && m_mouseDown;
}

bool KeyScript::Parse(const std::string& text, std::string* error) {
    m_keys.clear();
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            const size_t close = text.find('"', i + 1);
            if (close == std::string::npos) {
                *error = "text in --keys opened with \" is never closed";
                return false;
            }
            for (size_t k = i + 1; k < close; ++k)
                m_keys.push_back({GLFW_KEY_UNKNOWN, false, static_cast<unsigned char>(text[k])});
            i = close;
        } else if (c == '{') {
            const size_t close = text.find('}', i);
            std::string name =
                close == std::string::npos ? text.substr(i) : text.substr(i + 1, close - i - 1);
            const bool withCtrl = name.rfind("Ctrl+", 0) == 0 && name.size() == 6 &&
                                  std::isalnum(static_cast<unsigned char>(name[5]));
            if (withCtrl && close != std::string::npos) {
                m_keys.push_back({std::toupper(static_cast<unsigned char>(name[5])), true});
                i = close;
                continue;
            }
            if (std::string clickError; ParseClick(name, &clickError)) {
                if (!clickError.empty()) return *error = clickError, false;
                i = close;
                continue;
            }
            int key = GLFW_KEY_UNKNOWN;
            if (name == "Home")
                key = GLFW_KEY_HOME;
            else if (name == "End")
                key = GLFW_KEY_END;
            else if (name == "Enter")
                key = GLFW_KEY_ENTER;
            else if (name == "Esc")
                key = GLFW_KEY_ESCAPE;
            else if (name == "Shift")
                key = GLFW_KEY_LEFT_SHIFT;
            else if (name == "Tab")
                key = GLFW_KEY_TAB;
            else if (name == "F1")
                key = GLFW_KEY_F1;
            if (key == GLFW_KEY_UNKNOWN || close == std::string::npos) {
                *error = "unknown key name {" + name + "} in --keys";
                return false;
            }
            m_keys.push_back({key, false});
            i = close;
        } else if (std::isalnum(static_cast<unsigned char>(c))) {
            m_keys.push_back({std::toupper(static_cast<unsigned char>(c)),
                              false});  // GLFW letter keys are ASCII
        } else if (c != ' ') {
            *error = std::string("unknown key '") + c + "' in --keys";
            return false;
        }
    }
    return true;
}

bool KeyScript::Step(GLFWwindow* window) {
    if (m_next >= m_keys.size()) return false;
    const Press press = m_keys[m_next];
    if (press.clicks > 0) {  // down and up a frame each, then frames for the click's effects
        m_mouseShown = true, m_mouseX = press.x, m_mouseY = press.y;
        m_mouseDown = m_frame < 2 * press.clicks && m_frame % 2 == 0;
        if (++m_frame > kHoldFrames + 1) m_frame = 0, ++m_next, m_mouseShown = false;
        return true;
    }
    if (press.key == GLFW_KEY_UNKNOWN && press.character) {  // a character: typed, one a frame
        ImGui_ImplGlfw_CharCallback(window, press.character);
        ++m_next;
        return true;
    }
    // Press on the first frame, hold, release, then one frame with no key down.
    const int mods = press.withCtrl ? GLFW_MOD_CONTROL : 0;
    if (m_frame == 0) {
        if (press.withCtrl)
            ImGui_ImplGlfw_KeyCallback(window, GLFW_KEY_LEFT_CONTROL, 0, GLFW_PRESS, mods);
        ImGui_ImplGlfw_KeyCallback(window, press.key, 0, GLFW_PRESS, mods);
    }
    if (m_frame == kHoldFrames) {
        ImGui_ImplGlfw_KeyCallback(window, press.key, 0, GLFW_RELEASE, mods);
        if (press.withCtrl)
            ImGui_ImplGlfw_KeyCallback(window, GLFW_KEY_LEFT_CONTROL, 0, GLFW_RELEASE, 0);
    }
    if (++m_frame > kHoldFrames + 1) {
        m_frame = 0;
        ++m_next;
    }
    return true;
}

}  // namespace marey
