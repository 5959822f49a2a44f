//! The component's views: the card form with saved cards and plan terms, the payment result
//! after paying, and the customer's subscription management. Views are plain functions over a tiny DOM
//! builder (`dom`) and leptos signals, sharing one field renderer; a language switch
//! re-renders from state that lives outside the views, so typed input survives it.

mod card_form;
mod checkout;
mod context;
mod countries;
pub mod dom;
mod field;
mod form_state;
mod loading;
mod pay;
mod plan_terms;
mod result;
mod saved_cards;
mod stage;
#[cfg(feature = "subscriptions")]
mod subscriptions;
mod three_ds;
pub mod validate;

pub use context::Ctx;
pub use plan_terms::interval_text;

use crate::embed::events::ReadyDetail;
use crate::embed::options::Mode;
use dom::{El, el};
use reactive_graph::prelude::*;

/// The whole component for `mode`: `<div class="cc-root" data-mode=.. lang=.. dir=..>`.
pub fn app(ctx: Ctx, mode: Mode) -> El {
    let body = match mode {
        Mode::Checkout => checkout::checkout(ctx),
        #[cfg(feature = "subscriptions")]
        Mode::Subscriptions => subscriptions::subscriptions(ctx),
    };
    el("div")
        .class("cc-root")
        .attr("data-mode", mode.as_str())
        .bind(move |e| {
            let locale = ctx.locale.get();
            dom::set_attr(e, "lang", Some(locale.tag()));
            dom::set_attr(e, "dir", Some(locale.dir()));
        })
        // The inputs' own `change` events stay inside: `change` outside is the component's.
        .on("change", |ev| ev.stop_propagation())
        .child(body)
}

/// Announces that `mode`'s first usable view is on screen (after the current render).
fn ready(ctx: Ctx, mode: Mode) {
    any_spawner::Executor::spawn_local(async move {
        ctx.emit(
            "ready",
            &ReadyDetail {
                mode: mode.as_str(),
            },
        );
    });
}
