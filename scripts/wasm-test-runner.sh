#!/usr/bin/env bash
#! Cargo's runner for the browser tests: wasm-bindgen-test-runner with a time limit per test
#! binary. Now and then the runner's page stops loading before any test starts (Chromium stops
#! reading the test server's answers; WASM_BINDGEN_TEST_TIMEOUT only covers running tests), and
#! the step would wait forever. A binary that hangs like that is stopped with every process it
#! started (its own session) and run again, loudly, up to four
#! runs in all; a test that fails is never retried.
#! Usage (scripts/test.sh): CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=scripts/wasm-test-runner.sh
set -uo pipefail

limit="${WASM_TEST_BINARY_LIMIT:-60}"
runs=4
for attempt in $(seq "$runs"); do
  # In a session of its own, so a hung run is stopped with everything it started (chromedriver
  # and Chromium's processes), not just the runner: leftovers would slow the next run down.
  setsid wasm-bindgen-test-runner "$@" &
  runner=$!
  (
    sleep "$limit"
    touch "${TMPDIR:-/tmp}/wasm-test-hung.$runner"
    pkill -TERM -s "$runner" 2>/dev/null
    sleep 10
    pkill -KILL -s "$runner" 2>/dev/null
  ) &
  watchdog=$!
  wait "$runner"
  status=$?
  kill "$watchdog" 2>/dev/null
  wait "$watchdog" 2>/dev/null
  hung="${TMPDIR:-/tmp}/wasm-test-hung.$runner"
  if [ ! -e "$hung" ]; then
    pkill -KILL -s "$runner" 2>/dev/null
    exit "$status"
  fi
  rm -f "$hung"
  pkill -KILL -s "$runner" 2>/dev/null
  echo "[browser tests] !!! $(basename "$1") did not finish within ${limit}s" \
    "(run $attempt of $runs): the test runner or the browser hung" >&2
  sleep 2
done
exit 124
