//! The demo "shop backend": what a merchant's own server does before the checkout component
//! can run. It holds the merchant's side (here in-process, so it calls [`create_session`]
//! directly rather than `POST /v1/sessions` with `MERCHANT_SECRET_KEY`), prices what was
//! picked itself, and hands the page only a session id and its client secret.
//!
//! | method, path | body | answer |
//! |---|---|---|
//! | `GET /demo/catalogue` | | `{merchant_name, items, plans}` |
//! | `POST /demo/sessions` | `{item, guest?}`: an item id or a plan id | 201 `{id, client_secret, description}` |
//! | `POST /demo/customer-token` | `{}` or none | 201 `{customer_token, expires_at}` |
//!
//! The shopper is the customer named by the `demo_customer` cookie ([`DemoCustomer`]), so a
//! card saved on one purchase is offered on the next; a POST from another site is refused
//! (the cookie is the credential here).

use axum::extract::State;
use axum::http::header::ORIGIN;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use checkout::contract::PlanTerms;
use secrecy::ExposeSecret as _;
use serde::{Deserialize, Serialize};
use time::format_description::well_known::Rfc3339;

use super::catalogue::{ITEMS, Item, item};
use super::customer::DemoCustomer;
use super::orders::{self, Order};
use crate::api::views::SessionView;
use crate::api::{ApiFailure, AppState, CreateSession, Json, MaybeJson, create_session};
use crate::store::prelude::*;

/// `GET /demo/catalogue`.
#[derive(Debug, Serialize)]
pub struct Catalogue<'a> {
    /// `MERCHANT_NAME`.
    pub merchant_name: &'a str,
    /// One-off items.
    pub items: &'a [Item],
    /// Subscription plans (their ids are items too).
    pub plans: Vec<&'a PlanTerms>,
}

/// Body of `POST /demo/sessions`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionRequest {
    /// An item id of the catalogue, or a plan id for a subscription.
    pub item: String,
    /// True: buy without a customer (no saved cards offered, none saved). Ignored for plans.
    #[serde(default)]
    pub guest: bool,
}

/// A session the page mounts the component with.
#[derive(Debug, Serialize)]
pub struct SessionHandle {
    /// Checkout session id (`session` attribute of the component).
    pub id: String,
    /// Its client secret (`client-secret` attribute).
    pub client_secret: String,
    /// What is being bought.
    pub description: String,
}

/// Answer of `POST /demo/customer-token`.
#[derive(Debug, Serialize)]
pub struct CustomerTokenHandle {
    /// `customer-token` attribute of the component in mode `subscriptions`.
    pub customer_token: String,
    /// RFC 3339.
    pub expires_at: String,
}

/// `GET /demo/catalogue`.
pub async fn catalogue(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiFailure> {
    sandbox_only(&state)?;
    let customer = DemoCustomer::from_headers(&headers);
    let body = Catalogue {
        merchant_name: &state.config.merchant.name,
        items: &ITEMS,
        plans: state.config.plans.iter().collect(),
    };
    Ok(with_cookie(&customer, Json(body).into_response()))
}

/// `POST /demo/sessions`: a checkout session for one item, or for a plan's first payment.
pub async fn sessions(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(request): Json<SessionRequest>,
) -> Result<Response, ApiFailure> {
    sandbox_only(&state)?;
    same_origin(&state, &headers)?;
    let customer = DemoCustomer::from_headers(&headers);
    let picked = request.item.trim();
    let (create, description) = if let Some(item) = item(picked) {
        let create = CreateSession {
            amount: Some(item.amount),
            currency: Some(item.currency.to_owned()),
            reference: order_reference(),
            capture: Some(item.capture),
            customer_id: (!request.guest).then(|| customer.id.clone()),
            email: None,
            plan_id: None,
            description: Some(item.name.to_owned()),
        };
        (create, item.name.to_owned())
    } else if let Some(plan) = state.config.plans.get(picked) {
        let create = CreateSession {
            amount: None,
            currency: None,
            reference: order_reference(),
            capture: None,
            customer_id: Some(customer.id.clone()),
            email: None,
            plan_id: Some(plan.id.clone()),
            description: Some(plan.name.clone()),
        };
        (create, plan.name.clone())
    } else {
        return Err(ApiFailure::invalid(
            "unknown_item",
            "item",
            "item: no such item or plan in the catalogue (GET /demo/catalogue lists them)",
        ));
    };
    let owner = create.customer_id.clone();
    let session = create_session(&state, create).await?;
    let handle = handle(session, description)?;
    orders::remember(
        &handle.id,
        Order {
            client_secret: handle.client_secret.clone(),
            customer_id: owner,
        },
    );
    Ok(with_cookie(
        &customer,
        (StatusCode::CREATED, Json(handle)).into_response(),
    ))
}

/// `POST /demo/customer-token`: a short-lived token (`CUSTOMER_TOKEN_TTL_SECONDS`) for the
/// customer's self-service view, as `POST /v1/customers/{id}/tokens` issues them.
pub async fn customer_token(
    State(state): State<AppState>,
    headers: HeaderMap,
    _body: MaybeJson<serde_json::Value>,
) -> Result<Response, ApiFailure> {
    sandbox_only(&state)?;
    same_origin(&state, &headers)?;
    let customer = DemoCustomer::from_headers(&headers);
    let token = generate_token("ct_");
    let ttl = time::Duration::try_from(state.config.ops.customer_token_ttl)
        .unwrap_or(time::Duration::MINUTE);
    let expires_at = time::OffsetDateTime::now_utc().saturating_add(ttl);
    state
        .store
        .create_customer_token(NewCustomerToken {
            customer_id: customer.id.clone(),
            token_hash: SecretHash::of(token.expose_secret()),
            expires_at,
        })
        .await?;
    let body = CustomerTokenHandle {
        customer_token: token.expose_secret().to_owned(),
        expires_at: expires_at.format(&Rfc3339).unwrap_or_default(),
    };
    Ok(with_cookie(
        &customer,
        (StatusCode::CREATED, Json(body)).into_response(),
    ))
}

fn handle(session: SessionView, description: String) -> Result<SessionHandle, ApiFailure> {
    let client_secret = session.client_secret.ok_or_else(|| {
        ApiFailure::Internal("a new session came without its client secret".into())
    })?;
    Ok(SessionHandle {
        id: session.id,
        client_secret,
        description,
    })
}

/// The demo exists only beside the in-process emulator; with a real gateway it is not there.
pub fn sandbox_only(state: &AppState) -> Result<(), ApiFailure> {
    if state.config.gateway.is_sandbox() {
        Ok(())
    } else {
        Err(ApiFailure::NotFound("endpoint"))
    }
}

/// Refuses a cookie-authenticated POST sent by a page of another site (CSRF).
fn same_origin(state: &AppState, headers: &HeaderMap) -> Result<(), ApiFailure> {
    let refused = || ApiFailure::Unauthorized {
        code: "cross_origin",
        message: "the demo shop backend only answers its own pages",
        challenge: None,
    };
    let fetch_site = headers.get("sec-fetch-site").map(|site| site.as_bytes());
    if matches!(fetch_site, Some(b"cross-site" | b"same-site")) {
        return Err(refused());
    }
    match headers.get(ORIGIN).map(|o| o.to_str()) {
        None => Ok(()),
        Some(Ok(origin)) if origin == own_origin(&state.urls.base) => Ok(()),
        Some(_) => Err(refused()),
    }
}

/// `scheme://host[:port]` of a base URL.
fn own_origin(base: &str) -> String {
    reqwest::Url::parse(base).map_or_else(
        |_| base.to_owned(),
        |url| url.origin().ascii_serialization(),
    )
}

/// A fresh order reference: `demo-` and 32 hex digits (37 characters, under the 45 allowed).
fn order_reference() -> String {
    format!("demo-{}", uuid::Uuid::new_v4().simple())
}

/// Adds the customer cookie to `response` when the shopper is new.
pub fn with_cookie(customer: &DemoCustomer, mut response: Response) -> Response {
    if let Some((name, value)) = customer.set_cookie() {
        response.headers_mut().append(name, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_and_references() {
        assert_eq!(own_origin("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
        assert_eq!(
            own_origin("https://pay.example/shop"),
            "https://pay.example"
        );
        let reference = order_reference();
        assert_eq!(reference.len(), 37);
        assert_ne!(reference, order_reference());
    }
}
