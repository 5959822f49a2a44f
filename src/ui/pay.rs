//! Submitting the form: validation with focus on the first problem, one request at a time,
//! one `Idempotency-Key` per attempt, and what to do with each answer (3DS redirect or dialog,
//! paid, declined, pending, or a failure the shopper can retry).

use super::context::Ctx;
use super::form_state::FormState;
use super::result::{Outcome, report, watch};
use super::stage::Stage;
use crate::browser::clock::today;
use crate::browser::http::FetchError;
use crate::browser::ids::random_uuid;
use crate::browser::info;
use crate::browser::navigate::{go_top, is_web_url};
use crate::browser::proof;
use crate::card::{CardNumber, CardholderName, Cvc, Expiry};
use crate::contract::{
    Address, ApiErrorBody, CardFields, ChallengeWindow, PayRequest, PayResponse, PaymentResult,
    PaymentState,
};
use crate::embed::events::{ErrorDetail, RedirectDetail, SubmitDetail};
use crate::form_fields::FieldKind;
use crate::i18n::{Msg, fill};
use crate::outcome::refusal_message;
use any_spawner::Executor;
use reactive_graph::prelude::*;
use reactive_graph::signal::RwSignal;

/// Handles the form's submit: does nothing while an attempt is in flight.
pub fn submit(ctx: Ctx, form: FormState, stage: RwSignal<Stage>, outcome: RwSignal<Outcome>) {
    if form.busy.get_untracked() {
        return;
    }
    let invalid = form.validate_all();
    if let Some(first) = invalid.first() {
        let labels: Vec<&str> = invalid.iter().map(|k| ctx.now(k.label())).collect();
        form.notice
            .set(fill(ctx.now(Msg::FixFields), &[&labels.join(", ")]));
        form.focus(*first);
        return;
    }
    let Some(request) = pay_request(&form) else {
        return;
    };
    let window = request.browser_info.challenge_window;
    form.notice.set(String::new());
    form.alert.set(None);
    form.busy.set(true);
    let key = form.attempt_key.get_value().unwrap_or_else(random_uuid);
    form.attempt_key.set_value(Some(key.clone()));
    ctx.emit(
        "submit",
        &SubmitDetail {
            saved_card: request.saved_card_id.is_some(),
        },
    );
    Executor::spawn_local(async move {
        let Some(api) = ctx.api() else {
            return;
        };
        let mut answer = api.pay(&request, &key).await;
        // During a card-testing alert the server asks for a proof of work; solved, the request
        // goes again under a new key (the refused one recorded and charged nothing).
        if let Err(FetchError::Status {
            status: 428,
            error:
                Some(ApiErrorBody {
                    challenge: Some(challenge),
                    ..
                }),
        }) = &answer
            && let Some(proof) = proof::solve(challenge).await
        {
            let mut request = request;
            request.proof_of_work = Some(proof);
            let key = random_uuid();
            form.attempt_key.set_value(Some(key.clone()));
            answer = api.pay(&request, &key).await;
        }
        settle(ctx, form, stage, outcome, answer, window);
    });
}

/// The pay body from the (already validated) fields.
fn pay_request(form: &FormState) -> Option<PayRequest> {
    let saved_card_id = form.saved.get_untracked();
    let card = match saved_card_id {
        Some(_) => None,
        None => Some(card_fields(form)?),
    };
    let value = |kind: FieldKind| form.value(kind).trim().to_owned();
    // A saved card that keeps its billing address is paid with that one (the server's copy).
    let billing_address = if !form.keeps_billing.get_untracked() {
        Address {
            country: value(FieldKind::Country),
            email: value(FieldKind::Email),
            phone_number: value(FieldKind::Phone),
            address1: value(FieldKind::Address),
            city: value(FieldKind::City),
            state: value(FieldKind::State),
            postal_code: value(FieldKind::PostalCode),
        }
    } else {
        Address::default()
    };
    Some(PayRequest {
        card,
        saved_card_id,
        billing_address,
        browser_info: info::collect(),
        save_card: form.save_card.get_untracked() && form.saved.get_untracked().is_none(),
        proof_of_work: None,
    })
}

/// Card fields parsed by the card rules; the number and CVC go out in their `CardSecret`s.
fn card_fields(form: &FormState) -> Option<CardFields> {
    let number = CardNumber::parse(&form.value(FieldKind::Number)).ok()?;
    let expiry = Expiry::parse_combined(&form.value(FieldKind::Expiry), today()).ok()?;
    let cvc = Cvc::parse(&form.value(FieldKind::Cvc), Some(number.brand())).ok()?;
    let name = CardholderName::parse(&form.value(FieldKind::Name)).ok()?;
    Some(CardFields {
        number: number.secret().clone(),
        expiry_month: expiry.month_2(),
        expiry_year: expiry.year_4(),
        cvc: cvc.secret().clone(),
        name: name.as_str().to_owned(),
    })
}

/// Acts on the pay answer; `window` is the challenge window the request sent.
fn settle(
    ctx: Ctx,
    form: FormState,
    stage: RwSignal<Stage>,
    outcome: RwSignal<Outcome>,
    answer: Result<PayResponse, FetchError>,
    window: ChallengeWindow,
) {
    match answer {
        Ok(PayResponse::Redirect { redirect_url }) => {
            form.attempt_key.set_value(None);
            if !is_web_url(&redirect_url) {
                fail(ctx, form, "invalid_redirect", Msg::ServerError);
                return;
            }
            let detail = RedirectDetail {
                url: redirect_url.clone(),
                challenge_window: window.code(),
            };
            // The page stays busy: it is leaving, or the redirect was taken over (by the card
            // frame, which shows the bank's page in a dialog, or by the shop).
            if ctx.emit("redirect", &detail) {
                if !go_top(&redirect_url) {
                    fail(ctx, form, "invalid_redirect", Msg::ServerError);
                }
                return;
            }
            form.waiting_for_bank.set(true);
            form.notice.set(ctx.now(Msg::WaitingForBank).to_owned());
        }
        Ok(PayResponse::None { result }) => finished(ctx, form, stage, outcome, result),
        Err(FetchError::Network) => fail(ctx, form, "network", Msg::NetworkError),
        // A rate limit, or a proof of work still asked for: refused before the gateway, worded
        // as every such refusal.
        Err(FetchError::Status {
            status: 428 | 429, ..
        }) => {
            form.attempt_key.set_value(None);
            fail(ctx, form, "rate_limited", Msg::CardRefused);
        }
        Err(FetchError::Status { status, .. }) if status >= 500 => {
            // The outcome is unknown: a retry keeps the key, so it cannot charge twice.
            fail(ctx, form, "server", Msg::ServerError);
        }
        Err(FetchError::Status {
            status: 409,
            error: Some(error),
        }) if matches!(error.code.as_str(), "payment_in_progress" | "session_paid") => {
            form.attempt_key.set_value(None);
            if error.code == "session_paid" {
                fail(ctx, form, "session_paid", Msg::SessionPaid);
            } else {
                fail(ctx, form, "payment_in_progress", Msg::PaymentInProgress);
            }
        }
        Err(_) => {
            form.attempt_key.set_value(None);
            fail(ctx, form, "server", Msg::ServerError);
        }
    }
}

/// A final or pending result from the pay call (or, after 3-D Secure in a dialog, from the
/// result endpoint).
pub(super) fn finished(
    ctx: Ctx,
    form: FormState,
    stage: RwSignal<Stage>,
    outcome: RwSignal<Outcome>,
    result: PaymentResult,
) {
    form.attempt_key.set_value(None);
    form.waiting_for_bank.set(false);
    match result.state {
        // A decline says why; a try refused before the gateway gets the one neutral text.
        PaymentState::Declined
        | PaymentState::Blocked
        | PaymentState::Failed
        | PaymentState::Voided => {
            form.busy.set(false);
            form.alert.set(Some(refusal_message(&result)));
            report(ctx, &result);
        }
        state => {
            let pending = !state.is_settled();
            if pending {
                // Under way, its outcome not known yet: the page learns which payment to
                // follow (its events, or `GET /v1/payments/{id}` on the shop's server).
                ctx.emit("processing", &result);
            } else {
                report(ctx, &result);
            }
            outcome.set(Outcome {
                result: Some(result),
                polling: pending,
            });
            stage.set(Stage::Done);
            if pending {
                watch(ctx, outcome);
            }
        }
    }
}

/// Ends the attempt with `msg` in the alert region and an `error` event.
pub(super) fn fail(ctx: Ctx, form: FormState, code: &'static str, msg: Msg) {
    form.busy.set(false);
    form.waiting_for_bank.set(false);
    form.alert.set(Some(msg));
    ctx.emit(
        "error",
        &ErrorDetail {
            code,
            message: ctx.now(msg).to_owned(),
            decline: None,
        },
    );
}
