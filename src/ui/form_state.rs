//! The card form's state: each field's text and error, the saved-card choice, progress, the
//! live-region notice and the current attempt's idempotency key. Created once per session view,
//! so re-rendering (e.g. on a language switch) keeps what the shopper typed.

use super::validate::{Problem, check, cvc_input};
use crate::browser::clock::today;
use crate::card::{Brand, format_expiry, format_number};
use crate::contract::CheckoutView;
use crate::embed::events::ChangeDetail;
use crate::form_fields::FieldKind;
use crate::i18n::Msg;
use reactive_graph::owner::{LocalStorage, StoredValue};
use reactive_graph::prelude::*;
use reactive_graph::signal::RwSignal;
use wasm_bindgen::JsCast;

/// One field: its text and the problem shown under it (if any).
#[derive(Clone, Copy)]
pub struct FieldState {
    /// The text as shown (formatted).
    pub value: RwSignal<String>,
    /// The problem on display; `None` while the field is fine or not yet judged.
    pub error: RwSignal<Option<Problem>>,
}

/// Everything the form remembers.
#[derive(Clone, Copy)]
pub struct FormState {
    fields: [FieldState; FieldKind::COUNT],
    billing: StoredValue<Vec<FieldKind>>,
    /// The chosen saved card's id; `None` means a new card.
    pub saved: RwSignal<Option<String>>,
    /// The chosen saved card keeps a billing address covering `billing`: the form asks for
    /// none (the server fills it in).
    pub keeps_billing: RwSignal<bool>,
    /// The "save this card" opt-in.
    pub save_card: RwSignal<bool>,
    /// A pay request is in flight (or the page is leaving for 3D Secure).
    pub busy: RwSignal<bool>,
    /// The bank's 3-D Secure page is open in a dialog on the shop's page (`busy` too).
    pub waiting_for_bank: RwSignal<bool>,
    /// Text of the polite live region (validation summary).
    pub notice: RwSignal<String>,
    /// Attempt-level problem (decline, network), shown in the alert region.
    pub alert: RwSignal<Option<Msg>>,
    /// The current attempt's `Idempotency-Key`; cleared when the answer is final or an input
    /// changes, kept across a retry after a lost answer.
    pub attempt_key: StoredValue<Option<String>>,
    /// The `<form>` element once rendered, to move focus inside it.
    pub form_ref: StoredValue<Option<web_sys::Element>, LocalStorage>,
}

impl FormState {
    /// Empty form for `view`; the first saved card that has not expired is preselected.
    pub fn new(view: &CheckoutView) -> Self {
        let today = today();
        let chosen = view.saved_cards.iter().find(|card| card.usable(today));
        let fields = std::array::from_fn(|_| FieldState {
            value: RwSignal::new(String::new()),
            error: RwSignal::new(None),
        });
        let billing = view
            .billing_fields
            .iter()
            .map(|f| FieldKind::billing(*f))
            .collect();
        Self {
            fields,
            billing: StoredValue::new(billing),
            saved: RwSignal::new(chosen.map(|card| card.id.clone())),
            keeps_billing: RwSignal::new(chosen.is_some_and(|card| card.billing_on_file)),
            save_card: RwSignal::new(false),
            busy: RwSignal::new(false),
            waiting_for_bank: RwSignal::new(false),
            notice: RwSignal::new(String::new()),
            alert: RwSignal::new(None),
            attempt_key: StoredValue::new(None),
            form_ref: StoredValue::new_local(None),
        }
    }

    /// The state of `kind`.
    pub fn field(&self, kind: FieldKind) -> FieldState {
        self.fields[kind.index()]
    }

    /// The text of `kind`, without subscribing.
    pub fn value(&self, kind: FieldKind) -> String {
        self.field(kind).value.get_untracked()
    }

    /// The billing fields the session asks for, in page order.
    pub fn billing(&self) -> Vec<FieldKind> {
        self.billing.get_value()
    }

    /// The fields a pay attempt needs: card fields unless a saved card is chosen, then billing
    /// unless the chosen card keeps it.
    pub fn active(&self) -> Vec<FieldKind> {
        let mut kinds = Vec::with_capacity(FieldKind::COUNT);
        if self.saved.get_untracked().is_none() {
            kinds.extend(FieldKind::CARD);
        }
        if !self.keeps_billing.get_untracked() {
            kinds.extend(self.billing());
        }
        kinds
    }

    /// What is wrong with `kind`'s current text.
    pub fn problem(&self, kind: FieldKind) -> Option<Problem> {
        check(
            kind,
            &self.value(kind),
            &self.value(FieldKind::Number),
            today(),
        )
    }

    /// The brand the number typed so far indicates.
    pub fn brand(&self) -> Brand {
        Brand::detect(&self.field(FieldKind::Number).value.get())
    }

    /// Handles typing or pasting into `kind`: formats number and expiry keeping the caret
    /// after the same digit, trims the CVC to its brand's length, and clears a shown error
    /// once the text is valid (new errors wait for blur or submit).
    pub fn on_input(&self, kind: FieldKind, input: &web_sys::HtmlInputElement) {
        let raw = input.value();
        let caret = input
            .selection_start()
            .ok()
            .flatten()
            .map_or(raw.len(), |c| c as usize);
        let (text, caret) = match kind {
            FieldKind::Number => format_number(&raw, caret),
            FieldKind::Expiry => format_expiry(&raw, caret),
            FieldKind::Cvc => {
                let text = cvc_input(&raw, &self.value(FieldKind::Number));
                let caret = caret.min(text.len());
                (text, caret)
            }
            _ => (raw.clone(), caret),
        };
        if text != raw {
            input.set_value(&text);
            let caret = caret as u32;
            let _ = input.set_selection_range(caret, caret);
        }
        self.set_value(kind, text);
    }

    /// Stores a new text for `kind` (also for the country select).
    pub fn set_value(&self, kind: FieldKind, text: String) {
        let state = self.field(kind);
        state.value.set(text);
        self.attempt_key.set_value(None);
        if state.error.get_untracked().is_some() && self.problem(kind).is_none() {
            state.error.set(None);
        }
    }

    /// Judges `kind` when it loses focus. An empty field is not reproached until submit, but
    /// a message already shown (e.g. by submit) is kept up to date rather than dropped.
    pub fn on_blur(&self, kind: FieldKind) {
        let state = self.field(kind);
        if self.value(kind).trim().is_empty() && state.error.get_untracked().is_none() {
            return;
        }
        state.error.set(self.problem(kind));
    }

    /// Judges every active field, shows each problem, and returns the fields at fault.
    pub fn validate_all(&self) -> Vec<FieldKind> {
        let mut invalid = Vec::new();
        for kind in self.active() {
            let problem = self.problem(kind);
            self.field(kind).error.set(problem);
            if problem.is_some() {
                invalid.push(kind);
            }
        }
        invalid
    }

    /// Moves keyboard focus to `kind`'s input.
    pub fn focus(&self, kind: FieldKind) {
        self.focus_id(kind.id());
    }

    /// Moves keyboard focus to the element with `id` inside the form (the pay button:
    /// `cc-submit`).
    pub fn focus_id(&self, id: &str) {
        let Some(form) = self.form_ref.get_value() else {
            return;
        };
        let selector = ["#", id].concat();
        if let Ok(Some(element)) = form.query_selector(&selector)
            && let Ok(element) = element.dyn_into::<web_sys::HtmlElement>()
        {
            let _ = element.focus();
        }
    }

    /// The `change` event's detail for the current state.
    pub fn change_detail(&self) -> ChangeDetail {
        let active = self.active();
        ChangeDetail {
            brand: Brand::detect(&self.value(FieldKind::Number)).id(),
            complete: active.iter().all(|k| self.problem(*k).is_none()),
            empty: active.iter().all(|k| self.value(*k).is_empty()),
            saved_card: self.saved.get_untracked().is_some(),
        }
    }
}
