#include "render/GlProgram.hpp"

#include <epoxy/gl.h>

namespace marey {
namespace {

GLuint Compile(GLenum type, const char* source, std::string* error) {
    const GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetShaderInfoLog(shader, sizeof log, nullptr, log);
        *error = std::string(type == GL_VERTEX_SHADER ? "vertex" : "fragment") + " shader: " + log;
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

}  // namespace

void GlProgram::Release() {
    if (m_program) glDeleteProgram(m_program);
    m_program = 0;
}

bool GlProgram::Build(const char* vertexSource, const char* fragmentSource, std::string* error) {
    const GLuint vertex = Compile(GL_VERTEX_SHADER, vertexSource, error);
    if (!vertex) return false;
    const GLuint fragment = Compile(GL_FRAGMENT_SHADER, fragmentSource, error);
    if (!fragment) {
        glDeleteShader(vertex);
        return false;
    }
    m_program = glCreateProgram();
    glAttachShader(m_program, vertex);
    glAttachShader(m_program, fragment);
    glLinkProgram(m_program);
    glDeleteShader(vertex);
    glDeleteShader(fragment);
    GLint ok = 0;
    glGetProgramiv(m_program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetProgramInfoLog(m_program, sizeof log, nullptr, log);
        *error = std::string("link: ") + log;
        glDeleteProgram(m_program);
        m_program = 0;
        return false;
    }
    return true;
}

}  // namespace marey
