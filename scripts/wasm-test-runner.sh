#!/usr/bin/env bash
#! Cargo's runner for the browser tests: wasm-bindgen-test-runner, after a check that the test
#! module loads at most 4 JS snippet modules, with a time limit per test binary.
#!
#! Why 4: the runner serves the page with tiny_http 0.12 (the newest release), whose pool starts
#! 4 threads and gives each connection a thread for as long as it is kept alive. The page's first
#! connection holds one; Chromium fetches the snippets at once, on it and on new connections.
#! When more new connections arrive together than there are idle threads, the pool can queue
#! one without a thread (it counts a thread just woken as still idle), that snippet never
#! loads, and the page waits until chromedriver's 300 s page-load limit. Measured under load
#! (two busy cores): a module with 5 snippets hung 3 runs in 15 and 5 in 20; with 4, none in 25.
#! So a fifth snippet fails here, by name, instead of hanging now and then in CI: test-side JS
#! belongs in the one inline block of tests/common/mod.rs.
#!
#! The time limit stays as a safety net: a binary that hangs is stopped with every process it
#! started (its own session) and run again, loudly, up to four runs in all; a test that fails is
#! never retried.
#! Usage (scripts/test.sh): CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=scripts/wasm-test-runner.sh
set -uo pipefail

bindings="$(mktemp -d)"
trap 'rm -rf "$bindings"' EXIT
wasm-bindgen --target web --out-dir "$bindings" "$1" || exit 1
snippets="$(find "$bindings" -path '*/snippets/*' -name '*.js' | wc -l)"
if [ "$snippets" -gt 4 ]; then
  echo "[browser tests] !!! $(basename "$1") loads $snippets JS snippet modules, more than the" \
    "4 the test runner's server loads reliably (see scripts/wasm-test-runner.sh):" \
    "move the test's inline_js into tests/common/mod.rs" >&2
  find "$bindings" -path '*/snippets/*' -name '*.js' | sed "s|^$bindings/|  |" >&2
  exit 1
fi

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
