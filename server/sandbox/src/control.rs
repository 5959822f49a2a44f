//! The control API under `/sandbox/` for tests and operators (same credentials as the
//! gateway API): move the clock, arm and clear faults, and dump the state.
//!
//! | method, path | body | answer |
//! |---|---|---|
//! | `GET /sandbox/clock` | | `{now, offset_seconds}` |
//! | `POST /sandbox/clock/advance` | `{days?, hours?, minutes?, seconds?}` | `{now, offset_seconds}` after billing due subscription cycles |
//! | `GET /sandbox/faults` | | `{faults: [{endpoint, fault, remaining}]}` |
//! | `POST /sandbox/faults` | `{endpoint?, fault, count?}` (count default 1) | the armed fault, 201 |
//! | `DELETE /sandbox/faults` | | `{faults: []}` |
//! | `GET /sandbox/state` | | transactions, webhook deliveries, open 3DS sessions, clock |

use axum::extract::State;
use axum::http::StatusCode;
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use time::format_description::well_known::Rfc3339;

use super::billing;
use super::error::SandboxError;
use super::faults::{ArmedFault, Fault};
use super::ledger::{Outcome, TransactionRecord};
use super::state::SandboxState;
use super::web::{WireJson, require_credentials};
use super::webhook::WebhookDelivery;

/// Longest single clock move: about 100 years.
const MAX_ADVANCE_SECONDS: i64 = 100 * 366 * 24 * 3600;

/// The control routes, behind the credential check.
pub fn routes(state: &SandboxState) -> Router<SandboxState> {
    Router::new()
        .route("/sandbox/clock", get(clock))
        .route("/sandbox/clock/advance", post(advance_clock))
        .route(
            "/sandbox/faults",
            get(list_faults).post(arm_fault).delete(clear_faults),
        )
        .route("/sandbox/state", get(dump_state))
        .route_layer(from_fn_with_state(state.clone(), require_credentials))
}

/// The sandbox clock.
#[derive(Debug, Serialize)]
struct ClockView {
    now: String,
    offset_seconds: i64,
}

fn clock_view(state: &SandboxState) -> ClockView {
    ClockView {
        now: state.clock.now().format(&Rfc3339).unwrap_or_default(),
        offset_seconds: state.clock.offset().whole_seconds(),
    }
}

async fn clock(State(state): State<SandboxState>) -> Json<ClockView> {
    Json(clock_view(&state))
}

/// How far to move the clock; the parts add up.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Advance {
    #[serde(default)]
    days: u32,
    #[serde(default)]
    hours: u32,
    #[serde(default)]
    minutes: u32,
    #[serde(default)]
    seconds: u64,
}

async fn advance_clock(
    State(state): State<SandboxState>,
    WireJson(advance): WireJson<Advance>,
) -> Result<Json<ClockView>, SandboxError> {
    let total = i64::from(advance.days) * 86_400
        + i64::from(advance.hours) * 3_600
        + i64::from(advance.minutes) * 60;
    let total = i64::try_from(advance.seconds)
        .ok()
        .and_then(|seconds| total.checked_add(seconds))
        .filter(|total| *total <= MAX_ADVANCE_SECONDS)
        .ok_or_else(|| {
            SandboxError::invalid("seconds", "the clock can move at most 100 years at once")
        })?;
    state.clock.advance(time::Duration::seconds(total));
    billing::bill_due(&state);
    tracing::info!(seconds = total, "sandbox clock advanced");
    Ok(Json(clock_view(&state)))
}

/// The armed faults.
#[derive(Debug, Serialize)]
struct FaultList {
    faults: Vec<ArmedFault>,
}

async fn list_faults(State(state): State<SandboxState>) -> Json<FaultList> {
    Json(FaultList {
        faults: state.faults.list(),
    })
}

/// A fault to arm: `fault` in the text form (`status:503:after`), for `endpoint` (a route
/// under the API prefix such as `payment`, or `webhook`; absent: every endpoint), for the
/// next `count` calls (default 1).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmRequest {
    #[serde(default)]
    endpoint: Option<String>,
    fault: String,
    #[serde(default)]
    count: Option<u32>,
}

async fn arm_fault(
    State(state): State<SandboxState>,
    WireJson(request): WireJson<ArmRequest>,
) -> Result<Response, SandboxError> {
    let fault: Fault = request
        .fault
        .parse()
        .map_err(|error: super::faults::FaultParseError| {
            SandboxError::invalid("fault", error.to_string())
        })?;
    let count = request.count.unwrap_or(1);
    if count == 0 {
        return Err(SandboxError::invalid("count", "must be at least 1"));
    }
    let armed = ArmedFault::new(request.endpoint.as_deref(), fault, Some(count))
        .map_err(|reason| SandboxError::invalid("endpoint", reason))?;
    state.faults.arm(armed.clone());
    tracing::info!(fault = %armed.fault, endpoint = ?armed.endpoint, count, "sandbox fault armed");
    Ok((StatusCode::CREATED, Json(armed)).into_response())
}

async fn clear_faults(State(state): State<SandboxState>) -> Json<FaultList> {
    state.faults.clear();
    Json(FaultList { faults: Vec::new() })
}

/// What the state dump shows of a transaction (masked card only).
#[derive(Debug, Serialize)]
struct TransactionView {
    id: String,
    #[serde(rename = "ref")]
    reference: u64,
    transaction_type: String,
    outcome: &'static str,
    response_code: i64,
    amount: u64,
    currency: &'static str,
    captured: u64,
    refunded: u64,
    voided: bool,
    parent: Option<String>,
    merchant_txn_ref: String,
    card: String,
    stored_payment_method_id: Option<String>,
}

impl From<&TransactionRecord> for TransactionView {
    fn from(record: &TransactionRecord) -> Self {
        Self {
            id: record.id.to_string(),
            reference: record.reference,
            transaction_type: record.kind.transaction_type().to_string(),
            outcome: match record.outcome {
                Outcome::Pending => "pending",
                Outcome::Approved => "approved",
                Outcome::Declined(_) => "declined",
            },
            response_code: record.response_code(),
            amount: record.amount,
            currency: record.currency.code,
            captured: record.money.captured,
            refunded: record.money.refunded,
            voided: record.money.voided,
            parent: record.parent.map(|id| id.to_string()),
            merchant_txn_ref: record.merchant.merchant_txn_ref.clone(),
            card: record.card.masked_number.clone(),
            stored_payment_method_id: record.stored_payment_method_id.clone(),
        }
    }
}

/// The whole state, for tests and debugging.
#[derive(Debug, Serialize)]
struct StateDump {
    clock: ClockView,
    transactions: Vec<TransactionView>,
    webhooks: Vec<WebhookDelivery>,
    open_3ds_sessions: usize,
    stored_cards: usize,
    faults: Vec<ArmedFault>,
}

async fn dump_state(State(state): State<SandboxState>) -> Json<StateDump> {
    Json(StateDump {
        clock: clock_view(&state),
        transactions: state
            .ledger
            .all()
            .iter()
            .map(TransactionView::from)
            .collect(),
        webhooks: state.webhooks.deliveries(),
        open_3ds_sessions: state.acs.open_count(),
        stored_cards: state.tokens.len(),
        faults: state.faults.list(),
    })
}
