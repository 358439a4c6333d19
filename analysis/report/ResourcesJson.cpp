#include "report/ResourcesJson.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "rank/RankFlops.hpp"

namespace marey {

void WriteFlopsSummary(JsonObject& object, const FlopsSummary& summary, const std::string& source) {
    object.RealOrNull("flops", summary.Flops());
    object.RealOrNull("flops_per_s", summary.FlopsPerSecond());
    object.RealOrNull("flops_utilization", summary.UtilizationShare());
    if (source.empty())
        object.Null("flops_source");
    else
        object.String("flops_source", source);
}

void WritePeakMemory(JsonObject& object, const PeakMemory& peak) {
    object.IntOrNull("peak_memory_bytes", peak.bytes);
    if (peak.source.empty())
        object.Null("peak_memory_source");
    else
        object.String("peak_memory_source", peak.source);
}

std::string RankResourcesToJson(const RankFlops* flops, const MemoryRecord* memory) {
    const PeakMemory peak = memory ? PeakAllocatedMemory(*memory) : PeakMemory{};
    if (!flops && peak.bytes < 0) return "null";
    std::string out;
    {
        JsonObject root(out);
        WritePeakMemory(root, peak);
        static const RankFlops kNone;
        const RankFlops& known = flops ? *flops : kNone;
        WriteFlopsSummary(root, known.summary, known.summarySource);
        constexpr size_t kTopOperators = 10;
        const std::vector<OperatorFlops> top(
            known.operators.begin(),
            known.operators.begin() +
                static_cast<long>(std::min(kTopOperators, known.operators.size())));
        JsonArrayOfObjects(root.Key("top_operators"), top,
                           [](JsonObject& o, const OperatorFlops& op) {
                               o.String("name", op.name);
                               o.Real("flops", op.mflops * kFlopsPerMflop);
                               o.Real("flops_per_s", op.gflopsPerS * kFlopsPerGflop);
                               o.Real("flops_utilization", op.utilizationPercent / 100);
                           });
        root.Int("operators", static_cast<int64_t>(known.operators.size()));
        // The scopes as the file names them ("Total" first), each with its parent's index in
        // this list (-1 for "Total").
        JsonArrayOfObjects(root.Key("scopes"), known.scopes.nodes,
                           [](JsonObject& o, const FlopsScopeNode& node) {
                               o.String("name", node.name);
                               o.Real("flops", node.mflops * kFlopsPerMflop);
                               o.Int("parent", node.parent);
                           });
    }
    return out;
}

std::string RankFlopsToText(const RankFlops* flops) {
    if (!flops || !flops->Known()) return "";
    const FlopsSummary& s = flops->summary;
    std::string out = "  flops      ";
    char part[64];
    const std::pair<double, const char*> figures[] = {
        {s.mflops, "%.3f MFLOPs"},
        {s.gflopsPerS, "%.3f GFLOPS"},
        {s.utilizationPercent, "%.2f %% utilisation"}};
    bool first = true;
    for (const auto& [value, format] : figures) {
        if (value < 0) continue;
        std::snprintf(part, sizeof part, format, value);
        out += (first ? " " : ", ") + std::string(part);
        first = false;
    }
    return out + " (" + flops->summarySource + ")\n";
}

}  // namespace marey
