#include "report/TraceDiffJson.hpp"

// TraceDiff as JSON for other tools and as text for a terminal.
#include <cstdio>

#include "core/TextFormat.hpp"
#include "report/OverviewJson.hpp"

namespace marey {
namespace {

void WriteSide(JsonObject& root, const char* key, const RankSummary& side) {
    JsonObject object(root.Key(key));
    object.String("path", side.path);
    if (side.rankId)
        object.Int("rank_id", side.rankId->value());
    else
        object.Null("rank_id");
    object.String("operator_source", side.operatorSource);
    object.Int("first_ns", side.firstNs);
    if (side.stepRowsLeftOut > 0) {
        object.Int("step_rows_left_out", static_cast<int64_t>(side.stepRowsLeftOut));
        object.String("note", side.StepRowsNote());
    }
}

void WriteAlignment(JsonObject& root, const Alignment& alignment) {
    JsonObject object(root.Key("alignment"));
    object.String("by", AlignByName(alignment.by));
    if (alignment.by == AlignBy::kStep)
        object.String("step", alignment.step);
    else
        object.Null("step");
    if (alignment.by == AlignBy::kStep && alignment.stepB != alignment.step)
        object.String("step_b", alignment.stepB);
    if (alignment.by == AlignBy::kOperator) {
        object.String("operator", alignment.operatorName);
        object.Int("occurrence", static_cast<int64_t>(alignment.occurrence));
    }
    object.Int("offset_ns", alignment.offsetNs);
    if (!alignment.note.empty()) object.String("note", alignment.note);
}

void WriteOperators(JsonObject& root, const char* key, const std::vector<OperatorDiff>& rows,
                    bool byName) {
    JsonArrayOfObjects(root.Key(key), rows, [&](JsonObject& object, const OperatorDiff& row) {
        if (byName) object.String("name", row.name);
        object.String("type", row.type);
        object.Int("count_a", static_cast<int64_t>(row.countA));
        object.Int("count_b", static_cast<int64_t>(row.countB));
        object.Int("total_ns_a", row.totalA);
        object.Int("total_ns_b", row.totalB);
        object.Int("avg_ns_a", row.AverageA());
        object.Int("avg_ns_b", row.AverageB());
        object.Int("diff_ns", row.DiffNs());
        if (const auto ratio = row.Ratio())
            object.Real("ratio", *ratio);
        else
            object.Null("ratio");
    });
}

void WriteOverview(JsonObject& root, const TraceDiff& diff) {
    JsonObject object(root.Key("overview"));
    for (const auto& [key, figures] :
         {std::pair{"a", &diff.overviewA}, std::pair{"b", &diff.overviewB}}) {
        if (!figures->valid) {
            object.Null(key);
            continue;
        }
        JsonObject side(object.Key(key));
        side.String("source", figures->source);
        WriteOverviewFigures(side, *figures);
    }
    if (!diff.overviewA.valid || !diff.overviewB.valid) {
        object.Null("diff");
        return;
    }
    const OverviewFigures& a = diff.overviewA;
    const OverviewFigures& b = diff.overviewB;
    OverviewFigures delta;
    delta.computingNs = b.computingNs - a.computingNs;
    delta.pureComputingNs = b.pureComputingNs - a.pureComputingNs;
    delta.commOverlappedNs = b.commOverlappedNs - a.commOverlappedNs;
    delta.commNotOverlappedNs = b.commNotOverlappedNs - a.commNotOverlappedNs;
    delta.freeNs = b.freeNs - a.freeNs;
    delta.totalNs = b.totalNs - a.totalNs;
    JsonObject side(object.Key("diff"));
    WriteOverviewFigures(side, delta);
}

void WriteSteps(JsonObject& root, const TraceDiff& diff) {
    JsonArrayOfObjects(root.Key("steps"), diff.steps, [](JsonObject& object, const StepDiff& row) {
        object.String("step", row.step);
        if (row.inA)
            object.Int("a_ns", row.aNs);
        else
            object.Null("a_ns");
        if (row.inB)
            object.Int("b_ns", row.bNs);
        else
            object.Null("b_ns");
        if (row.inA && row.inB)
            object.Int("diff_ns", row.DiffNs());
        else
            object.Null("diff_ns");
        // Where the difference lies (compare/TraceDiff's PlaceStepDifference); null when none.
        const StepDifferencePlace place = PlaceStepDifference(row);
        if (place.kind == StepDifferencePlace::kNone)
            object.Null("where");
        else
            object.String("where", place.text);
        if (!row.hasPhases) return;
        for (int phase = 0; phase < kStepPhaseCount; ++phase) {
            const std::string key = kStepPhaseJsonKeys[phase];
            object.Int((key + "_a").c_str(), row.phasesA[phase]);
            object.Int((key + "_b").c_str(), row.phasesB[phase]);
        }
    });
}

void WriteCommunication(JsonObject& root, const TraceDiff& diff) {
    JsonArrayOfObjects(root.Key("communication"), diff.communication,
                       [](JsonObject& object, const CommunicationDiff& row) {
                           object.String("step", row.step);
                           object.String("name", row.name);
                           object.Int("elapse_ns_a", row.elapseA);
                           object.Int("elapse_ns_b", row.elapseB);
                           object.Int("transit_ns_a", row.transitA);
                           object.Int("transit_ns_b", row.transitB);
                           object.Int("wait_ns_a", row.waitA);
                           object.Int("wait_ns_b", row.waitB);
                           object.Int("idle_ns_a", row.idleA);
                           object.Int("idle_ns_b", row.idleB);
                           object.Int("diff_ns", row.DiffNs());
                       });
}

std::string SignedDuration(TimeNs ns) {
    return (ns >= 0 ? "+" : "-") + FormatDuration(ns >= 0 ? ns : -ns);
}

}  // namespace

std::string TraceDiffToJson(const RankSummary& a, const RankSummary& b, const TraceDiff& diff) {
    std::string out;
    {
        JsonObject root(out);
        WriteSide(root, "a", a);
        WriteSide(root, "b", b);
        WriteAlignment(root, diff.alignment);
        WriteOperators(root, "operators", diff.operators, true);
        WriteOperators(root, "types", diff.types, false);
        WriteOverview(root, diff);
        WriteSteps(root, diff);
        WriteCommunication(root, diff);
    }
    out += '\n';
    return out;
}

std::string TraceDiffToText(const RankSummary& a, const RankSummary& b, const TraceDiff& diff,
                            size_t top) {
    std::string out = "A: " + a.path + "\nB: " + b.path + "\n";
    for (const auto& [label, side] : {std::pair{"A", &a}, std::pair{"B", &b}})
        if (side->stepRowsLeftOut > 0)
            out += std::string(label) + ": " + side->StepRowsNote() + "\n";
    out += std::string("aligned by ") + AlignByName(diff.alignment.by);
    if (diff.alignment.by == AlignBy::kStep) out += " " + diff.alignment.step;
    if (diff.alignment.by == AlignBy::kOperator) out += " " + diff.alignment.operatorName;
    out += ": B's clock " + SignedDuration(diff.alignment.offsetNs);
    if (!diff.alignment.note.empty()) out += " (" + diff.alignment.note + ")";
    out += "\n\noperators (" + a.operatorSource + " / " + b.operatorSource +
           "), largest difference first:\n";
    char line[512];
    std::snprintf(line, sizeof line, "  %-40s %8s %8s %14s %14s %14s %8s\n", "name", "count A",
                  "count B", "total A", "total B", "B - A", "B / A");
    out += line;
    for (size_t i = 0; i < diff.operators.size() && i < top; ++i) {
        const OperatorDiff& row = diff.operators[i];
        char ratio[32] = "-";
        if (const auto r = row.Ratio()) std::snprintf(ratio, sizeof ratio, "%.2f", *r);
        std::snprintf(line, sizeof line, "  %-40.40s %8llu %8llu %14s %14s %14s %8s\n",
                      row.name.c_str(), static_cast<unsigned long long>(row.countA),
                      static_cast<unsigned long long>(row.countB),
                      FormatDuration(row.totalA).c_str(), FormatDuration(row.totalB).c_str(),
                      SignedDuration(row.DiffNs()).c_str(), ratio);
        out += line;
    }
    out += "\nsteps:\n";
    for (const StepDiff& row : diff.steps) {
        if (!row.inA || !row.inB) continue;
        std::snprintf(line, sizeof line, "  %-12s %14s %14s %14s", row.step.c_str(),
                      FormatDuration(row.aNs).c_str(), FormatDuration(row.bNs).c_str(),
                      SignedDuration(row.DiffNs()).c_str());
        out += line;
        const StepDifferencePlace place = PlaceStepDifference(row);
        out += (place.kind == StepDifferencePlace::kNone ? "" : "   " + place.text) + "\n";
    }
    return out;
}

}  // namespace marey
