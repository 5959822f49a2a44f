//! The demo "shop backend": what a merchant's own server does before the checkout component
//! can run. It prices what was picked itself, creates the checkout session with
//! `POST /v1/sessions` (`MERCHANT_SECRET_KEY`), and hands the page only a session id and its
//! client secret.
//!
//! | method, path | body | answer |
//! |---|---|---|
//! | `GET /demo/catalogue` | | `{merchant_name, items, plans}` |
//! | `POST /demo/sessions` | `{item, guest?}`: an item id or a plan id | 201 `{id, client_secret, description, server}` |
//! | `GET /demo/orders/{session_id}` | | `{id, status, client_secret, server}` |
//! | `POST /demo/webhooks` | an event from checkout-server | 204 (see [`super::events`]) |
//! | `POST /demo/customer-token` | `{}` or none | 201 `{customer_token, expires_at, server}` |
//!
//! `server` is checkout-server's public base URL, where the page loads the form from (the
//! examples under `examples/` read it there; the demo shop's own page has it written in).
//!
//! The shopper is the customer named by the `demo_customer` cookie ([`DemoCustomer`]), so a
//! card saved on one purchase is offered on the next; a POST from another site is refused
//! (the cookie is the credential here).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header::ORIGIN;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use checkout::contract::PlanTerms;
use checkout::json::JsonRejection;
use serde::{Deserialize, Serialize};

use super::ShopState;
use super::catalogue::{ITEMS, Item, item};
use super::customer::DemoCustomer;
use super::error::DemoError;
use super::merchant_api::NewSession;
use super::orders::{self, Order, OrderStatus};

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
    /// checkout-server's public base URL (`server` of `loadCardCheckout`).
    pub server: String,
}

/// Answer of `GET /demo/orders/{session_id}`.
#[derive(Debug, Serialize)]
pub struct OrderHandle {
    /// The session id.
    pub id: String,
    /// Paid or not, as checkout-server's events said (not the landing address).
    pub status: OrderStatus,
    /// `client-secret` attribute of the component.
    pub client_secret: String,
    /// checkout-server's public base URL.
    pub server: String,
}

/// Answer of `POST /demo/customer-token`.
#[derive(Debug, Serialize)]
pub struct CustomerTokenHandle {
    /// `customer-token` attribute of the component in mode `subscriptions`.
    pub customer_token: String,
    /// RFC 3339.
    pub expires_at: String,
    /// checkout-server's public base URL.
    pub server: String,
}

/// `GET /demo/catalogue`.
pub async fn catalogue(State(shop): State<ShopState>, headers: HeaderMap) -> Response {
    let customer = DemoCustomer::from_headers(&headers);
    let body = Catalogue {
        merchant_name: &shop.merchant_name,
        items: &ITEMS,
        plans: shop.plans.iter().collect(),
    };
    with_cookie(&customer, Json(body).into_response())
}

/// `POST /demo/sessions`: a checkout session for one item, or for a plan's first payment.
pub async fn sessions(
    State(shop): State<ShopState>,
    headers: HeaderMap,
    body: Result<checkout::json::Json<SessionRequest>, JsonRejection>,
) -> Result<Response, DemoError> {
    same_origin(&shop, &headers)?;
    let checkout::json::Json(request) = body?;
    let customer = DemoCustomer::from_headers(&headers);
    let picked = request.item.trim();
    let session = if let Some(item) = item(picked) {
        NewSession {
            amount: Some(item.amount),
            currency: Some(item.currency.to_owned()),
            reference: order_reference(),
            capture: Some(item.capture),
            customer_id: (!request.guest).then(|| customer.id.clone()),
            plan_id: None,
            description: item.name.to_owned(),
        }
    } else if let Some(plan) = shop.plans.iter().find(|plan| plan.id == picked) {
        NewSession {
            amount: None,
            currency: None,
            reference: order_reference(),
            capture: None,
            customer_id: Some(customer.id.clone()),
            plan_id: Some(plan.id.clone()),
            description: plan.name.clone(),
        }
    } else {
        return Err(DemoError::Invalid {
            code: "unknown_item",
            field: Some("item".to_owned()),
            message: "item: no such item or plan in the catalogue (GET /demo/catalogue lists them)"
                .to_owned(),
        });
    };
    shop.events.register(&shop).await;
    let created = shop.merchant_api.create_session(&session).await?;
    orders::remember(
        &created.id,
        Order {
            client_secret: created.client_secret.clone(),
            customer_id: session.customer_id,
            status: OrderStatus::Open,
        },
    );
    let handle = SessionHandle {
        id: created.id,
        client_secret: created.client_secret,
        description: session.description,
        server: shop.checkout_server.clone(),
    };
    Ok(with_cookie(
        &customer,
        (StatusCode::CREATED, Json(handle)).into_response(),
    ))
}

/// `POST /demo/customer-token`: a short-lived token for the customer's self-service view,
/// issued by `POST /v1/customers/{id}/tokens` (lifetime `CUSTOMER_TOKEN_TTL_SECONDS`).
pub async fn customer_token(
    State(shop): State<ShopState>,
    headers: HeaderMap,
) -> Result<Response, DemoError> {
    same_origin(&shop, &headers)?;
    let customer = DemoCustomer::from_headers(&headers);
    let issued = shop.merchant_api.customer_token(&customer.id).await?;
    let body = CustomerTokenHandle {
        customer_token: issued.token,
        expires_at: issued.expires_at,
        server: shop.checkout_server.clone(),
    };
    Ok(with_cookie(
        &customer,
        (StatusCode::CREATED, Json(body)).into_response(),
    ))
}

/// `GET /demo/orders/{session_id}`: the session's client secret, for the shopper who placed
/// the order (as a real shop renders it into its own page; it is never put in an address).
pub async fn order(
    State(shop): State<ShopState>,
    Path(session_id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<OrderHandle>, DemoError> {
    same_origin_read(&headers)?;
    let customer = DemoCustomer::from_headers(&headers);
    let order = orders::lookup(&session_id, &customer.id).ok_or(DemoError::NotFound)?;
    Ok(Json(OrderHandle {
        id: session_id,
        status: order.status,
        client_secret: order.client_secret,
        server: shop.checkout_server.clone(),
    }))
}

/// Refuses a read of the shopper's data from a page of another site.
fn same_origin_read(headers: &HeaderMap) -> Result<(), DemoError> {
    let fetch_site = headers.get("sec-fetch-site").map(|site| site.as_bytes());
    if matches!(fetch_site, Some(b"cross-site" | b"same-site")) {
        return Err(DemoError::CrossOrigin);
    }
    Ok(())
}

/// Refuses a cookie-authenticated POST sent by a page of another site (CSRF).
fn same_origin(shop: &ShopState, headers: &HeaderMap) -> Result<(), DemoError> {
    same_origin_read(headers)?;
    match headers.get(ORIGIN).map(|o| o.to_str()) {
        None => Ok(()),
        Some(Ok(origin)) if origin == shop.origin => Ok(()),
        Some(_) => Err(DemoError::CrossOrigin),
    }
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
    fn references_are_fresh() {
        let reference = order_reference();
        assert_eq!(reference.len(), 37);
        assert_ne!(reference, order_reference());
    }
}
