//! Payment links on the API: the merchant's `/v1/payment_links` ([`merchant`]) and the payer's
//! `POST /pay/{public_id}/session` ([`start`]), which the hosted page (`api::hosted`) calls
//! when the payer presses Pay. The rules live in [`crate::payments::links`].

pub mod merchant;
pub mod request;
pub mod start;

use axum::Router;

use crate::web::AppState;

/// The payment link routes.
pub fn routes() -> Router<AppState> {
    merchant::routes().merge(start::routes())
}
