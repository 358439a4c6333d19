#pragma once
// MindSpore's FLOPs files of one rank, as its profiler writes them (mindspore/profiler/parser's
// FLOPs parser) and MindInsight reads them:
//   flops_summary_N.json  {"FLOPs": total MFLOPs, "FLOPS": mean GFLOPS per operator,
//                          "FLOPS_Utilization": mean utilisation per operator, %}
//   flops_N.txt           per AI Core operator (each counted once): its full scope name, MFLOPs,
//                          GFLOPS and utilisation (%), comma separated under a header line
//   flops_scope_N.json    MFLOPs by scope as a Sankey diagram: {"data": {"nodes": [{"name"}],
//                          "links": [{"source", "target", "value"}]}, "max_scope_num": depth},
//                          read here as a tree from "Total"
// A value that is no finite number in its range (below) is named with its place and left out;
// the rest is read.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"

namespace marey {

// The files' units: MFLOPs and GFLOPS.
inline constexpr double kFlopsPerMflop = 1e6, kFlopsPerGflop = 1e9;
// What a figure can be: at most 10^12 MFLOPs (an exaFLOP, far past a rank's step), 10^9 GFLOPS
// (an exaFLOPS device) and 100 % of the device's peak. Anything larger is damage.
inline constexpr double kMaxMflops = 1e12, kMaxGflopsPerS = 1e9, kMaxUtilizationPercent = 100;

struct FlopsSummary {
    double mflops = -1;              // total over the operators, 10^6; -1 when absent
    double gflopsPerS = -1;          // the operators' mean, 10^9 per second; -1 when absent
    double utilizationPercent = -1;  // the operators' mean, % of the device's peak; -1 absent

    // In plain units, as the JSON and SQL give them; -1 when absent.
    double Flops() const { return mflops < 0 ? -1 : mflops * kFlopsPerMflop; }
    double FlopsPerSecond() const { return gflopsPerS < 0 ? -1 : gflopsPerS * kFlopsPerGflop; }
    double UtilizationShare() const {
        return utilizationPercent < 0 ? -1 : utilizationPercent / 100;
    }
};

struct FlopsSummaryFile {
    FlopsSummary summary;               // a damaged key's figure stays unknown (-1)
    std::vector<std::string> problems;  // "file: error: \"FLOPS\": …"
};

// Reads flops_summary_N.json. Fails when the text is not a JSON object or holds none of the
// three keys readable.
Result<FlopsSummaryFile> ParseFlopsSummaryJson(std::string_view text, const std::string& name);

struct OperatorFlops {
    std::string name;  // "Default/network-WithLossCell/.../Conv2D-op12"
    double mflops = 0, gflopsPerS = 0, utilizationPercent = 0;
};

struct OperatorFlopsTable {
    std::vector<OperatorFlops> operators;  // in file order
    std::vector<ImportProblem> problems;   // rows left out, with their byte offsets
};

// Reads flops_N.txt. An operator named twice is named and its second row left out; a last row
// without its line end (the file was cut) is named and left out. Fails when the text is empty or
// its header has fewer than four columns.
Result<OperatorFlopsTable> ParseOperatorFlopsText(std::string_view text, const std::string& name);

struct FlopsScopeNode {
    std::string name;   // "Total", "Default", "network-WithLossCell(Default)"
    double mflops = 0;  // the link into it; the root's: the sum of its children's
    int parent = -1;
    std::vector<int> children;  // largest first
};

struct FlopsScopeTree {
    // The root ("Total") first, then every scope under it; empty when it has no link.
    std::vector<FlopsScopeNode> nodes;
    std::vector<std::string> problems;  // "file: error: data.links[3]: …"
};

// Reads flops_scope_N.json. A link whose value is damaged, whose target already has a parent or
// that would close a loop is named and left out; scopes that no link joins to "Total" are named
// and left out. Fails when the text is not JSON or has no "data.links" array.
// O(links × α(links)).
Result<FlopsScopeTree> ParseFlopsScopeJson(std::string_view text, const std::string& name);

}  // namespace marey
