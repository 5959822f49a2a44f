//! 3-D Secure in a dialog on the shop's page, as the form sees it. The card frame's script
//! (www/frame.js) shows nothing itself: it passes the loader's word that the dialog ended, as
//! the window event [`OUTCOME_EVENT`] (`returned`: the bank's page sent the shopper back;
//! `closed`: the shopper closed the dialog). Neither says how the payment went: the form then
//! asks the server (`GET /v1/checkout/{id}/result`), the only source of truth.

use super::context::Ctx;
use super::dom::on_window;
use super::form_state::FormState;
use super::pay::{fail, finished};
use super::result::Outcome;
use super::stage::Stage;
use crate::browser::clock::sleep;
use crate::embed::events::ErrorDetail;
use crate::i18n::Msg;
use any_spawner::Executor;
use reactive_graph::prelude::*;
use reactive_graph::signal::RwSignal;
use wasm_bindgen::JsCast;

/// The window event www/frame.js dispatches when the dialog ends; `detail` is `returned` or
/// `closed`.
pub const OUTCOME_EVENT: &str = "card-checkout:three-ds";

/// Polls after the bank's return while the payment is still pending (its webhook or status
/// lookup may lag the return page by a moment) before the result view says it is being
/// confirmed.
const RETURN_POLLS: u32 = 5;
/// Between two of those polls, in milliseconds.
const RETURN_POLL_MS: i32 = 1_000;

/// Listens for the end of the dialog while the form waits for the bank.
pub fn on_dialog_end(
    ctx: Ctx,
    form: FormState,
    stage: RwSignal<Stage>,
    outcome: RwSignal<Outcome>,
) {
    on_window(OUTCOME_EVENT, move |event| {
        if !form.waiting_for_bank.get_untracked() {
            return;
        }
        let closed = event
            .dyn_ref::<web_sys::CustomEvent>()
            .and_then(|event| event.detail().as_string())
            .is_some_and(|detail| detail == "closed");
        Executor::spawn_local(after_dialog(ctx, form, stage, outcome, closed));
    });
}

/// After the dialog: asks the server how the payment went (one state machine for both ends,
/// so the wasm holds one copy of the request).
/// - The bank's page sent the shopper back: the form keeps waiting a few seconds for the server
///   to know the outcome, then shows it; still pending, the result view ("Confirming your
///   payment…") takes over and keeps asking.
/// - The shopper closed it: an answer the bank already gave stands; otherwise the form is
///   theirs again.
async fn after_dialog(
    ctx: Ctx,
    form: FormState,
    stage: RwSignal<Stage>,
    outcome: RwSignal<Outcome>,
    closed: bool,
) {
    let polls = if closed { 1 } else { RETURN_POLLS };
    let mut last = None;
    for poll in 0..polls {
        if poll > 0 {
            sleep(RETURN_POLL_MS).await;
        }
        let Some(api) = ctx.api() else {
            return;
        };
        if !form.waiting_for_bank.try_get_untracked().unwrap_or(false) {
            return;
        }
        match api.result().await {
            Ok(result) if result.state.is_settled() => {
                finished(ctx, form, stage, outcome, result);
                return;
            }
            Ok(result) => last = Some(result),
            Err(_) => {}
        }
    }
    if !form.waiting_for_bank.try_get_untracked().unwrap_or(false) {
        return;
    }
    match last {
        _ if closed => cancelled(ctx, form),
        Some(result) => finished(ctx, form, stage, outcome, result),
        None => fail(ctx, form, "network", Msg::NetworkError),
    }
}

/// The shopper closed the dialog before the bank answered: the form is theirs again, the
/// Pay button focused. The attempt stays as the gateway left it; paying again starts a new one.
fn cancelled(ctx: Ctx, form: FormState) {
    form.busy.set(false);
    form.waiting_for_bank.set(false);
    form.notice.set(String::new());
    form.alert.set(Some(Msg::ThreeDsCancelled));
    ctx.emit(
        "error",
        &ErrorDetail {
            code: "three_ds_cancelled",
            message: ctx.now(Msg::ThreeDsCancelled).to_owned(),
            decline: None,
        },
    );
    // Once the button is enabled again (the view follows the state a task later).
    Executor::spawn_local(async move {
        sleep(0).await;
        form.focus_id("cc-submit");
    });
}
