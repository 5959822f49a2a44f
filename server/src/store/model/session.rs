//! Checkout sessions: what the shop backend asked to be paid, and the hash of the client
//! secret the browser presents.

use time::OffsetDateTime;

use super::customer::is_customer_id;
use crate::store::error::{StoreError, StoreResult};
use crate::store::secret::SecretHash;

/// Longest order reference: it becomes the gateway's `merchant_txn_ref` (≤ 45).
pub const MAX_REFERENCE_CHARS: usize = 45;
/// Longest customer id, plan id or other caller-chosen id the store accepts.
pub const MAX_ID_CHARS: usize = 64;

/// Purchase (capture at once) or authorization only (capture later).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureMode {
    /// `paymentv2`: money is taken at once.
    Capture,
    /// `authorizationv2`: the amount is reserved; the merchant captures or voids later.
    Authorize,
}

impl CaptureMode {
    /// Stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Capture => "capture",
            Self::Authorize => "authorize",
        }
    }

    /// Reads a stored name.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Capture, Self::Authorize]
            .into_iter()
            .find(|mode| mode.as_str() == name)
    }
}

/// A session to create. The store assigns the id and `created_at`.
#[derive(Clone, Debug)]
pub struct NewSession {
    /// Session id, chosen by the caller (a UUID from [`new_session_id`]): the client secret is
    /// derived from it before the row is written.
    pub id: String,
    /// Hash of the client secret given to the browser (the secret itself is never stored).
    pub client_secret_hash: SecretHash,
    /// Minor units of `currency`.
    pub amount: u64,
    /// ISO 4217 code, three upper-case letters.
    pub currency: String,
    /// The shop's order reference, 1–45 characters (→ `merchant_txn_ref`).
    pub reference: String,
    /// Purchase or authorization.
    pub capture_mode: CaptureMode,
    /// The shop's customer id, for saved cards and subscriptions.
    pub customer_id: Option<String>,
    /// Customer e-mail.
    pub email: Option<String>,
    /// Plan id for a subscription session.
    pub plan_id: Option<String>,
    /// Shown above the form.
    pub description: Option<String>,
    /// After this the session can no longer be paid.
    pub expires_at: OffsetDateTime,
    /// The payment link the session was made from (`None`: the shop's backend made it).
    pub link: Option<SessionLink>,
}

/// What ties a session to the payment link a payer started it from (migration 0038).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionLink {
    /// The link's id (`plink_…`).
    pub payment_link_id: String,
    /// The payer's own reference (an order or invoice number), if the link asked for it.
    pub payer_reference: Option<String>,
    /// The id of the session's receipt page: 43 random URL-safe characters, the payer's to
    /// keep (whoever holds it can read the receipt, which carries no card data beyond brand
    /// and last four).
    pub receipt_id: String,
}

impl NewSession {
    /// Checks the rules the schema also enforces, naming the field that breaks one.
    pub fn validate(&self) -> StoreResult<()> {
        if self.id.is_empty() || self.id.len() > MAX_ID_CHARS || !self.id.is_ascii() {
            return Err(invalid("id", "must be 1 to 64 ASCII characters"));
        }
        let chars = self.reference.chars().count();
        if chars == 0 || chars > MAX_REFERENCE_CHARS {
            return Err(invalid("reference", "must be 1 to 45 characters"));
        }
        if self.currency.len() != 3 || !self.currency.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(invalid("currency", "must be three upper-case letters"));
        }
        if i64::try_from(self.amount).is_err() {
            return Err(invalid("amount", "is too large"));
        }
        if self
            .customer_id
            .as_deref()
            .is_some_and(|id| !is_customer_id(id))
        {
            return Err(invalid(
                "customer_id",
                "must be 1 to 64 characters without control characters",
            ));
        }
        if let Some(id) = &self.plan_id
            && (id.is_empty() || id.chars().count() > MAX_ID_CHARS)
        {
            return Err(invalid("plan_id", "must be 1 to 64 characters"));
        }
        Ok(())
    }
}

/// A fresh session id.
pub fn new_session_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

fn invalid(field: &'static str, reason: &'static str) -> StoreError {
    StoreError::Invalid { field, reason }
}

/// A stored checkout session.
#[derive(Clone, Debug)]
pub struct Session {
    /// Session id (a UUID).
    pub id: String,
    /// Hash of the client secret.
    pub client_secret_hash: SecretHash,
    /// Minor units of `currency`.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// The shop's order reference.
    pub reference: String,
    /// Purchase or authorization.
    pub capture_mode: CaptureMode,
    /// The shop's customer id.
    pub customer_id: Option<String>,
    /// Customer e-mail.
    pub email: Option<String>,
    /// Plan id for a subscription session.
    pub plan_id: Option<String>,
    /// Shown above the form.
    pub description: Option<String>,
    /// When it was created.
    pub created_at: OffsetDateTime,
    /// When it stops accepting payment.
    pub expires_at: OffsetDateTime,
    /// The payment link the session was made from.
    pub link: Option<SessionLink>,
}

impl Session {
    /// Whether `presented` is this session's client secret (constant-time).
    pub fn verify_client_secret(&self, presented: &str) -> bool {
        self.client_secret_hash.verify(presented)
    }

    /// Whether the session can no longer be paid at `now`.
    pub fn is_expired_at(&self, now: OffsetDateTime) -> bool {
        now >= self.expires_at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> NewSession {
        NewSession {
            id: new_session_id(),
            client_secret_hash: SecretHash::of("s"),
            amount: 1000,
            currency: "EUR".into(),
            reference: "order-1".into(),
            capture_mode: CaptureMode::Capture,
            customer_id: None,
            email: None,
            plan_id: None,
            description: None,
            expires_at: OffsetDateTime::UNIX_EPOCH,
            link: None,
        }
    }

    fn field_of(new: &NewSession) -> Option<&'static str> {
        match new.validate() {
            Err(StoreError::Invalid { field, .. }) => Some(field),
            _ => None,
        }
    }

    #[test]
    fn validation_names_the_field() {
        assert_eq!(field_of(&session()), None);
        let mut s = session();
        s.reference = "x".repeat(46);
        assert_eq!(field_of(&s), Some("reference"));
        s.reference = "x".repeat(45);
        assert_eq!(field_of(&s), None);
        s.currency = "eur".into();
        assert_eq!(field_of(&s), Some("currency"));
        let mut s = session();
        s.amount = u64::MAX;
        assert_eq!(field_of(&s), Some("amount"));
        let mut s = session();
        s.customer_id = Some(String::new());
        assert_eq!(field_of(&s), Some("customer_id"));
    }

    #[test]
    fn capture_mode_names_round_trip() {
        for mode in [CaptureMode::Capture, CaptureMode::Authorize] {
            assert_eq!(CaptureMode::parse(mode.as_str()), Some(mode));
        }
        assert_eq!(CaptureMode::parse("sale"), None);
    }
}
