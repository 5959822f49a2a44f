//! The isolated card form: what a shop's page loads from checkout-server so that no script on
//! that page can ever read a card number.
//!
//! - `GET /checkout.js` ([`loader`]): the loader the shop includes. It defines
//!   `<card-checkout>` and `CardCheckout.mount`, and puts the form in an `<iframe>` here.
//! - `POST /frame/` ([`document`]): the frame document, with the page's options in its body
//!   (so the client secret and customer token never travel in a URL). Only an origin of
//!   `ALLOWED_ORIGINS` (or this server's) gets it, and only that origin may frame it. It
//!   carries the session's view and, for a one-off payment, the form as HTML ([`skeleton`]), so
//!   the shopper can type before the wasm has arrived; for anything else, the loading
//!   outline ([`outline`]).
//! - `GET /frame/shell` ([`shell`]): the same document without the session, which a browser
//!   keeps (what today's loader asks for); the session's part follows from `POST
//!   /frame/session` ([`session`]), asked for by the frame once the page has sent it the
//!   session in a message. `POST /frame/` stays for loaders of earlier releases.
//! - Mode `result` (the page 3-D Secure returns to) is a page of its own ([`result_page`]): no
//!   wasm, its panel drawn here; its script asks `POST /frame/result` ([`result`]) where the
//!   payment stands.
//! - `GET /frame/{*file}` ([`assets`]): the component trunk built into `COMPONENT_DIR`.
//! - `GET /frame/challenge` ([`challenge_host`]): what the shop page's 3-D Secure dialog
//!   frames, holding the bank's page; the return from the bank's page inside it
//!   ([`bank_return`], served at the payment's return address by `api/returns.rs`).
//!
//! The message protocol between the two windows is in `js/loader.js` and `www/frame.js`.

pub mod assets;
pub mod bank_return;
pub mod challenge_host;
mod dialog_texts;
pub mod document;
pub mod loader;
mod options;
mod outline;
pub(crate) mod page;
pub mod policy;
mod refusal;
pub mod result;
mod result_page;
pub mod session;
pub mod shell;
pub(crate) mod skeleton;

use axum::Router;
use axum::routing::{get, post};
use tower_http::compression::CompressionLayer;

use crate::web::AppState;

/// The loader, the frame document and the component's files, compressed for browsers that
/// accept brotli or gzip (the component's files usually come precompressed, and are then sent
/// as they are).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/checkout.js", get(loader::serve))
        .route("/frame/", post(document::serve))
        .route("/frame/shell", get(shell::serve))
        .route("/frame/session", post(session::serve))
        .route("/frame/result", post(result::serve))
        .route("/frame/challenge", get(challenge_host::serve))
        .route("/frame/{*file}", get(assets::serve))
        .layer(CompressionLayer::new())
}
