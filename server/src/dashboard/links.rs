//! The payment links' actions (operators and admins), through the same service as the
//! merchant API (`payments::links`), each written to the audit log with the link as its
//! object:
//! - `POST /links`: makes a link from the form on `/links` (amounts in major units, as staff
//!   type them; the billing fields as checkboxes, one `billing_field` pair each);
//! - `POST /links/{id}/deactivate`: deactivates one for good.

use axum::extract::{Path, RawForm, State};
use axum::response::Response;
use time::PrimitiveDateTime;
use time::format_description::FormatItem;
use time::macros::format_description;

use super::audit::{Actor, Object, record_on};
use super::auth::Staff;
use super::client::Client;
use super::error::DashboardError;
use super::money;
use super::redirect::see_other;
use super::state::DashboardState;
use crate::payments::PaymentError;
use crate::payments::links::LinkError;
use crate::payments::links::request::LinkRequest;
use crate::store::model::{LinkAmount, PaymentLink};
use crate::store::prelude::StaffRole;

/// A `datetime-local` field's value (the merchant's time is taken as UTC, as the form says).
const LOCAL_TIME: &[FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]");

/// `POST /links`.
pub async fn create(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    RawForm(body): RawForm,
) -> Result<Response, DashboardError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&body)
        .map_err(|_| DashboardError::bad("form", "could not be read"))?;
    let field = |name: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.trim())
            .filter(|value| !value.is_empty())
    };
    staff.check_csrf(field("csrf").unwrap_or_default())?;
    staff.require(StaffRole::Operator)?;
    let request = form_request(&pairs, &field)?;
    let new = request.into_new(&state.app.config.plans).map_err(refused)?;
    let link = state.app.links.create(new).await.map_err(refused)?;
    audit(
        &state,
        &Actor::staff(&staff, address),
        "payment_link_created",
        &link,
    )
    .await;
    Ok(see_other(&format!("/links/{}?done=created", link.id)))
}

/// The link the form asks for.
fn form_request<'a>(
    pairs: &'a [(String, String)],
    field: &impl Fn(&str) -> Option<&'a str>,
) -> Result<LinkRequest, DashboardError> {
    let currency = field("currency").unwrap_or("EUR").to_ascii_uppercase();
    let amount = |name: &'static str| {
        field(name)
            .map(|text| {
                money::parse_major(text, &currency)
                    .map_err(|error| DashboardError::bad(name, error.to_string()))
            })
            .transpose()
    };
    let whole = |name: &'static str| {
        field(name)
            .map(|text| {
                text.parse::<u64>()
                    .map_err(|_| DashboardError::bad(name, "must be a whole number"))
            })
            .transpose()
    };
    let chosen = field("amount_kind") == Some("chosen");
    let expires_at = field("expires_at")
        .map(|text| {
            PrimitiveDateTime::parse(text, LOCAL_TIME)
                .map(PrimitiveDateTime::assume_utc)
                .map_err(|_| DashboardError::bad("expires_at", "must be a date and time"))
        })
        .transpose()?;
    Ok(LinkRequest {
        description: field("description").unwrap_or_default().to_owned(),
        amount: if chosen { None } else { amount("amount")? },
        min_amount: if chosen { amount("min_amount")? } else { None },
        max_amount: if chosen { amount("max_amount")? } else { None },
        currency: Some(currency.clone()),
        quantity_max: whole("quantity_max")?,
        reusable: field("reusable").is_some(),
        payment_limit: whole("payment_limit")?,
        expires_at,
        ask_email: field("ask_email").map(str::to_owned),
        ask_payer_reference: field("ask_payer_reference").map(str::to_owned),
        billing_fields: pairs
            .iter()
            .filter(|(key, _)| key == "billing_field")
            .map(|(_, value)| value.clone())
            .collect(),
        redirect_url: field("redirect_url").map(str::to_owned),
        plan_id: field("plan_id").map(str::to_owned),
    })
}

/// `POST /links/{id}/deactivate`.
pub async fn deactivate(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Path(id): Path<String>,
    axum::Form(form): axum::Form<super::blocks::CsrfForm>,
) -> Result<Response, DashboardError> {
    staff.check_csrf(form.token())?;
    staff.require(StaffRole::Operator)?;
    let link = state.app.links.deactivate(&id).await.map_err(refused)?;
    audit(
        &state,
        &Actor::staff(&staff, address),
        "payment_link_deactivated",
        &link,
    )
    .await;
    Ok(see_other(&format!("/links/{}?done=deactivated", link.id)))
}

/// The page a refused link action answers with: the field at fault, or why.
pub(crate) fn refused(error: LinkError) -> DashboardError {
    match error {
        LinkError::Unavailable(why) => DashboardError::Conflict(why.message().to_owned()),
        LinkError::Payment(PaymentError::Invalid { field, message, .. }) => {
            DashboardError::bad(&field, message)
        }
        LinkError::Payment(PaymentError::NotFound(_)) => DashboardError::NotFound("payment link"),
        LinkError::Payment(PaymentError::Conflict { message, .. }) => {
            DashboardError::Conflict(message)
        }
        LinkError::Payment(PaymentError::Store(error)) => error.into(),
        LinkError::Payment(other) => DashboardError::Internal(other.to_string()),
    }
}

async fn audit(state: &DashboardState, actor: &Actor, action: &str, link: &PaymentLink) {
    let money = match link.terms.amount {
        LinkAmount::Fixed { amount } => Some((amount, link.terms.currency.as_str())),
        LinkAmount::PayerChosen { .. } => None,
    };
    let object = Object {
        kind: "payment_link",
        id: &link.id,
        money,
    };
    let detail = Some(link.terms.description.clone());
    record_on(state, actor, action, object, "ok", detail).await;
}
