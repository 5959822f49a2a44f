//! `POST /payments/{id}/refund`, `/capture`, `/void` (operators): the merchant API's own
//! service call (`PaymentService::adjust`) under the API's own idempotency ([`super::once`]),
//! so the dashboard adds no money rule of its own.
//!
//! A submit without `confirm=yes` shows a confirmation page; the confirmed submit runs. The
//! form's hidden `idempotency_key` (fresh on each rendering of the payment page) makes a
//! double submit do one thing: the repeat gets the first one's answer. Each action that runs,
//! or is refused by the service, is written to the audit log; a replay is not written twice.

use std::net::IpAddr;

use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use maud::html;
use serde::Deserialize;

use super::audit::{Actor, record};
use super::auth::Staff;
use super::client::Client;
use super::error::DashboardError;
use super::money;
use super::once::{form_key, refusal, replayed, run_once};
use super::pages::layout::{csrf_field, page};
use super::payment_lookup::load;
use super::redirect::see_other;
use super::state::DashboardState;
use crate::payments::adjust::Adjustment;
use crate::store::model::Payment;
use crate::store::prelude::StaffRole;
use crate::views::PaymentView;
use crate::web::idempotency::Reply;

/// An action form's fields (all strings: an empty one is unset).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ActionForm {
    csrf: String,
    idempotency_key: String,
    amount: String,
    confirm: String,
}

/// Which action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Refund,
    Capture,
    Void,
}

impl Action {
    fn name(self) -> &'static str {
        match self {
            Self::Refund => "refund",
            Self::Capture => "capture",
            Self::Void => "void",
        }
    }

    fn adjustment(self, amount: Option<u64>) -> Adjustment {
        match self {
            Self::Refund => Adjustment::Refund(amount),
            Self::Capture => Adjustment::Capture(amount),
            Self::Void => Adjustment::Void,
        }
    }
}

/// `POST /payments/{id}/refund`.
pub async fn refund(
    state: State<DashboardState>,
    staff: Staff,
    client: Client,
    id: Path<String>,
    form: Form<ActionForm>,
) -> Result<Response, DashboardError> {
    act(state, staff, client, id, form, Action::Refund).await
}

/// `POST /payments/{id}/capture`.
pub async fn capture(
    state: State<DashboardState>,
    staff: Staff,
    client: Client,
    id: Path<String>,
    form: Form<ActionForm>,
) -> Result<Response, DashboardError> {
    act(state, staff, client, id, form, Action::Capture).await
}

/// `POST /payments/{id}/void`.
pub async fn void(
    state: State<DashboardState>,
    staff: Staff,
    client: Client,
    id: Path<String>,
    form: Form<ActionForm>,
) -> Result<Response, DashboardError> {
    act(state, staff, client, id, form, Action::Void).await
}

async fn act(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Path(id): Path<String>,
    Form(form): Form<ActionForm>,
    action: Action,
) -> Result<Response, DashboardError> {
    let (payment, actor) = operator_on(&state, &staff, address, &id, &form.csrf).await?;
    let amount = typed_amount(&form.amount, &payment, action)?;
    let key = form_key(&form.idempotency_key)?;
    if form.confirm != "yes" {
        return Ok(confirmation(&staff, &payment, action, amount, key).into_response());
    }
    let moved = amount.or(Some(match action {
        Action::Refund => payment.refundable(),
        Action::Capture | Action::Void => payment.amount,
    }));
    let answer = run(&state, &staff, &payment, action, amount, key).await;
    if answer.status() == StatusCode::OK {
        let done = if replayed(&answer) {
            "repeat"
        } else {
            record(
                &state,
                &actor,
                action.name(),
                Some((&payment, moved)),
                "ok",
                None,
            )
            .await;
            action.name()
        };
        return Ok(see_other(&format!("/payments/{}?done={done}", payment.id)));
    }
    let refused = refusal(answer).await;
    record(
        &state,
        &actor,
        action.name(),
        Some((&payment, moved)),
        &refused.code,
        Some(refused.message.clone()),
    )
    .await;
    Err(match refused.code.as_str() {
        "amount_exceeds_refundable" => DashboardError::Conflict(format!(
            "Refund refused: at most {} can still be refunded.",
            money::format(payment.refundable(), &payment.currency)
        )),
        _ => refused.page(action.name()),
    })
}

/// The amount typed, in minor units; `None` (all) when left empty. A void takes none.
fn typed_amount(
    text: &str,
    payment: &Payment,
    action: Action,
) -> Result<Option<u64>, DashboardError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    if action == Action::Void {
        return Err(DashboardError::bad(
            "amount",
            "a void releases the whole authorization",
        ));
    }
    money::parse_major(text, &payment.currency)
        .map(Some)
        .map_err(|e| DashboardError::bad("amount", e.to_string()))
}

/// Runs the service call once per (staff member, payment, action, key, amount).
async fn run(
    state: &DashboardState,
    staff: &Staff,
    payment: &Payment,
    action: Action,
    amount: Option<u64>,
    key: &str,
) -> Response {
    let path = format!("/payments/{}/{}", payment.id, action.name());
    let request = format!("{} {amount:?}", action.name());
    let payments = state.app.payments.clone();
    let id = payment.id.clone();
    let adjustment = action.adjustment(amount);
    run_once(state, staff, key, &path, &request, move || async move {
        let after = payments.adjust(&id, adjustment).await?;
        Reply::json(StatusCode::OK, &PaymentView::new(&after))
    })
    .await
}

/// The confirmation step: what will happen, and the same form with `confirm=yes`.
fn confirmation(
    staff: &Staff,
    payment: &Payment,
    action: Action,
    amount: Option<u64>,
    key: &str,
) -> axum::response::Html<String> {
    let what = match (action, amount) {
        (Action::Refund, Some(minor)) => {
            format!("Refund {}", money::format(minor, &payment.currency))
        }
        (Action::Refund, None) => format!(
            "Refund all that is left ({})",
            money::format(payment.refundable(), &payment.currency)
        ),
        (Action::Capture, Some(minor)) => {
            format!("Capture {}", money::format(minor, &payment.currency))
        }
        (Action::Capture, None) => format!(
            "Capture the whole authorization ({})",
            money::format(payment.amount, &payment.currency)
        ),
        (Action::Void, _) => "Void the authorization".to_owned(),
    };
    let amount_text = amount.map_or_else(String::new, |minor| {
        money::major_text(minor, &payment.currency)
    });
    page(
        "Confirm",
        Some(staff),
        html! {
            p { (what) " of payment " strong { (payment.merchant_txn_ref) } "?" }
            form method="post" action={ "/payments/" (payment.id) "/" (action.name()) } {
                (csrf_field(staff))
                input type="hidden" name="idempotency_key" value=(key);
                input type="hidden" name="amount" value=(amount_text);
                input type="hidden" name="confirm" value="yes";
                button type="submit" class="danger" { "Yes, " (action.name()) }
                " "
                a href={ "/payments/" (payment.id) } { "Cancel" }
            }
        },
    )
}

/// An operator's action on payment `id`: checks the form's CSRF token and the role, loads the
/// payment, and names who acts.
pub(super) async fn operator_on(
    state: &DashboardState,
    staff: &Staff,
    address: IpAddr,
    id: &str,
    csrf: &str,
) -> Result<(Payment, Actor), DashboardError> {
    staff.check_csrf(csrf)?;
    staff.require(StaffRole::Operator)?;
    let payment = load(state, id).await?;
    Ok((payment, Actor::staff(staff, address)))
}
