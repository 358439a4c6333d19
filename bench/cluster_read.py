#!/usr/bin/env python3
"""Reads a cluster folder's per-rank summary files the way the Python profiling tools do (csv and
json from the standard library, one rank after another) and derives what marey's cluster views
start from: per-rank step phases averaged over steps, communication time per rank, the links of
the matrix summed per (source, destination), and operator time per type. Prints the time taken and
the peak resident memory, for marey-bench --cluster to compare with.

    python3 bench/cluster_read.py CLUSTER_DIR
"""
import csv
import json
import os
import resource
import statistics
import sys
import time


def rank_folders(root):
    for folder, dirs, files in os.walk(root):
        if os.path.basename(folder) == "ASCEND_PROFILER_OUTPUT":
            dirs[:] = []
            yield os.path.dirname(folder), folder


def read_rank(rank_dir, output):
    rank = None
    for name in os.listdir(rank_dir):
        if name.startswith("profiler_info_") and name.endswith(".json"):
            with open(os.path.join(rank_dir, name)) as f:
                rank = json.load(f).get("rank_id")
    steps = []
    with open(os.path.join(output, "step_trace_time.csv"), newline="") as f:
        for row in csv.DictReader(f):
            steps.append({k: float(v) for k, v in row.items() if k != "Step" and v not in ("", None)})
    communication = 0.0
    with open(os.path.join(output, "communication.json")) as f:
        for step in json.load(f).values():
            for kind in step.values():
                for name, op in kind.items():
                    if name != "Total Op Info":
                        communication += op["Communication Time Info"]["Elapse Time(ms)"]
    links = {}
    with open(os.path.join(output, "communication_matrix.json")) as f:
        for step in json.load(f).values():
            for kind in step.values():
                for op in kind.values():
                    for key, link in op.items():
                        src, dst = key.split("-")
                        size, ms = links.get((src, dst), (0.0, 0.0))
                        links[(src, dst)] = (size + link["Transit Size(MB)"], ms + link["Transit Time(ms)"])
    types = {}
    with open(os.path.join(output, "kernel_details.csv"), newline="") as f:
        for row in csv.DictReader(f):
            types[row["Type"]] = types.get(row["Type"], 0.0) + float(row["Duration(us)"])
    averaged = {k: sum(s.get(k, 0.0) for s in steps) / max(1, len(steps)) for k in (steps[0] if steps else {})}
    return rank, averaged, communication, links, types


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    start = time.perf_counter()
    ranks = [read_rank(rank_dir, output) for rank_dir, output in rank_folders(sys.argv[1])]
    computing = [r[1].get("Computing", 0.0) for r in ranks]
    median = statistics.median(computing) if computing else 0.0
    links = sum(len(r[3]) for r in ranks)
    seconds = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"ranks {len(ranks)} links {links} median_computing_us {median:.3f} seconds {seconds:.3f} peak_kb {peak_kb}")


if __name__ == "__main__":
    main()
