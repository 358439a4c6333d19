#include "import/Importer.hpp"

#include "import/ascend_db/AscendDbImporter.hpp"
#include "import/ascend_text/AscendTextImporter.hpp"
#include "import/chrome_json/ChromeJsonImporter.hpp"
#include "import/cluster/ClusterImporter.hpp"
#include "import/kernel_csv/KernelCsvImporter.hpp"
#include "import/nsys/NsysImporter.hpp"

namespace marey {

const std::vector<Importer>& Importers() {
    // One line per format. A tie of confidence goes to the earlier line.
    static const std::vector<Importer> kImporters = {
        ClusterImporter(), AscendDbImporter(),   AscendTextImporter(),
        NsysImporter(),    ChromeJsonImporter(), KernelCsvImporter(),
    };
    return kImporters;
}

Result<const Importer*> ChooseImporter(const std::string& path, RankSource preference,
                                       bool clusters) {
    const Importer* best = nullptr;
    ProbeAnswer bestAnswer;
    std::string refusals;
    for (const Importer& importer : Importers()) {
        if (importer.kind == SourceKind::kCluster && !clusters) continue;
        ProbeAnswer answer = importer.probe(path, preference);
        if (answer.confidence > bestAnswer.confidence) {
            best = &importer;
            bestAnswer = std::move(answer);
        } else if (answer.confidence == 0 && !answer.why.empty()) {
            refusals = answer.why;  // the last refusal that names a preference, kept below
        }
    }
    if (!best) return Status::Error(path + ": error: " + refusals);
    return best;
}

EventDetails ReadRowDetails(const TraceSource& source, uint64_t ref) {
    for (const Importer& importer : Importers())
        if (importer.rowDetails && importer.format == source.format)
            return importer.rowDetails(source, ref);
    EventDetails details;
    details.error = source.path + ": no importer reads rows of this kind";
    return details;
}

}  // namespace marey
