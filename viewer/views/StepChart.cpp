#include "views/StepChart.hpp"

#include <algorithm>

#include "views/DataPreparationDraw.hpp"

namespace marey {
namespace {

constexpr float kAxisWidth = 80, kRightMargin = 8, kLabelRow = 20;

}  // namespace

StepChart::StepChart(size_t steps, float height)
    : m_draw(ImGui::GetWindowDrawList()),
      m_origin(ImGui::GetCursorScreenPos()),
      m_height(height),
      m_steps(steps) {
    m_width = std::max(1.0f, ImGui::GetContentRegionAvail().x - kAxisWidth - kRightMargin);
    m_x0 = m_origin.x + kAxisWidth;
    m_top = m_origin.y + 6;  // room for the top label's upper half
    m_bottom = m_origin.y + std::max(height - kLabelRow, 12.0f);
    m_slot = m_width / static_cast<float>(std::max<size_t>(steps, 1));
    m_draw->AddRectFilled(ImVec2(m_x0, m_top), ImVec2(m_x0 + m_width, m_bottom),
                          kDataPlotBackground);
}

float StepChart::Y(double fraction) const {
    return m_bottom - static_cast<float>(std::clamp(fraction, 0.0, 1.0)) * (m_bottom - m_top);
}

void StepChart::Bar(size_t i, double fraction, ImU32 color, float widthShare) const {
    const float margin = m_slot * (1 - widthShare) / 2;
    m_draw->AddRectFilled(ImVec2(SlotLeft(i) + margin, Y(fraction)),
                          ImVec2(SlotLeft(i) + m_slot - margin, m_bottom), color);
}

void StepChart::AxisLabel(const std::string& text, double fraction) const {
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const float y = std::clamp(Y(fraction) - size.y / 2, m_origin.y, m_bottom - size.y / 2);
    m_draw->AddText(ImVec2(m_x0 - 6 - size.x, y), kDataAxisText, text.c_str());
}

void StepChart::StepLabels(const std::vector<std::string>& names) const {
    float widest = ImGui::CalcTextSize("000").x;
    for (const std::string& name : names)
        widest = std::max(widest, ImGui::CalcTextSize(name.c_str()).x);
    const size_t every =
        std::max<size_t>(1, static_cast<size_t>((widest + 12) / std::max(m_slot, 1.0f)) + 1);
    for (size_t i = 0; i < names.size(); i += every) {
        const float center = SlotLeft(i) + m_slot / 2;
        m_draw->AddText(ImVec2(center - ImGui::CalcTextSize(names[i].c_str()).x / 2, m_bottom + 3),
                        kDataAxisText, names[i].c_str());
    }
}

size_t StepChart::Finish(const char* id) const {
    ImGui::SetCursorScreenPos(m_origin);
    ImGui::InvisibleButton(id, ImVec2(kAxisWidth + m_width, m_height));
    const float x = ImGui::GetIO().MousePos.x;
    if (!ImGui::IsItemHovered() || x < m_x0 || m_steps == 0) return SIZE_MAX;
    const size_t i = std::min(m_steps - 1, static_cast<size_t>((x - m_x0) / m_slot));
    m_draw->AddRect(ImVec2(SlotLeft(i), m_top), ImVec2(SlotLeft(i) + m_slot, m_bottom),
                    IM_COL32(255, 255, 255, 120));
    return i;
}

}  // namespace marey
