#include "marey/MareyJson.hpp"

#include <algorithm>
#include <map>

#include "core/ParallelFor.hpp"
#include "marey/Marey.hpp"
#include "report/JsonWriter.hpp"
#include "core/RobustStats.hpp"

namespace marey {

std::string MareyToJson(const Cluster& cluster, unsigned threads) {
    const std::vector<RankId> order = MareyDeviceOrder(cluster);
    const MareyTables tables = LoadMareyTables(cluster, order, threads);
    const std::vector<std::string>& problems = tables.problems;
    struct StepFigures {
        std::string step;
        size_t operators = 0;
        MareyMatchCount count;
        std::optional<RankId> slowest;
        TimeNs excessNs = 0;
        std::vector<DeviceSlant> slants;
    };
    // Each step is built from the tables alone: the steps go side by side.
    std::vector<StepFigures> steps(cluster.steps.size());
    ParallelFor(steps.size(), std::max(1u, threads), std::vector<uint64_t>(steps.size(), 1),
                [&](size_t s) {
                    const std::string& step = cluster.steps[s];
                    const MareyStep marey = BuildMareyStep(tables, {step});
                    StepFigures figures{step, marey.keys.size(),  CountMatches(marey), std::nullopt,
                                        0,    DeviceSlants(marey)};
                    figures.slowest = SlowestDevice(figures.slants, &figures.excessNs);
                    steps[s] = std::move(figures);
                });
    // The slowest device over the steps: the one most often slowest, with its median excess.
    std::map<RankId, std::vector<TimeNs>> excessOf;
    for (const StepFigures& figures : steps)
        if (figures.slowest) excessOf[*figures.slowest].push_back(figures.excessNs);
    std::optional<RankId> slowest;
    for (const auto& [rank, excesses] : excessOf)
        if (!slowest || excesses.size() > excessOf[*slowest].size()) slowest = rank;
    std::string out;
    {
        JsonObject root(out);
        WriteRankIds(root.Key("devices"), RankNumbers(order));
        JsonArrayOfObjects(root.Key("steps"), steps, [](JsonObject& o, const StepFigures& figures) {
            o.String("step", figures.step);
            o.Int("operators", static_cast<int64_t>(figures.operators));
            o.Int("matched", static_cast<int64_t>(figures.count.matched));
            o.Int("unmatched", static_cast<int64_t>(figures.count.unmatched));
            if (figures.slowest)
                o.Int("slowest_device", figures.slowest->value());
            else
                o.Null("slowest_device");
            o.Int("slant_excess_ns", figures.excessNs);
        });
        if (!slowest) {
            root.Null("slowest_device");
        } else {
            std::vector<TimeNs> excesses = excessOf[*slowest];
            JsonObject device(root.Key("slowest_device"));
            device.Int("rank", slowest->value());
            device.Int("steps_slowest", static_cast<int64_t>(excesses.size()));
            device.Int("slant_excess_ns", Median(excesses));
        }
        std::vector<std::string> missing;
        for (size_t i = 0; i < problems.size(); ++i)
            if (!problems[i].empty())
                missing.push_back("rank " + ToString(order[i]) + ": " + problems[i]);
        JsonArray(root.Key("problems"), missing,
                  [](std::string& o, const std::string& p) { AppendJsonString(o, p); });
    }
    return out;
}

}  // namespace marey
