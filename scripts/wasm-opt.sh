#!/usr/bin/env bash
#! Shrinks the release bundle trunk built into dist/, in place, after `trunk build --release`:
#!   - the wasm through binaryen's wasm-opt 132 (-O1 --converge, names and producers stripped);
#!     Debian's wasm-opt 108 is never used: it rewires wasm-bindgen's `__wbindgen_externrefs`
#!     export to the function table and the page fails at start (www/index.html keeps trunk's own
#!     wasm-opt off for that reason);
#!   - the wasm-bindgen JS glue and its snippets through terser (trunk's built-in minifier cannot
#!     parse the glue and leaves it as is);
#!   - the `integrity` hashes dist/index.html carries for the files it changed, and its
#!     stylesheets inlined (the frame document paints its HTML form without waiting for them);
#!     the wasm's preload loses its `integrity` (trunk writes one, but a preload `as="fetch"`
#!     has no Subresource Integrity: Chromium ignores it and warns on every load);
#!   - a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy of every wasm, JS, CSS
#!     and JSON file, which checkout-server sends to browsers that accept them (compressed
#!     once here rather than on every request, and tighter than on-the-fly compression).
#! The tools are npm packages pinned in tools/package.json, installed into tools/node_modules.
#! -O1 because the higher levels shrink the raw wasm but grow its gzip/brotli size (they inline
#! and reorder code that LLVM's opt-level "z" already laid out compactly).
#!
#! Usage: scripts/wasm-opt.sh --install   (setup, needs the npm registry once)
#!        scripts/wasm-opt.sh [dist-dir]  (after `trunk build --release --offline`; offline)
set -euo pipefail
cd "$(dirname "$0")/.."

tools=tools
bin="$tools/node_modules/.bin"
say() { echo "[wasm-opt] $*"; }

install_tools() {
  command -v npm >/dev/null 2>&1 || { echo "[wasm-opt] npm (Node.js) is required" >&2; exit 1; }
  say "installing binaryen, terser, typescript and axe-core (tools/package-lock.json) into $tools/node_modules"
  npm ci --prefix "$tools" --no-audit --no-fund --loglevel=error
}

tools_ready() {
  [ -x "$bin/wasm-opt" ] && [ -x "$bin/terser" ] && [ -x "$bin/tsc" ] &&
    [ -f "$tools/node_modules/axe-core/axe.min.js" ] &&
    "$bin/wasm-opt" --version 2>/dev/null | grep -q "version 132"
}

if [ "${1:-}" = "--install" ]; then
  tools_ready || install_tools
  "$bin/wasm-opt" --version
  exit 0
fi

dist="${1:-dist}"
if ! tools_ready; then
  echo "[wasm-opt] binaryen 132 / terser missing in $tools/node_modules: run scripts/setup.sh" \
    "(or scripts/wasm-opt.sh --install)" >&2
  exit 1
fi

shopt -s nullglob
wasm=("$dist"/*_bg.wasm)
if [ ${#wasm[@]} -ne 1 ] || [ ! -f "$dist/index.html" ]; then
  echo "[wasm-opt] expected one *_bg.wasm and index.html in $dist/: run trunk build --release" >&2
  exit 1
fi

# The features rustc's wasm32 target enables and wasm-bindgen's output relies on (externref).
features=(--enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-mutable-globals --enable-multivalue)

changed=()
size() { wc -c <"$1" | tr -d ' '; }

out="$(mktemp)"
trap 'rm -f "$out"' EXIT
before=$(size "${wasm[0]}")
"$bin/wasm-opt" "${wasm[0]}" "${features[@]}" -O1 --converge --strip-debug --strip-producers \
  -o "$out"
cp "$out" "${wasm[0]}"
changed+=("${wasm[0]}")
say "$(basename "${wasm[0]}"): $before -> $(size "${wasm[0]}") bytes"

glue=("$dist"/*.js)
while IFS= read -r -d '' snippet; do glue+=("$snippet"); done \
  < <(find "$dist/snippets" -name '*.js' -print0 2>/dev/null)
for js in "${glue[@]}"; do
  before=$(size "$js")
  # Exports keep their names (the glue imports the snippets' exports by name).
  "$bin/terser" "$js" --module --compress --mangle --output "$out"
  cp "$out" "$js"
  changed+=("$js")
  say "${js#"$dist"/}: $before -> $(size "$js") bytes"
done

# index.html preloads and loads these files with Subresource Integrity hashes: recompute them.
node - "$dist" "${changed[@]}" <<'EOF'
const fs = require("fs");
const crypto = require("crypto");
const path = require("path");
const [dist, ...files] = process.argv.slice(2);
const page = path.join(dist, "index.html");
let html = fs.readFileSync(page, "utf8");
for (const file of files) {
  const href = "/" + path.relative(dist, file).split(path.sep).join("/");
  const hash = (alg) => alg + "-" + crypto.createHash(alg).update(fs.readFileSync(file)).digest("base64");
  html = html.replace(/<(?:link|script)\b[^>]*>/g, (tag) => {
    const hrefMatch = tag.match(/\b(?:href|src)=("?)([^"\s>]+)\1/);
    if (!hrefMatch || !hrefMatch[2].endsWith(href)) return tag;
    return tag.replace(/\bintegrity=("?)(sha256|sha384|sha512)-[^"\s>]+\1/, (_, q, alg) => `integrity=${q}${hash(alg)}${q}`);
  });
}
// Subresource Integrity covers scripts and stylesheets only: on a `<link rel="preload">` of any
// other destination (the wasm, as="fetch") Chromium ignores it and logs "The `integrity`
// attribute is currently ignored for preload destinations that do not support subresource
// integrity" on every load. Those preloads go without it (the modulepreloads keep theirs).
html = html.replace(/<link\b[^>]*\brel="preload"[^>]*>/g, (tag) => {
  const as = (tag.match(/\bas="([^"]*)"/) || [])[1];
  if (as === "script" || as === "style") return tag;
  return tag.replace(/\s+integrity=("?)[^"\s>]+\1/, "");
});
fs.writeFileSync(page, html);
EOF
# The frame document's stylesheets go inline: a <link> would wait for its turn on a slow line
# behind the wasm, and the HTML form the document carries could not paint before it.
# checkout.css keeps its file (inline mode links it) and its block the id `checkout-css`, which
# www/frame.js hands to the component for its shadow root, and the file's address (`data-href`):
# the hosted page keeps only the rules its HTML form can match inline and hands the component
# the file (server/src/api/hosted/used_styles.rs).
node - "$dist" <<'EOF'
const fs = require("fs");
const path = require("path");
const [dist] = process.argv.slice(2);
const page = path.join(dist, "index.html");
const html = fs.readFileSync(page, "utf8").replace(/<link rel="stylesheet" href="([^"]*\/([^"/]+\.css))"[^>]*>/g, (_, href, file) => {
  const css = fs.readFileSync(path.join(dist, file), "utf8").replace(/<\/style/gi, "<\\/style");
  const id = file.startsWith("checkout-") ? ` id="checkout-css" data-href="${href}"` : "";
  return `<style${id}>${css}</style>`;
});
fs.writeFileSync(page, html);
EOF

# Precompressed copies, served by checkout-server's /frame/ (ServeDir's precompressed files).
node - "$dist" <<'EOF'
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");
// A folder with its own index.html is another bundle (dist/manage/): its own run compresses it.
const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
  const file = path.join(dir, entry.name);
  if (!entry.isDirectory()) return [file];
  return fs.existsSync(path.join(file, "index.html")) ? [] : walk(file);
});
for (const file of walk(process.argv[2]).filter((f) => /\.(wasm|js|css|json)$/.test(f))) {
  const body = fs.readFileSync(file);
  fs.writeFileSync(file + ".gz", zlib.gzipSync(body, { level: 9 }));
  fs.writeFileSync(file + ".br", zlib.brotliCompressSync(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  }));
}
EOF
say "optimized $dist/ (integrity hashes in $dist/index.html updated; .br and .gz copies written)"
