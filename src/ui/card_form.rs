//! The card form: amount, plan terms, saved cards, card and billing fields, save-card opt-in,
//! the alert for declines, the pay button with progress, and a polite live region.

use super::context::Ctx;
use super::dom::{El, el, on_window};
use super::field::field;
use super::form_state::FormState;
use super::pay::submit;
use super::plan_terms::plan_terms;
use super::result::Outcome;
use super::saved_cards::saved_cards;
use super::stage::Stage;
use super::three_ds::on_dialog_end;
use crate::contract::{CheckoutKind, CheckoutView};
use crate::form_fields::FieldKind;
use crate::i18n::{Msg, fill, format_money};
use reactive_graph::prelude::*;
use reactive_graph::signal::RwSignal;
use wasm_bindgen::JsCast;

/// Renders the form for `view` from `form`'s state.
pub fn card_form(
    c: Ctx,
    view: &CheckoutView,
    form: FormState,
    stage: RwSignal<Stage>,
    outcome: RwSignal<Outcome>,
) -> El {
    let amount = format_money(c.loc, view.amount, view.currency_exponent, &view.currency);
    let (plan, label) = match &view.kind {
        CheckoutKind::Subscription { plan } => (
            Some(plan_terms(c, plan, view.amount, &view.currency)),
            c.t(Msg::Subscribe).to_owned(),
        ),
        CheckoutKind::Payment => (None, fill(c.t(Msg::Pay), &[&amount])),
    };
    let saved = (!view.saved_cards.is_empty()).then(|| saved_cards(c, form, &view.saved_cards));
    let can_save = view.can_save_card;
    // Back from the 3-D Secure page, the browser may restore this page from its cache as it
    // was when it left, busy: the shopper must be able to pay again.
    on_window("pageshow", move |event| {
        let restored = js_sys::Reflect::get(&event, &"persisted".into())
            .ok()
            .and_then(|persisted| persisted.as_bool());
        if restored == Some(true) {
            form.busy.set(false);
            form.waiting_for_bank.set(false);
        }
    });
    on_dialog_end(c, form, stage, outcome);
    let card_fields = el("div").class("cc-card").region(move || {
        if form.saved.get().is_some() {
            return None;
        }
        let save = can_save.then(|| {
            let input = el("input")
                .id("cc-save")
                .attr("type", "checkbox")
                .bind(move |e| {
                    let checked = form.save_card.get();
                    e.unchecked_ref::<web_sys::HtmlInputElement>()
                        .set_checked(checked);
                });
            let element = input.0.clone();
            let input = input.on("change", move |_| {
                let checked = element
                    .unchecked_ref::<web_sys::HtmlInputElement>()
                    .checked();
                form.save_card.set(checked);
            });
            el("label")
                .class("cc-check")
                .attr("for", "cc-save")
                .child(input)
                .child(el("span").text(c.t(Msg::SaveCard)))
        });
        Some(
            el("div")
                .child(field(c, form, FieldKind::Name))
                .child(field(c, form, FieldKind::Number))
                .child(
                    el("div")
                        .class("cc-row")
                        .child(field(c, form, FieldKind::Expiry))
                        .child(field(c, form, FieldKind::Cvc)),
                )
                .optional_child(save),
        )
    });
    // Hidden by checkout.css while the chosen saved card keeps its billing address.
    let billing = el("div").class("cc-billing").children(
        form.billing()
            .into_iter()
            .map(|kind| field(c, form, kind))
            .collect(),
    );
    let processing = c.t(Msg::Processing);
    let waiting = c.t(Msg::WaitingForBank);
    let form_element = el("form")
        .class("cc-form")
        .attr("novalidate", "")
        .on("submit", move |ev| {
            ev.prevent_default();
            ev.stop_propagation();
            submit(c, form, stage, outcome);
        })
        .child(
            el("header")
                .class("cc-header")
                .child(
                    el("p")
                        .id("cc-merchant")
                        .class("cc-muted")
                        .text(&view.merchant_name),
                )
                .child(
                    el("p")
                        .id("cc-description")
                        .text(view.description.as_deref().unwrap_or_default()),
                )
                .child(el("p").id("cc-amount").class("cc-amount").text(&amount)),
        )
        .optional_child(plan)
        .optional_child(saved)
        .child(card_fields)
        .child(billing)
        .child(
            el("p")
                .id("cc-alert")
                .class("cc-alert")
                .attr("role", "alert")
                .text_of(move || {
                    form.alert
                        .get()
                        .map(|msg| c.t(msg))
                        .unwrap_or_default()
                        .to_owned()
                }),
        )
        .child(
            el("button")
                .id("cc-submit")
                .class("cc-button")
                .attr("type", "submit")
                .bind(move |e| {
                    let busy = form.busy.get();
                    let button: &web_sys::HtmlButtonElement = e.unchecked_ref();
                    button.set_disabled(busy);
                    super::dom::set_attr(e, "aria-busy", busy.then_some("true"));
                    let text = if form.waiting_for_bank.get() {
                        waiting
                    } else if busy {
                        processing
                    } else {
                        &label
                    };
                    e.set_text_content(Some(text));
                }),
        )
        .child(
            el("p")
                .id("cc-status")
                .class("cc-sr-only")
                .attr("role", "status")
                .attr("aria-live", "polite")
                .text_of(move || form.notice.get()),
        );
    form.form_ref.set_value(Some(form_element.0.clone()));
    form_element
}
