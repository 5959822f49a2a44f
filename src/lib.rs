//! `checkout`: the card checkout component merchants embed, and what it shares with the servers:
//! the card rules, the browser contract and the ISO 4217 table. Built without the default `ui`
//! feature only those compile, so the server validates a card with exactly the code the browser
//! runs; the `server` feature adds the gateway's wire types, which `checkout-server`'s client
//! and `checkout-sandbox`'s emulator read and write from either side.
//!
//! With `ui` (the wasm build), the JS API is: `mount(element, options)` returning a `Checkout`
//! handle (`unmount()`, `setLocale(tag)`), `unmount(checkout)`, and the `<card-checkout>`
//! custom element, registered when the module starts.

pub mod card;
pub mod contract;
pub mod currency;
pub mod form_fields;
pub mod i18n;
#[cfg(feature = "server")]
pub mod json;
pub mod outcome;
#[cfg(feature = "server")]
pub mod wire;

#[cfg(feature = "ui")]
pub mod browser;
#[cfg(feature = "ui")]
pub mod embed;
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
