#include "load/RankTableFiles.hpp"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/StringPool.hpp"
#include "core/Time.hpp"
#include "load/AnalysisFile.hpp"
#include "load/CommunicationJson.hpp"
#include "load/KernelTable.hpp"
#include "load/MemoryCsv.hpp"
#include "load/OpStatisticCsv.hpp"
#include "load/StepTraceCsv.hpp"

namespace marey {
namespace {

// A matrix's entries summed over the steps while they are read: no copy of an entry's text, one
// link per key. The links come out in the order their keys were first read.
class MatrixSums {
public:
    void Add(const CommunicationLinkView& entry) {
        const Key key{m_strings.Intern(entry.group), m_strings.Intern(entry.transport),
                      entry.srcRank, entry.dstRank};
        const auto [it, added] = m_index.try_emplace(key, m_links.size());
        if (added) {
            CommunicationLink link;
            link.kind = entry.kind;
            link.srcRank = entry.srcRank, link.dstRank = entry.dstRank;
            link.entries = 0;
            m_links.push_back(std::move(link));
            m_keys.push_back(key);
        }
        CommunicationLink& link = m_links[it->second];
        link.transitSizeMb += entry.transitSizeMb;
        link.transitNs = SaturatingAdd(link.transitNs, entry.transitNs);
        ++link.entries;
    }
    std::vector<CommunicationLink> Finish() {
        for (size_t i = 0; i < m_links.size(); ++i) {
            m_links[i].group = m_strings.Get(m_keys[i].group);
            m_links[i].transport = m_strings.Get(m_keys[i].transport);
        }
        return std::move(m_links);
    }

private:
    struct Key {
        StringId group = 0, transport = 0;
        int srcRank = -1, dstRank = -1;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        size_t operator()(const Key& key) const {
            return ((uint64_t{key.group} << 32) ^ key.transport) * 0x9E3779B97F4A7C15ull ^
                   (static_cast<uint64_t>(static_cast<uint32_t>(key.srcRank)) << 32 |
                    static_cast<uint32_t>(key.dstRank));
        }
    };
    StringPool m_strings;
    std::unordered_map<Key, size_t, KeyHash> m_index;
    std::vector<Key> m_keys;
    std::vector<CommunicationLink> m_links;
};

// Reads the table at 'path' with 'parse' (text, name → Result of a table with its problems) into
// 'out'; a file that cannot be read or parsed leaves 'out' unset and says why in 'problems'.
template <typename Table, typename Parse>
void ReadTable(const std::string& path, std::vector<std::string>& problems,
               std::optional<Table>& out, Parse parse) {
    ReadAnalysisFile(path, problems, [&](std::string_view text) {
        auto table = parse(text, path);
        if (!table.ok()) return problems.push_back(table.message());
        AddFileProblems(path, table.value().problems, problems);
        out = std::move(table.value());
    });
}

}  // namespace

RankTables ReadRankTableFiles(const RankFiles& files, const RankTableSelection& selection) {
    RankTables tables;
    std::vector<std::string>& problems = tables.problems;
    const size_t problemsBefore = problems.size();
    KernelReadOptions read;
    read.names = selection.kernelNames;
    ReadTable(files.kernelDetails, problems, tables.kernels,
              [&](std::string_view text, const std::string& name) {
                  // A file whose bytes could not all be read (a truncated gzip) said so just
                  // before.
                  tables.kernelsCut = problems.size() > problemsBefore;
                  return ParseKernelTable(text, name, read);
              });
    ReadTable(files.stepTrace, problems, tables.steps, ParseStepTraceCsv);
    if (!tables.steps)  // MindSpore's own layout: its step_trace_raw
        ReadTable(files.stepTraceRaw, problems, tables.steps, ParseStepTraceRawCsv);
    if (selection.opStatistic)
        ReadTable(files.opStatistic, problems, tables.opStatistic, ParseOpStatisticCsv);
    ReadAnalysisFile(files.communication, problems, [&](std::string_view text) {
        CommunicationOps ops;
        CommunicationReadOptions options;
        options.keepBandwidth = selection.communicationBandwidth;
        const Status status = ParseCommunicationJson(text, files.communication, ops, options);
        AddFileProblems(files.communication, ops.problems, problems);
        if (!status.ok()) return problems.push_back(status.message());
        tables.communication = std::move(ops);
    });
    ReadAnalysisFile(files.communicationMatrix, problems, [&](std::string_view text) {
        CommunicationMatrix matrix;
        Status status;
        if (selection.matrixByStep) {
            status = ParseCommunicationMatrixJson(text, files.communicationMatrix, matrix);
        } else {
            MatrixSums sums;
            status = ReadCommunicationMatrixLinks(
                text, files.communicationMatrix, matrix.problems,
                [&](const CommunicationLinkView& entry) { sums.Add(entry); });
            matrix.links = sums.Finish();
        }
        AddFileProblems(files.communicationMatrix, matrix.problems, problems);
        if (!status.ok()) return problems.push_back(status.message());
        tables.matrix = std::move(matrix);
    });
    ReadTable(files.memoryRecord, problems, tables.memoryRecord, ParseMemoryRecordCsv);
    if (selection.operatorMemory)
        ReadTable(files.operatorMemory, problems, tables.operatorMemory, ParseOperatorMemoryCsv);
    return tables;
}

}  // namespace marey
