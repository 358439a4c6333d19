#include "cluster/SummaryPlan.hpp"

#include <algorithm>
#include <filesystem>
#include <numeric>

namespace marey {
namespace {

bool PathHasFolder(const std::string& path, const std::string& folder) {
    if (folder.empty()) return false;
    for (const auto& part : std::filesystem::path(path))
        if (part.string() == folder) return true;
    return false;
}

bool HostNamedByPath(const std::string& path, const std::string& host, const std::string& rule) {
    if (rule.empty())
        return PathHasFolder(path, host) || PathHasFolder(path, host.substr(0, host.find('.')));
    std::string pattern = rule;
    for (size_t at = pattern.find("{node}"); at != std::string::npos;
         at = pattern.find("{node}", at + host.size()))
        pattern.replace(at, 6, host);
    return path.find(pattern) != std::string::npos;
}

}  // namespace

std::string NodeOfPath(const std::string& path, const std::vector<std::string>& hosts,
                       const std::string& rule) {
    std::string found;
    for (const std::string& host : hosts) {
        if (host == found || !HostNamedByPath(path, host, rule)) continue;
        if (!found.empty()) return {};  // two nodes named: the path decides nothing
        found = host;
    }
    return found;
}

std::vector<int> PlanSummaries(const std::vector<PlanInput>& inputs,
                               const std::vector<PlanProcess>& processes, const std::string& rule) {
    std::vector<std::string> hosts;
    for (const PlanProcess& process : processes)
        if (std::find(hosts.begin(), hosts.end(), process.host) == hosts.end())
            hosts.push_back(process.host);
    std::vector<size_t> order(inputs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return inputs[a].bytes > inputs[b].bytes; });
    std::vector<uint64_t> load(processes.size(), 0);
    std::vector<int> owner(inputs.size(), -1);
    for (const size_t i : order) {
        const PlanInput& input = inputs[i];
        const std::string named = NodeOfPath(input.path, hosts, rule);
        const bool namedSees = !named.empty() && std::find(input.hosts.begin(), input.hosts.end(),
                                                           named) != input.hosts.end();
        const auto eligible = [&](const PlanProcess& process) {
            if (namedSees) return process.host == named;
            return std::find(input.hosts.begin(), input.hosts.end(), process.host) !=
                   input.hosts.end();
        };
        int best = -1;
        for (int pass = 0; pass < 2 && best < 0; ++pass)  // pass 1: no node sees it, any process
            for (size_t p = 0; p < processes.size(); ++p)
                if ((pass == 1 || eligible(processes[p])) &&
                    (best < 0 || load[p] < load[static_cast<size_t>(best)]))
                    best = static_cast<int>(p);
        if (best < 0) continue;  // no process at all
        owner[i] = best;
        load[static_cast<size_t>(best)] += std::max<uint64_t>(input.bytes, 1);
    }
    return owner;
}

}  // namespace marey
