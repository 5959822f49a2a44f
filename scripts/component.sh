#!/usr/bin/env bash
#! Builds the checkout component for release into dist/ (what checkout-server serves under
#! /frame/), as two bundles of the same www/index.html:
#!   - dist/          the card form (checkout and result modes): what a shopper downloads;
#!   - dist/manage/   the same page with the `subscriptions` feature, for a customer's
#!                    subscription self-service (mode `subscriptions`), so the card form never
#!                    carries that view;
#! then shrinks both (scripts/wasm-opt.sh). Offline: scripts/setup.sh fetched every crate.
#!
#! Usage: scripts/component.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

# The card form first: trunk replaces the whole of dist/, manage/ included.
trunk build --release --offline
trunk build --release --offline --features subscriptions --dist dist/manage \
  --public-url /frame/manage/
scripts/wasm-opt.sh dist/manage
scripts/wasm-opt.sh dist
