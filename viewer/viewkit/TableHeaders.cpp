#include "viewkit/TableHeaders.hpp"

#include <imgui.h>

namespace marey {

void HeadersRowAligned(uint32_t rightAligned) {
    // A headers row takes the header background; its titles are plain text so that they can be
    // placed (ImGui 1.86's TableHeader always starts at the left).
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    const int columns = ImGui::TableGetColumnCount();
    for (int c = 0; c < columns; ++c) {
        ImGui::TableSetColumnIndex(c);
        const char* name = ImGui::TableGetColumnName(c);
        if (rightAligned & (1u << c)) {
            const float width = ImGui::GetColumnWidth();
            const float textWidth = ImGui::CalcTextSize(name).x;
            if (textWidth < width) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + width - textWidth);
        }
        ImGui::TextUnformatted(name);
    }
}

}  // namespace marey
