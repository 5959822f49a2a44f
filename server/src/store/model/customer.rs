//! Customers (the shop's ids, as the server knows them) and the short-lived tokens that let a
//! customer manage their own subscriptions and cards.

use time::OffsetDateTime;

use crate::store::secret::SecretHash;

/// Longest customer id the store keeps.
pub const MAX_CUSTOMER_ID_CHARS: usize = 64;

/// Whether `id` can be a customer id: 1 to [`MAX_CUSTOMER_ID_CHARS`] characters, none a
/// control character (a NUL would otherwise reach Postgres and fail there).
pub fn is_customer_id(id: &str) -> bool {
    let chars = id.chars().count();
    (1..=MAX_CUSTOMER_ID_CHARS).contains(&chars) && !id.chars().any(char::is_control)
}

/// A plausible e-mail address: one `@`, non-empty local part and a dotted domain, no spaces;
/// at most 254 characters (as the API's `maxLength` counts them, not bytes).
pub fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    text.chars().count() <= 254
        && !local.is_empty()
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains('@')
        && !text.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// A customer the server has seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Customer {
    /// The shop's customer id.
    pub id: String,
    /// Last e-mail given for them.
    pub email: Option<String>,
    /// First seen.
    pub created_at: OffsetDateTime,
}

/// A customer token to store: only its hash is kept.
#[derive(Clone, Debug)]
pub struct NewCustomerToken {
    /// Whose token.
    pub customer_id: String,
    /// Hash of the token handed to the shop backend.
    pub token_hash: SecretHash,
    /// When it stops working.
    pub expires_at: OffsetDateTime,
}
