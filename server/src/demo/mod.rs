//! The demo shop, served by `checkout-server serve` only while it runs with the in-process
//! gateway emulator (no `GATEWAY_BASE_URL`): the pages trunk builds into `dist/`
//! ([`pages`]), a small catalogue ([`catalogue`]) and the shop backend the pages call to get a
//! checkout session ([`backend`]), with the shopper kept in a cookie ([`customer`]) and their
//! orders remembered so the page they land on after 3-D Secure can show the result
//! ([`orders`]).
//!
//! With a real gateway every route here answers the API's 404, as if it did not exist: the
//! demo backend creates sessions for anyone who asks, which only makes sense with play money.

pub mod backend;
pub mod catalogue;
pub mod customer;
pub mod orders;
pub mod pages;

use axum::Router;
use axum::routing::{any, get, post};
use tower_http::compression::CompressionLayer;

use crate::api::AppState;

/// The demo routes: `/demo/...` and every other path as a file of the built shop, compressed
/// (brotli or gzip, as the browser accepts) since the wasm bundle is most of the page's weight.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/demo/catalogue", get(backend::catalogue))
        .route("/demo/sessions", post(backend::sessions))
        .route("/demo/customer-token", post(backend::customer_token))
        .route("/", any(pages::serve))
        .route("/{*path}", any(pages::serve))
        .layer(CompressionLayer::new())
}
