"""Runs `marey stats TRACE --json` and the reference script on each trace and compares the
"analyses" they print: integers exactly, the two rounded reals (overlap_pct, queue mean) to
their last printed digit. Exit 0 when all agree, 1 with the differences listed otherwise.

usage: compare_with_marey.py MAREY REFERENCE_SCRIPT FIXTURES_DIR [EXTRA_TRACE...]
"""
import glob
import json
import os
import subprocess
import sys

# The real traces of the fixtures that the analyses are checked on (all that exist).
FIXTURE_PATTERNS = [
    "hta/tests/data/*/*.json.gz",
    "hta/tests/data/critical_path/alexnet/*.json.gz",
    "kineto/tb_plugin/samples/*/*.json.gz",
    "msinsight/test/data/pytorch/text/level*/rank*_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
]


def differences(ours, reference, path=""):
    """Yields 'path: ours != reference' for every leaf that differs."""
    if isinstance(ours, dict) and isinstance(reference, dict):
        for key in sorted(set(ours) | set(reference)):
            if key == "reason":  # the wording is each side's own; its presence is compared
                continue
            if key not in ours or key not in reference:
                yield f"{path}.{key}: only in {'reference' if key not in ours else 'marey'}"
                continue
            yield from differences(ours[key], reference[key], f"{path}.{key}")
    elif isinstance(ours, list) and isinstance(reference, list):
        if len(ours) != len(reference):
            yield f"{path}: {len(ours)} items != {len(reference)}"
        for i, (a, b) in enumerate(zip(ours, reference)):
            yield from differences(a, b, f"{path}[{i}]")
    elif isinstance(ours, float) or isinstance(reference, float):
        if not isinstance(ours, (int, float)) or not isinstance(reference, (int, float)) \
                or abs(ours - reference) > 0.0011:
            yield f"{path}: {ours} != {reference}"
    elif ours != reference:
        yield f"{path}: {ours} != {reference}"


def main():
    marey, reference, fixtures = sys.argv[1:4]
    traces = list(sys.argv[4:])
    if os.path.isdir(fixtures):
        for pattern in FIXTURE_PATTERNS:
            traces += sorted(glob.glob(os.path.join(fixtures, pattern)))
    else:
        print(f"skipped: real fixtures not found at {fixtures}; checking generated traces only")
    if not traces:
        print("skipped: real fixtures not found and no trace given")
        return 0
    failed = 0
    for trace in traces:
        ours = json.loads(subprocess.run([marey, "stats", trace, "--json"], check=True,
                                         capture_output=True, text=True).stdout)["analyses"]
        theirs = json.loads(subprocess.run([sys.executable, reference, trace], check=True,
                                           capture_output=True, text=True).stdout)
        found = list(differences(ours, theirs))
        print(("agree    " if not found else "DIFFER   ") + trace)
        for line in found[:20]:
            print("    " + line)
        failed += bool(found)
    print(f"{len(traces) - failed} of {len(traces)} traces agree")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
