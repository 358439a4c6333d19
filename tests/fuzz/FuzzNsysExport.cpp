// libFuzzer target: an Nsight Systems export read into a model, every track's first row's
// details, and the device analyses over it. The input is the export file's bytes (SQLite checks
// its own structure; the reader must cope with whatever rows and values a damaged or hostile
// file still yields: text in integer columns, ids pointing nowhere, ends before starts).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "import/Importer.hpp"
#include "import/nsys/NsysLoader.hpp"
#include "trace/DeviceActivities.hpp"

using namespace marey;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string path = (std::filesystem::temp_directory_path() /
                                     ("marey-fuzz-nsys-" + std::to_string(::getpid()) + ".sqlite"))
                                        .string();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    LoadOptions options;
    options.threads = 1;
    auto loaded = LoadNsysExport(path, options);
    if (!loaded.ok()) return 0;
    const TraceModel& model = *loaded.value().model;
    uint64_t slices = 0;
    for (uint32_t t = 0; t < model.tracks.size(); ++t) {
        const Track& track = model.tracks[t];
        for (const Row& row : track.rows) {
            slices += row.size();
            for (size_t i = 0; i < row.size(); ++i)
                if (row.end[i] < row.start[i]) __builtin_trap();  // a slice never ends first
        }
        if (!track.rows.empty() && track.rows.front().size() > 0)
            (void)ReadRowDetails(model.SourceOf(t), track.rows.front().Ref(0));
    }
    if (slices != model.sliceCount) __builtin_trap();
    for (const Flow& flow : model.flows)
        if (flow.fromOrigin >= model.flowOrigins.size() ||
            flow.toOrigin >= model.flowOrigins.size())
            __builtin_trap();
    const DeviceActivities activities = FindDeviceActivities(model, 1);
    for (const DeviceActivity& activity : activities.activities)
        if (activity.launch != kNoLaunch &&
            static_cast<size_t>(activity.launch) >= activities.launches.size())
            __builtin_trap();
    return 0;
}
