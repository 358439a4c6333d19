#include "cluster/ClusterSteps.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/RobustStats.hpp"
#include "core/TextFormat.hpp"

namespace marey {
namespace {

// Phases that can make a rank slow on their own. Overlapped, Communication, Stage and the
// receive-less communication are sums or views of these.
constexpr int kJudgedColumns[] = {kStepComputing, kStepCommNotOverlapped, kStepFree, kStepBubble,
                                  kStepPreparing};

void AddRow(const StepRow& row, std::array<TimeNs, kStepColumnCount>& sum) {
    for (int p = 0; p < kStepPhaseCount; ++p) sum[p] = SaturatingAdd(sum[p], row.ns[p]);
    sum[kStepTimeColumn] = SaturatingAdd(sum[kStepTimeColumn], StepWallNs(row));
}

}  // namespace

const char* StepColumnName(int column, StepLayout layout) {
    if (column == kStepTimeColumn) return "Step time";
    if (layout == StepLayout::kMindInsight) {
        if (column == kStepFree) return "Step interval";
        if (column == kStepComputing) return "Forward and backward";
        if (column == kStepCommNotOverlapped) return "Step tail";
    }
    return kStepPhaseColumns[column];
}

const char* StepColumnKey(int column, StepLayout layout) {
    if (layout == StepLayout::kMindInsight) {
        if (column == kStepFree) return "step_interval";
        if (column == kStepComputing) return "forward_backward";
        if (column == kStepCommNotOverlapped) return "step_tail";
    }
    static const char* const keys[kStepColumnCount] = {
        "computing",  "communication_not_overlapped",
        "overlapped", "communication",
        "free",       "stage",
        "bubble",     "communication_not_overlapped_exclude_receive",
        "preparing",  "step_time"};
    return keys[column];
}

StepTable BuildStepTable(const Cluster& cluster, std::optional<StepIndex> step) {
    StepTable table;
    table.layout = cluster.layout;
    if (step && step->value() >= 0 && static_cast<size_t>(step->value()) < cluster.steps.size())
        table.step = cluster.steps[static_cast<size_t>(step->value())];
    table.rows.resize(cluster.ranks.size());
    for (size_t r = 0; r < cluster.ranks.size(); ++r) {
        const ClusterRank& rank = cluster.ranks[r];
        StepTableRow& out = table.rows[r];
        out.rankId = rank.Id();
        for (int p = 0; p < kStepPhaseCount; ++p)
            table.hasColumn[p] = table.hasColumn[p] || rank.hasPhase[p];
        if (!table.step.empty()) {
            if (const StepRow* row = rank.FindStep(table.step))
                AddRow(*row, out.ns), out.present = true;
            continue;
        }
        for (const StepRow& row : rank.steps) AddRow(row, out.ns);
        if (!rank.steps.empty()) {
            out.present = true;
            for (TimeNs& ns : out.ns) ns /= static_cast<TimeNs>(rank.steps.size());
        }
    }
    table.hasColumn[kStepTimeColumn] = table.hasColumn[kStepComputing];
    return table;
}

std::vector<SlowRank> FindSlowRanks(const StepTable& table, const std::vector<int>& onlyRanks) {
    std::vector<const StepTableRow*> rows;
    for (const StepTableRow& row : table.rows)
        if (row.present &&
            (onlyRanks.empty() ||
             std::binary_search(onlyRanks.begin(), onlyRanks.end(), row.rankId.value())))
            rows.push_back(&row);
    if (rows.size() < 3) return {};  // two ranks cannot say which of them is the odd one
    auto spreadOf = [&](int column) {
        std::vector<double> values;
        values.reserve(rows.size());
        for (const StepTableRow* row : rows) values.push_back(static_cast<double>(row->ns[column]));
        return MedianAndMad(values);
    };
    const RobustSpread stepSpread = spreadOf(kStepTimeColumn);
    const double matters = kSlowShareOfStep * stepSpread.median;
    std::vector<int> columns;
    for (const int column : kJudgedColumns)
        if (table.hasColumn[column]) columns.push_back(column);
    std::vector<RobustSpread> spreads;
    for (const int column : columns) spreads.push_back(spreadOf(column));
    std::vector<SlowRank> slow;
    for (const StepTableRow* row : rows) {
        auto judge = [&](int column, const RobustSpread& spread) -> std::optional<SlowRank> {
            const double value = static_cast<double>(row->ns[column]);
            const double score = RobustScore(value, spread);
            if (score <= kSlowScore || value - spread.median < matters || matters <= 0)
                return std::nullopt;
            return SlowRank{row->rankId,
                            column,
                            table.layout,
                            row->ns[column],
                            static_cast<TimeNs>(std::llround(spread.median)),
                            static_cast<TimeNs>(std::llround(spread.mad)),
                            score};
        };
        std::optional<SlowRank> worst;
        for (size_t i = 0; i < columns.size(); ++i) {
            const std::optional<SlowRank> flagged = judge(columns[i], spreads[i]);
            if (flagged &&
                (!worst || flagged->valueNs - flagged->medianNs > worst->valueNs - worst->medianNs))
                worst = flagged;
        }
        if (!worst) worst = judge(kStepTimeColumn, stepSpread);
        if (worst) slow.push_back(*worst);
    }
    std::sort(slow.begin(), slow.end(), [](const SlowRank& a, const SlowRank& b) {
        return a.valueNs - a.medianNs > b.valueNs - b.medianNs;
    });
    return slow;
}

std::string DescribeSlowRank(const SlowRank& slow) {
    // Against a median of 0 (a phase most ranks never spend time in) no ratio means anything.
    char share[40] = "";
    if (slow.medianNs > 0)
        std::snprintf(share, sizeof share, ", %+.1f %%",
                      100.0 * static_cast<double>(slow.valueNs - slow.medianNs) /
                          static_cast<double>(slow.medianNs));
    return "rank " + ToString(slow.rankId) + ": " + StepColumnName(slow.column, slow.layout) + " " +
           FormatDuration(slow.valueNs) + " against a median of " + FormatDuration(slow.medianNs) +
           " (MAD " + FormatDuration(slow.madNs) + ")" + share;
}

std::optional<RankId> MedianRankOf(const StepTable& table) {
    std::vector<const StepTableRow*> rows;
    for (const StepTableRow& row : table.rows)
        if (row.present) rows.push_back(&row);
    if (rows.empty()) return std::nullopt;
    std::vector<TimeNs> times;
    for (const StepTableRow* row : rows) times.push_back(row->ns[kStepTimeColumn]);
    const TimeNs median = Median(times);
    // The rank nearest the median (the median of an even count may be no rank's own time); on a
    // tie, the earlier rank.
    const StepTableRow* nearest = rows.front();
    for (const StepTableRow* row : rows)
        if (std::llabs(row->ns[kStepTimeColumn] - median) <
            std::llabs(nearest->ns[kStepTimeColumn] - median))
            nearest = row;
    return nearest->rankId;
}

}  // namespace marey
