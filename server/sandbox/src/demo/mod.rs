//! The demo shop, mounted by the `checkout-server` binary beside the in-process gateway
//! emulator (never with a real gateway: its backend creates sessions for anyone who asks,
//! which only makes sense with play money): the shop's page, which embeds the card form through
//! checkout-server's `/checkout.js` as any shop does ([`pages`]), a
//! small catalogue ([`catalogue`], [`plans`]) and the shop backend the pages call to get a
//! checkout session ([`backend`]). The backend is a client of checkout-server's merchant API
//! ([`merchant_api`]), exactly as a real shop's backend is; the shopper is kept in a cookie
//! ([`customer`]) and their orders are remembered so the page they land on after 3-D Secure can
//! show the result ([`orders`]), paid or not as checkout-server's events say ([`events`]).

pub mod backend;
pub mod catalogue;
pub mod customer;
pub mod error;
pub mod events;
pub mod merchant_api;
pub mod orders;
pub mod pages;
pub mod plans;

use std::sync::Arc;

use axum::Router;
use axum::http::HeaderValue;
use axum::http::header::X_CONTENT_TYPE_OPTIONS;
use axum::routing::{get, post};
use checkout::contract::PlanTerms;
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;

pub use error::DemoError;
pub use merchant_api::MerchantApi;

/// What the demo shop knows of its merchant.
#[derive(Debug)]
pub struct DemoShop {
    /// `MERCHANT_NAME`, shown in the shop.
    pub merchant_name: String,
    /// The subscription plans checkout-server sells (their ids are items too).
    pub plans: Vec<PlanTerms>,
    /// checkout-server's merchant API, called with the merchant's secret key.
    pub merchant_api: MerchantApi,
    /// `scheme://host[:port]` of the shop's pages (their own origin, not checkout-server's): a
    /// cookie-authenticated POST from any other origin is refused.
    pub origin: String,
    /// checkout-server's public base URL: the page loads `/checkout.js` from there.
    pub checkout_server: String,
    /// The events checkout-server sends the shop ([`events`]).
    pub events: events::Receiver,
}

/// The demo shop's shared state.
pub type ShopState = Arc<DemoShop>;

/// The demo routes: `/demo/...`, the page and its two files, compressed (brotli or gzip, as
/// the browser accepts), never sniffed.
pub fn router(shop: DemoShop) -> Router {
    Router::new()
        .route("/demo/catalogue", get(backend::catalogue))
        .route("/demo/sessions", post(backend::sessions))
        .route("/demo/orders/{session_id}", get(backend::order))
        .route("/demo/customer-token", post(backend::customer_token))
        .route(events::PATH, post(events::receive))
        .route("/", get(pages::index))
        .route("/shop.js", get(pages::script))
        .route("/shop.css", get(pages::stylesheet))
        .fallback(|| async { DemoError::NotFound })
        .layer(CompressionLayer::new())
        .layer(SetResponseHeaderLayer::overriding(
            X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .with_state(Arc::new(shop))
}
