#!/usr/bin/env bash
#! The README's test command: every check CI runs, in order, failing on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

step "setup (installs only what is missing)"
scripts/setup.sh test

step "cargo fmt --check"
cargo fmt --all --check

step "cargo clippy (workspace, all targets, -D warnings)"
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy --target wasm32-unknown-unknown -p checkout --all-targets -- -D warnings

step "native tests"
cargo test --workspace

step "trunk build --release"
trunk build --release --offline

step "browser tests (wasm-bindgen-test in headless Chromium)"
CHROMEDRIVER=/usr/bin/chromedriver \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
WASM_BINDGEN_TEST_TIMEOUT=120 \
  cargo test --target wasm32-unknown-unknown -p checkout

step "all checks passed"
