#!/usr/bin/env bash
#! The README's run command: installs what is missing, builds the checkout component (trunk,
#! release) and checkout-server, and starts `checkout-server serve` with the in-process gateway
#! emulator (sandbox: no real money) and SQLite under ./data/. Prints the demo shop's address:
#! the shop is its own origin (DEMO_LISTEN, default 127.0.0.1:8081) and embeds the card form
#! from checkout-server (LISTEN, default 127.0.0.1:8080) as any shop does. Every other setting
#! of README.md's configuration reference is passed through to the server.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

scripts/setup.sh run
echo "[run] building the checkout component (trunk, release)"
scripts/component.sh
echo "[run] building checkout-server (release)"
cargo build --release -p checkout-server --quiet
mkdir -p data
export LISTEN="${LISTEN:-127.0.0.1:8080}"
export DEMO_LISTEN="${DEMO_LISTEN:-127.0.0.1:8081}"
echo
if [ "${DEMO_LISTEN,,}" = "off" ]; then
  echo "[run] no demo shop (DEMO_LISTEN=off): the emulator alone; the server lists its addresses below"
else
  echo "[run] demo shop: http://${DEMO_LISTEN}/   (sandbox: test cards only, no real money; Ctrl-C stops)"
fi
echo
exec target/release/checkout-server serve
