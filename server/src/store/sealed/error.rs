//! Why a key cannot be used, and why a stored value does not open. Neither error ever holds
//! key material or a secret, only key ids and names.

/// A configured or generated key that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// The key text is neither 64 hex digits nor the base64 of 32 bytes.
    #[error("is not a 32-byte key: expected [id:]<64 hex digits or base64 of 32 bytes>")]
    Material,
    /// The id before `:` has characters other than letters, digits, `-` and `_`, or is too long.
    #[error("key id {0:?} must be 1 to 32 letters, digits, '-' or '_'")]
    Id(String),
    /// Two keys of the ring share an id.
    #[error("key id {0:?} is given twice")]
    DuplicateId(String),
    /// No key at all where one is needed.
    #[error("holds no key")]
    Empty,
}

/// Why a stored value did not open (or could not be sealed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    /// Not in the `v1.<key id>.<nonce>.<ciphertext>` form (plain text, or damaged).
    #[error("is not a sealed value")]
    NotSealed,
    /// Sealed under a key the ring does not hold.
    #[error(
        "is sealed under key {key_id:?}, which is not configured \
         (SECRETS_KEY, SECRETS_KEY_PREVIOUS or SECRETS_KEY_FILE)"
    )]
    UnknownKey {
        /// The stored value's key id.
        key_id: String,
    },
    /// The key with that id does not authenticate it: another key under the same id, a value
    /// moved from another row or column, or a damaged value.
    #[error(
        "does not open under key {key_id:?}: a different key with that id, or a value copied from another row"
    )]
    Rejected {
        /// The stored value's key id.
        key_id: String,
    },
    /// Opened, but the secret is not UTF-8 text.
    #[error("opened to something that is not text")]
    NotText,
    /// The cipher refused to seal (a value far beyond any secret's size).
    #[error("cannot be sealed")]
    Seal,
}
