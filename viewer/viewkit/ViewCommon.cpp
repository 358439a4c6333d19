#include "viewkit/ViewCommon.hpp"

#include <imgui.h>

#include <cstdio>

#include "core/TextFormat.hpp"
#include "timeline/ElideText.hpp"

namespace marey {

Rgba ComputingColor() {
    return kTimeClassLegend[0].color;
}
Rgba OverlappedColor() {
    return kTimeClassLegend[1].color;
}
Rgba NotOverlappedColor() {
    return kTimeClassLegend[2].color;
}
Rgba FreeColor() {
    return kTimeClassLegend[3].color;
}

std::string Percent(double share) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", share * 100.0);
    return text;
}

void SectionTitle(const char* text) {
    ImGui::Dummy(ImVec2(0, 4));
    ImGui::TextColored(ImVec4(0.80f, 0.86f, 1.0f, 1.0f), "%s", text);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddLine(ImVec2(at.x, at.y),
                                        ImVec2(at.x + ImGui::GetContentRegionAvail().x, at.y),
                                        IM_COL32(70, 76, 90, 255));
    ImGui::Dummy(ImVec2(0, 3));
}

void SameLineIfRoom(float widthPx, float spacingPx) {
    const float lineEnd = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + spacingPx + widthPx <= lineEnd) ImGui::SameLine(0, spacingPx);
}

void NoteAfter(const char* text, float spacingPx) {
    SameLineIfRoom(ImGui::CalcTextSize(text).x, spacingPx);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", text);
    ImGui::PopStyleColor();
}

void RightAligned(const std::string& text) {
    const float width = ImGui::GetColumnWidth();
    const float textWidth = ImGui::CalcTextSize(text.c_str()).x;
    if (textWidth < width) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + width - textWidth);
    ImGui::TextUnformatted(text.c_str());
}

bool TakeSortSpecs(int* column, bool* ascending) {
    ImGuiTableSortSpecs* sort = ImGui::TableGetSortSpecs();
    if (!sort || !sort->SpecsDirty) return false;
    if (sort->SpecsCount > 0) {
        *column = static_cast<int>(sort->Specs[0].ColumnUserID);
        *ascending = sort->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
    }
    sort->SpecsDirty = false;
    return true;
}

void DrawMissingFile(const RankFileKind& kind, const char* whatNeedsIt) {
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0.20f, 0.17f, 0.10f, 1.0f));
    ImGui::BeginChild(kind.fileName, ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 3.4f), true);
    ImGui::TextColored(ImVec4(1.0f, 0.78f, 0.35f, 1.0f), "%s needs %s", whatNeedsIt, kind.fileName);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(MissingFileMessage(kind).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    ImGui::PopStyleColor();
}

void DrawStackedBar(const std::vector<BarSegment>& segments, float width, float height) {
    double total = 0;
    for (const BarSegment& segment : segments) total += segment.value > 0 ? segment.value : 0;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##bar", ImVec2(width, height));
    const bool hovered = ImGui::IsItemHovered();
    const float mouseX = ImGui::GetIO().MousePos.x;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height),
                        IM_COL32(40, 43, 50, 255), 3.0f);
    if (total <= 0) return;
    float x = origin.x;
    for (const BarSegment& segment : segments) {
        if (segment.value <= 0) continue;
        const float w = static_cast<float>(segment.value / total) * width;
        draw->AddRectFilled(ImVec2(x, origin.y), ImVec2(x + w, origin.y + height),
                            PackColor(segment.color));
        const std::string text = Percent(segment.value / total);
        const ImVec2 size = ImGui::CalcTextSize(text.c_str());
        if (size.x + 8 < w)
            draw->AddText(ImVec2(x + (w - size.x) / 2, origin.y + (height - size.y) / 2),
                          IM_COL32(255, 255, 255, 255), text.c_str());
        if (hovered && mouseX >= x && mouseX < x + w) {
            draw->AddRect(ImVec2(x, origin.y), ImVec2(x + w, origin.y + height),
                          IM_COL32(255, 255, 255, 200), 0, 0, 2.0f);
            ImGui::SetTooltip("%s\n%s  (%s)", segment.label,
                              FormatDuration(static_cast<TimeNs>(segment.value)).c_str(),
                              Percent(segment.value / total).c_str());
        }
        x += w;
    }
}

void DrawLegend(const std::vector<BarSegment>& segments) {
    for (size_t i = 0; i < segments.size(); ++i) {
        if (i) ImGui::SameLine(0, 18);
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float side = ImGui::GetTextLineHeight() - 3;
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(at.x, at.y + 2),
                                                  ImVec2(at.x + side, at.y + 2 + side),
                                                  PackColor(segments[i].color), 2.0f);
        ImGui::Dummy(ImVec2(side + 2, side));
        ImGui::SameLine(0, 4);
        ImGui::TextUnformatted(segments[i].label);
    }
}

std::string ElidedCellLabel(const std::string& text, const char* id, bool* cut) {
    std::string scratch;
    std::string_view shown = ElideToWidth(text, ImGui::GetContentRegionAvail().x, scratch);
    if (shown.empty() && !text.empty()) shown = "\xE2\x80\xA6";
    if (cut) *cut = shown.size() != text.size();
    return std::string(shown) + "###" + id;
}

}  // namespace marey
