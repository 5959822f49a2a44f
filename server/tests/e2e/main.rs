//! End-to-end suite: a person's checkout in real browsers, driven through WebDriver by
//! `fantoccini`, against real `checkout-server` processes on loopback: the demo shop with the
//! in-process emulator, a partner site on a second origin, and for the fault scenarios an
//! emulator in its own process that outlives a killed server.
//!
//! The browser-facing scenarios run in three engines (support/engine.rs): Chromium
//! (chromedriver), Firefox ESR (geckodriver) and WebKit (WebKitWebDriver with MiniBrowser on
//! Xvfb), each as its own test (`<scenario>::chromium`, `::firefox`, `::webkit`;
//! support/every_engine.rs). The scenarios that need DevTools or Chromium's console log run in
//! Chromium only.
//!
//! Needs `dist/` (`scripts/component.sh`) and the engines' tools; an engine whose tools are
//! missing skips its scenarios after a loud "SKIPPED" notice. The scenarios are `#[ignore]`d
//! so `cargo test --workspace` (which runs before the wasm build) leaves them out; run them
//! with `cargo test -p checkout-server --test e2e -- --include-ignored` (scripts/test.sh does;
//! add `firefox` or `webkit` to run one engine's). `E2E_JOBS` (default 2) caps how many run at
//! once. Screenshots go to `screenshots/<scenario>-<engine>-<step>.png`.

mod support;

mod autofill;
mod backends;
mod block_preview;
mod blocked_card;
mod closed_tab;
mod console;
mod dark_theme;
mod dashboard;
mod dashboard_a11y;
mod dashboard_admin;
mod dashboard_review;
mod declines;
mod examples;
mod faults;
mod frame_as_page;
mod frame_origins;
mod inline_snippet;
mod isolation;
mod keyboard;
mod killed_instance;
mod overview;
mod payment_link;
mod payment_link_terms;
mod rtl;
mod saved_card;
mod shadow_dom;
mod subscription;
mod three_ds;
mod three_ds_dialog;
mod three_ds_retry;
mod typed_before_ready;
mod validation;
