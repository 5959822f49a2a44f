//! What a sealed value belongs to: authenticated with the ciphertext (AES-GCM associated
//! data), so a value copied to another row, or to another kind of column, does not open.
//!
//! An endpoint's current and previous signing secrets share one binding, and so do an
//! account's confirmed and pending TOTP keys: the store moves a value from one to the other
//! within the row (a rotation keeps the old secret as the previous, a confirmation makes the
//! offered key the account's), and both columns mean the same thing to an attacker.

/// The row and kind of column a sealed value belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding(String);

impl Binding {
    /// A signing secret (current or previous) of webhook endpoint `endpoint_id`.
    pub fn endpoint_secret(endpoint_id: &str) -> Self {
        Self(format!("webhook_endpoints.secret:{endpoint_id}"))
    }

    /// A TOTP key (confirmed or pending) of staff account `staff_id`.
    pub fn staff_totp(staff_id: &str) -> Self {
        Self(format!("staff_users.totp:{staff_id}"))
    }

    /// The gateway token of saved card `card_id` (what charges the card again).
    pub fn saved_card_token(card_id: &str) -> Self {
        Self(format!("saved_cards.gateway_token:{card_id}"))
    }

    /// The associated data the cipher authenticates.
    pub(super) fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_differ_by_row_and_kind() {
        assert_ne!(Binding::endpoint_secret("a"), Binding::endpoint_secret("b"));
        assert_ne!(Binding::endpoint_secret("a"), Binding::staff_totp("a"));
        assert_ne!(
            Binding::saved_card_token("a"),
            Binding::endpoint_secret("a")
        );
    }
}
