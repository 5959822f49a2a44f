//! Registers `<card-checkout>`. The element class lives in `js/card-checkout.js` (a class
//! extending `HTMLElement` must be JavaScript); it calls back into [`super::mount`].

use super::mount::mount_into;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/card-checkout.js")]
extern "C" {
    #[wasm_bindgen(js_name = defineCardCheckout)]
    fn define_card_checkout(mount: &JsValue);
}

/// Defines the custom element once per page (later calls do nothing). Elements already in the
/// page upgrade and mount at once.
pub fn define() {
    let mount =
        Closure::<dyn Fn(web_sys::HtmlElement, JsValue, web_sys::EventTarget) -> JsValue>::new(
            |container, options, host| match mount_into(container, options, host) {
                Ok(checkout) => checkout.into(),
                Err(_) => JsValue::NULL,
            },
        );
    define_card_checkout(&mount.into_js_value());
}
