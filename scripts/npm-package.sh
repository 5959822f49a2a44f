#!/usr/bin/env bash
#! Builds the npm package a shop installs (js/package: the loader as an ES module and a classic
#! script, loadCardCheckout, TypeScript types, React 19 JSX typings) with `npm pack` into
#! target/npm/, checks that the tarball holds what package.json promises, the loader exactly as
#! checkout-server serves it, and no runtime dependency, then type-checks the declarations
#! (tsc -p js/package, against js/package/types-check.tsx) and the code snippets of its README
#! and of the root README against the packed package (scripts/readme-snippets.mjs). Prints the
#! package's size.
#!
#! Usage: scripts/npm-package.sh   (after scripts/setup.sh: node, npm, tools/node_modules)
set -euo pipefail
cd "$(dirname "$0")/.."

out=target/npm
mkdir -p "$out"
rm -f "$out"/card-checkout-*.tgz
tarball="$(cd js/package && npm pack --silent --pack-destination "../../$out")"
tarball="$out/$tarball"

listing="$(tar -tzf "$tarball" | sort)"
expected="$(printf 'package/%s\n' README.md checkout.js index.d.ts index.mjs package.json react.d.ts | sort)"
if [ "$listing" != "$expected" ]; then
  echo "[npm] $tarball holds:" >&2; echo "$listing" >&2
  echo "[npm] expected:" >&2; echo "$expected" >&2
  exit 1
fi
if ! tar -xzOf "$tarball" package/checkout.js | cmp -s - js/loader.min.js; then
  echo "[npm] checkout.js in $tarball is not js/loader.min.js" >&2
  exit 1
fi
node -e '
  const pkg = JSON.parse(require("fs").readFileSync("js/package/package.json", "utf8"));
  if (pkg.dependencies && Object.keys(pkg.dependencies).length) {
    console.error("[npm] runtime dependencies are not allowed:", pkg.dependencies);
    process.exit(1);
  }'
tools/node_modules/.bin/tsc -p js/package
node scripts/readme-snippets.mjs
packed=$(wc -c <"$tarball" | tr -d ' ')
unpacked=$(tar -xzOf "$tarball" | wc -c | tr -d ' ')
echo "[npm] ok: $tarball, $packed bytes packed, $unpacked bytes unpacked; types check"
