#!/usr/bin/env bash
#! Cargo's runner for the browser tests: wasm-bindgen-test-runner with a time limit per test
#! binary. Now and then the runner's page stops loading before any test starts (Chromium stops
#! reading the test server's answers; WASM_BINDGEN_TEST_TIMEOUT only covers running tests), and
#! the step would wait forever. A binary that hangs like that is run again, loudly, up to four
#! runs in all; a test that fails is never retried.
#! Usage (scripts/test.sh): CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=scripts/wasm-test-runner.sh
set -uo pipefail

limit="${WASM_TEST_BINARY_LIMIT:-60}"
runs=4
for attempt in $(seq "$runs"); do
  timeout --kill-after=10 "$limit" wasm-bindgen-test-runner "$@"
  status=$?
  if [ "$status" -ne 124 ] && [ "$status" -ne 137 ]; then
    exit "$status"
  fi
  echo "[browser tests] !!! $(basename "$1") did not finish within ${limit}s" \
    "(run $attempt of $runs): the test runner or the browser hung" >&2
done
exit 124
