#!/usr/bin/env bash
#! Prints the gzip and brotli sizes of the checkout component as trunk built it into dist/:
#! the release wasm, the JS glue (wasm-bindgen output plus its snippets) and the component CSS.
#! Fails when wasm + JS exceed the budget (45 KB gzip, KB = 1024 bytes), or when dist/ is missing.
#! Usage: scripts/size.sh [dist-dir]   (run `trunk build --release --offline` first)
set -euo pipefail
cd "$(dirname "$0")/.."

dist="${1:-dist}"
budget_bytes=$((45 * 1024))

if ! command -v brotli >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "[size] installing brotli"
  $sudo apt-get install -y -qq brotli >/dev/null 2>&1 ||
    { $sudo apt-get update -qq && $sudo apt-get install -y -qq brotli >/dev/null; }
fi

shopt -s nullglob
wasm=("$dist"/*_bg.wasm)
glue=()
for js in "$dist"/*.js; do
  case "$(basename "$js")" in shop.js) ;; *) glue+=("$js") ;; esac
done
while IFS= read -r -d '' snippet; do glue+=("$snippet"); done \
  < <(find "$dist/snippets" -name '*.js' -print0 2>/dev/null)
css=("$dist"/checkout.css)

if [ ${#wasm[@]} -ne 1 ] || [ ${#glue[@]} -eq 0 ]; then
  echo "[size] expected one *_bg.wasm and its JS in $dist/: run trunk build --release first" >&2
  exit 1
fi

raw() { cat "$@" | wc -c; }
gz() { local n=0; for f in "$@"; do n=$((n + $(gzip -9 -c "$f" | wc -c))); done; echo "$n"; }
br() { local n=0; for f in "$@"; do n=$((n + $(brotli -q 11 -c "$f" | wc -c))); done; echo "$n"; }
kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1024 }'; }

row() {
  local name="$1"; shift
  printf '%-14s %10s %10s %10s\n' "$name" "$(kb "$(raw "$@")")" "$(kb "$(gz "$@")")" "$(kb "$(br "$@")")"
}

printf '%-14s %10s %10s %10s\n' "" "raw" "gzip -9" "brotli"
row "wasm" "${wasm[@]}"
row "JS glue" "${glue[@]}"
[ ${#css[@]} -eq 1 ] && row "CSS" "${css[@]}"
row "wasm + JS" "${wasm[@]}" "${glue[@]}"

total=$(( $(gz "${wasm[@]}") + $(gz "${glue[@]}") ))
if [ "$total" -gt "$budget_bytes" ]; then
  echo "[size] FAIL: wasm + JS is $(kb "$total") gzip, over the $(kb "$budget_bytes") budget" >&2
  exit 1
fi
echo "[size] ok: wasm + JS is $(kb "$total") gzip (budget $(kb "$budget_bytes"))"
