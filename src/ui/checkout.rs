//! Mode `checkout`: loads the session's public view, then shows the form, and after paying the
//! result (polling while the payment is pending).

use super::card_form::card_form;
use super::context::Ctx;
use super::dom::{El, el};
use super::form_state::FormState;
use super::loading::{Outline, loading};
use super::ready;
use super::result::{Outcome, panel};
use super::stage::Stage;
use crate::embed::events::ErrorDetail;
use crate::embed::options::Mode;
use crate::i18n::Msg;
use any_spawner::Executor;
use reactive_graph::owner::Owner;
use reactive_graph::prelude::*;
use reactive_graph::signal::RwSignal;

/// The checkout view for the session in `ctx`.
pub fn checkout(ctx: Ctx) -> El {
    let stage = RwSignal::new(Stage::Loading);
    let outcome = RwSignal::new(Outcome::default());
    // Weak: the task must not keep an unmounted component's state alive (its late answer would
    // then build a form and emit `ready` for a component no longer on the page).
    let owner = Owner::current().map(|owner| owner.downgrade());
    Executor::spawn_local(async move {
        let Some(api) = ctx.api() else {
            return;
        };
        let answer = api.checkout().await;
        let owner = owner.and_then(|owner| owner.upgrade());
        match answer {
            Ok(view) => {
                let form = match &owner {
                    Some(owner) => owner.with(|| FormState::new(&view)),
                    None => return,
                };
                if stage.try_set(Stage::Form(Box::new((view, form)))).is_none() {
                    ready(ctx, Mode::Checkout);
                }
            }
            Err(_) => {
                stage.try_set(Stage::LoadFailed);
                ctx.emit(
                    "error",
                    &ErrorDetail {
                        code: "load_failed",
                        message: ctx.now(Msg::LoadFailed).to_owned(),
                        decline: None,
                    },
                );
            }
        }
    });
    el("div").class("cc-checkout").region(move || {
        let c = ctx.rendering();
        Some(match stage.get() {
            Stage::Loading => loading(c, Outline::CardForm),
            Stage::LoadFailed => el("p")
                .id("cc-load-error")
                .class("cc-alert")
                .attr("role", "alert")
                .text(c.t(Msg::LoadFailed)),
            Stage::Form(shown) => card_form(c, &shown.0, shown.1, stage, outcome),
            Stage::Done => panel(ctx, outcome),
        })
    })
}
