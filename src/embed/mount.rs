//! `mount(element, options)` and `unmount(checkout)`: the JS entry points.

use super::events::{ErrorDetail, Events};
use super::options::Options;
use crate::browser::http::Api;
use crate::i18n::Locale;
use crate::ui::{Ctx, app};
use leptos::prelude::*;
use std::any::Any;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A mounted component. Call `unmount()` (or pass it to `unmount`) to remove it.
#[wasm_bindgen]
pub struct Checkout {
    handle: Option<Box<dyn Any>>,
    locale: Option<RwSignal<Locale>>,
    root: Option<web_sys::Element>,
}

#[wasm_bindgen]
impl Checkout {
    /// Removes the component from the page and frees its state.
    pub fn unmount(self) {}

    /// Switches the language (`de`, `ja-JP`, ...; empty for the browser's), keeping the input.
    #[wasm_bindgen(js_name = setLocale)]
    pub fn set_locale(&self, tag: &str) {
        if let Some(locale) = self.locale {
            locale.try_set(pick_locale(tag));
        }
    }
}

impl Drop for Checkout {
    fn drop(&mut self) {
        // Owner first (effects, handlers, signals), then the DOM.
        self.handle.take();
        if let Some(root) = self.root.take() {
            root.remove();
        }
    }
}

/// Renders the checkout component into `element` and dispatches its events there.
///
/// `options`: `{ session, clientSecret, server, locale, mode, customerToken }`, all strings.
/// A wrong option is reported on the console, as an `error` event, and thrown.
#[wasm_bindgen]
pub fn mount(element: web_sys::HtmlElement, options: JsValue) -> Result<Checkout, JsValue> {
    let host = element.clone().into();
    mount_into(element, options, host)
}

/// Removes a component `mount` returned.
#[wasm_bindgen]
pub fn unmount(checkout: Checkout) {
    drop(checkout);
}

/// Renders into `container` and dispatches events on `host` (the custom element, whose shadow
/// root holds `container`).
pub fn mount_into(
    container: web_sys::HtmlElement,
    options: JsValue,
    host: web_sys::EventTarget,
) -> Result<Checkout, JsValue> {
    let events = Events::new(host);
    let (options, mode) = match Options::from_js(options) {
        Ok(read) => read,
        Err(problem) => {
            let message = ["card-checkout: ", &problem].concat();
            web_sys::console::error_1(&JsValue::from_str(&message));
            events.emit(
                "error",
                &ErrorDetail {
                    code: "invalid_options",
                    message: message.clone(),
                    decline: None,
                },
            );
            return Err(js_sys::Error::new(&message).into());
        }
    };
    if !options.locale.is_empty() && Locale::from_tag(&options.locale).is_none() {
        let message = [
            "card-checkout: option `locale` \"",
            &options.locale,
            "\" has no catalogue (en, de, fr, es, ja); using the browser's language",
        ]
        .concat();
        web_sys::console::warn_1(&JsValue::from_str(&message));
    }
    let locale = pick_locale(&options.locale);
    let api = Api::new(
        &options.server,
        &options.session,
        &options.client_secret,
        &options.customer_token,
    );
    let built = Rc::new(Cell::new(None));
    let slot = Rc::clone(&built);
    // `mount_to` provides the reactive owner and the executor; `ui::dom` builds the DOM.
    let handle = leptos::mount::mount_to(container.clone(), move || {
        let ctx = Ctx::new(locale, api, events);
        let root = app(ctx, mode);
        let _ = container.append_child(&root.0);
        slot.set(Some((ctx.locale, root.0)));
    });
    let (locale, root) = built.take().unzip();
    Ok(Checkout {
        handle: Some(Box::new(handle)),
        locale,
        root,
    })
}

/// `tag` if it has a catalogue, else the browser's language, else English.
fn pick_locale(tag: &str) -> Locale {
    let browser = web_sys::window().and_then(|w| w.navigator().language());
    Locale::choose(Some(tag), browser.as_deref())
}
