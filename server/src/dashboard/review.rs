//! `POST /payments/{id}/lookup`, `/attach`, `/resolve` (operators): the review queue's actions,
//! each one service call — [`PaymentService::settle`] (ask the gateway now),
//! [`PaymentService::attach_transaction_id`] (confirmed by status lookup: nobody marks a
//! payment paid by hand) and [`PaymentService::resolve_failed`] (a required note).
//!
//! A submit without `confirm=yes` shows a confirmation page. A double submit does one thing:
//! the services only step forward, so the repeat finds the payment settled and answers
//! `done=repeat` without writing the audit log again. Everything else that runs or is refused
//! is audited, and so shows in the payment's timeline.
//!
//! [`PaymentService::settle`]: crate::payments::PaymentService::settle
//! [`PaymentService::attach_transaction_id`]: crate::payments::PaymentService::attach_transaction_id
//! [`PaymentService::resolve_failed`]: crate::payments::PaymentService::resolve_failed

use axum::Form;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use maud::html;
use serde::Deserialize;

use super::actions::operator_on;
use super::audit::record;
use super::auth::Staff;
use super::client::Client;
use super::error::DashboardError;
use super::pages::layout::{csrf_field, page};
use super::redirect::see_other;
use super::state::DashboardState;
use crate::payments::settle::GatewayState;
use crate::payments::{PaymentError, StatusVerdict};
use crate::store::model::Payment;

/// A review action's fields (all strings: an empty one is unset).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ReviewForm {
    csrf: String,
    transaction_id: String,
    note: String,
    confirm: String,
}

/// `POST /payments/{id}/lookup`: ask the gateway now.
pub async fn lookup(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Path(id): Path<String>,
    Form(form): Form<ReviewForm>,
) -> Result<Response, DashboardError> {
    let (payment, actor) = operator_on(&state, &staff, address, &id, &form.csrf).await?;
    if payment.outcome_is_final() {
        return Ok(done(&payment, "repeat"));
    }
    if form.confirm != "yes" {
        return Ok(confirm(
            &staff,
            &payment,
            "lookup",
            "Ask the gateway now about",
            &form,
        ));
    }
    let settlement = state
        .app
        .payments
        .settle(&payment.id, None)
        .await
        .map_err(internal)?;
    let (outcome, notice) = match &settlement.verdict {
        StatusVerdict::AlreadySettled => return Ok(done(&payment, "repeat")),
        StatusVerdict::Confirmed { moved: true, .. } => ("ok", "settled"),
        StatusVerdict::Confirmed {
            state: GatewayState::Pending,
            ..
        } => ("pending", "still_pending"),
        StatusVerdict::Confirmed { .. } => ("ok", "settled"),
        StatusVerdict::NoTransactionId => ("no_transaction_id", "no_id"),
        StatusVerdict::LookupFailed(_) => ("lookup_failed", "lookup_failed"),
        StatusVerdict::Mismatch(_)
        | StatusVerdict::UnknownTransaction
        | StatusVerdict::HintRejected => ("disowned", "disowned"),
    };
    record(
        &state,
        &actor,
        "lookup",
        Some((&payment, None)),
        outcome,
        verdict_detail(&settlement.verdict),
    )
    .await;
    Ok(done(&payment, notice))
}

/// `POST /payments/{id}/attach`: the gateway's transaction id, confirmed by status lookup.
pub async fn attach(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Path(id): Path<String>,
    Form(form): Form<ReviewForm>,
) -> Result<Response, DashboardError> {
    let (payment, actor) = operator_on(&state, &staff, address, &id, &form.csrf).await?;
    let txn = form.transaction_id.trim();
    if txn.is_empty() {
        return Err(DashboardError::bad(
            "transaction_id",
            "required: the id from the gateway's portal",
        ));
    }
    if payment.outcome_is_final() {
        return Ok(done(&payment, "repeat"));
    }
    if form.confirm != "yes" {
        let what = format!("Look up gateway transaction {txn} and, if it matches, settle");
        return Ok(confirm(&staff, &payment, "attach", &what, &form));
    }
    let detail = Some(format!("transaction {txn}"));
    let settlement = match state
        .app
        .payments
        .attach_transaction_id(&payment.id, txn)
        .await
    {
        Ok(settlement) => settlement,
        Err(error) => {
            let (code, refusal) = refused(error);
            record(
                &state,
                &actor,
                "attach",
                Some((&payment, None)),
                code,
                detail,
            )
            .await;
            return Err(refusal);
        }
    };
    let refuse = |why: String| {
        DashboardError::Conflict(format!(
            "Transaction {txn} not attached: {why}. Nothing changed."
        ))
    };
    let (outcome, result) = match &settlement.verdict {
        StatusVerdict::AlreadySettled => return Ok(done(&payment, "repeat")),
        StatusVerdict::Confirmed {
            state: GatewayState::Pending,
            ..
        } => ("pending", Ok("still_pending")),
        StatusVerdict::Confirmed { .. } => ("ok", Ok("settled")),
        StatusVerdict::Mismatch(field) => (
            "mismatch",
            Err(refuse(format!("its {field} does not match this payment"))),
        ),
        StatusVerdict::UnknownTransaction => (
            "unknown_transaction",
            Err(refuse("the gateway does not know it".into())),
        ),
        StatusVerdict::HintRejected => (
            "hint_rejected",
            Err(refuse("it belongs to another payment".into())),
        ),
        StatusVerdict::LookupFailed(_) => (
            "lookup_failed",
            Err(refuse(
                "the gateway could not be asked; try again later".into(),
            )),
        ),
        StatusVerdict::NoTransactionId => (
            "no_transaction_id",
            Err(refuse("nothing to look up".into())),
        ),
    };
    let detail = Some(format!(
        "transaction {txn}{}",
        verdict_detail(&settlement.verdict).map_or_else(String::new, |d| format!(": {d}"))
    ));
    record(
        &state,
        &actor,
        "attach",
        Some((&payment, None)),
        outcome,
        detail,
    )
    .await;
    result.map(|notice| done(&payment, notice))
}

/// `POST /payments/{id}/resolve`: resolve a `needs_review` payment as failed, with a note.
pub async fn resolve(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Path(id): Path<String>,
    Form(form): Form<ReviewForm>,
) -> Result<Response, DashboardError> {
    let (payment, actor) = operator_on(&state, &staff, address, &id, &form.csrf).await?;
    crate::payments::review::check_note(&form.note).map_err(|e| refused(e).1)?;
    if payment.state == checkout::contract::PaymentState::Failed {
        return Ok(done(&payment, "repeat"));
    }
    if form.confirm != "yes" {
        return Ok(confirm(
            &staff,
            &payment,
            "resolve",
            "Resolve as failed",
            &form,
        ));
    }
    let note = Some(form.note.trim().to_owned());
    let resolved = state
        .app
        .payments
        .resolve_failed(&payment.id, &form.note)
        .await;
    let (outcome, result) = match resolved {
        Ok(_) => ("ok", Ok(done(&payment, "resolved"))),
        Err(error) => {
            let (code, refusal) = refused(error);
            (code, Err(refusal))
        }
    };
    record(
        &state,
        &actor,
        "resolve_failed",
        Some((&payment, None)),
        outcome,
        note,
    )
    .await;
    result
}

/// What a verdict found, for the audit log.
fn verdict_detail(verdict: &StatusVerdict) -> Option<String> {
    match verdict {
        StatusVerdict::Confirmed { state, .. } => Some(format!("gateway says {state:?}")),
        StatusVerdict::Mismatch(field) => Some(format!("{field} does not match")),
        StatusVerdict::LookupFailed(reason) => Some(reason.clone()),
        _ => None,
    }
}

/// A service refusal: its code for the audit log, and the page.
fn refused(error: PaymentError) -> (&'static str, DashboardError) {
    match error {
        PaymentError::Invalid {
            code,
            field,
            message,
        } => (code, DashboardError::bad(&field, message)),
        PaymentError::Conflict {
            code,
            message,
            field: Some(field),
        } => (code, DashboardError::bad(&field, message)),
        PaymentError::Conflict { code, message, .. } => (code, DashboardError::Conflict(message)),
        PaymentError::NotFound(what) => ("not_found", DashboardError::NotFound(what)),
        other => ("error", internal(other)),
    }
}

fn internal(error: PaymentError) -> DashboardError {
    DashboardError::Internal(error.to_string())
}

/// The confirmation step: what will happen, and the same form with `confirm=yes`.
fn confirm(staff: &Staff, p: &Payment, action: &str, what: &str, form: &ReviewForm) -> Response {
    page(
        "Confirm",
        Some(staff),
        html! {
            p { (what) " payment " strong { (p.merchant_txn_ref) } "?" }
            @if !form.note.trim().is_empty() { p { "Note: " (form.note.trim()) } }
            form method="post" action={ "/payments/" (p.id) "/" (action) } {
                (csrf_field(staff))
                input type="hidden" name="transaction_id" value=(form.transaction_id.trim());
                input type="hidden" name="note" value=(form.note.trim());
                input type="hidden" name="confirm" value="yes";
                button type="submit" class="danger" { "Yes, go ahead" }
                " "
                a href="/review" { "Cancel" }
            }
        },
    )
    .into_response()
}

/// 303 to the payment's page with a notice.
fn done(p: &Payment, notice: &str) -> Response {
    see_other(&format!("/payments/{}?done={notice}", p.id))
}
