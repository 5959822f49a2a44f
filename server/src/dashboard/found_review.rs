//! `POST /subscriptions/{id}/acknowledge` (operators): a subscription found in the gateway's
//! list (issue 46) was looked at: it leaves the review queue. The service call is
//! `Subscriptions::acknowledge`; a submit without `confirm=yes` shows what it means first, a
//! repeat finds it gone from the queue and is not audited again.

use axum::Form;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use maud::html;
use serde::Deserialize;

use super::audit::{Actor, Object, record_on};
use super::auth::Staff;
use super::client::Client;
use super::error::DashboardError;
use super::pages::layout::{csrf_field, page};
use super::redirect::see_other;
use super::state::DashboardState;
use super::subscriptions::{failed, load};
use crate::store::prelude::StaffRole;

/// The acknowledgement's fields.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct AcknowledgeForm {
    csrf: String,
    confirm: String,
}

/// `POST /subscriptions/{id}/acknowledge`.
pub async fn acknowledge(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Path(id): Path<String>,
    Form(form): Form<AcknowledgeForm>,
) -> Result<Response, DashboardError> {
    staff.check_csrf(&form.csrf)?;
    staff.require(StaffRole::Operator)?;
    let subscription = load(&state, &id).await?;
    let Some(note) = subscription.review_note.clone() else {
        return Ok(see_other(&format!(
            "/subscriptions/{}?done=repeat",
            subscription.id
        )));
    };
    if form.confirm != "yes" {
        return Ok(page(
            "Confirm",
            Some(&staff),
            html! {
                p { "Mark the subscription " strong { (subscription.gateway_subscription_id) } " as looked at?" }
                p { "Why it is in the queue: " (note) }
                p { "It stays recorded and polled; only its place in the review queue ends. Pause or cancel it on its page if the gateway should stop charging it." }
                form method="post" action={ "/subscriptions/" (subscription.id) "/acknowledge" } {
                    (csrf_field(&staff))
                    input type="hidden" name="confirm" value="yes";
                    button type="submit" { "Yes, looked at" }
                    " "
                    a href="/review" { "Back" }
                }
            },
        )
        .into_response());
    }
    let acknowledged = state
        .app
        .subscriptions()
        .acknowledge(&subscription)
        .await
        .map_err(failed)?;
    if acknowledged {
        let object = Object {
            kind: "subscription",
            id: &subscription.id,
            money: Some((subscription.amount, &subscription.currency)),
        };
        let actor = Actor::staff(&staff, address);
        record_on(&state, &actor, "acknowledge", object, "ok", Some(note)).await;
    }
    let done = if acknowledged {
        "acknowledged"
    } else {
        "repeat"
    };
    Ok(see_other(&format!(
        "/subscriptions/{}?done={done}",
        subscription.id
    )))
}
