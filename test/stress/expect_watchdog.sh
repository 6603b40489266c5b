#!/bin/sh
# Runs polymux_stress ($1) with a simulated hang and passes when the
# watchdog ends it: exit status 3 and the stalled worker named.
output=$("$1" --only stress --duration 30 --threads 2 --watchdog 3 --simulate-hang 2>&1)
status=$?
echo "$output"
if [ "$status" -ne 3 ]; then
  echo "expect_watchdog.sh: exit status $status, expected 3 (the watchdog's)"
  exit 1
fi
if ! echo "$output" | grep -q "WATCHDOG: thread 'worker 0' made no progress"; then
  echo "expect_watchdog.sh: the watchdog did not name the stalled worker"
  exit 1
fi
