#include "cluster/ClusterReport.hpp"

#include <algorithm>

namespace marey {

ClusterReport BuildClusterReport(const Cluster& cluster) {
    ClusterReport report;
    report.averagedSteps = BuildStepTable(cluster, std::nullopt);
    report.slowRanks = FindSlowRanks(report.averagedSteps);
    report.matrix = BuildMatrix(cluster);
    report.slowLinks = FindSlowLinks(report.matrix);
    report.matrixOperators = MatrixOperators(cluster);
    report.findings = FindClusterProblems(cluster, report.averagedSteps);
    report.timeOverview = BuildTimeOverview(cluster);
    report.collectives = ListCollectives(cluster);
    for (const ClusterRank& rank : cluster.ranks)
        for (const RankCollective& collective : rank.collectives)
            report.collectiveDurations.push_back(collective.elapseNs);
    std::sort(report.collectiveDurations.begin(), report.collectiveDurations.end());
    return report;
}

}  // namespace marey
