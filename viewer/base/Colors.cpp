#include "base/Colors.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "core/StringPool.hpp"

namespace marey {
namespace {

Rgba FromHsl(float hue, float saturation, float lightness) {
    auto channel = [&](float n) {
        const float k = std::fmod(n + hue / 30.0f, 12.0f);
        const float a = saturation * std::fmin(lightness, 1.0f - lightness);
        return lightness - a * std::fmax(-1.0f, std::fmin(std::fmin(k - 3.0f, 9.0f - k), 1.0f));
    };
    return {channel(0), channel(8), channel(4), 1.0f};
}

constexpr Rgba kComputing{0.20f, 0.55f, 0.85f, 1.0f};
constexpr Rgba kCommunication{0.95f, 0.60f, 0.15f, 1.0f};
constexpr Rgba kCommunicationExposed{0.86f, 0.24f, 0.20f, 1.0f};
constexpr Rgba kFree{0.55f, 0.57f, 0.60f, 1.0f};

}  // namespace

const LegendEntry kTimeClassLegend[4] = {
    {"Computing", kComputing},
    {"Communication", kCommunication},
    {"Communication, not overlapped", kCommunicationExposed},
    {"Free", kFree},
};

const Rgba* TimeClassColor(std::string_view name) {
    if (name == "Computing") return &kComputing;
    if (name == "Communication") return &kCommunication;
    if (name == "Communication(Not Overlapped)") return &kCommunicationExposed;
    if (name == "Free") return &kFree;
    return nullptr;
}

Rgba ColorFromArgb(uint32_t argb) {
    return {static_cast<float>((argb >> 16) & 0xFF) / 255.0f,
            static_cast<float>((argb >> 8) & 0xFF) / 255.0f,
            static_cast<float>(argb & 0xFF) / 255.0f, 1.0f};
}

Rgba ColorForName(std::string_view name) {
    if (const Rgba* fixed = TimeClassColor(name)) return *fixed;
    const uint64_t hash = HashBytes(name);
    // Communication operators keep to warm hues so they read as communication at a glance.
    const bool communication =
        name.rfind("hcom_", 0) == 0 || name.find("AllReduce") != std::string_view::npos ||
        name.find("allReduce") != std::string_view::npos || name.rfind("nccl", 0) == 0 ||
        name.rfind("Notify", 0) == 0 || name.rfind("Memcpy", 0) == 0;
    float hue =
        communication ? 15.0f + static_cast<float>(hash % 40) : static_cast<float>(hash % 360);
    // Keep compute names away from the reserved warm band.
    if (!communication && hue > 5.0f && hue < 60.0f) hue += 120.0f;
    const float saturation = 0.45f + static_cast<float>((hash >> 12) % 25) / 100.0f;
    const float lightness = 0.40f + static_cast<float>((hash >> 20) % 14) / 100.0f;
    return FromHsl(hue, saturation, lightness);
}

uint32_t PackColor(const Rgba& color) {
    auto byte = [](float v) {
        return static_cast<uint32_t>(std::lround(std::fmin(1.0f, std::fmax(0.0f, v)) * 255.0f));
    };
    return byte(color.r) | byte(color.g) << 8 | byte(color.b) << 16 | byte(color.a) << 24;
}

Rgba SeriesColor(size_t index) {
    static const Rgba kPalette[] = {{0.30f, 0.65f, 0.95f, 1}, {0.95f, 0.60f, 0.20f, 1},
                                    {0.45f, 0.80f, 0.40f, 1}, {0.90f, 0.35f, 0.45f, 1},
                                    {0.70f, 0.50f, 0.90f, 1}, {0.95f, 0.85f, 0.30f, 1},
                                    {0.35f, 0.85f, 0.80f, 1}, {0.85f, 0.55f, 0.75f, 1},
                                    {0.65f, 0.65f, 0.65f, 1}, {0.60f, 0.40f, 0.25f, 1}};
    return kPalette[index % (sizeof kPalette / sizeof kPalette[0])];
}

Rgba BoundKindColor(BoundKind kind) {
    switch (kind) {
        case BoundKind::kCpu:
            return {0.96f, 0.58f, 0.22f, 1};
        case BoundKind::kCompute:
            return {0.40f, 0.82f, 0.42f, 1};
        case BoundKind::kCommunication:
            return {0.36f, 0.62f, 1.00f, 1};
        case BoundKind::kLaunch:
            return {0.98f, 0.86f, 0.30f, 1};
        case BoundKind::kKernelKernel:
            return {0.78f, 0.56f, 0.96f, 1};
    }
    return {0.7f, 0.7f, 0.7f, 1};
}

Rgba Dimmed(const Rgba& color) {
    const float grey = (color.r + color.g + color.b) / 3.0f;
    return {grey * 0.35f + 0.12f, grey * 0.35f + 0.12f, grey * 0.35f + 0.13f, 1.0f};
}

void ApplyViewerStyle() {
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 0;
    style.FrameRounding = 3;
    style.ScrollbarRounding = 3;
    style.WindowBorderSize = 0;
    style.ItemSpacing = ImVec2(8, 5);
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.11f, 0.12f, 0.14f, 1.0f);
    style.Colors[ImGuiCol_ChildBg] = ImVec4(0.11f, 0.12f, 0.14f, 1.0f);
    style.Colors[ImGuiCol_Header] = ImVec4(0.24f, 0.42f, 0.66f, 1.0f);         // selected
    style.Colors[ImGuiCol_HeaderHovered] = ImVec4(0.24f, 0.27f, 0.32f, 1.0f);  // under the mouse
    style.Colors[ImGuiCol_HeaderActive] = ImVec4(0.28f, 0.48f, 0.74f, 1.0f);   // pressed
    style.Colors[ImGuiCol_TableRowBgAlt] = ImVec4(1, 1, 1, 0.03f);
    // The load's progress: a blue whose white label reads over it (ImGui's yellow does not).
    style.Colors[ImGuiCol_PlotHistogram] = ImVec4(0.20f, 0.38f, 0.62f, 1.0f);
}

Rgba Viridis(float t) {
    static const Rgba stops[] = {{0.267f, 0.005f, 0.329f, 1},
                                 {0.229f, 0.322f, 0.545f, 1},
                                 {0.128f, 0.567f, 0.551f, 1},
                                 {0.369f, 0.789f, 0.383f, 1},
                                 {0.993f, 0.906f, 0.144f, 1}};
    t = std::clamp(t, 0.0f, 1.0f) * 4;
    const int i = std::min(3, static_cast<int>(t));
    const float f = t - static_cast<float>(i);
    const Rgba& a = stops[i];
    const Rgba& b = stops[i + 1];
    return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f, 1};
}

}  // namespace marey
