#include "FlopsWriter.hpp"

#include <cstdio>
#include <vector>

#include "GeneratedText.hpp"

namespace marey {
namespace {

struct GeneratedOp {
    const char* scope;  // under Default/network-WithLossCell/_backbone-Net
    const char* name;
    double share;       // of kGeneratedMflops
    double gflopsPerS;  // before the scale
};

constexpr GeneratedOp kOps[] = {
    {"layer1-Dense", "MatMul-op1", 0.40, 180.0},
    {"layer2-Dense", "MatMul-op2", 0.35, 170.0},
    {"layer2-Dense", "BiasAdd-op3", 0.05, 20.0},
    {"head-Dense", "MatMul-op4", 0.20, 160.0},
};
constexpr double kPeakGflops = 320.0;  // utilisation = GFLOPS / peak

std::string Number(double value) {
    char text[48];
    std::snprintf(text, sizeof text, "%.3f", value);
    return text;
}

}  // namespace

bool WriteFlopsFiles(const std::string& folder, int rank, double scale, std::string* error) {
    const std::string base = "Default/network-WithLossCell/_backbone-Net/";
    std::string table = "op_full_name, MFLOPs(10^6), GFLOPS(10^9), FLOPS utilization(%) \n";
    double mflops = 0, gflops = 0, utilization = 0;
    for (const GeneratedOp& op : kOps) {
        const double opMflops = kGeneratedMflops * op.share * scale;
        const double opGflops = op.gflopsPerS * scale;
        const double opUtilization = opGflops / kPeakGflops * 100;
        table += base + op.scope + "/" + op.name + ", " + Number(opMflops) + ", " +
                 Number(opGflops) + ", " + Number(opUtilization) + "\n";
        mflops += opMflops, gflops += opGflops, utilization += opUtilization;
    }
    const double count = static_cast<double>(std::size(kOps));
    const std::string summary = "{\"FLOPs\": " + Number(mflops) +
                                ", \"FLOPS\": " + Number(gflops / count) +
                                ", \"FLOPS_Utilization\": " + Number(utilization / count) + "}";
    // The scopes as the profiler's Sankey diagram: Total → Default → network → backbone → layers.
    std::string links =
        "{\"source\": \"Total\", \"target\": \"Default\", \"value\": " + Number(mflops) + "}";
    const char* chain[] = {"Default", "network-WithLossCell(0_Default)",
                           "_backbone-Net(1_Default)"};
    for (int i = 0; i + 1 < 3; ++i)
        links += ", {\"source\": \"" + std::string(chain[i]) + "\", \"target\": \"" + chain[i + 1] +
                 "\", \"value\": " + Number(mflops) + "}";
    for (const char* layer : {"layer1-Dense", "layer2-Dense", "head-Dense"}) {
        double layerMflops = 0;
        for (const GeneratedOp& op : kOps)
            if (std::string(op.scope) == layer) layerMflops += kGeneratedMflops * op.share * scale;
        links += ", {\"source\": \"_backbone-Net(1_Default)\", \"target\": \"" +
                 std::string(layer) + "(2_Default)\", \"value\": " + Number(layerMflops) + "}";
    }
    const std::string scope =
        "{\"data\": {\"nodes\": [], \"links\": [" + links + "]}, \"max_scope_num\": 4}";
    const std::string suffix = std::to_string(rank);
    return WriteTextFile(folder + "/flops_" + suffix + ".txt", table, error) &&
           WriteTextFile(folder + "/flops_summary_" + suffix + ".json", summary, error) &&
           WriteTextFile(folder + "/flops_scope_" + suffix + ".json", scope, error);
}

}  // namespace marey
