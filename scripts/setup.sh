#!/usr/bin/env bash
#! Installs what building and testing the project needs, skipping whatever is already present.
#! Idempotent: a second run with everything installed finishes in seconds.
#! Usage: scripts/setup.sh [run|test]   ("run" skips the browser and PostgreSQL)
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-test}"
TRUNK_VERSION="0.21.14"
GECKODRIVER_VERSION="0.37.1"
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

# apt-get update runs at most once per setup, and only if something is missing.
apt_updated=0
apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  if [ "$apt_updated" -eq 0 ]; then
    say "apt-get update"
    $sudo apt-get update -qq
    apt_updated=1
  fi
  say "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The wasm-bindgen CLI must be exactly the library version Cargo.lock resolved.
wasm_bindgen_version() {
  if [ ! -f Cargo.lock ]; then cargo generate-lockfile --quiet; fi
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

if ! trunk --version 2>/dev/null | grep -q "trunk $TRUNK_VERSION"; then
  say "installing trunk $TRUNK_VERSION (about 8 minutes on 2 cores)"
  cargo install --locked --quiet "trunk@$TRUNK_VERSION"
fi

wbg="$(wasm_bindgen_version)"
if ! wasm-bindgen --version 2>/dev/null | grep -q "wasm-bindgen $wbg"; then
  say "installing wasm-bindgen-cli $wbg (about 6 minutes)"
  # No --locked: the CLI's own lock names a webpki-roots release the registry mirror lacks.
  cargo install --quiet --force "wasm-bindgen-cli@$wbg"
fi
if ! grep -q "wasm_bindgen = \"$wbg\"" Trunk.toml; then
  echo "Trunk.toml [tools] wasm_bindgen does not match Cargo.lock's wasm-bindgen $wbg" >&2
  exit 1
fi

# Every crate of Cargo.lock for every target, so the offline trunk build finds the wasm ones.
cargo fetch --locked --quiet
# binaryen's wasm-opt and terser for the release bundle (pinned in tools/package-lock.json).
command -v npm >/dev/null 2>&1 || apt_install nodejs npm
scripts/wasm-opt.sh --install >/dev/null
if [ "$mode" = "test" ]; then
  # procps: pkill, which stops a hung browser-test run with its browser (wasm-test-runner.sh).
  # The e2e suite's three engines: Chromium, Firefox (geckodriver) and WebKit (WebKitWebDriver
  # with MiniBrowser, which needs a display: Xvfb).
  apt_install chromium chromium-driver firefox-esr webkit2gtk-driver xvfb postgresql procps
  # Its --version prints several lines: read them whole (grep -q under pipefail would end the
  # pipe early and fail the check).
  if [[ "$(geckodriver --version 2>/dev/null)" != "geckodriver $GECKODRIVER_VERSION"* ]]; then
    say "installing geckodriver $GECKODRIVER_VERSION (about 3 minutes on 2 cores)"
    cargo install --locked --quiet "geckodriver@$GECKODRIVER_VERSION"
  fi
  # README.md's curl snippets, run against a test server (server/tests/it/readme).
  command -v curl >/dev/null 2>&1 || apt_install curl
  # The backend samples the e2e suite runs (examples/backend-*): Python 3 with venv, Node; the
  # Python one's venv also runs README.md's events snippet (server/tests/it/readme).
  command -v python3 >/dev/null 2>&1 || apt_install python3 python3-venv
  [ "$(command -v python3)" = /usr/bin/python3 ] && apt_install python3-venv
  scripts/backend-samples.sh
  # The API contract's property-based tests (scripts/schemathesis.sh).
  scripts/schemathesis.sh --install
fi
say "toolchain ready (wasm-bindgen $wbg, trunk $TRUNK_VERSION)"
