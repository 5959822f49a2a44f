//! The component's DOM events: `ready`, `change`, `submit`, `processing`, `success`, `error`
//! (and the cancelable `redirect`), dispatched as `CustomEvent`s on the host element. They bubble
//! and are `composed`, so a listener outside a shadow root hears them. Details never carry card
//! data.

use crate::contract::{DeclineCode, SubscriptionAction, SubscriptionStatus};
use serde::Serialize;
use wasm_bindgen::JsValue;

/// `ready`: the component has rendered its first usable view.
#[derive(Clone, Debug, Serialize)]
pub struct ReadyDetail {
    /// `checkout` or `subscriptions` (the result page, checkout-server's own, sends `result`).
    pub mode: &'static str,
}

/// `change`: something in the form changed. Only what a shop may know: brand and state.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChangeDetail {
    /// Detected brand id (`visa`, `amex`, ..., `unknown`).
    pub brand: &'static str,
    /// Every visible field passes validation.
    pub complete: bool,
    /// Every visible field is empty.
    pub empty: bool,
    /// A saved card is chosen instead of a new one.
    pub saved_card: bool,
}

/// `submit`: a pay attempt starts.
#[derive(Clone, Debug, Serialize)]
pub struct SubmitDetail {
    /// Paying with a saved card.
    pub saved_card: bool,
}

/// `error`: the attempt or the view failed; `message` is the text the shopper sees.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorDetail {
    /// `card_declined`, `card_refused` (refused before the gateway by a block list or the
    /// card-testing rules; never which), `payment_failed`, `network`, `server`,
    /// `rate_limited` (also a proof of work still asked for; the shopper reads the same
    /// neutral text as for `card_refused`),
    /// `payment_in_progress`, `session_paid`, `three_ds_cancelled`, `load_failed`,
    /// `invalid_redirect`, `action_failed` or `invalid_options`.
    pub code: &'static str,
    /// Localised sentence (English developer text for `invalid_options`).
    pub message: String,
    /// The decline reason, for `card_declined`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decline: Option<DeclineCode>,
}

/// `redirect` (cancelable): the component is about to send the top window to 3D Secure.
/// Cancelled, the component waits for the bank (the card frame shows the page in a dialog on
/// the shop's page, src/ui/three_ds.rs, or the shop navigates itself).
#[derive(Clone, Debug, Serialize)]
pub struct RedirectDetail {
    /// The issuer's page.
    pub url: String,
    /// The challenge window the browser data sent (`01`..`05`): a dialog's size.
    pub challenge_window: &'static str,
}

/// `success` in the subscription view: an action went through.
#[derive(Clone, Debug, Serialize)]
pub struct ActionDetail {
    /// What was done.
    pub action: SubscriptionAction,
    /// Which subscription.
    pub subscription_id: String,
    /// Its status now.
    pub status: SubscriptionStatus,
}

/// Dispatches the component's events on one target.
#[derive(Clone, Debug)]
pub struct Events {
    target: web_sys::EventTarget,
}

impl Events {
    /// Events go to `target`: the custom element, or the element given to `mount`.
    pub fn new(target: web_sys::EventTarget) -> Self {
        Self { target }
    }

    /// Dispatches `name` with `detail`; false when a listener cancelled it.
    pub fn emit<T: Serialize>(&self, name: &str, detail: &T) -> bool {
        let detail = serde_wasm_bindgen::to_value(detail).unwrap_or(JsValue::NULL);
        dispatch(&self.target, name, &detail)
    }
}

fn dispatch(target: &web_sys::EventTarget, name: &str, detail: &JsValue) -> bool {
    let init = web_sys::CustomEventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    init.set_cancelable(true);
    init.set_detail(detail);
    match web_sys::CustomEvent::new_with_event_init_dict(name, &init) {
        Ok(event) => target.dispatch_event(&event).unwrap_or(true),
        Err(_) => true,
    }
}
