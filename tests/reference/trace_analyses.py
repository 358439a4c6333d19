#!/usr/bin/env python3
"""Reference implementation of the analyses of docs/trace-analyses.md, for tests.

    python3 tests/reference/trace_analyses.py TRACE.json[.gz] [--idle-threshold-ns 30000]

prints the object that `marey stats TRACE --json` reports under "analyses":
{"ranks": [{...}]}. It is written from the document alone and shares no code with
analysis/, so that a test comparing the two catches a mistake made on either side.

Times are integers of nanoseconds from start to finish: a timestamp is read from its decimal
text (JSON numbers are parsed as decimal.Decimal, never as float) and rounded half away from
zero at the nanosecond, as analysis/core/Time does.

Readings of the document where it leaves a choice are marked "Reading:" below; the C++ side
must make the same ones for the figures to agree.
"""

import argparse
import decimal
import gzip
import json
import sys

# [SECTION] Constants of the definitions

DEFAULT_IDLE_THRESHOLD_NS = 30_000  # a gap shorter than this is a kernel wait
RUNTIME_CUTOFF_NS = 50_000  # a launch call longer than this is a runtime outlier
LAUNCH_DELAY_CUTOFF_NS = 100_000  # an activity starting later than this after its launch

KINETO_ACTIVITY_CATEGORIES = {
    "kernel", "gpu_memcpy", "gpu_memset",  # Kineto since 2022
    "Kernel", "Memcpy", "Memset",  # the 2021 schema
}
KINETO_MEMCPY_CATEGORIES = {"gpu_memcpy", "Memcpy"}
KINETO_MEMSET_CATEGORIES = {"gpu_memset", "Memset"}

ASCEND_DEVICE_PROCESS = "Ascend Hardware"
ASCEND_LAUNCH_PROCESS = "CANN"
ASCEND_SYNC_TASK_TYPES = {"EVENT_RECORD_SQE", "EVENT_WAIT_SQE", "PLACE_HOLDER_SQE"}
ASCEND_SYNC_TASK_NAMES = {"EVENT_RECORD", "EVENT_WAIT", "PROFILING_ENABLE", "PROFILING_DISABLE"}
ASCEND_COMMUNICATION_TASK_TYPES = {
    "Notify Wait", "Notify Record", "Write Value", "SDMA", "RDMA", "Reduce Inline",
    "Reduce TBE", "Memcpy",
    "Notify_Wait", "Notify_Record", "Write_Value", "Reduce_Inline", "Reduce_TBE",
}

KINETO_LAUNCH_CALLS = {
    "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
    "cudaMemcpyAsync", "cudaMemsetAsync", "cudaGraphLaunch",
    "hipLaunchKernel", "hipExtLaunchKernel", "hipModuleLaunchKernel",
    "hipExtModuleLaunchKernel", "hipMemcpyAsync", "hipMemcpyWithStream", "hipMemsetAsync",
    "hipGraphLaunch",
}

# Class bits: their numeric order is the order of kernel_types and of the names in each set.
COMPUTATION = 1
COMMUNICATION = 2
MEMORY = 4
CLASS_NAMES = [(COMPUTATION, "computation"), (COMMUNICATION, "communication"),
               (MEMORY, "memory")]

# The sort key of an id written as text: after every number, as the model orders tracks.
TEXT_ID_SORT_KEY = 2**63 - 1

PROFILER_STEP_PREFIX = "ProfilerStep#"

# [SECTION] Reading values exactly

# Enough digits that µs × 1000 of any 64-bit nanosecond time stays exact before rounding.
EXACT = decimal.Context(prec=80, rounding=decimal.ROUND_HALF_UP)


def micros_to_ns(value):
    """A time in µs (JSON number or decimal text) as integer ns; None when it is not a number.

    ROUND_HALF_UP of the decimal module rounds half away from zero, negative values included.
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value * 1000
    micros = value
    if not isinstance(micros, decimal.Decimal):
        try:
            micros = decimal.Decimal(str(value).strip())
        except decimal.InvalidOperation:
            return None
    if not micros.is_finite():
        return None
    return int(EXACT.multiply(micros, 1000).quantize(decimal.Decimal(1), context=EXACT))


def entity_id(value):
    """A pid or tid as the loader keys it: numbers stay numbers, and text of plain digits
    becomes a number ("7" and 7 are one thread); any other text stays text."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else str(value)
    text = str(value)
    if text.isdigit() and text.isascii() and len(text) <= 18 and (len(text) == 1 or text[0] != "0"):
        return int(text)
    return text


def id_sort_key(entity):
    """Numbers in order, then text (in code point order, which is UTF-8 byte order)."""
    if isinstance(entity, int):
        return (entity, "")
    return (TEXT_ID_SORT_KEY, str(entity))


def correlation_key(value):
    """A correlation or connection id, compared by value as ids are: 7 and "7" are one id;
    None when the event carries none."""
    return entity_id(value)


# [SECTION] The trace's events


def read_trace(path):
    """The top-level object (None when the file is a bare array) and the list of events."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as stream:
        document = json.load(stream, parse_float=decimal.Decimal)
    if isinstance(document, list):
        return None, document
    if isinstance(document, dict):
        events = document.get("traceEvents", [])
        return document, events if isinstance(events, list) else []
    return None, []


def rank_of(top_level, path):
    """(rank, where it came from): distributedInfo.rank, else the file name, else 0.

    Reading: "the file name" is the last path component only (an Ascend rank's folder
    "rank0_ascend_pt" is not looked at, and has no "-" or "_" after "rank" anyway); the first
    "rank-N"/"rank_N" in it counts, in lower case only.
    """
    if isinstance(top_level, dict):
        info = top_level.get("distributedInfo")
        if isinstance(info, dict) and "rank" in info:
            rank = entity_id(info["rank"])
            if isinstance(rank, int):
                return rank, "distributedInfo"
    file_name = path.replace("\\", "/").rsplit("/", 1)[-1]
    search_from = 0
    while (found := file_name.find("rank", search_from)) >= 0:
        separator = found + len("rank")
        digits_end = separator + 1
        while digits_end < len(file_name) and file_name[digits_end] in "0123456789":
            digits_end += 1
        if file_name[separator:separator + 1] in ("-", "_") and digits_end > separator + 1:
            return int(file_name[separator + 1:digits_end]), "file name"
        search_from = found + 1
    return 0, "order"


class Metadata:
    """Process and thread names and thread sort indices from the "M" events.

    Reading: when one thread is named twice (Kineto writes "thread 1262 (pt_main_thread)" then
    "thread 1262 (pt_autograd_0)"), the later event in the file wins, as in the model.
    """

    def __init__(self, events):
        self.process_names = {}
        self.thread_names = {}
        self.thread_sort_indices = {}
        for event in events:
            if not isinstance(event, dict) or event.get("ph") != "M":
                continue
            args = event.get("args")
            if not isinstance(args, dict):
                continue
            pid = entity_id(event.get("pid"))
            tid = entity_id(event.get("tid"))
            kind = event.get("name")
            if kind == "process_name" and isinstance(args.get("name"), str):
                self.process_names[pid] = args["name"]
            elif kind == "thread_name" and isinstance(args.get("name"), str):
                self.thread_names[(pid, tid)] = args["name"]
            elif kind == "thread_sort_index":
                index = entity_id(args.get("sort_index"))
                if isinstance(index, int):
                    self.thread_sort_indices[(pid, tid)] = index

    def stream_label(self, stream):
        """"stream 7" for Kineto's "stream 7 ", "Thread <tid>" for a thread without a name."""
        name = self.thread_names.get(stream)
        if name is not None:
            return name.strip()
        return "Thread " + str(stream[1])

    def stream_order(self, stream):
        """Device (pid), then the thread's place on the timeline: its sort index, else its tid
        (text after numbers), ties broken by the tid's text, as the model orders tracks."""
        pid, tid = stream
        place = self.thread_sort_indices.get(stream, id_sort_key(tid)[0])
        return (id_sort_key(pid), place, str(tid))


class Activity:
    """One device activity, its class, and its launch's [start, end) when one was found."""

    __slots__ = ("start_ns", "end_ns", "stream", "class_bit", "launch_start_ns",
                 "launch_end_ns", "launch_key", "is_ascend")

    def __init__(self, start_ns, end_ns, stream, class_bit, launch_key, is_ascend):
        self.start_ns = start_ns
        self.end_ns = end_ns
        self.stream = stream
        self.class_bit = class_bit
        self.launch_key = launch_key
        self.is_ascend = is_ascend
        self.launch_start_ns = None
        self.launch_end_ns = None

    @property
    def has_launch(self):
        return self.launch_start_ns is not None


def start_and_end_ns(event):
    """[start, end) of a complete event; None when the event is skipped.

    Reading: as the loader does, an event whose "ts" or "dur" is not a number is skipped, and
    a missing or negative "dur" is 0 ns.
    """
    start_ns = micros_to_ns(event.get("ts"))
    if start_ns is None:
        return None
    if event.get("dur") is None:
        return start_ns, start_ns
    dur_ns = micros_to_ns(event["dur"])
    if dur_ns is None:
        return None
    return start_ns, start_ns + max(dur_ns, 0)


# [SECTION] Classes


def classify_kineto(name, category):
    if category in KINETO_MEMCPY_CATEGORIES or name.startswith("Memcpy"):
        return MEMORY
    if category in KINETO_MEMSET_CATEGORIES or name.startswith("Memset"):
        return MEMORY
    if is_communication_name(name):
        return COMMUNICATION
    return COMPUTATION


def classify_ascend(name, task_type):
    """Reading: the Kineto rules on names ("Memcpy…", "Memset…") are not applied to Ascend
    tasks, or HCCL's task named "Memcpy" could never be communication as the table says."""
    if name == "MEMCPY_ASYNC":
        return MEMORY
    if is_communication_name(name) or task_type in ASCEND_COMMUNICATION_TASK_TYPES:
        return COMMUNICATION
    return COMPUTATION


def is_communication_name(name):
    lowered = name.lower()
    return ("nccl" in lowered or "rccl" in lowered or name.startswith("hcom_")
            or name.startswith("Hccl"))


# [SECTION] Collecting activities, launches and steps


def is_ascend_sync_task(name, task_type):
    return task_type in ASCEND_SYNC_TASK_TYPES or name in ASCEND_SYNC_TASK_NAMES



def keep_shortest(launches, key, times):
    """Keeps in launches[key] the shorter of its launch and 'times' (the first when equal)."""
    kept = launches.get(key)
    if kept is None or times[1] - times[0] < kept[1] - kept[0]:
        launches[key] = times

def collect(events, metadata):
    """The device activities (launches attached) and the steps [(step, start, end)] by start."""
    ascend_device_pids = {pid for pid, name in metadata.process_names.items()
                          if name == ASCEND_DEVICE_PROCESS}
    ascend_launch_pids = {pid for pid, name in metadata.process_names.items()
                          if name == ASCEND_LAUNCH_PROCESS}
    activities = []
    # When two launch calls carry one id, the shortest is the launch (the innermost of nested
    # calls), the first in the file among equally long ones: the document says so.
    kineto_launches = {}
    ascend_launches = {}
    earliest_step_slice = {}
    for event in events:
        if not isinstance(event, dict) or event.get("ph") != "X":
            continue
        times = start_and_end_ns(event)
        if times is None:
            continue
        name = event.get("name")
        name = name if isinstance(name, str) else ""
        category = event.get("cat")
        args = event.get("args")
        args = args if isinstance(args, dict) else {}
        pid = entity_id(event.get("pid"))
        stream = (pid, entity_id(event.get("tid")))

        if pid in ascend_device_pids:
            task_type = args.get("Task Type")
            task_type = task_type if isinstance(task_type, str) else ""
            if not is_ascend_sync_task(name, task_type):
                activities.append(Activity(times[0], times[1], stream,
                                           classify_ascend(name, task_type),
                                           correlation_key(args.get("connection_id")), True))
            continue  # nothing on the device is a launch or a step
        if category in KINETO_ACTIVITY_CATEGORIES:
            activities.append(Activity(times[0], times[1], stream,
                                       classify_kineto(name, category),
                                       correlation_key(args.get("correlation")), False))
            continue

        if pid in ascend_launch_pids:
            key = correlation_key(args.get("connection_id"))
            if key is not None:
                keep_shortest(ascend_launches, key, times)
        elif name in KINETO_LAUNCH_CALLS:
            key = correlation_key(args.get("correlation"))
            if key is not None:
                keep_shortest(kineto_launches, key, times)

        # Reading: a host ProfilerStep slice is any complete event of that name other than
        # Kineto's copy on the GPU timeline (category gpu_user_annotation) and device tasks;
        # a step written twice keeps its earliest slice, as rank/ProfilerSteps does.
        if (name.startswith(PROFILER_STEP_PREFIX) and len(name) > len(PROFILER_STEP_PREFIX)
                and category != "gpu_user_annotation"):
            step = name[len(PROFILER_STEP_PREFIX):]
            known = earliest_step_slice.get(step)
            if known is None or times[0] < known[0]:
                earliest_step_slice[step] = times

    for activity in activities:
        table = ascend_launches if activity.is_ascend else kineto_launches
        launch = table.get(activity.launch_key) if activity.launch_key is not None else None
        if launch is not None:
            activity.launch_start_ns, activity.launch_end_ns = launch

    steps = sorted(((step, start, end) for step, (start, end) in earliest_step_slice.items()),
                   key=lambda slice_: (slice_[1], slice_[2], slice_[0]))
    return activities, steps


def step_of(time_ns, steps):
    """The step whose slice [start, end) holds time_ns; None when none does.

    Reading: a slice holds its start and not its end, so that a launch at the instant one step
    ends and the next begins belongs to the next; when slices overlap, the latest-starting one
    that holds the time wins.
    """
    found = None
    for index, (_, start_ns, end_ns) in enumerate(steps):
        if start_ns > time_ns:
            break
        if time_ns < end_ns:
            found = index
    return found


def assign_steps(activities, steps):
    """The activities of each step (lists in step order): by the launch's start when there is
    a launch, else by the activity's own start."""
    per_step = [[] for _ in steps]
    for activity in activities:
        time_ns = activity.launch_start_ns if activity.has_launch else activity.start_ns
        index = step_of(time_ns, steps)
        if index is not None:
            per_step[index].append(activity)
    return per_step


# [SECTION] Interval arithmetic


def union_of(intervals):
    """Merged, sorted [start, end) intervals; empty ones dropped."""
    merged = []
    for start_ns, end_ns in sorted(i for i in intervals if i[1] > i[0]):
        if merged and start_ns <= merged[-1][1]:
            if end_ns > merged[-1][1]:
                merged[-1][1] = end_ns
        else:
            merged.append([start_ns, end_ns])
    return merged


def length_of(merged):
    return sum(end_ns - start_ns for start_ns, end_ns in merged)


def time_per_class_set(activities):
    """{class mask: ns} for every exact set of classes running at once, from one sweep over
    the unions of each class."""
    boundaries = []
    for class_bit, _ in CLASS_NAMES:
        for start_ns, end_ns in union_of((a.start_ns, a.end_ns) for a in activities
                                         if a.class_bit == class_bit):
            boundaries.append((start_ns, class_bit))
            boundaries.append((end_ns, -class_bit))
    boundaries.sort()
    held = {}
    running_mask = 0
    previous_ns = None
    for time_ns, change in boundaries:
        if running_mask and previous_ns is not None and time_ns > previous_ns:
            held[running_mask] = held.get(running_mask, 0) + time_ns - previous_ns
        # Each class's union is disjoint, so a bit is set and cleared alternately.
        running_mask = running_mask | change if change > 0 else running_mask & ~(-change)
        previous_ns = time_ns
    return held


# [SECTION] Figures of one set of activities


def rounded_ratio(numerator, denominator, decimals):
    """numerator / denominator rounded half up at `decimals`, exactly, as a float for JSON."""
    scale = 10**decimals
    scaled = (2 * scale * numerator + denominator) // (2 * denominator)
    return float(decimal.Decimal(scaled).scaleb(-decimals))


def temporal_of(activities):
    span_ns = max(a.end_ns for a in activities) - min(a.start_ns for a in activities)
    busy_ns = length_of(union_of((a.start_ns, a.end_ns) for a in activities))
    compute_ns = length_of(union_of((a.start_ns, a.end_ns) for a in activities
                                    if a.class_bit == COMPUTATION))
    return {"span_ns": span_ns, "idle_ns": span_ns - busy_ns, "compute_ns": compute_ns,
            "non_compute_ns": busy_ns - compute_ns}


def overlap_pct_of(held):
    """Reading: "no communication ran" is a communication union of 0 ns (zero-length
    communication activities alone give null too, not a division by zero)."""
    communication_ns = sum(ns for mask, ns in held.items() if mask & COMMUNICATION)
    if communication_ns == 0:
        return None
    overlapped_ns = sum(ns for mask, ns in held.items()
                        if mask & COMMUNICATION and mask & COMPUTATION)
    return rounded_ratio(100 * overlapped_ns, communication_ns, 2)


def kernel_types_of(held):
    return [{"types": [name for bit, name in CLASS_NAMES if mask & bit], "ns": held[mask]}
            for mask in sorted(held) if held[mask] > 0]


def by_stream(activities, metadata):
    """[(stream, its activities)] in the order of idle and queue."""
    groups = {}
    for activity in activities:
        groups.setdefault(activity.stream, []).append(activity)
    return sorted(groups.items(), key=lambda item: metadata.stream_order(item[0]))


def stream_fields(stream, metadata):
    pid = stream[0]
    return {"device": pid, "stream": metadata.stream_label(stream)}


def idle_of_stream(stream_activities, idle_threshold_ns):
    """(host wait, kernel wait, other) ns of one stream's gaps.

    Reading: activities with the same start are taken by end, then by place in the file;
    "the launch started after the latest end" is strictly after; an activity without a launch
    is never host wait; the threshold is strict (a gap of exactly 30 µs is "other").
    """
    host_wait_ns = kernel_wait_ns = other_ns = 0
    latest_end_ns = None
    for activity in sorted(stream_activities, key=lambda a: (a.start_ns, a.end_ns)):
        if latest_end_ns is not None and activity.start_ns > latest_end_ns:
            gap_ns = activity.start_ns - latest_end_ns
            if activity.has_launch and activity.launch_start_ns > latest_end_ns:
                host_wait_ns += gap_ns
            elif gap_ns < idle_threshold_ns:
                kernel_wait_ns += gap_ns
            else:
                other_ns += gap_ns
        if latest_end_ns is None or activity.end_ns > latest_end_ns:
            latest_end_ns = activity.end_ns
    return host_wait_ns, kernel_wait_ns, other_ns


def launch_of(activities):
    """Reading: every activity with a launch counts once, so a graph launch with five kernels
    counts five, each judged with the graph launch's CPU time; memory copies and sets count
    like kernels. Cut-offs are strict (> 50 µs, > 100 µs) and "short" takes CPU ≤ 50 µs."""
    count = short_kernels = runtime_outliers = launch_delay_outliers = 0
    for activity in activities:
        if not activity.has_launch:
            continue
        count += 1
        cpu_ns = activity.launch_end_ns - activity.launch_start_ns
        gpu_ns = activity.end_ns - activity.start_ns
        delay_ns = max(0, activity.start_ns - activity.launch_end_ns)
        if gpu_ns < cpu_ns and cpu_ns <= RUNTIME_CUTOFF_NS:
            short_kernels += 1
        if cpu_ns > RUNTIME_CUTOFF_NS:
            runtime_outliers += 1
        if delay_ns > LAUNCH_DELAY_CUTOFF_NS:
            launch_delay_outliers += 1
    return {"count": count, "short_kernels": short_kernels, "runtime_outliers": runtime_outliers,
            "launch_delay_outliers": launch_delay_outliers}


def queue_of_stream(stream_activities):
    """(mean, max) of the number of activities launched and not finished on one stream.

    Reading: an activity is queued over [launch start, activity end), so at one instant the
    ends are counted before the starts; an activity ending before its launch started (skewed
    clocks) is queued over nothing. The mean is over [first launch start, last end]; a stream
    whose activities have no launch, or a window of 0 ns, has mean 0.0 and max 0 (it is
    still listed: it has activities).
    """
    changes = []
    window_start_ns = window_end_ns = None
    for activity in stream_activities:
        if not activity.has_launch:
            continue
        queued_from_ns = activity.launch_start_ns
        queued_until_ns = max(activity.end_ns, queued_from_ns)
        window_start_ns = queued_from_ns if window_start_ns is None else min(window_start_ns,
                                                                             queued_from_ns)
        window_end_ns = queued_until_ns if window_end_ns is None else max(window_end_ns,
                                                                          queued_until_ns)
        if queued_until_ns > queued_from_ns:
            changes.append((queued_from_ns, +1))
            changes.append((queued_until_ns, -1))
    if window_start_ns is None:
        return 0.0, 0
    changes.sort()  # (t, -1) before (t, +1)
    depth = deepest = 0
    area = 0
    previous_ns = window_start_ns
    for time_ns, change in changes:
        area += depth * (time_ns - previous_ns)
        previous_ns = time_ns
        depth += change
        deepest = max(deepest, depth)
    window_ns = window_end_ns - window_start_ns
    mean = rounded_ratio(area, window_ns, 3) if window_ns > 0 else 0.0
    return mean, deepest


def figures_of(activities, metadata, idle_threshold_ns):
    """temporal, overlap_pct, kernel_types, idle, launch and queue of one set of activities.

    Reading: a step with no activity of its own still appears, with zero times, a null
    overlap_pct and empty lists.
    """
    if not activities:
        return {"temporal": {"span_ns": 0, "idle_ns": 0, "compute_ns": 0, "non_compute_ns": 0},
                "overlap_pct": None, "kernel_types": [], "idle": [],
                "launch": launch_of([]), "queue": []}
    held = time_per_class_set(activities)
    streams = by_stream(activities, metadata)
    idle = []
    queue = []
    for stream, stream_activities in streams:
        host_wait_ns, kernel_wait_ns, other_ns = idle_of_stream(stream_activities,
                                                                idle_threshold_ns)
        idle.append({**stream_fields(stream, metadata), "host_wait_ns": host_wait_ns,
                     "kernel_wait_ns": kernel_wait_ns, "other_ns": other_ns})
        mean, deepest = queue_of_stream(stream_activities)
        queue.append({**stream_fields(stream, metadata), "mean": mean, "max": deepest})
    return {"temporal": temporal_of(activities), "overlap_pct": overlap_pct_of(held),
            "kernel_types": kernel_types_of(held), "idle": idle,
            "launch": launch_of(activities), "queue": queue}


# [SECTION] The rank


def analyse(path, idle_threshold_ns):
    top_level, events = read_trace(path)
    rank, rank_from = rank_of(top_level, path)
    metadata = Metadata(events)
    activities, steps = collect(events, metadata)
    result = {"rank": rank, "rank_from": rank_from}
    if not activities:
        result["available"] = False
        result["reason"] = ("no device activity in the trace (no GPU kernel, memory copy or "
                            "memset, no Ascend Hardware task)")
        return {"ranks": [result]}
    result["available"] = True
    result.update(figures_of(activities, metadata, idle_threshold_ns))
    result["steps"] = [
        {"step": step, **figures_of(step_activities, metadata, idle_threshold_ns)}
        for (step, _, _), step_activities in zip(steps, assign_steps(activities, steps))
    ]
    return {"ranks": [result]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace", help="a Kineto trace (.json or .json.gz) or an Ascend "
                                      "trace_view.json")
    parser.add_argument("--idle-threshold-ns", type=int, default=DEFAULT_IDLE_THRESHOLD_NS,
                        help="gaps shorter than this are kernel waits (default 30000)")
    parser.add_argument("--indent", type=int, default=None,
                        help="indent the JSON by this many spaces (default: one line)")
    options = parser.parse_args()
    analyses = analyse(options.trace, options.idle_threshold_ns)
    json.dump(analyses, sys.stdout, indent=options.indent)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
