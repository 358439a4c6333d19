#pragma once
// Reads the back buffer and writes it as a PNG (stb_image_write from Debian's libstb).
#include <string>

namespace marey {

// Returns false with 'error' set when the file cannot be written.
bool WriteScreenshot(const std::string& path, int widthPx, int heightPx, std::string* error);

}  // namespace marey
