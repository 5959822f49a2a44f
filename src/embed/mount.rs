//! `mount(element, options)` and `unmount(checkout)`: the JS entry points.

use super::events::{ErrorDetail, Events};
use super::options::{Mode, Options};
use crate::browser::http::Api;
use crate::i18n::{Locale, catalogues};
use crate::ui::{Ctx, app};
use any_spawner::Executor;
use reactive_graph::owner::Owner;
use reactive_graph::prelude::*;
use reactive_graph::signal::RwSignal;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// A mounted component. Call `unmount()` (or pass it to `unmount`) to remove it.
#[wasm_bindgen]
pub struct Checkout {
    state: Rc<RefCell<Mounted>>,
}

/// What a component holds, shared with a first render that waits for its language's
/// catalogue and with language switches that wait for theirs.
#[derive(Default)]
struct Mounted {
    handle: Option<Owner>,
    locale: Option<RwSignal<Locale>>,
    root: Option<web_sys::Element>,
    /// The language asked for last: a catalogue that arrives late does not undo a newer choice.
    wanted: Locale,
    /// Unmounted: a render still waiting for its catalogue does nothing.
    gone: bool,
}

#[wasm_bindgen]
impl Checkout {
    /// Removes the component from the page and frees its state.
    pub fn unmount(self) {}

    /// Switches the language (`de`, `ja-JP`, ...; empty for the browser's), keeping the input.
    /// A language shown for the first time switches once its catalogue has loaded.
    #[wasm_bindgen(js_name = setLocale)]
    pub fn set_locale(&self, tag: &str) {
        let locale = pick_locale(tag);
        self.state.borrow_mut().wanted = locale;
        let state = Rc::clone(&self.state);
        with_catalogue(locale, move || {
            let signal = {
                let state = state.borrow();
                (!state.gone && state.wanted == locale)
                    .then_some(state.locale)
                    .flatten()
            };
            if let Some(signal) = signal {
                signal.try_set(locale);
            }
        });
    }
}

impl Drop for Checkout {
    fn drop(&mut self) {
        let (handle, root) = {
            let mut state = self.state.borrow_mut();
            state.gone = true;
            state.locale = None;
            (state.handle.take(), state.root.take())
        };
        // Owner first (effects, handlers, signals), then the DOM.
        drop(handle);
        if let Some(root) = root {
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
    let state = Rc::new(RefCell::new(Mounted {
        wanted: locale,
        ..Mounted::default()
    }));
    let pending = Rc::clone(&state);
    with_catalogue(locale, move || {
        render(&pending, container, api, events, mode)
    });
    Ok(Checkout { state })
}

/// Builds the component into `container` in the language last asked for (English if its
/// catalogue could not be loaded), unless it was unmounted meanwhile.
fn render(
    state: &Rc<RefCell<Mounted>>,
    container: web_sys::HtmlElement,
    api: Api,
    events: Events,
    mode: Mode,
) {
    let wanted = {
        let state = state.borrow();
        if state.gone {
            return;
        }
        state.wanted
    };
    let locale = match catalogues::is_loaded(wanted) {
        true => wanted,
        false => Locale::En,
    };
    let built = Rc::new(RefCell::new(None));
    let slot = Rc::clone(&built);
    // The reactive owner of what the render makes (effects, handlers, signals), released with
    // it, and the executor its tasks run on (set once; later calls change nothing);
    // `ui::dom` builds the DOM.
    let _ = Executor::init_wasm_bindgen();
    let owner = Owner::new();
    owner.with(|| {
        let ctx = Ctx::new(locale, api, events);
        let root = app(ctx, mode);
        let _ = container.append_child(&root.0);
        slot.replace(Some((ctx.locale, root.0)));
    });
    let mut state = state.borrow_mut();
    state.handle = Some(owner);
    if let Some((signal, root)) = built.take() {
        state.locale = Some(signal);
        state.root = Some(root);
    }
}

/// Runs `then` now if `locale`'s texts are in memory, else once its catalogue has loaded (or
/// failed to, with a console warning: that language then shows English).
fn with_catalogue(locale: Locale, then: impl FnOnce() + 'static) {
    if catalogues::is_loaded(locale) {
        return then();
    }
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(problem) = catalogues::load(locale).await {
            web_sys::console::warn_1(&JsValue::from_str(&problem));
        }
        then();
    });
}

/// `tag` if it has a catalogue, else the browser's language, else English.
fn pick_locale(tag: &str) -> Locale {
    let browser = web_sys::window().and_then(|w| w.navigator().language());
    Locale::choose(Some(tag), browser.as_deref())
}
