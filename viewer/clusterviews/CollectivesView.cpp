// Communication across ranks: one collective on every rank that ran it, with where each rank's
// time went (transit, wait, idle) and its wait ratio; the rank the others wait for is the one
// that waits least. Below, how long every collective of the cluster took.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "core/RobustStats.hpp"
#include "clusterviews/ClusterCommon.hpp"
#include "clusterviews/CollectivesView.hpp"
#include "panels/TextWrap.hpp"
#include "viewkit/ViewCommon.hpp"
#include "viewkit/ViewContext.hpp"
#include "core/TextFormat.hpp"

namespace marey {
namespace {

const Rgba kTransitColor{0.30f, 0.60f, 0.95f, 1}, kWaitColor{0.96f, 0.60f, 0.22f, 1},
    kSyncColor{0.72f, 0.40f, 0.10f, 1}, kIdleColor{0.45f, 0.46f, 0.50f, 1};

void DrawRankChart(ClusterDocument& document, const std::vector<CollectiveOnRank>& ranks,
                   std::optional<RankId> waitedFor, float height, ClusterRequest& request) {
    const float axis = 76, rightAxis = 48;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x - axis - rightAxis;
    const float top = origin.y + 6, bottom = origin.y + height - 22;
    TimeNs longest = 1;
    for (const CollectiveOnRank& rank : ranks) longest = std::max(longest, rank.elapseNs);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const double tick = NiceTickStep(static_cast<double>(longest), 4);
    for (double value = 0; value <= static_cast<double>(longest) * 1.0001; value += tick) {
        const float y =
            bottom - (bottom - top) * static_cast<float>(value / static_cast<double>(longest));
        draw->AddLine(ImVec2(origin.x + axis, y), ImVec2(origin.x + axis + width, y),
                      IM_COL32(255, 255, 255, 22));
        const std::string text = Ms(static_cast<TimeNs>(value));
        draw->AddText(ImVec2(origin.x + axis - 6 - ImGui::CalcTextSize(text.c_str()).x, y - 7),
                      IM_COL32(160, 165, 175, 255), text.c_str());
    }
    for (int percent = 0; percent <= 100; percent += 50) {
        const float y = bottom - (bottom - top) * static_cast<float>(percent) / 100;
        const std::string text = std::to_string(percent) + " %";
        draw->AddText(ImVec2(origin.x + axis + width + 6, y - 7), IM_COL32(230, 230, 235, 200),
                      text.c_str());
    }
    const float slot = width / static_cast<float>(std::max<size_t>(1, ranks.size()));
    const float bar = std::max(1.0f, slot * (slot > 6 ? 0.75f : 1.0f));
    const float labelEvery = std::max(1.0f, std::ceil(36 / slot));
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    int hovered = -1;
    std::vector<ImVec2> ratio;
    auto yOf = [&](TimeNs ns) {
        return bottom - (bottom - top) * static_cast<float>(static_cast<double>(ns) /
                                                            static_cast<double>(longest));
    };
    for (size_t i = 0; i < ranks.size(); ++i) {
        const CollectiveOnRank& rank = ranks[i];
        const float x = origin.x + axis + slot * static_cast<float>(i);
        const TimeNs transit = std::min(rank.transitNs, rank.elapseNs);
        const TimeNs wait = std::min(rank.waitNs, rank.elapseNs - transit);
        const TimeNs sync =
            std::clamp<TimeNs>(rank.syncNs, 0, wait);  // synchronisation is part of the wait
        const bool grey = !document.InGroup(rank.rankId);
        draw->AddRectFilled(ImVec2(x, yOf(transit)), ImVec2(x + bar, bottom),
                            PackColor(grey ? kIdleColor : kTransitColor));
        draw->AddRectFilled(ImVec2(x, yOf(transit + sync)), ImVec2(x + bar, yOf(transit)),
                            PackColor(grey ? kIdleColor : kSyncColor));
        draw->AddRectFilled(ImVec2(x, yOf(transit + wait)), ImVec2(x + bar, yOf(transit + sync)),
                            PackColor(grey ? kIdleColor : kWaitColor));
        draw->AddRectFilled(ImVec2(x, yOf(rank.elapseNs)), ImVec2(x + bar, yOf(transit + wait)),
                            PackColor(kIdleColor));
        ratio.push_back(
            ImVec2(x + bar / 2, bottom - (bottom - top) * static_cast<float>(rank.WaitRatio())));
        if (rank.rankId == waitedFor)
            draw->AddRect(ImVec2(x - 2, top - 2), ImVec2(x + bar + 2, bottom + 1),
                          IM_COL32(255, 80, 70, 255), 0, 0, 2);
        if (document.selection.rank == rank.rankId)
            draw->AddRect(ImVec2(x - 1, top), ImVec2(x + bar + 1, bottom),
                          IM_COL32(255, 255, 255, 255), 0, 0, 1.5f);
        if (static_cast<float>(i) - labelEvery * std::floor(static_cast<float>(i) / labelEvery) <
            0.5f) {
            const std::string text = ToString(rank.rankId);
            draw->AddText(ImVec2(x + bar / 2 - ImGui::CalcTextSize(text.c_str()).x / 2, bottom + 4),
                          IM_COL32(160, 165, 175, 255), text.c_str());
        }
        if (mouse.x >= x && mouse.x < x + slot && mouse.y >= top && mouse.y <= bottom)
            hovered = static_cast<int>(i);
    }
    if (ratio.size() > 1)
        draw->AddPolyline(ratio.data(), static_cast<int>(ratio.size()),
                          IM_COL32(235, 235, 240, 200), 0, 1.5f);
    for (const ImVec2& point : ratio)
        draw->AddCircleFilled(point, 2.5f, IM_COL32(235, 235, 240, 230));
    ImGui::InvisibleButton("ranks", ImVec2(axis + width + rightAxis, height));
    if (hovered >= 0 && ImGui::IsItemHovered()) {
        const CollectiveOnRank& rank = ranks[hovered];
        ImGui::BeginTooltip();
        ImGui::Text("rank %d", rank.rankId.value());
        ImGui::Text("elapse   %s", Ms(rank.elapseNs).c_str());
        ImGui::Text("transit  %s", Ms(rank.transitNs).c_str());
        ImGui::Text("wait     %s", Ms(rank.waitNs).c_str());
        ImGui::Text("sync     %s", Ms(rank.syncNs).c_str());
        ImGui::Text("idle     %s", Ms(rank.idleNs).c_str());
        ImGui::Text("wait ratio %.1f %%", 100 * rank.WaitRatio());
        ImGui::EndTooltip();
        if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) SelectRank(document, RankId(rank.rankId));
        RankRightClick(document, RankId(rank.rankId));
    }
    DrawLegend({{"Transit", 0, kTransitColor},
                {"Synchronisation (part of the wait)", 0, kSyncColor},
                {"Wait", 0, kWaitColor},
                {"Idle", 0, kIdleColor}});
    ImGui::SameLine(0, 20);
    ImGui::TextDisabled("white line: wait ratio = wait / (wait + transit), right axis");
}

// How long every collective on every rank took: a histogram on a log scale, with the chosen
// collective's ranks marked.
void DrawDurationDistribution(const ClusterDocument& document,
                              const std::vector<CollectiveOnRank>& chosen, float height) {
    const std::vector<TimeNs>& all = document.report.collectiveDurations;
    if (all.empty()) return;
    const double lo = std::log10(std::max<double>(1000, static_cast<double>(all.front())));
    const double hi = std::max(
        lo + 1, std::log10(std::max<double>(1000, static_cast<double>(all.back()))) + 1e-9);
    constexpr int kBins = 48;
    std::vector<uint32_t> bins(kBins, 0);
    auto binOf = [&](TimeNs ns) {
        const double v = std::log10(std::max<double>(1000, static_cast<double>(ns)));
        return std::clamp(static_cast<int>((v - lo) / (hi - lo) * kBins), 0, kBins - 1);
    };
    for (const TimeNs ns : all) ++bins[binOf(ns)];
    const uint32_t most = *std::max_element(bins.begin(), bins.end());
    const float axis = 76;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x - axis - 48;
    const float top = origin.y + 4, bottom = origin.y + height - 20;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (int b = 0; b < kBins; ++b) {
        if (!bins[b]) continue;
        const float x0 = origin.x + axis + width * static_cast<float>(b) / kBins,
                    x1 = origin.x + axis + width * static_cast<float>(b + 1) / kBins - 1;
        const float h =
            (bottom - top) * std::sqrt(static_cast<float>(bins[b]) / static_cast<float>(most));
        draw->AddRectFilled(ImVec2(x0, bottom - h), ImVec2(x1, bottom),
                            IM_COL32(120, 130, 150, 255));
    }
    for (const CollectiveOnRank& rank : chosen) {
        const float x =
            origin.x + axis + width * (static_cast<float>(binOf(rank.elapseNs)) + 0.5f) / kBins;
        draw->AddLine(ImVec2(x, bottom - 6), ImVec2(x, bottom + 2), IM_COL32(255, 200, 90, 255), 2);
    }
    for (double decade = std::ceil(lo); decade <= hi; decade += 1) {
        const float x = origin.x + axis + width * static_cast<float>((decade - lo) / (hi - lo));
        const std::string text = Ms(static_cast<TimeNs>(std::pow(10.0, decade)));
        draw->AddLine(ImVec2(x, top), ImVec2(x, bottom), IM_COL32(255, 255, 255, 25));
        draw->AddText(ImVec2(x - ImGui::CalcTextSize(text.c_str()).x / 2, bottom + 3),
                      IM_COL32(160, 165, 175, 255), text.c_str());
    }
    ImGui::Dummy(ImVec2(axis + width, height));
    ImGui::TextDisabled(
        "%zu collectives on all ranks; log time axis; bar height: square root of the count; yellow "
        "ticks: the chosen collective's ranks",
        all.size());
}

}  // namespace

CollectivesView::CollectivesView(ClusterDocument& cluster) : m_document(cluster) {
    const std::vector<CollectiveKey>& collectives = cluster.report.collectives;
    for (size_t i = 1; i < collectives.size() && collectives[i].step == collectives.front().step;
         ++i)
        if (collectives[i].maxElapseNs > collectives[m_collective].maxElapseNs)
            m_collective = static_cast<int>(i);
}

const CollectiveCache& CollectivesView::Shown() {
    if (m_cache.collective == m_collective) return m_cache;
    const CollectiveKey& key = m_document.report.collectives[static_cast<size_t>(m_collective)];
    m_cache.collective = m_collective;
    m_cache.ranks = CollectiveAcrossRanks(m_document.cluster, key.step, key.name);
    m_cache.waitedFor = RankEveryoneWaitsFor(m_cache.ranks);
    std::vector<double> waits;
    for (const CollectiveOnRank& rank : m_cache.ranks)
        waits.push_back(static_cast<double>(rank.waitNs));
    m_cache.medianWaitNs = MedianAndMad(waits).median;
    return m_cache;
}

// The collective picker: the collectives of the chosen step (the first step when averaged).
void CollectivesView::DrawPicker() {
    ClusterDocument& document = m_document;
    const std::vector<CollectiveKey>& all = document.report.collectives;
    if (document.selection.step) {
        // Keep the chosen collective in the chosen step.
        const std::string& step =
            document.cluster.steps[static_cast<size_t>(document.selection.step->value())];
        if (all[m_collective].step != step)
            for (size_t i = 0; i < all.size(); ++i)
                if (all[i].step == step) {
                    m_collective = static_cast<int>(i);
                    break;
                }
    }
    const CollectiveKey& chosen = all[m_collective];
    ImGui::SameLine(0, 20);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Collective");
    ImGui::SameLine();
    auto label = [](const CollectiveKey& key) {
        return key.name + "   step " + key.step + " · " + CountText(key.ranks, "rank", "ranks") +
               " · longest " + Ms(key.maxElapseNs);
    };
    // As wide as its label when the line has room; cut, with the label in a tooltip, when not.
    const std::string chosenLabel = label(chosen);
    const float wanted = ImGui::CalcTextSize(chosenLabel.c_str()).x +
                         ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetFrameHeight();
    const float room = std::max(160.0f, ImGui::GetContentRegionAvail().x);
    const float comboWidth = std::min(std::max(wanted, 420.0f), room);
    ImGui::SetNextItemWidth(comboWidth);
    const std::string preview =
        ElideMiddle(chosenLabel, comboWidth - (wanted - ImGui::CalcTextSize(chosenLabel.c_str()).x),
                    [](std::string_view text) {
                        return ImGui::CalcTextSize(text.data(), text.data() + text.size()).x;
                    });
    const bool opened = ImGui::BeginCombo("##collective", preview.c_str());
    if (!opened && wanted > room && ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", chosenLabel.c_str());
    if (opened) {
        for (size_t i = 0; i < all.size(); ++i) {
            if (all[i].step != chosen.step) continue;
            ImGui::PushID(static_cast<int>(i));
            if (ImGui::Selectable(label(all[i]).c_str(), m_collective == static_cast<int>(i)))
                m_collective = static_cast<int>(i);
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
}

void CollectivesView::Draw(ViewContext& context) {
    ClusterDocument& document = m_document;
    DrawStepAndGroupPickers(document);
    if (document.report.collectives.empty()) {
        DrawNoClusterData(document, kCommunicationFile, "Communication across ranks");
        return;
    }
    DrawPicker();
    const CollectiveKey& key = document.report.collectives[m_collective];
    const CollectiveCache& shown = Shown();
    const std::vector<CollectiveOnRank>& ranks = shown.ranks;
    const std::optional<RankId> waitedFor = shown.waitedFor;
    // A cluster read from rank traces without profiler steps has collectives of no step.
    const std::string where = key.step.empty() ? key.name : "Step " + key.step + ", " + key.name;
    SectionTitle((where + ": each rank's time in it").c_str());
    if (waitedFor) {
        const auto it = std::find_if(ranks.begin(), ranks.end(), [&](const CollectiveOnRank& r) {
            return r.rankId == waitedFor;
        });
        ImGui::TextColored(ImVec4(1, 0.5f, 0.45f, 1),
                           "Rank %d waits %s against %s for the median rank: it arrives last and "
                           "the others wait for it (framed red).",
                           waitedFor->value(), Ms(it->waitNs).c_str(),
                           Ms(static_cast<TimeNs>(shown.medianWaitNs)).c_str());
    } else {
        ImGui::TextDisabled("No rank stands out: every rank waits about as long as the others.");
    }
    DrawSelectedRankActions(document, context.clusterRequest);
    const float available = ImGui::GetContentRegionAvail().y;
    DrawRankChart(document, ranks, waitedFor, std::max(200.0f, available * 0.58f),
                  context.clusterRequest);
    ImGui::Spacing();
    SectionTitle("Duration of every collective (elapse)");
    DrawDurationDistribution(document, ranks,
                             std::max(100.0f, ImGui::GetContentRegionAvail().y - 30));
    DrawRankMenu(document, context.clusterRequest);
}

}  // namespace marey
