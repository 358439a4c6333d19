#include "load/RankTableFiles.hpp"

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

}  // namespace

RankTables ReadRankTableFiles(const RankFiles& files, const RankTableSelection& selection) {
    RankTables tables;
    std::vector<std::string>& problems = tables.problems;
    const size_t problemsBefore = problems.size();
    ReadAnalysisFile(files.kernelDetails, problems, [&](std::string_view text) {
        // A file whose bytes could not all be read (a truncated gzip) has said so just before.
        tables.kernelsCut = problems.size() > problemsBefore;
        KernelReadOptions read;
        read.names = selection.kernelNames;
        auto table = ParseKernelTable(text, files.kernelDetails, read);
        if (!table.ok()) return problems.push_back(table.message());
        AddFileProblems(files.kernelDetails, table.value().problems, problems);
        tables.kernels = std::move(table.value());
    });
    ReadAnalysisFile(files.stepTrace, problems, [&](std::string_view text) {
        auto steps = ParseStepTraceCsv(text, files.stepTrace);
        if (!steps.ok()) return problems.push_back(steps.message());
        AddFileProblems(files.stepTrace, steps.value().problems, problems);
        tables.steps = std::move(steps.value());
    });
    if (!tables.steps)  // MindSpore's own layout: its step_trace_raw
        ReadAnalysisFile(files.stepTraceRaw, problems, [&](std::string_view text) {
            auto steps = ParseStepTraceRawCsv(text, files.stepTraceRaw);
            if (!steps.ok()) return problems.push_back(steps.message());
            AddFileProblems(files.stepTraceRaw, steps.value().problems, problems);
            tables.steps = std::move(steps.value());
        });
    if (selection.opStatistic)
        ReadAnalysisFile(files.opStatistic, problems, [&](std::string_view text) {
            auto table = ParseOpStatisticCsv(text, files.opStatistic);
            if (!table.ok()) return problems.push_back(table.message());
            AddFileProblems(files.opStatistic, table.value().problems, problems);
            tables.opStatistic = std::move(table.value());
        });
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
    ReadAnalysisFile(files.memoryRecord, problems, [&](std::string_view text) {
        auto record = ParseMemoryRecordCsv(text, files.memoryRecord);
        if (!record.ok()) return problems.push_back(record.message());
        AddFileProblems(files.memoryRecord, record.value().problems, problems);
        tables.memoryRecord = std::move(record.value());
    });
    if (selection.operatorMemory)
        ReadAnalysisFile(files.operatorMemory, problems, [&](std::string_view text) {
            auto memory = ParseOperatorMemoryCsv(text, files.operatorMemory);
            if (!memory.ok()) return problems.push_back(memory.message());
            AddFileProblems(files.operatorMemory, memory.value().problems, problems);
            tables.operatorMemory = std::move(memory.value());
        });
    return tables;
}

}  // namespace marey
