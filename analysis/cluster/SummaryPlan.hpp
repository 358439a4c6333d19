#pragma once
// Which process of a summarising job reads which rank: each rank is read where its files are.
// A rank seen by the processes of one node only (a node's local disk) is read there; one seen by
// several (a shared file system) goes to the node its path names, when it names one; the rest are
// spread so that every process reads about as many bytes. Pure: the MPI program gathers what each
// node sees and applies this on process 0.
#include <cstdint>
#include <string>
#include <vector>

namespace marey {

struct PlanProcess {
    std::string host;  // the node it runs on
};

struct PlanInput {
    std::string path;                // absolute
    uint64_t bytes = 0;              // what summarising it reads
    std::vector<std::string> hosts;  // the nodes that see it
};

// The node 'path' belongs to by 'rule': "{node}" in the rule stands for a host name, and the
// rule with a host's name put in must occur in the path ("/scratch/{node}/job" or "{node}-rank").
// Without a rule, a host whose name (or its part before the first '.') is one of the path's
// folder names. Empty when no host of 'hosts' matches, or more than one does.
std::string NodeOfPath(const std::string& path, const std::vector<std::string>& hosts,
                       const std::string& rule);

// The process (index into 'processes') that reads each input: among the processes on the node
// the path names (when that node sees it), else on the nodes that see it, else on any node, the
// one with the fewest bytes so far; inputs taken largest first. Deterministic. O(inputs ×
// processes + inputs log inputs).
std::vector<int> PlanSummaries(const std::vector<PlanInput>& inputs,
                               const std::vector<PlanProcess>& processes, const std::string& rule);

}  // namespace marey
