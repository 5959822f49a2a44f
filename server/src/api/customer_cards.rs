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
use checkout::card::Brand;
use checkout::contract::SavedCard;
use serde::Serialize;

use super::auth::MerchantAuth;
use super::error::ApiFailure;
use super::json::Json;
use super::state::AppState;
use crate::store::model::SavedCardRecord;
use crate::views::rfc3339;

/// Longest customer id (the store's limit).
const MAX_CUSTOMER_ID_CHARS: usize = 64;

/// The merchant's saved-card routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/customers/{id}/cards", get(list))
        .route("/v1/customers/{id}/cards/{card_id}", delete(remove))
}

/// A saved card as the merchant sees it: enough to recognise it, nothing to charge it with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CustomerCard {
    /// Card id (the browser sends it back as `saved_card_id`).
    pub id: String,
    /// Card brand.
    pub brand: Brand,
    /// Last four digits.
    pub last4: String,
    /// Expiry month, 1–12.
    pub expiry_month: u8,
    /// Four-digit expiry year.
    pub expiry_year: u16,
    /// When it was saved (RFC 3339).
    pub created_at: String,
}

impl From<&SavedCardRecord> for CustomerCard {
    fn from(record: &SavedCardRecord) -> Self {
        // Through the browser contract's view, so both APIs show exactly the same card fields.
        let SavedCard {
            id,
            brand,
            last4,
            expiry_month,
            expiry_year,
        } = SavedCard::from(record);
        Self {
            id,
            brand,
            last4,
            expiry_month,
            expiry_year,
            created_at: rfc3339(record.created_at),
        }
    }
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
    validate_customer_id(&customer_id)?;
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
    validate_customer_id(&customer_id)?;
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

/// 1 to 64 characters, no control characters: the store's rule for customer ids (a NUL would
/// otherwise reach Postgres and fail there).
fn validate_customer_id(id: &str) -> Result<(), ApiFailure> {
    let chars = id.chars().count();
    if chars == 0 || chars > MAX_CUSTOMER_ID_CHARS || id.chars().any(char::is_control) {
        return Err(ApiFailure::invalid(
            "invalid_field",
            "customer_id",
            "customer_id: must be 1 to 64 characters without control characters",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::model::Last4;
    use secrecy::SecretString;
    use time::macros::datetime;

    #[test]
    fn shows_no_token_and_keeps_the_creation_time() {
        let record = SavedCardRecord {
            id: "0b6f4a3e-7c2d-4f59-9a7e-2f3c1d9e8a10".to_owned(),
            customer_id: "cust-1".to_owned(),
            gateway_token: SecretString::from("tok_live_secret".to_owned()),
            brand: Brand::Visa,
            last4: Last4::new("4242").expect("last4"),
            expiry_month: 12,
            expiry_year: 2030,
            created_at: datetime!(2025-01-02 03:04:05.678 UTC),
        };
        let card = CustomerCard::from(&record);
        let json = serde_json::to_value(&card).expect("serialises");
        assert_eq!(
            json,
            serde_json::json!({
                "id": "0b6f4a3e-7c2d-4f59-9a7e-2f3c1d9e8a10",
                "brand": "visa",
                "last4": "4242",
                "expiry_month": 12,
                "expiry_year": 2030,
                "created_at": "2025-01-02T03:04:05.678Z",
            })
        );
        assert!(!json.to_string().contains("tok_live"));
    }

    #[test]
    fn customer_ids_follow_the_store_rule() {
        assert!(validate_customer_id("cust-1").is_ok());
        assert!(validate_customer_id(&"x".repeat(64)).is_ok());
        assert!(validate_customer_id(&"x".repeat(65)).is_err());
        assert!(validate_customer_id("").is_err());
        assert!(validate_customer_id("a\0b").is_err());
    }
}
