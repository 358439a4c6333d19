#!/bin/sh
# The sanitizer tree's whole suite, run as one test of the main tree. A CI log shows only the
# beginning and the end of a long run, and this test's output lands in its middle: so what
# failed is printed first, each failed test run again alone with its output (which also tells a
# test that fails every time from one that failed once under load), then the whole log.
# Usage: run-sanitized-suite.sh CTEST BUILD_DIR JOBS
set -u
ctest=$1
dir=$2
jobs=$3
log=$dir/sanitized-suite.log
"$ctest" --test-dir "$dir" --output-on-failure -j"$jobs" >"$log" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
    echo "Under the sanitizers these failed (the suite's full log follows):"
    sed -n '/The following tests FAILED/,$p' "$log"
    echo "Each failed test again, alone:"
    "$ctest" --test-dir "$dir" --rerun-failed --output-on-failure 2>&1
    echo "The suite's full log:"
fi
cat "$log"
exit "$status"
