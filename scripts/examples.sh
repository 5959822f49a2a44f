#!/usr/bin/env bash
#! Gets the shop examples (examples/html, react, vue) ready for the end-to-end suite: installs
#! each one's dependencies with the npm package as packed by scripts/npm-package.sh
#! (target/npm/card-checkout-0.1.0.tgz), type-checks it (tsc --noEmit) and builds the Vite ones
#! into their dist/ (the plain HTML one is served as it is). Quick when nothing changed: npm
#! only reinstalls when package.json or the packed package is newer than node_modules.
#!
#! Usage: scripts/examples.sh   (after scripts/npm-package.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

tarball=target/npm/card-checkout-0.1.0.tgz
[ -f "$tarball" ] || { echo "[examples] $tarball missing: run scripts/npm-package.sh" >&2; exit 1; }

for example in html react vue; do
  dir="examples/$example"
  stamp="$dir/node_modules/.installed"
  if [ ! -f "$stamp" ] || [ "$dir/package.json" -nt "$stamp" ] || [ "$tarball" -nt "$stamp" ]; then
    echo "[examples] $example: npm install"
    # The packed package changes with every build: reinstall it rather than trust the cache.
    rm -rf "$dir/node_modules/card-checkout"
    (cd "$dir" && npm install --no-audit --no-fund --no-package-lock --loglevel=error)
    touch "$stamp"
  fi
  echo "[examples] $example: tsc --noEmit"
  (cd "$dir" && node_modules/.bin/tsc --noEmit)
  if grep -q '"build"' "$dir/package.json"; then
    echo "[examples] $example: vite build"
    (cd "$dir" && node_modules/.bin/vite build --logLevel warn)
  fi
done
echo "[examples] ok: html, react, vue installed from $tarball, type-checked, built"
