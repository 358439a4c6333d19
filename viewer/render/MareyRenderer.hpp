#pragma once
// Draws the Marey view's bars and bands: one instance buffer written when the step or the rows
// change, and per frame only the view transform (uniforms) and one instanced draw call, issued
// from inside ImGui's draw list like the timeline's boxes.
#include <cstdint>
#include <string>
#include <vector>

#include "render/GlProgram.hpp"

struct ImDrawList;
struct ImDrawCmd;

namespace marey {

struct MareyInstance {
    float topStartNs, topEndNs, bottomStartNs, bottomEndNs;
    float row, band;  // band: 0 a bar on 'row', 1 the band from 'row' to the row below
    float r, g, b, a;
};
static_assert(sizeof(MareyInstance) == 40);

struct MareyTransform {
    float originX = 0, originY = 0;
    float viewStartNs = 0, nsPerPx = 1;
    float rowPx = 20, barPx = 8;
};

class MareyRenderer {
public:
    bool Init(std::string* error);
    void Release();
    // Replaces the instances, naming them by 'tag'; they are uploaded at the next draw.
    void SetInstances(std::vector<MareyInstance> instances, uint64_t tag);
    // Whether the instances set last were those named 'tag' (another cluster's Marey view, or
    // another layout, sets its own).
    bool Holds(uint64_t tag) const { return m_tag == tag; }
    size_t Count() const { return m_instances.size(); }
    // Queues the draw with 'transform' into 'drawList' at its current position.
    void Submit(ImDrawList* drawList, const MareyTransform& transform);

private:
    static void DrawCallback(const ImDrawList* list, const ImDrawCmd* command);
    void Draw(const ImDrawCmd* command);

    GlProgram m_program;
    unsigned m_vao = 0, m_buffer = 0;
    int m_viewport = -1, m_origin = -1, m_viewStart = -1, m_nsPerPx = -1, m_rowPx = -1,
        m_barPx = -1;
    std::vector<MareyInstance> m_instances;
    bool m_dirty = false;
    uint64_t m_tag = 0;
    MareyTransform m_transform;
};

}  // namespace marey
