//! `checkout`: the card checkout component merchants embed, and the card rules it shares with
//! `checkout-server`. Built without the default `ui` feature, only the pure rules compile, so the
//! server validates a card with exactly the code the browser runs.
//!
//! With `ui` (the wasm build), the JS API is: `mount(element, options)` returning a `Checkout`
//! handle (`unmount()`, `setLocale(tag)`), `unmount(checkout)`, and the `<card-checkout>`
//! custom element, registered when the module starts.

pub mod card;
pub mod contract;

#[cfg(feature = "ui")]
pub mod browser;
#[cfg(feature = "ui")]
pub mod embed;
#[cfg(feature = "ui")]
pub mod i18n;
#[cfg(feature = "ui")]
pub mod ui;

/// Module start: registers `<card-checkout>` (elements already in the page upgrade now).
#[cfg(all(feature = "ui", target_arch = "wasm32"))]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    embed::element::define();
}
