#pragma once
// The roles of a loaded trace's thread tracks (model/TraceModel.hpp TrackRole), set once by the
// importers whose formats share these processes: a Kineto or Ascend text trace, an Ascend
// profiler database (read into the processes of the text export it stands for) and an Nsight
// Systems export (read into the processes and categories a Kineto trace gives).
#include "model/TraceModel.hpp"

namespace marey {

// The Ascend profiler's processes by the names its text export and its database both write them
// under ("Ascend Hardware", "CANN", "HCCL", "Overlap Analysis"); any other thread is a device
// stream when its first slice is device work by its kept category (a kernel, copy, fill,
// annotation or synchronisation), else a host thread. Async lanes and counters stay kOther.
// O(tracks + rows).
void AssignTrackRoles(TraceModel& model);

}  // namespace marey
