//! The hosted payment page of a payment link and its receipt, on this server's origin (the
//! payment origin): server-rendered HTML in the payer's language, the card form inline (no
//! frame), the page running only this server's scripts under a strict CSP.
//!
//! - `GET /pay/{link}` ([`page`]): what the link sells, the payer's fields
//!   ([`payer_fields`]), the card form as HTML and the 3-D Secure dialog, made from the card
//!   form's built template ([`document`]); its script (`hosted.js`) makes the session only when
//!   the payer presses Pay (`POST /pay/{link}/session`, the link service's), then pays it
//!   through the component and the one pay path. A link that takes no payment:
//!   [`unavailable`].
//! - `GET /receipts/{receipt_id}` ([`receipt`]): the payer's receipt.
//!
//! Beside them: the page's texts ([`texts`]), its language and switcher ([`languages`]), the
//! documents without the card form ([`plain`]), amounts in the page's language ([`money`],
//! [`currency_signs`]), what the page says a link costs ([`price`]) and the component's
//! stylesheet cut to what the page shows ([`used_styles`]).

mod currency_signs;
mod document;
mod languages;
mod money;
mod page;
mod payer_fields;
mod plain;
mod price;
mod receipt;
mod texts;
mod unavailable;
mod used_styles;

use axum::Router;
use axum::routing::get;
use tower_http::compression::CompressionLayer;

use crate::payments::urls::{LINK_PAGE_ROUTE, RECEIPT_ROUTE};
use crate::web::AppState;

/// The hosted page and the receipt, compressed for browsers that accept it.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(LINK_PAGE_ROUTE, get(page::serve))
        .route(RECEIPT_ROUTE, get(receipt::serve))
        .layer(CompressionLayer::new())
}
