#include "render/Screenshot.hpp"

#include <epoxy/gl.h>
#include <stb/stb_image_write.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace marey {

bool WriteScreenshot(const std::string& path, int widthPx, int heightPx, std::string* error) {
    std::vector<unsigned char> pixels(static_cast<size_t>(widthPx) * heightPx * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, widthPx, heightPx, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    // OpenGL's rows run bottom-up; PNG's top-down. Alpha is forced opaque.
    std::vector<unsigned char> flipped(pixels.size());
    const size_t rowBytes = static_cast<size_t>(widthPx) * 4;
    for (int y = 0; y < heightPx; ++y) {
        const unsigned char* source =
            pixels.data() + (static_cast<size_t>(heightPx - 1 - y)) * rowBytes;
        unsigned char* target = flipped.data() + static_cast<size_t>(y) * rowBytes;
        for (size_t x = 0; x < rowBytes; x += 4) {
            target[x] = source[x];
            target[x + 1] = source[x + 1];
            target[x + 2] = source[x + 2];
            target[x + 3] = 255;
        }
    }
    // Encoded in memory and written here: stb's own file writing ignores what fwrite and fclose
    // return, so a full disk would leave a cut PNG and a success.
    std::string png;
    const auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                                   static_cast<size_t>(size));
    };
    if (!stbi_write_png_to_func(append, &png, widthPx, heightPx, 4, flipped.data(),
                                static_cast<int>(rowBytes))) {
        *error = "cannot encode the screenshot as PNG for " + path;
        return false;
    }
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) {
        *error = "cannot write " + path + ": " + std::strerror(errno);
        return false;
    }
    const bool written = std::fwrite(png.data(), 1, png.size(), file) == png.size();
    const int writeErrno = errno;
    const bool closed = std::fclose(file) == 0;
    if (!written || !closed) {
        *error = "cannot write " + path + ": " + std::strerror(written ? errno : writeErrno);
        return false;
    }
    return true;
}

}  // namespace marey
