#!/usr/bin/env bash
#! Prints the size of the smallest programs built from what issue #5 prescribes for the
#! component (scripts/size-floor: a leptos counter; with one gloo-net request; with
#! serde-wasm-bindgen options; with both), through the same wasm-bindgen, wasm-opt, terser and
#! size steps as the component's bundle. docs/size.md compares them with the component.
#! Usage: scripts/size-floor.sh   (after scripts/setup.sh; builds in target/size-floor)
set -euo pipefail
cd "$(dirname "$0")/.."

crate=scripts/size-floor
target="$PWD/target/size-floor"
for features in "" "request" "options" "options,request"; do
  CARGO_TARGET_DIR="$target" cargo build --quiet --release --locked \
    --manifest-path "$crate/Cargo.toml" --target wasm32-unknown-unknown --features "$features"
  dist="$target/dist-${features:-counter}"
  rm -rf "$dist" && mkdir -p "$dist"
  wasm-bindgen --target web --out-dir "$dist" --out-name size-floor \
    "$target/wasm32-unknown-unknown/release/size_floor.wasm"
  echo '<!doctype html><script type="module" src="size-floor.js"></script>' >"$dist/index.html"
  scripts/wasm-opt.sh "$dist" >/dev/null
  echo "== floor: leptos counter${features:+ + $features}"
  scripts/size.sh "$dist" || true
done
