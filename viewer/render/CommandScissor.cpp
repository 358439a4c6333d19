#include "render/CommandScissor.hpp"

#include <epoxy/gl.h>
#include <imgui.h>

namespace marey {

void ScissorToCommand(const ImDrawCmd* command) {
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 scale = io.DisplayFramebufferScale;
    const int framebufferHeight = static_cast<int>(io.DisplaySize.y * scale.y);
    const ImVec4 clip = command->ClipRect;
    glEnable(GL_SCISSOR_TEST);
    glScissor(static_cast<int>(clip.x * scale.x),
              framebufferHeight - static_cast<int>(clip.w * scale.y),
              static_cast<int>((clip.z - clip.x) * scale.x),
              static_cast<int>((clip.w - clip.y) * scale.y));
}

}  // namespace marey
