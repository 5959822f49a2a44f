#!/usr/bin/env bash
#! The README's run command: installs what is missing, builds the checkout component (trunk,
#! release) and checkout-server, and starts `checkout-server serve` with the in-process gateway
#! emulator (sandbox: no real money) and SQLite under ./data/. Prints the demo shop's address.
#! Environment: LISTEN (default 127.0.0.1:8080) and every other setting of README.md's
#! configuration reference are passed through to the server.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

scripts/setup.sh run
echo "[run] building the checkout component (trunk, release)"
trunk build --release --offline
scripts/wasm-opt.sh
echo "[run] building checkout-server (release)"
cargo build --release -p checkout-server --quiet
mkdir -p data
export LISTEN="${LISTEN:-127.0.0.1:8080}"
echo
echo "[run] demo shop: http://${LISTEN}/   (sandbox: test cards only, no real money; Ctrl-C stops)"
echo
exec target/release/checkout-server serve
