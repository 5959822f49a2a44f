//! The demo "shop backend": what a merchant's own server does before the checkout component
//! can run. It holds the merchant's side of things (here in-process, so it calls
//! [`create_session`] directly rather than `POST /v1/sessions` with `MERCHANT_SECRET_KEY`),
//! prices the item itself, and hands the page only a session id and its client secret.
//!
//! | method, path | body | answer |
//! |---|---|---|
//! | `GET /demo/catalogue` | | `{merchant_name, items, plans}` |
//! | `POST /demo/checkout` | `{item_id, guest?}` | `{session_id, client_secret, description}` |
//! | `POST /demo/subscribe` | `{plan_id}` | `{session_id, client_secret, description}` |
//! | `POST /demo/my-subscriptions` | `{}` | `{customer_token, expires_at}` |
//!
//! The shopper is the customer named by the `demo_customer` cookie ([`DemoCustomer`]); a POST
//! from another origin is refused (the cookie is the credential here).

use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::header::ORIGIN;
use axum::response::{IntoResponse, Response};
use checkout::contract::PlanTerms;
use secrecy::ExposeSecret as _;
use serde::{Deserialize, Serialize};
use time::format_description::well_known::Rfc3339;

use super::catalogue::{ITEMS, Item, item};
use super::customer::DemoCustomer;
use crate::api::{ApiFailure, AppState, CreateSession, Json, create_session};
use crate::store::prelude::*;

/// How long a "my subscriptions" token works.
const CUSTOMER_TOKEN_TTL: time::Duration = time::Duration::hours(1);

/// `GET /demo/catalogue`.
#[derive(Debug, Serialize)]
pub struct Catalogue<'a> {
    /// `MERCHANT_NAME`.
    pub merchant_name: &'a str,
    /// One-off items.
    pub items: &'a [Item],
    /// Subscription plans.
    pub plans: Vec<&'a PlanTerms>,
}

/// Body of `POST /demo/checkout`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckoutRequest {
    /// An id from the catalogue.
    pub item_id: String,
    /// True: buy without a customer (no saved cards offered, none saved).
    #[serde(default)]
    pub guest: bool,
}

/// Body of `POST /demo/subscribe`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubscribeRequest {
    /// A plan id from the catalogue.
    pub plan_id: String,
}

/// A session the page mounts the component with.
#[derive(Debug, Serialize)]
pub struct SessionHandle {
    /// Checkout session id (`session` option of the component).
    pub session_id: String,
    /// Its client secret (`clientSecret` option).
    pub client_secret: String,
    /// What is being bought.
    pub description: String,
}

/// `POST /demo/my-subscriptions`.
#[derive(Debug, Serialize)]
pub struct CustomerTokenHandle {
    /// `customerToken` option of the component in mode `subscriptions`.
    pub customer_token: String,
    /// RFC 3339.
    pub expires_at: String,
}

/// `GET /demo/catalogue`.
pub async fn catalogue(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiFailure> {
    sandbox_only(&state)?;
    let customer = DemoCustomer::from_headers(&headers);
    let body = Catalogue {
        merchant_name: &state.config.merchant.name,
        items: &ITEMS,
        plans: state.config.plans.iter().collect(),
    };
    Ok(with_cookie(&customer, Json(body).into_response()))
}

/// `POST /demo/checkout`: a session for one item.
pub async fn checkout(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(request): Json<CheckoutRequest>,
) -> Result<Response, ApiFailure> {
    sandbox_only(&state)?;
    same_origin(&state, &headers)?;
    let item = item(request.item_id.trim())
        .ok_or_else(|| ApiFailure::invalid("unknown_item", "item_id", "item_id: no such item in the catalogue"))?;
    let customer = DemoCustomer::from_headers(&headers);
    let session = create_session(
        &state,
        CreateSession {
            amount: Some(item.amount),
            currency: Some(item.currency.to_owned()),
            reference: order_reference(),
            capture: Some(item.capture),
            customer_id: (!request.guest).then(|| customer.id.clone()),
            email: None,
            plan_id: None,
            description: Some(item.name.to_owned()),
        },
    )
    .await?;
    handle(&customer, session, item.name.to_owned())
}

/// `POST /demo/subscribe`: a session starting a subscription to a plan.
pub async fn subscribe(
    State(state): State<AppState>,
    headers: HeaderMap,
    Json(request): Json<SubscribeRequest>,
) -> Result<Response, ApiFailure> {
    sandbox_only(&state)?;
    same_origin(&state, &headers)?;
    let plan = state
        .config
        .plans
        .get(request.plan_id.trim())
        .ok_or_else(|| ApiFailure::invalid("unknown_plan", "plan_id", "plan_id: no such plan in the catalogue"))?;
    let customer = DemoCustomer::from_headers(&headers);
    let session = create_session(
        &state,
        CreateSession {
            amount: None,
            currency: None,
            reference: order_reference(),
            capture: None,
            customer_id: Some(customer.id.clone()),
            email: None,
            plan_id: Some(plan.id.clone()),
            description: Some(plan.name.clone()),
        },
    )
    .await?;
    handle(&customer, session, plan.name.clone())
}

/// `POST /demo/my-subscriptions`: a short-lived token for the customer's self-service view.
pub async fn my_subscriptions(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiFailure> {
    sandbox_only(&state)?;
    same_origin(&state, &headers)?;
    let customer = DemoCustomer::from_headers(&headers);
    let token = generate_token("ct_");
    let expires_at = time::OffsetDateTime::now_utc().saturating_add(CUSTOMER_TOKEN_TTL);
    state
        .store
        .create_customer_token(NewCustomerToken {
            customer_id: customer.id.clone(),
            token_hash: SecretHash::of(token.expose_secret()),
            expires_at,
        })
        .await
        .map_err(|e| ApiFailure::Internal(format!("could not store a customer token: {e}")))?;
    let body = CustomerTokenHandle {
        customer_token: token.expose_secret().to_owned(),
        expires_at: expires_at.format(&Rfc3339).unwrap_or_default(),
    };
    Ok(with_cookie(&customer, Json(body).into_response()))
}

fn handle(customer: &DemoCustomer, session: crate::api::views::SessionView, description: String) -> Result<Response, ApiFailure> {
    let client_secret = session
        .client_secret
        .ok_or_else(|| ApiFailure::Internal("a new session came without its client secret".into()))?;
    let body = SessionHandle {
        session_id: session.id,
        client_secret,
        description,
    };
    Ok(with_cookie(customer, Json(body).into_response()))
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
    if headers
        .get("sec-fetch-site")
        .is_some_and(|site| site.as_bytes() == b"cross-site" || site.as_bytes() == b"same-site")
    {
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
    reqwest::Url::parse(base).map_or_else(|_| base.to_owned(), |url| url.origin().ascii_serialization())
}

/// A fresh order reference: `demo-` and 32 hex digits (37 characters, under the 45 allowed).
fn order_reference() -> String {
    format!("demo-{}", uuid::Uuid::new_v4().simple())
}

fn with_cookie(customer: &DemoCustomer, mut response: Response) -> Response {
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
        assert_eq!(own_origin("https://pay.example/shop"), "https://pay.example");
        let reference = order_reference();
        assert_eq!(reference.len(), 37);
        assert_ne!(reference, order_reference());
    }
}
