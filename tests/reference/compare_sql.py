"""Checks `marey sql` against a reading of the same traces with Python's json module alone: the
slices' count and total duration by name (complete events, matched begin/end pairs, and instants
with a duration of 0), and the count by thread. Exit 0 when all agree, 1 with the differences
listed otherwise.

usage: compare_sql.py MAREY FIXTURES_DIR [TRACE...]
"""
import collections
import decimal
import glob
import gzip
import json
import os
import subprocess
import sys

# The real traces of the fixtures (all that exist), as the analyses' reference check reads them.
FIXTURE_PATTERNS = [
    "hta/tests/data/*/*.json.gz",
    "kineto/tb_plugin/samples/*/*.json.gz",
    "msinsight/test/data/pytorch/text/level*/rank*_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
]


def ns(value):
    """A Chrome trace time in µs (a number or a string of digits) as integer ns, digits past the
    nanosecond rounded half away from zero (a "dur" of 13.299999999999999 is 13,300 ns)."""
    return int((decimal.Decimal(str(value)) * 1000).quantize(decimal.Decimal(1),
                                                             rounding=decimal.ROUND_HALF_UP))


def entity(value):
    """A pid or tid as text; an empty or absent one is 0 (as Kineto's global instants write
    "pid": "", and marey reads them)."""
    return "0" if value in ("", None) else str(value)


def read_events(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as file:
        document = json.load(file, parse_float=decimal.Decimal)
    return document["traceEvents"] if isinstance(document, dict) else document


def reference(path):
    """{name: [count, total ns]} of the slices, and {(pid, tid): count}."""
    by_name = collections.defaultdict(lambda: [0, 0])
    by_thread = collections.Counter()
    open_begins = collections.defaultdict(list)
    for event in read_events(path):
        if not isinstance(event, dict):
            continue
        phase, name = event.get("ph"), event.get("name", "")
        thread = (entity(event.get("pid")), entity(event.get("tid")))
        if phase == "X" and "dur" in event and "ts" in event:
            entry = by_name[name]
            entry[0] += 1
            entry[1] += ns(event["dur"])
            by_thread[thread] += 1
        elif phase in ("i", "I"):
            by_name[name][0] += 1
            by_thread[thread] += 1
        elif phase == "B":
            open_begins[thread].append(event)
        elif phase == "E" and open_begins[thread]:
            begin = open_begins[thread].pop()
            entry = by_name[begin.get("name", "")]
            entry[0] += 1
            entry[1] += ns(event["ts"]) - ns(begin["ts"])
            by_thread[thread] += 1
    return by_name, by_thread


def marey_sql(marey, path, query):
    result = subprocess.run([marey, "sql", path, "--json", "--no-cache", query], check=True,
                            capture_output=True, text=True)
    return json.loads(result.stdout)


def compare(marey, path):
    by_name, by_thread = reference(path)
    problems = []
    ours = {row["name"] or "": [row["n"], row["total"]] for row in marey_sql(
        marey, path, "select name, count(*) n, sum(dur) total from slice group by name")}
    for name in sorted(set(ours) | set(by_name)):
        if ours.get(name) != by_name.get(name):
            problems.append(f"{name!r}: marey {ours.get(name)} != json {by_name.get(name)}")
    threads = collections.Counter()
    for row in marey_sql(marey, path, "select p.pid, t.tid, count(*) n from slice s join "
                                      "thread_track tt on s.track_id = tt.id join thread t using "
                                      "(utid) join process p using (upid) group by s.track_id"):
        threads[(str(row["pid"]), str(row["tid"]))] += row["n"]
    if threads != by_thread:
        problems.append(f"slices by thread: marey {dict(threads)} != json {dict(by_thread)}")
    return problems


def main():
    marey, fixtures = sys.argv[1:3]
    traces = list(sys.argv[3:])
    if os.path.isdir(fixtures):
        for pattern in FIXTURE_PATTERNS:
            traces += sorted(glob.glob(os.path.join(fixtures, pattern)))
    else:
        print(f"real fixtures not found at {fixtures}: checking the traces given only")
    failed = 0
    for trace in traces:
        problems = compare(marey, trace)
        print(f"{'FAIL' if problems else 'ok  '} {trace}")
        for problem in problems[:10]:
            print(f"     {problem}")
        failed += bool(problems)
    print(f"{len(traces) - failed} of {len(traces)} traces agree")
    return 1 if failed or not traces else 0


if __name__ == "__main__":
    sys.exit(main())
