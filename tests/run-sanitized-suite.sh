#!/bin/sh
# The sanitizer tree's whole suite, run as one test of the main tree. A CI log shows only the
# beginning and the end of a long run, and this test's output lands in its middle: so what
# failed is printed first with its own output, then each failed test is run again alone, then
# the whole log.
#
# A test that failed in the suite and passes when run again alone failed on the load of the
# suite (two cores, every test slowed several times by the sanitizers), not on a memory or
# undefined-behaviour error, which the sanitizers report on every run: the suite passes, and
# what the failure printed stays at the top of this test's output for whoever reads it. A test
# that fails again alone fails the suite.
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
    echo "What each printed in the suite:"
    # A failed test's output runs from its result line to the next line of ctest's own.
    awk '/^ *[0-9]+\/[0-9]+ Test +#[0-9]+:.*(Failed|Timeout|Exception|Not Run)/ { show = 1; print; next }
         /^ *[0-9]+\/[0-9]+ Test +#|^ *Start +[0-9]+:|^[0-9]+% tests passed/ { show = 0 }
         show { print }' "$log"
    echo "Each failed test again, alone:"
    "$ctest" --test-dir "$dir" --rerun-failed --output-on-failure 2>&1
    status=$?
    if [ "$status" -eq 0 ]; then
        echo "Each passed alone: failed on the suite's load, not on a sanitizer's report."
    fi
    echo "The suite's full log:"
fi
cat "$log"
exit "$status"
