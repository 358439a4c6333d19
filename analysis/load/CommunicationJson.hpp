#pragma once
// communication.json and communication_matrix.json (Ascend profilers, Level1/Level2, more than
// one card): per step, per communication operator, where its time went and what each link carried.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Status.hpp"
#include "core/Time.hpp"

namespace marey {

// One bucket of "Size Distribution": packets of 'sizeMb' each.
struct PacketSizeBucket {
    double sizeMb = 0;
    uint64_t count = 0;
    TimeNs totalNs = 0;
};

// "Communication Bandwidth Info" for one transport (HCCS, PCIE, RDMA, SDMA, SIO).
struct TransportBandwidth {
    std::string transport;
    double transitSizeMb = 0;
    TimeNs transitNs = 0;
    double bandwidthGBps = 0;      // < 0 when absent ("Total Op Info" has none)
    double largePacketRatio = -1;  // < 0 when absent
    std::vector<PacketSizeBucket> sizes;
};

struct CommunicationOp {
    std::string step;   // "step50"
    std::string kind;   // "collective" or "p2p"
    std::string name;   // "hcom_allReduce__586_0_1"; "Total Op Info" for the summary entry
    std::string group;  // the hash after '@', empty for the summary
    bool isTotal = false;
    int rank = -1;  // the rank it ran on: cluster_communication.json only
    bool hasStart = false;
    TimeNs startNs = 0;  // µs since the epoch in the file, exact
    TimeNs elapseNs = 0, transitNs = 0, waitNs = 0, syncNs = 0, idleNs = 0;
    double waitRatio = 0, syncRatio = 0;
    std::vector<TransportBandwidth> bandwidth;
};

// One link of communication_matrix.json.
struct CommunicationLink {
    std::string step, kind;
    std::string group;   // the op level key: "allreduce-top1@…" (2025) or the op name (2023)
    std::string opName;  // "Op Name" when the file has it, else the group key without its hash
    int srcRank = -1, dstRank = -1;
    std::string transport;  // LOCAL, HCCS, RDMA, …
    double transitSizeMb = 0;
    TimeNs transitNs = 0;
    double bandwidthGBps = 0;
    // The file's entries it stands for: 1 as read; more once a reader summed the entries of one
    // operator, group, source, destination and transport over the steps (step then empty).
    uint32_t entries = 1;
};

// One link as read, for a reader that keeps less than CommunicationLink: its text is only valid
// during the call it is handed to.
struct CommunicationLinkView {
    std::string_view step, kind;
    std::string_view group;   // as in CommunicationLink
    std::string_view opName;  // "Op Name" when the file has it, else empty
    int srcRank = -1, dstRank = -1;
    std::string_view transport;
    double transitSizeMb = 0;
    TimeNs transitNs = 0;
    double bandwidthGBps = 0;
    // The file's entries it stands for: 1 as read; more once a reader summed the entries of one
    // operator, group, source, destination and transport over the steps (step then empty).
    uint32_t entries = 1;
};

struct CommunicationOps {
    std::vector<CommunicationOp> ops;
    // Made from a trace alone: each operator's start and elapse only, as a trace records no
    // transit, wait, synchronisation or idle split (those stay 0).
    bool elapseOnly = false;
    std::vector<ImportProblem> problems;  // with line and column filled in
};

struct CommunicationMatrix {
    std::vector<CommunicationLink> links;
    std::vector<ImportProblem> problems;
    // The links are summed over the steps already, one per key (MatrixLinkSums), not as read.
    bool linksSummed = false;
};

// What reading communication.json keeps.
struct CommunicationReadOptions {
    // Each operator's "Communication Bandwidth Info" (its values are checked either way, and a
    // bad one still leaves the operator out): the cluster's summary has no use for it.
    bool keepBandwidth = true;
};

// Reads communication.json into data.ops. Every field is optional; a value of the wrong type is
// reported with its place and read as 0; a negative or infinite time, size, bandwidth or ratio is
// reported and its operator (or link) left out; a structural error ends the read there, keeps what
// came before it and reports where. 'text' needs simdjson::SIMDJSON_PADDING readable bytes past its
// end. Fails only when the text is not a JSON object at all.
Status ParseCommunicationJson(std::string_view paddedText, const std::string& name,
                              CommunicationOps& data, const CommunicationReadOptions& options = {});

// Reads msprof-analyze's cluster_communication.json ({ group: { step: { op: { rank: {…} } } } })
// into data.ops, one per operator and rank, with the same rules: 'kind' holds the group ("p2p",
// "(0, 1, 2, 3)") and 'rank' the rank.
Status ParseClusterCommunicationJson(std::string_view paddedText, const std::string& name,
                                     CommunicationOps& data);

// Reads communication_matrix.json into data.links, with the same rules. msprof-analyze's
// cluster_communication_matrix.json has the same shape with the group where the step is and the
// step where the kind is.
Status ParseCommunicationMatrixJson(std::string_view paddedText, const std::string& name,
                                    CommunicationMatrix& data);

// The same read handing each link that ParseCommunicationMatrixJson keeps to 'visit', in file
// order, without keeping any: no allocation per link. Problems go to 'problems'.
Status ReadCommunicationMatrixLinks(std::string_view paddedText, const std::string& name,
                                    std::vector<ImportProblem>& problems,
                                    const std::function<void(const CommunicationLinkView&)>& visit);

}  // namespace marey
