#pragma once
// The window of every key and mouse action (Help ▸ Keys and mouse, or '?').

namespace marey {

// Draws the help window while *open is true; its close button sets it false.
void DrawHelp(bool* open);

}  // namespace marey
