//! End-to-end suite: a person's checkout in Debian's Chromium (through chromedriver, driven by
//! `fantoccini`) against real `checkout-server` processes on loopback: the demo shop with the
//! in-process emulator, a partner site on a second origin, and for the fault scenarios an
//! emulator in its own process that outlives a killed server.
//!
//! Needs `dist/` (`scripts/component.sh`) and Chromium + chromedriver; without the browser
//! tools every scenario returns after a loud "SKIPPED" notice. The scenarios are `#[ignore]`d
//! so `cargo test --workspace` (which runs before the wasm build) leaves them out; run them
//! with `cargo test -p checkout-server --test e2e -- --include-ignored` (scripts/test.sh does).
//! `E2E_JOBS` (default 2) caps how many run at once. Screenshots go to `screenshots/`.

mod support;

mod autofill;
mod backends;
mod closed_tab;
mod console;
mod dark_theme;
mod declines;
mod examples;
mod faults;
mod frame_as_page;
mod frame_origins;
mod isolation;
mod keyboard;
mod saved_card;
mod shadow_dom;
mod subscription;
mod three_ds;
mod typed_before_ready;
mod validation;
