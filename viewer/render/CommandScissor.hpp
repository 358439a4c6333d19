#pragma once
// For our own draws issued from an ImGui draw callback: clip to the command's rectangle, as
// ImGui clips what it draws itself there.
struct ImDrawCmd;

namespace marey {

// Enables the scissor test on 'command''s clip rectangle, in framebuffer pixels.
void ScissorToCommand(const ImDrawCmd* command);

}  // namespace marey
