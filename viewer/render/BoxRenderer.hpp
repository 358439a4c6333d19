#pragma once
// All timeline boxes of a frame in one instance buffer and one instanced draw call, issued
// from inside ImGui's draw list so that boxes sit between the timeline's background and its
// labels.
#include <cstdint>
#include <string>
#include <vector>

#include "render/GlProgram.hpp"

struct ImDrawList;
struct ImDrawCmd;

namespace marey {

struct BoxInstance {
    float x0, y0, x1, y1;  // window pixels
    float r, g, b, a;
    float style;  // 0 slice, 1 merged run, 2 selected, 3 counter bar, 4 mark behind slices
};
static_assert(sizeof(BoxInstance) == 36);

enum class BoxStyle : int { kSlice = 0, kMerged = 1, kSelected = 2, kCounter = 3, kMark = 4 };

class BoxRenderer {
public:
    bool Init(std::string* error);
    // Frees the GL objects; call before the context goes away.
    void Release();
    // Collects boxes for this frame.
    void Clear() { m_boxes.clear(); }
    void Add(const BoxInstance& box) { m_boxes.push_back(box); }
    size_t Count() const { return m_boxes.size(); }
    // Queues the draw into 'drawList' at its current position (an ImGui draw callback).
    void Submit(ImDrawList* drawList);
    // GPU time of the last drawn frame's boxes in ms, when timer queries work (else < 0).
    double LastGpuMs() const { return m_lastGpuMs; }

private:
    static void DrawCallback(const ImDrawList* list, const ImDrawCmd* command);
    void Draw(const ImDrawCmd* command);

    GlProgram m_program;
    unsigned m_vao = 0, m_buffer = 0;
    int m_viewportLocation = -1;
    size_t m_capacity = 0;
    std::vector<BoxInstance> m_boxes;
    unsigned m_queries[2] = {0, 0};
    int m_queryFrame = 0;
    double m_lastGpuMs = -1;
};

}  // namespace marey
