//! Browser tests of the card form, one binary: typing (formatting with the caret, paste,
//! brands, lengths, expiry), messages (every validation message, aria wiring and focus on
//! submit, autofill labels), language (the switch, right-to-left layout), and the view
//! (loading outline, amounts, a view carried by the document, the country list).
#![cfg(target_arch = "wasm32")]

#[path = "../common/mod.rs"]
mod common;
mod language;
mod messages;
mod typing;
mod view;

use common::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

async fn form() -> (Element, checkout::embed::mount::Checkout) {
    let (host, handle) = mount_form(&session_view(vec![], vec![])).await;
    (host.unchecked_into(), handle)
}
