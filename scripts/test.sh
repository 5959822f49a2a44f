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
cargo clippy --workspace --all-targets --features checkout/subscriptions -- -D warnings
# Both bundles: the card form alone, and with the subscription view (scripts/component.sh).
cargo clippy --target wasm32-unknown-unknown -p checkout --all-targets -- -D warnings
cargo clippy --target wasm32-unknown-unknown -p checkout --all-targets --features subscriptions \
  -- -D warnings

step "PostgreSQL for the store tests (a throwaway cluster on 127.0.0.1)"
if pg_env="$(scripts/postgres.sh)"; then
  eval "$pg_env"
  export TEST_DATABASE_URL_POSTGRES="$DATABASE_URL_POSTGRES"
  trap 'scripts/postgres.sh stop >/dev/null 2>&1 || true' EXIT
else
  printf '\n\033[1;33m!!! PostgreSQL could not be started: the Postgres store tests are SKIPPED !!!\033[0m\n\n'
fi

step "native tests"
cargo test --workspace

step "component build (trunk --release: the card form, and the subscription bundle)"
scripts/component.sh

step "API contract (schemathesis from the server's own /openapi.json, a fixed seed)"
scripts/schemathesis.sh

step "bundle size (fails above the ceiling; see docs/size.md)"
scripts/size.sh --ceiling

step "npm package (npm pack, contents, types checked with tsc) and the shop examples"
scripts/npm-package.sh
scripts/examples.sh

step "browser tests (wasm-bindgen-test in headless Chromium)"
# Without debug info the test modules the browser loads are a fraction of the size.
CHROMEDRIVER=/usr/bin/chromedriver \
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$PWD/scripts/wasm-test-runner.sh" \
CARGO_PROFILE_DEV_DEBUG=0 \
WASM_BINDGEN_TEST_TIMEOUT=120 \
  cargo test --target wasm32-unknown-unknown -p checkout --features subscriptions

step "end-to-end suite (a shopper in Chromium, Firefox and WebKit against checkout-server serve)"
cargo test -p checkout-server --test e2e -- --include-ignored

step "all checks passed"
