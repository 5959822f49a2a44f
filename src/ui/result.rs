//! Where a payment stands after paying in the card form: paid, declined, failed, under review
//! or still pending (the wording is `crate::outcome`'s, which checkout-server's result page, mode
//! `result`, shares). Pending results are polled with exponential back-off until they settle or
//! the patience runs out, after which a "check again" button restarts the polling.

use super::context::Ctx;
use super::dom::{El, el};
use crate::browser::clock::sleep;
use crate::browser::http::FetchError;
use crate::contract::PaymentResult;
use crate::embed::events::ErrorDetail;
use crate::i18n::{Msg, fill, money};
use crate::outcome::{Detail, Report, verdict};
use any_spawner::Executor;
use reactive_graph::prelude::*;
use reactive_graph::signal::RwSignal;

/// First wait between two polls, in milliseconds; it doubles each time.
const FIRST_DELAY_MS: i32 = 500;
/// Longest wait between two polls.
const MAX_DELAY_MS: i32 = 10_000;
/// Polls per round (about 75 seconds in all) before asking the shopper to check again.
const MAX_POLLS: u32 = 12;

/// What the result view knows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// The latest answer of the result endpoint, if any.
    pub result: Option<PaymentResult>,
    /// A poll round is running.
    pub polling: bool,
}

/// Emits `success` for a paid result, `error` for a declined or failed one.
pub fn report(ctx: Ctx, result: &PaymentResult) {
    match crate::outcome::report(result) {
        Some(Report::Success) => {
            ctx.emit("success", result);
        }
        Some(Report::Error { code, message }) => {
            ctx.emit(
                "error",
                &ErrorDetail {
                    code,
                    message: ctx.now(message).to_owned(),
                    decline: result.decline,
                },
            );
        }
        None => {}
    }
}

/// Polls the result endpoint into `outcome` until the payment settles, the server refuses,
/// or the round ends. Stops quietly once the component is unmounted.
pub fn watch(ctx: Ctx, outcome: RwSignal<Outcome>) {
    if outcome.try_update(|o| o.polling = true).is_none() {
        return;
    }
    Executor::spawn_local(async move {
        let mut delay = FIRST_DELAY_MS;
        for _ in 0..MAX_POLLS {
            let Some(api) = ctx.api() else {
                return;
            };
            match api.result().await {
                Ok(result) if result.state.is_settled() => {
                    report(ctx, &result);
                    outcome.try_set(Outcome {
                        result: Some(result),
                        polling: false,
                    });
                    return;
                }
                Ok(result) => {
                    if outcome.try_update(|o| o.result = Some(result)).is_none() {
                        return;
                    }
                }
                Err(FetchError::Status { status, .. }) if status < 500 && status != 429 => break,
                Err(_) => {}
            }
            sleep(delay).await;
            delay = (delay * 2).min(MAX_DELAY_MS);
        }
        outcome.try_update(|o| o.polling = false);
    });
}

/// `data-state`, heading and detail for an outcome.
fn describe(ctx: Ctx, outcome: &Outcome) -> (&'static str, Msg, String) {
    let said = verdict(outcome.result.as_ref(), outcome.polling);
    let detail = match (said.detail, &outcome.result) {
        (Detail::Text(msg), _) => ctx.t(msg).to_owned(),
        (Detail::Paid, Some(result)) => {
            let amount = money(ctx.loc, result.amount, &result.currency);
            fill(ctx.t(Msg::ResultPaidDetail), &[&amount])
        }
        _ => String::new(),
    };
    (said.state, said.heading, detail)
}

/// The result panel; its status region is persistent so screen readers hear each change.
pub fn panel(ctx: Ctx, outcome: RwSignal<Outcome>) -> El {
    el("section")
        .id("cc-result")
        .class("cc-result")
        .attr("role", "status")
        .attr("aria-live", "polite")
        .region(move || {
            let c = ctx.rendering();
            let current = outcome.get();
            let (state, heading, detail) = describe(c, &current);
            let settled = current
                .result
                .as_ref()
                .is_some_and(|r| r.state.is_settled());
            let retry = (!current.polling && !settled).then(|| {
                el("button")
                    .id("cc-check-again")
                    .class("cc-button")
                    .attr("type", "button")
                    .text(c.t(Msg::CheckAgain))
                    .on("click", move |_| watch(ctx, outcome))
            });
            Some(
                el("div")
                    .class("cc-outcome")
                    .attr("data-state", state)
                    .child(el("h2").id("cc-result-title").text(c.t(heading)))
                    .child(el("p").id("cc-result-detail").text(&detail))
                    .optional_child(retry),
            )
        })
}
