#include "rank/DataLoaderWait.hpp"

#include <algorithm>

#include "core/TextFormat.hpp"
#include "rank/ProfilerSteps.hpp"

namespace marey {
namespace {

constexpr std::string_view kLoaderPrefix = "enumerate(DataLoader)#";

struct Span {
    TimeNs startNs, endNs;
};

// 'spans' as disjoint spans in time order. O(n log n).
std::vector<Span> Union(std::vector<Span> spans) {
    std::sort(spans.begin(), spans.end(),
              [](const Span& a, const Span& b) { return a.startNs < b.startNs; });
    std::vector<Span> merged;
    for (const Span& span : spans) {
        if (span.endNs <= span.startNs) continue;
        if (!merged.empty() && span.startNs <= merged.back().endNs)
            merged.back().endNs = std::max(merged.back().endNs, span.endNs);
        else
            merged.push_back(span);
    }
    return merged;
}

// Disjoint spans with the running sum of their lengths: how much of any window they cover, in
// O(log spans).
class Coverage {
public:
    explicit Coverage(std::vector<Span> spans) : m_spans(Union(std::move(spans))) {
        m_before.reserve(m_spans.size() + 1);
        m_before.push_back(0);
        for (const Span& span : m_spans)
            m_before.push_back(
                SaturatingAdd(m_before.back(), SaturatingSpan(span.startNs, span.endNs)));
    }
    bool Empty() const { return m_spans.empty(); }
    // The covered time of [a, b).
    TimeNs Covered(TimeNs a, TimeNs b) const { return CoveredBefore(b) - CoveredBefore(a); }
    // The first covered instant at or after 't', or -1.
    TimeNs NextCovered(TimeNs t) const {
        const auto it = std::upper_bound(m_spans.begin(), m_spans.end(), t,
                                         [](TimeNs v, const Span& s) { return v < s.endNs; });
        if (it == m_spans.end()) return -1;
        return std::max(it->startNs, t);
    }

private:
    TimeNs CoveredBefore(TimeNs t) const {
        // The spans that end by 't' whole, and the part of the one 't' falls in.
        const auto it = std::upper_bound(m_spans.begin(), m_spans.end(), t,
                                         [](TimeNs v, const Span& s) { return v < s.endNs; });
        const size_t whole = static_cast<size_t>(it - m_spans.begin());
        TimeNs covered = m_before[whole];
        if (it != m_spans.end() && it->startNs < t)
            covered = SaturatingAdd(covered, SaturatingSpan(it->startNs, t));
        return covered;
    }

    std::vector<Span> m_spans;
    std::vector<TimeNs> m_before;  // m_before[i]: the length of spans 0..i-1
};

// The steps: the analyses' step windows, else the trace's ProfilerStep slices.
std::vector<LoaderStep> StepsOf(const TraceModel& model, const TraceAnalyses* analyses) {
    std::vector<LoaderStep> steps;
    if (analyses && !analyses->steps.empty()) {
        for (const StepWindow& window : analyses->steps)
            steps.push_back({window.label, window.startNs, window.endNs});
    } else {
        for (const ProfilerStepSpan& span : FindProfilerSteps(model))
            steps.push_back({span.step, span.startNs, span.endNs});
    }
    std::sort(steps.begin(), steps.end(),
              [](const LoaderStep& a, const LoaderStep& b) { return a.startNs < b.startNs; });
    return steps;
}

std::string Finding(const DataLoaderRecord& record) {
    const bool device = record.deviceIdleNs >= 0;
    const TimeNs waited = device ? record.deviceIdleNs : record.loaderNs;
    std::string text =
        (device ? "input-bound: the device sat idle for " + FormatDuration(waited) +
                      " while the data loader ran, "
                : "input-bound: the data loader took " + FormatDuration(waited) + ", ") +
        FormatPercent(static_cast<double>(waited) / static_cast<double>(record.stepsNs)) +
        " of the steps' time; " + std::to_string(record.waitedSteps) + " of " +
        std::to_string(record.steps.size()) + " steps waited on it. ";
    if (record.iterator.find("SingleProcess") != std::string::npos)
        text +=
            "The data loads in the training process itself (num_workers=0): give the "
            "DataLoader worker processes (num_workers), pin_memory=True, and a prefetch_factor.";
    else
        text +=
            "Raise the DataLoader's num_workers or prefetch_factor, or make each sample's "
            "loading and transforms cheaper.";
    return text;
}

}  // namespace

DataLoaderRecord AnalyzeDataLoader(const TraceModel& model, const TraceAnalyses* analyses) {
    DataLoaderRecord record;
    // Names first (few): no loader name, no pass over the slices.
    std::vector<char> isLoader(model.strings.size(), 0);
    bool any = false;
    for (StringId id = 1; id < model.strings.size(); ++id) {
        const std::string_view name = model.strings.Get(id);
        if (name.substr(0, kLoaderPrefix.size()) != kLoaderPrefix) continue;
        isLoader[id] = 1, any = true;
        if (record.iterator.empty()) {
            std::string_view iterator = name.substr(kLoaderPrefix.size());
            iterator = iterator.substr(0, iterator.find(".__next__"));
            record.iterator = std::string(iterator);
        }
    }
    if (!any) return record;
    std::vector<Span> calls;
    for (const Track& track : model.tracks)
        for (const Row& row : track.rows)
            for (size_t i = 0; i < row.size(); ++i)
                if (isLoader[row.name[i]] && row.end[i] > row.start[i])  // a damaged one: no call
                    calls.push_back({row.start[i], row.end[i]});
    std::sort(calls.begin(), calls.end(),
              [](const Span& a, const Span& b) { return a.startNs < b.startNs; });
    std::vector<Span> activities;
    if (analyses)
        for (const DeviceActivity& activity : analyses->activities.activities)
            activities.push_back({activity.startNs, activity.endNs});
    const Coverage device(std::move(activities));
    if (calls.empty()) return DataLoaderRecord{};  // loader names, but no call with a duration
    record.steps = StepsOf(model, analyses);
    // Each call belongs to the one step it starts in (the latest step starting at or before it),
    // counted up to that step's end: overlapping steps never count a call twice. O(calls × log).
    std::vector<std::vector<Span>> callsOf(record.steps.size());
    std::vector<Span> outside;
    for (const Span& call : calls) {
        const auto after =
            std::upper_bound(record.steps.begin(), record.steps.end(), call.startNs,
                             [](TimeNs t, const LoaderStep& step) { return t < step.startNs; });
        const size_t index = static_cast<size_t>(after - record.steps.begin());
        if (index > 0 && call.startNs < record.steps[index - 1].endNs)
            callsOf[index - 1].push_back(
                {call.startNs, std::min(call.endNs, record.steps[index - 1].endNs)});
        else
            outside.push_back(call);
    }
    for (size_t k = 0; k < record.steps.size(); ++k) {
        LoaderStep& step = record.steps[k];
        step.calls = static_cast<uint32_t>(callsOf[k].size());
        const TimeNs stepNs = SaturatingSpan(step.startNs, step.endNs);
        if (!device.Empty()) step.deviceIdleNs = 0;
        for (const Span& span : Union(std::move(callsOf[k]))) {
            const TimeNs length = SaturatingSpan(span.startNs, span.endNs);
            step.loaderNs = SaturatingAdd(step.loaderNs, length);
            if (!device.Empty())
                step.deviceIdleNs = SaturatingAdd(
                    step.deviceIdleNs, length - device.Covered(span.startNs, span.endNs));
        }
        const TimeNs next = device.NextCovered(step.startNs);
        if (next >= 0 && next < step.endNs) step.firstActivityGapNs = next - step.startNs;
        step.waited = !device.Empty()
                          ? step.deviceIdleNs >= kWaitShare * step.loaderNs &&
                                step.deviceIdleNs >= kWaitOfStep * stepNs && step.loaderNs > 0
                          : step.loaderNs >= kLoaderOfStep * stepNs && step.loaderNs > 0;
        record.stepsNs = SaturatingAdd(record.stepsNs, stepNs);
        record.loaderNs = SaturatingAdd(record.loaderNs, step.loaderNs);
        if (!device.Empty())
            record.deviceIdleNs =
                SaturatingAdd(std::max<TimeNs>(record.deviceIdleNs, 0), step.deviceIdleNs);
        record.waitedSteps += step.waited;
    }
    record.callsOutsideSteps = static_cast<uint32_t>(outside.size());
    for (const Span& call : Union(std::move(outside)))
        record.callsOutsideNs =
            SaturatingAdd(record.callsOutsideNs, SaturatingSpan(call.startNs, call.endNs));
    const TimeNs waited = record.deviceIdleNs >= 0 ? record.deviceIdleNs : record.loaderNs;
    record.inputBound =
        record.stepsNs > 0 && waited >= kInputBoundShare * static_cast<double>(record.stepsNs);
    if (record.inputBound) record.finding = Finding(record);
    return record;
}

}  // namespace marey
