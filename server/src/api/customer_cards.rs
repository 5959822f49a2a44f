//! Merchant API for a customer's saved cards (`Authorization: Bearer <MERCHANT_SECRET_KEY>`):
//! - `GET /v1/customers/{id}/cards` → `{data: [CustomerCard]}`, oldest first: id, brand, last
//!   four, expiry and when it was saved. Never the gateway token, never the BIN;
//! - `DELETE /v1/customers/{id}/cards/{card_id}` → 204; 404 for an unknown card or a card of
//!   another customer (the two are indistinguishable on purpose). A deleted card can no longer
//!   pay: the pay call answers `unknown_saved_card` naming `saved_card_id`.
//!
//! Deleting is naturally idempotent (a second call is a 404 and changes nothing), so it takes
//! no `Idempotency-Key`.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{delete, get};
use serde::Serialize;

use super::auth::MerchantAuth;
use super::customer_id;
use super::json::Json;
use crate::views::CustomerCard;
use crate::web::ApiFailure;
use crate::web::AppState;

/// The merchant's saved-card routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/customers/{id}/cards", get(list))
        .route("/v1/customers/{id}/cards/{card_id}", delete(remove))
}

/// A customer's saved cards.
#[derive(Debug, Clone, Serialize)]
pub struct CustomerCardList {
    /// The cards, oldest first.
    pub data: Vec<CustomerCard>,
}

async fn list(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path(customer_id): Path<String>,
) -> Result<Json<CustomerCardList>, ApiFailure> {
    customer_id::check(&customer_id)?;
    let cards = state.store.list_cards(&customer_id).await?;
    Ok(Json(CustomerCardList {
        data: cards.iter().map(CustomerCard::from).collect(),
    }))
}

async fn remove(
    State(state): State<AppState>,
    _auth: MerchantAuth,
    Path((customer_id, card_id)): Path<(String, String)>,
) -> Result<StatusCode, ApiFailure> {
    customer_id::check(&customer_id)?;
    // Card ids are UUIDs the store assigned: anything else cannot name a card.
    if uuid::Uuid::try_parse(&card_id).is_err() {
        return Err(ApiFailure::NotFound("saved card"));
    }
    if state.store.delete_card(&customer_id, &card_id).await? {
        tracing::info!(%card_id, "saved card deleted");
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiFailure::NotFound("saved card"))
    }
}
