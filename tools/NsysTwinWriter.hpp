#pragma once
// Writes the Nsight Systems export twin of a generated PyTorch (Kineto) trace: the same kernels,
// copies, fills, synchronisations and CUDA calls at the same ns, in the tables and columns
// `nsys export --type sqlite` writes (schema 3.25-shaped): what the importer of exports is tested
// and benchmarked against. Kineto's CPU operators and user annotations become NVTX push/pop ranges
// with PyTorch's emit_nvtx suffix (", op_id = N"); runtime calls get Nsight's API version suffix
// ("_v3020"); GPU user annotations, which an export has not, are left out.
#include <cstdint>
#include <string>
#include <string_view>

namespace marey {

struct NsysTwinReport {
    uint64_t kernels = 0, copies = 0, fills = 0, synchronizations = 0, calls = 0, ranges = 0;
};

// Reads 'kineto' (the generator's JSON text) and writes its twin to 'path' (replacing it).
// False with 'error' set when the text is not such a trace or the file cannot be written.
bool WriteNsysTwin(std::string_view kineto, const std::string& path, NsysTwinReport* report,
                   std::string* error);

}  // namespace marey
