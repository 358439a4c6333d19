#pragma once
// A linked GLSL program built from vertex and fragment source.
#include <string>

namespace marey {

class GlProgram {
public:
    GlProgram() = default;
    GlProgram(const GlProgram&) = delete;
    GlProgram& operator=(const GlProgram&) = delete;
    ~GlProgram() = default;
    // Compiles and links; on failure returns false with the driver's log in 'error'.
    bool Build(const char* vertexSource, const char* fragmentSource, std::string* error);
    unsigned id() const { return m_program; }
    // Deletes the program; call while its context is current.
    void Release();

private:
    unsigned m_program = 0;
};

}  // namespace marey
