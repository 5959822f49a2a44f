#!/usr/bin/env bash
#! Minifies the loader (js/loader.js, the readable source) into js/loader.min.js: what
#! checkout-server serves as /checkout.js, what the npm package ships as checkout.js, and what a
#! shop pastes into an inline script. terser (pinned in tools/) mangles names but does not
#! rewrite statements, so `var BUILD="";` stays where checkout-server writes the build in
#! (server/src/api/frame/loader.rs), and the file keeps no comment (nothing that could open
#! an HTML comment in an inline script).
#!
#! Usage: scripts/loader-min.sh           (writes js/loader.min.js)
#!        scripts/loader-min.sh --check   (fails when js/loader.min.js is not js/loader.js's)
set -euo pipefail
cd "$(dirname "$0")/.."

terser=tools/node_modules/.bin/terser
if [ ! -x "$terser" ]; then
  echo "[loader] terser missing in tools/node_modules: run scripts/setup.sh" >&2
  exit 1
fi
minify() {
  "$terser" js/loader.js --mangle "reserved=['BUILD']" \
    --format "comments=false,preamble='/* card-checkout loader: minified js/loader.js */'"
}
if [ "${1:-}" = "--check" ]; then
  if ! minify | cmp -s - js/loader.min.js; then
    echo "[loader] js/loader.min.js is not the minified js/loader.js: run scripts/loader-min.sh" >&2
    exit 1
  fi
  echo "[loader] ok: js/loader.min.js is the minified js/loader.js"
else
  minify >js/loader.min.js
  echo "[loader] wrote js/loader.min.js ($(wc -c <js/loader.min.js) bytes)"
fi
