#include "render/MareyRenderer.hpp"

#include <epoxy/gl.h>
#include <imgui.h>

#include <cstddef>

#include "EmbeddedShaders.hpp"
#include "render/CommandScissor.hpp"

namespace marey {

bool MareyRenderer::Init(std::string* error) {
    if (!m_program.Build(shaders::k_marey_vert, shaders::k_marey_frag, error)) return false;
    const unsigned id = m_program.id();
    m_viewport = glGetUniformLocation(id, "uViewportPx");
    m_origin = glGetUniformLocation(id, "uOriginPx");
    m_viewStart = glGetUniformLocation(id, "uViewStartNs");
    m_nsPerPx = glGetUniformLocation(id, "uNsPerPx");
    m_rowPx = glGetUniformLocation(id, "uRowPx");
    m_barPx = glGetUniformLocation(id, "uBarPx");
    glGenVertexArrays(1, &m_vao);
    glGenBuffers(1, &m_buffer);
    glBindVertexArray(m_vao);
    glBindBuffer(GL_ARRAY_BUFFER, m_buffer);
    const GLsizei stride = sizeof(MareyInstance);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(offsetof(MareyInstance, topStartNs)));
    glVertexAttribDivisor(0, 1);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(offsetof(MareyInstance, row)));
    glVertexAttribDivisor(1, 1);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(offsetof(MareyInstance, r)));
    glVertexAttribDivisor(2, 1);
    glBindVertexArray(0);
    return true;
}

void MareyRenderer::Release() {
    if (m_vao) glDeleteVertexArrays(1, &m_vao);
    if (m_buffer) glDeleteBuffers(1, &m_buffer);
    m_vao = m_buffer = 0;
    m_program.Release();
}

void MareyRenderer::SetInstances(std::vector<MareyInstance> instances, uint64_t tag) {
    m_instances = std::move(instances);
    m_dirty = true;
    m_tag = tag;
}

void MareyRenderer::Submit(ImDrawList* drawList, const MareyTransform& transform) {
    m_transform = transform;
    drawList->AddCallback(&MareyRenderer::DrawCallback, this);
    drawList->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void MareyRenderer::DrawCallback(const ImDrawList*, const ImDrawCmd* command) {
    static_cast<MareyRenderer*>(command->UserCallbackData)->Draw(command);
}

void MareyRenderer::Draw(const ImDrawCmd* command) {
    if (m_instances.empty()) return;
    const ImGuiIO& io = ImGui::GetIO();
    ScissorToCommand(command);  // clipped to the canvas like everything ImGui draws there
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(m_program.id());
    glUniform2f(m_viewport, io.DisplaySize.x, io.DisplaySize.y);
    glUniform2f(m_origin, m_transform.originX, m_transform.originY);
    glUniform1f(m_viewStart, m_transform.viewStartNs);
    glUniform1f(m_nsPerPx, m_transform.nsPerPx);
    glUniform1f(m_rowPx, m_transform.rowPx);
    glUniform1f(m_barPx, m_transform.barPx);
    glBindVertexArray(m_vao);
    glBindBuffer(GL_ARRAY_BUFFER, m_buffer);
    if (m_dirty) {
        glBufferData(GL_ARRAY_BUFFER,
                     static_cast<GLsizeiptr>(m_instances.size() * sizeof(MareyInstance)),
                     m_instances.data(), GL_STATIC_DRAW);
        m_dirty = false;
    }
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(m_instances.size()));
    glBindVertexArray(0);
}

}  // namespace marey
