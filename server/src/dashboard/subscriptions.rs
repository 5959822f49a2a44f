//! `POST /subscriptions/{id}/pause`, `/resume`, `/cancel` (operators): the merchant API's own
//! service call (`Subscriptions::act`: the gateway decides, its answer is stored) under the
//! API's idempotency ([`super::once`]), so the dashboard holds no subscription rule.
//!
//! A submit without `confirm=yes` shows a confirmation page; the confirmed submit runs. The
//! form's hidden `idempotency_key` makes a double submit do one thing: the repeat gets the
//! first one's answer and is not audited again. Each action that runs, or is refused, is
//! written to the audit log with the subscription as its object.

use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use checkout::contract::SubscriptionAction;
use maud::html;
use serde::Deserialize;

use super::audit::{Actor, Object, record_on};
use super::auth::Staff;
use super::client::Client;
use super::error::DashboardError;
use super::money;
use super::once::{form_key, refusal, replayed, run_once};
use super::pages::layout::{csrf_field, page};
use super::redirect::see_other;
use super::state::DashboardState;
use crate::store::model::Subscription;
use crate::store::prelude::StaffRole;
use crate::subscriptions::SubscriptionError;
use crate::views::MerchantSubscription;
use crate::web::idempotency::Reply;

/// A subscription action's fields (all strings: an empty one is unset).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SubscriptionForm {
    csrf: String,
    idempotency_key: String,
    confirm: String,
}

/// `POST /subscriptions/{id}/pause`.
pub async fn pause(
    state: State<DashboardState>,
    staff: Staff,
    client: Client,
    id: Path<String>,
    form: Form<SubscriptionForm>,
) -> Result<Response, DashboardError> {
    act(state, staff, client, id, form, SubscriptionAction::Pause).await
}

/// `POST /subscriptions/{id}/resume`.
pub async fn resume(
    state: State<DashboardState>,
    staff: Staff,
    client: Client,
    id: Path<String>,
    form: Form<SubscriptionForm>,
) -> Result<Response, DashboardError> {
    act(state, staff, client, id, form, SubscriptionAction::Resume).await
}

/// `POST /subscriptions/{id}/cancel`.
pub async fn cancel(
    state: State<DashboardState>,
    staff: Staff,
    client: Client,
    id: Path<String>,
    form: Form<SubscriptionForm>,
) -> Result<Response, DashboardError> {
    act(state, staff, client, id, form, SubscriptionAction::Cancel).await
}

async fn act(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Path(id): Path<String>,
    Form(form): Form<SubscriptionForm>,
    action: SubscriptionAction,
) -> Result<Response, DashboardError> {
    staff.check_csrf(&form.csrf)?;
    staff.require(StaffRole::Operator)?;
    let subscription = load(&state, &id).await?;
    let key = form_key(&form.idempotency_key)?;
    if form.confirm != "yes" {
        return Ok(confirmation(&staff, &subscription, action, key));
    }
    let path = format!("/subscriptions/{}/{}", subscription.id, action.as_str());
    let app = state.app.clone();
    let target = subscription.id.clone();
    let answer = run_once(
        &state,
        &staff,
        key,
        &path,
        action.as_str(),
        move || async move {
            let subscriptions = app.subscriptions();
            let current = subscriptions.find(&target).await?;
            let updated = subscriptions.act(&current, action).await?;
            let view =
                MerchantSubscription::new(&updated, subscriptions.catalogue_terms(&updated), None);
            Reply::json(StatusCode::OK, &view)
        },
    )
    .await;
    let actor = Actor::staff(&staff, address);
    let object = Object {
        kind: "subscription",
        id: &subscription.id,
        money: Some((subscription.amount, &subscription.currency)),
    };
    if answer.status() == StatusCode::OK {
        let done = if replayed(&answer) {
            "repeat"
        } else {
            record_on(&state, &actor, action.as_str(), object, "ok", None).await;
            action.as_str()
        };
        return Ok(see_other(&format!(
            "/subscriptions/{}?done={done}",
            subscription.id
        )));
    }
    let refused = refusal(answer).await;
    record_on(
        &state,
        &actor,
        action.as_str(),
        object,
        &refused.code,
        Some(refused.message.clone()),
    )
    .await;
    Err(refused.page(label(action)))
}

/// The subscription `id`, or 404 (also for an id the server cannot have issued).
pub async fn load(state: &DashboardState, id: &str) -> Result<Subscription, DashboardError> {
    state.app.subscriptions().find(id).await.map_err(failed)
}

/// A subscription service failure as a page.
pub fn failed(error: SubscriptionError) -> DashboardError {
    match error {
        SubscriptionError::NotFound => DashboardError::NotFound("subscription"),
        other => DashboardError::Internal(other.to_string()),
    }
}

/// The confirmation step: what will happen, and the same form with `confirm=yes`.
fn confirmation(
    staff: &Staff,
    s: &Subscription,
    action: SubscriptionAction,
    key: &str,
) -> Response {
    let consequence = match action {
        SubscriptionAction::Pause => "No cycle is charged until it is resumed.",
        SubscriptionAction::Resume => "Charging starts again on the plan's schedule.",
        SubscriptionAction::Cancel => "No cycle is charged again; this cannot be undone.",
    };
    page(
        "Confirm",
        Some(staff),
        html! {
            p {
                (label(action)) " — the subscription of "
                strong { (s.customer_id.as_deref().unwrap_or("no customer")) }
                " to " (s.plan_id) " (" (money::format(s.amount, &s.currency)) " a cycle)?"
            }
            p { (consequence) }
            form method="post" action={ "/subscriptions/" (s.id) "/" (action.as_str()) } {
                (csrf_field(staff))
                input type="hidden" name="idempotency_key" value=(key);
                input type="hidden" name="confirm" value="yes";
                button type="submit" class="danger" { "Yes, " (action.as_str()) }
                " "
                a href={ "/subscriptions/" (s.id) } { "Back" }
            }
        },
    )
    .into_response()
}

/// The button's words for `action`.
pub fn label(action: SubscriptionAction) -> &'static str {
    match action {
        SubscriptionAction::Pause => "Pause",
        SubscriptionAction::Resume => "Resume",
        SubscriptionAction::Cancel => "Cancel the subscription",
    }
}
