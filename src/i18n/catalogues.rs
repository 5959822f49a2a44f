//! Where the catalogues live. English is compiled into the wasm; the twelve other languages are
//! JS modules (`js/i18n/<tag>.js`) imported the first time their language is shown, so a page
//! in English downloads none of them. A loaded catalogue stays in memory for the life of the
//! page (a few KB each).

use super::{Locale, Msg, keyed};
use std::cell::RefCell;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(module = "/js/catalogues.js")]
extern "C" {
    #[wasm_bindgen(js_name = loadCatalogue, catch)]
    async fn load_catalogue(tag: &str) -> Result<JsValue, JsValue>;
}

thread_local! {
    static LOADED: RefCell<Vec<(Locale, &'static [&'static str])>> = const { RefCell::new(Vec::new()) };
}

/// The catalogue of `locale`, if it is in memory (English always is).
pub(super) fn get(locale: Locale) -> Option<&'static [&'static str]> {
    if locale == Locale::En {
        return Some(Msg::ENGLISH);
    }
    #[cfg(test)]
    if let Some(text) = super::bundled::get(locale) {
        return Some(text);
    }
    LOADED.with_borrow(|loaded| {
        loaded
            .iter()
            .find(|(known, _)| *known == locale)
            .map(|(_, text)| *text)
    })
}

/// Whether `locale`'s texts can be shown without waiting.
pub fn is_loaded(locale: Locale) -> bool {
    get(locale).is_some()
}

/// Makes `locale`'s catalogue available. The error is a sentence for the console; until a
/// catalogue loads, its language shows the English texts.
pub async fn load(locale: Locale) -> Result<(), String> {
    if is_loaded(locale) {
        return Ok(());
    }
    let refuse = |why: &str| {
        [
            "card-checkout: the \"",
            locale.tag(),
            "\" messages ",
            why,
            "; showing English",
        ]
        .concat()
    };
    let value = load_catalogue(locale.tag())
        .await
        .map_err(|_| refuse("could not be loaded (js/i18n/ missing next to the component?)"))?;
    let text = value
        .as_string()
        .filter(|text| text.contains('='))
        .ok_or_else(|| refuse("are not a catalogue"))?;
    // Two components may load the same language at once: keep the first copy.
    if !is_loaded(locale) {
        let text: &'static str = Box::leak(text.into_boxed_str());
        let texts: &'static [&'static str] = Box::leak(keyed::texts(text).into_boxed_slice());
        LOADED.with_borrow_mut(|loaded| loaded.push((locale, texts)));
    }
    Ok(())
}
