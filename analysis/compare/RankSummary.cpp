#include "compare/RankSummary.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "rank/ProfilerSteps.hpp"

namespace marey {
namespace {

// Totals per name id (and per type id) of one string table, in one pass over the runs.
class OperatorAccumulator {
public:
    explicit OperatorAccumulator(size_t idCount)
        : m_byName(idCount), m_byType(idCount), m_typeOf(idCount, 0) {}

    void Add(StringId name, StringId type, TimeNs startNs, TimeNs durNs) {
        Add(m_byName[name], startNs, durNs);
        Add(m_byType[type], startNs, durNs);
        m_typeOf[name] = type;
    }

    // Named entries, largest total first. 'text' turns an id into its string.
    template <typename Text>
    void Finish(const Text& text, std::vector<SummaryOperator>& byName,
                std::vector<SummaryOperator>& byType) const {
        Collect(m_byName, text, true, byName);
        Collect(m_byType, text, false, byType);
    }

private:
    struct Totals {
        uint64_t count = 0;
        TimeNs totalNs = 0, minNs = 0, maxNs = 0, firstStartNs = 0;
    };

    static void Add(Totals& totals, TimeNs startNs, TimeNs durNs) {
        if (totals.count == 0 || durNs < totals.minNs) totals.minNs = durNs;
        if (totals.count == 0 || startNs < totals.firstStartNs) totals.firstStartNs = startNs;
        totals.maxNs = std::max(totals.maxNs, durNs);
        totals.totalNs += durNs;
        ++totals.count;
    }

    template <typename Text>
    void Collect(const std::vector<Totals>& table, const Text& text, bool byName,
                 std::vector<SummaryOperator>& out) const {
        for (StringId id = 0; id < table.size(); ++id) {
            const Totals& t = table[id];
            if (t.count == 0) continue;
            const std::string name(text(id));
            out.push_back({name, byName ? std::string(text(m_typeOf[id])) : name, t.count,
                           t.totalNs, t.minNs, t.maxNs, t.firstStartNs});
        }
        std::sort(out.begin(), out.end(), [](const SummaryOperator& a, const SummaryOperator& b) {
            return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
        });
    }

    std::vector<Totals> m_byName, m_byType;
    std::vector<StringId> m_typeOf;
};

// Calls visit(nameId, typeId, startNs, durNs) for every operator run of the source SummarizeRank
// uses, and returns that source's name. Ids are of the kernel table's strings for
// kernel_details.csv, else of the model's.
template <typename Visit>
const char* ForEachOperatorRun(const RankAnalysis& analysis, const TraceModel* model, Visit visit) {
    if (analysis.kernels) {
        for (const KernelRow& row : analysis.kernels->rows)
            visit(row.name, row.type, row.startNs, row.durNs);
        return analysis.kernelsFromTrace ? "device activities" : "kernel_details.csv";
    }
    if (!model) return "none";
    bool hasDevice = false;
    for (const Track& track : model->tracks) hasDevice |= track.role == TrackRole::kNpuStream;
    for (const Track& track : model->tracks) {
        if (track.kind == TrackKind::kCounter || (hasDevice && track.role != TrackRole::kNpuStream))
            continue;
        for (const Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i)
                visit(row.name[i], row.name[i], row.start[i], row.end[i] - row.start[i]);
    }
    return hasDevice ? "Ascend Hardware slices" : "all slices";
}

bool AllDigits(const std::string& text) {
    return !text.empty() && text.size() < 19 && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
}

std::vector<SummaryStep> CollectSteps(const RankAnalysis& analysis, const TraceModel* model) {
    std::vector<SummaryStep> steps;
    std::unordered_map<std::string, size_t> index;
    if (model) {
        for (const ProfilerStepSpan& span : FindProfilerSteps(*model)) {
            index.emplace(span.step, steps.size());
            SummaryStep step;
            step.step = span.step;
            step.placed = true;
            step.startNs = span.startNs;
            step.endNs = span.endNs;
            steps.push_back(std::move(step));
        }
    }
    if (analysis.steps) {
        for (const StepRow& row : analysis.steps->rows) {
            auto [it, inserted] = index.emplace(row.step, steps.size());
            if (inserted) steps.push_back(SummaryStep{row.step});
            SummaryStep& step = steps[it->second];
            step.hasPhases = true;
            step.phases = row.ns;
        }
    }
    const bool numeric = std::all_of(steps.begin(), steps.end(),
                                     [](const SummaryStep& s) { return AllDigits(s.step); });
    if (numeric) {
        std::stable_sort(steps.begin(), steps.end(),
                         [](const SummaryStep& a, const SummaryStep& b) {
                             return std::stoll(a.step) < std::stoll(b.step);
                         });
    }
    return steps;
}

}  // namespace

TimeNs SummaryStep::DurationNs() const {
    if (placed) return endNs - startNs;
    StepRow row;
    row.ns = phases;
    return StepWallNs(row);
}

const SummaryStep* RankSummary::FindStep(const std::string& name) const {
    for (const SummaryStep& step : steps)
        if (step.step == name) return &step;
    return nullptr;
}

OverviewFigures OverviewOfStep(const RankAnalysis& analysis, const TimeWindow& window) {
    RankTables step;
    if (analysis.steps && !window.step.empty())
        for (const StepRow& row : analysis.steps->rows)
            if (row.step == window.step) {
                step.steps.emplace();
                step.steps->rows.push_back(row);
                step.steps->hasColumn = analysis.steps->hasColumn;
                break;
            }
    if (analysis.kernels) {
        KernelTable kernels;  // the rows only: the overview reads their times and core classes
        for (const KernelRow& row : analysis.kernels->rows)
            if (window.Contains(row.startNs)) kernels.rows.push_back(row);
        step.kernels = std::move(kernels);
    }
    return RankOverviewFigures(OverviewInputsOf(step, analysis.origin));
}

std::string RankSummary::StepRowsNote() const {
    if (stepRowsLeftOut == 0) return "";
    return "its step file had " + std::to_string(stepRowsLeftOut) + " damaged row" +
           (stepRowsLeftOut == 1 ? "" : "s") + ", left out: the steps compared are those read";
}

RankSummary SummarizeRank(const RankAnalysis& analysis, const TraceModel* model,
                          const std::string& path, const std::optional<TimeWindow>& window) {
    RankSummary summary;
    summary.path = path;
    summary.rankId = analysis.files.rankId;
    if (model) summary.firstNs = model->firstNs, summary.lastNs = model->lastNs;
    const size_t idCount = analysis.kernels ? analysis.kernels->strings.size()
                           : model          ? model->strings.size()
                                            : 0;
    OperatorAccumulator accumulator(idCount);
    summary.operatorSource = ForEachOperatorRun(
        analysis, model, [&](StringId name, StringId type, TimeNs start, TimeNs dur) {
            if (!window || window->Contains(start)) accumulator.Add(name, type, start, dur);
        });
    if (analysis.kernels) {
        accumulator.Finish([&](StringId id) { return analysis.kernels->strings.Get(id); },
                           summary.operators, summary.types);
    } else if (model) {
        accumulator.Finish([&](StringId id) { return model->strings.Get(id); }, summary.operators,
                           summary.types);
    }
    summary.overview = window ? OverviewOfStep(analysis, *window) : analysis.overview;
    summary.steps = CollectSteps(analysis, model);
    if (analysis.steps && !analysis.stepsFromTrace)
        summary.stepRowsLeftOut = analysis.steps->problems.size();
    if (analysis.communication) {
        for (const CommunicationOp& op : analysis.communication->ops) {
            if (op.isTotal || (window && op.hasStart && !window->Contains(op.startNs))) continue;
            summary.communication.push_back({op.step, op.name, op.hasStart ? op.startNs : 0,
                                             op.elapseNs, op.transitNs, op.waitNs, op.syncNs,
                                             op.idleNs});
        }
    }
    return summary;
}

StepOperatorTotals OperatorTotalsPerStep(const RankAnalysis& analysis, const TraceModel* model,
                                         const std::vector<SummaryStep>& steps) {
    // Placed steps by start, so that a run finds its step by binary search.
    std::vector<size_t> order;
    for (size_t i = 0; i < steps.size(); ++i)
        if (steps[i].placed) order.push_back(i);
    std::sort(order.begin(), order.end(),
              [&](size_t x, size_t y) { return steps[x].startNs < steps[y].startNs; });
    std::vector<std::vector<TimeNs>> byNameId, byTypeId;
    auto addTo = [&](std::vector<std::vector<TimeNs>>& table, StringId id, size_t step,
                     TimeNs durNs) {
        if (table.size() <= id) table.resize(id + 1);
        if (table[id].empty()) table[id].assign(steps.size(), 0);
        table[id][step] += durNs;
    };
    ForEachOperatorRun(
        analysis, model, [&](StringId name, StringId type, TimeNs start, TimeNs dur) {
            auto after = std::upper_bound(order.begin(), order.end(), start,
                                          [&](TimeNs t, size_t i) { return t < steps[i].startNs; });
            if (after == order.begin()) return;
            const size_t step = *(after - 1);
            if (start >= steps[step].endNs) return;
            addTo(byNameId, name, step, dur);
            addTo(byTypeId, type, step, dur);
        });
    StepOperatorTotals totals;
    auto text = [&](StringId id) {
        return std::string(analysis.kernels ? analysis.kernels->strings.Get(id)
                                            : model->strings.Get(id));
    };
    for (StringId id = 0; id < byNameId.size(); ++id)
        if (!byNameId[id].empty()) totals.byName[text(id)] = std::move(byNameId[id]);
    for (StringId id = 0; id < byTypeId.size(); ++id)
        if (!byTypeId[id].empty()) totals.byType[text(id)] = std::move(byTypeId[id]);
    return totals;
}

std::optional<TimeNs> OperatorOccurrenceStart(const RankAnalysis& analysis, const TraceModel* model,
                                              const std::string& name, uint64_t occurrence) {
    std::vector<TimeNs> starts;
    const StringId wanted = analysis.kernels ? analysis.kernels->strings.Find(name)
                            : model          ? model->strings.Find(name)
                                             : 0;
    if (wanted == 0) return std::nullopt;
    ForEachOperatorRun(analysis, model, [&](StringId id, StringId, TimeNs start, TimeNs) {
        if (id == wanted) starts.push_back(start);
    });
    if (occurrence >= starts.size()) return std::nullopt;
    std::nth_element(starts.begin(), starts.begin() + static_cast<ptrdiff_t>(occurrence),
                     starts.end());
    return starts[occurrence];
}

}  // namespace marey
