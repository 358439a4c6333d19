#include "import/cluster/ClusterImporter.hpp"

#include "cluster/ClusterFolder.hpp"

namespace marey {
namespace {

ProbeAnswer Probe(const std::string& path, RankSource) {
    if (!IsClusterPath(path)) return {0, ""};
    return {100, "a cluster: several ranks, or a cluster summary"};
}

}  // namespace

Importer ClusterImporter() {
    return {SourceKind::kCluster,
            "Cluster",
            SourceFormat::kChromeJson,
            Probe,
            nullptr,
            nullptr,
            nullptr};
}

}  // namespace marey
