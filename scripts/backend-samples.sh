#!/usr/bin/env bash
#! Installs the pinned dependencies of the backend samples the end-to-end suite runs:
#!   - examples/backend-python: a .venv with requirements.txt (pip --require-hashes);
#!   - examples/backend-node:   node_modules from package-lock.json (npm ci).
#! Each only when missing or older than its pin file, so a second run takes well under a
#! second. A missing python3 or node is reported, not fatal: the scenarios then skip loudly.
#!
#! Usage: scripts/backend-samples.sh   (scripts/setup.sh test runs it)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m[backend-samples]\033[0m %s\n' "$*"; }

python_dir=examples/backend-python
stamp="$python_dir/.venv/.installed"
if ! command -v python3 >/dev/null 2>&1; then
  say "python3 not found: the Python backend's scenario will be skipped"
elif [ ! -f "$stamp" ] || [ "$python_dir/requirements.txt" -nt "$stamp" ]; then
  say "python: venv and requirements.txt"
  rm -rf "$python_dir/.venv"
  python3 -m venv "$python_dir/.venv"
  "$python_dir/.venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes \
    -r "$python_dir/requirements.txt"
  touch "$stamp"
fi

node_dir=examples/backend-node
stamp="$node_dir/node_modules/.installed"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  say "node/npm not found: the Node backend's scenario will be skipped"
elif [ ! -f "$stamp" ] || [ "$node_dir/package-lock.json" -nt "$stamp" ]; then
  say "node: npm ci"
  (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error)
  touch "$stamp"
fi
say "ready"
