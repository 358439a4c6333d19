#include "render/BoxRenderer.hpp"

#include <epoxy/gl.h>
#include <imgui.h>

#include "EmbeddedShaders.hpp"
#include "render/CommandScissor.hpp"

namespace marey {

bool BoxRenderer::Init(std::string* error) {
    if (!m_program.Build(shaders::k_boxes_vert, shaders::k_boxes_frag, error)) return false;
    m_viewportLocation = glGetUniformLocation(m_program.id(), "uViewportPx");
    glGenVertexArrays(1, &m_vao);
    glGenBuffers(1, &m_buffer);
    glBindVertexArray(m_vao);
    glBindBuffer(GL_ARRAY_BUFFER, m_buffer);
    const GLsizei stride = sizeof(BoxInstance);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(offsetof(BoxInstance, x0)));
    glVertexAttribDivisor(0, 1);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(offsetof(BoxInstance, r)));
    glVertexAttribDivisor(1, 1);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(offsetof(BoxInstance, style)));
    glVertexAttribDivisor(2, 1);
    glBindVertexArray(0);
    glGenQueries(2, m_queries);
    return true;
}

void BoxRenderer::Release() {
    if (m_vao) glDeleteVertexArrays(1, &m_vao);
    if (m_buffer) glDeleteBuffers(1, &m_buffer);
    if (m_queries[0]) glDeleteQueries(2, m_queries);
    m_vao = m_buffer = m_queries[0] = m_queries[1] = 0;
    m_program.Release();
}

void BoxRenderer::Submit(ImDrawList* drawList) {
    drawList->AddCallback(&BoxRenderer::DrawCallback, this);
    drawList->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void BoxRenderer::DrawCallback(const ImDrawList*, const ImDrawCmd* command) {
    static_cast<BoxRenderer*>(command->UserCallbackData)->Draw(command);
}

void BoxRenderer::Draw(const ImDrawCmd* command) {
    if (m_boxes.empty()) return;
    const ImGuiIO& io = ImGui::GetIO();
    ScissorToCommand(command);  // clipped to the canvas like everything ImGui draws there
    glDisable(GL_BLEND);

    // Timer query results are read one frame late so the GPU is never waited for.
    const unsigned query = m_queries[m_queryFrame & 1];
    const unsigned previous = m_queries[(m_queryFrame + 1) & 1];
    if (m_queryFrame > 0) {
        GLint available = 0;
        glGetQueryObjectiv(previous, GL_QUERY_RESULT_AVAILABLE, &available);
        if (available) {
            GLuint64 elapsed = 0;
            glGetQueryObjectui64v(previous, GL_QUERY_RESULT, &elapsed);
            m_lastGpuMs = static_cast<double>(elapsed) / 1e6;
        }
    }
    glBeginQuery(GL_TIME_ELAPSED, query);

    glUseProgram(m_program.id());
    glUniform2f(m_viewportLocation, io.DisplaySize.x, io.DisplaySize.y);
    glBindVertexArray(m_vao);
    glBindBuffer(GL_ARRAY_BUFFER, m_buffer);
    const size_t bytes = m_boxes.size() * sizeof(BoxInstance);
    if (m_boxes.size() > m_capacity) {
        m_capacity = m_boxes.size() * 2;
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m_capacity * sizeof(BoxInstance)),
                     nullptr, GL_STREAM_DRAW);
    }
    glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), m_boxes.data());
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(m_boxes.size()));
    glBindVertexArray(0);

    glEndQuery(GL_TIME_ELAPSED);
    ++m_queryFrame;
}

}  // namespace marey
