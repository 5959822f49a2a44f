#!/usr/bin/env bash
#! The README's run command: installs what is missing, builds the component, starts the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

scripts/setup.sh run
echo "[run] building the checkout component (trunk, release)"
trunk build --release --offline
echo "[run] building checkout-server"
cargo build --release -p checkout-server --quiet
listen="${LISTEN:-127.0.0.1:8080}"
exec target/release/checkout-server sandbox --listen "$listen"
