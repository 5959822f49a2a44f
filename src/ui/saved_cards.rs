//! The customer's saved cards as radio choices (brand mark and name, last four, expiry) plus
//! "use a new card". Choosing a saved card hides the card fields: one click on pay, no CVC.

use super::context::Ctx;
use super::dom::{El, el};
use super::form_state::FormState;
use crate::browser::clock::today;
use crate::card::Brand;
use crate::contract::SavedCard;
use crate::i18n::Msg;
use reactive_graph::prelude::*;
use wasm_bindgen::JsCast;

/// The saved-card fieldset; expired cards are listed but cannot be chosen.
pub fn saved_cards(c: Ctx, form: FormState, cards: &[SavedCard]) -> El {
    let now = today();
    let mut set = el("fieldset")
        .id("cc-saved")
        .class("cc-saved")
        .child(el("legend").text(c.t(Msg::SavedCards)));
    for card in cards {
        let label = card.choice_label(c.t(Msg::SavedCardExpires));
        let expired = !card.usable(now);
        let dom_id = ["cc-saved-", &card.id].concat();
        set = set.child(choice(
            c,
            form,
            Some((card.id.clone(), card.brand, card.billing_on_file)),
            &dom_id,
            &label,
            expired,
        ));
    }
    set.child(choice(
        c,
        form,
        None,
        "cc-saved-new",
        c.t(Msg::NewCard),
        false,
    ))
}

/// One radio choice: a saved card (its id, its brand, whose mark it shows, and whether it keeps
/// its billing address) or, with `None`, a new card.
fn choice(
    c: Ctx,
    form: FormState,
    card: Option<(String, Brand, bool)>,
    dom_id: &str,
    label: &str,
    disabled: bool,
) -> El {
    let keeps_billing = card.as_ref().is_some_and(|card| card.2);
    let (card_id, brand) = card.map(|(id, brand, _)| (id, brand)).unzip();
    let mine = card_id.clone();
    let mut input = el("input")
        .attr("type", "radio")
        .attr("name", "cc-saved-card")
        .id(dom_id)
        .bind(move |e| {
            let chosen = form.saved.with(|chosen| *chosen == mine);
            e.unchecked_ref::<web_sys::HtmlInputElement>()
                .set_checked(chosen);
        })
        .on("change", move |_| {
            form.saved.set(card_id.clone());
            form.keeps_billing.set(keeps_billing);
            form.attempt_key.set_value(None);
            form.alert.set(None);
            c.emit("change", &form.change_detail());
        });
    if disabled {
        input = input.attr("disabled", "");
    }
    if keeps_billing {
        // While it is chosen, checkout.css hides the billing fields.
        input = input.attr("data-billing-on-file", "");
    }
    let mark = brand.map(|brand| {
        el("span")
            .class("cc-mark")
            .attr("data-brand", brand.id())
            .attr("aria-hidden", "true")
    });
    el("label")
        .class("cc-choice")
        .attr("for", dom_id)
        .child(input)
        .optional_child(mark)
        .child(el("span").text(label))
}
