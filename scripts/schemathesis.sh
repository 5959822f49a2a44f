#!/usr/bin/env bash
#! The API contract, tested as a shop generating a client from it would meet it: schemathesis
#! (pinned in tools/schemathesis/requirements.txt) generates requests from the server's own
#! /openapi.json and checks every answer (`--checks all`: no server error, every response in
#! its schema, schema-valid requests accepted and schema-violating ones refused), with a fixed
#! seed so a run is repeatable. Every phase runs, the stateful one included: it follows the
#! document's `links` (a session to its pay and payment, an endpoint to its rotation, a block
#! to its deletion, an event to its redelivery) past the creating call, bounded like the
#! others by --max-examples (its settings: tools/schemathesis/schemathesis.toml). Its check
#! that a created resource can be found is left out: schemathesis repeats a create with the
#! same Idempotency-Key in a later scenario, and the server rightly answers the first 201
#! again, for an endpoint or block that scenario deleted meanwhile. The server is checkout-server serve in the sandbox on a
#! throwaway SQLite database, the card form's build (dist/) served as in the demo.
#!
#! Usage: scripts/schemathesis.sh            run (after `cargo build -p checkout-server` and
#!                                           scripts/component.sh; make test does both)
#!        scripts/schemathesis.sh --install  only install the venv (scripts/setup.sh test)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m[schemathesis]\033[0m %s\n' "$*"; }

dir=tools/schemathesis
venv="$dir/.venv"
stamp="$venv/.installed"
if [ ! -f "$stamp" ] || [ "$dir/requirements.txt" -nt "$stamp" ]; then
  say "installing the pinned schemathesis into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$dir/requirements.txt"
  touch "$stamp"
fi
[ "${1:-}" = "--install" ] && exit 0

server=target/debug/checkout-server
[ -x "$server" ] || cargo build --quiet -p checkout-server
work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
key="sk_test_schemathesis_0123456789"
LISTEN="127.0.0.1:$port" DEMO_LISTEN=off DASHBOARD_LISTEN=off \
  DATABASE_URL="$work/checkout.db" MERCHANT_SECRET_KEY="$key" \
  PAY_RATE_LIMIT_PER_IP=10000 PAY_RATE_LIMIT_PER_SESSION=10000 \
  COMPONENT_DIR="$PWD/dist" LOG_FORMAT=json RUST_LOG=warn \
  "$server" serve >"$work/server.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
say "checking the API of a sandbox server on 127.0.0.1:$port against its /openapi.json"
if ! "$venv/bin/st" --config-file "$dir/schemathesis.toml" run \
  "http://127.0.0.1:$port/openapi.json" \
  -H "Authorization: Bearer $key" \
  --phases examples,coverage,fuzzing,stateful \
  --checks all --exclude-checks ensure_resource_availability \
  --seed 1 --max-examples 15 --no-color; then
  say "failed; the server's log:"
  tail -n 50 "$work/server.log"
  exit 1
fi
