//! Re-sealing the secrets at rest under the current key (`checkout-server keys rotate`), after
//! a new key became current and the old one was kept as a previous key.

use async_trait::async_trait;

use super::error::StoreResult;

/// What a re-sealing pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ResealReport {
    /// The current key's id was already on these values: nothing to do.
    pub already_current: u64,
    /// Values sealed under an older key, now under the current one.
    pub resealed: u64,
    /// Values an older version stored in plain text, now sealed.
    pub sealed_plain: u64,
}

/// Re-sealing the secrets at rest.
#[async_trait]
pub trait KeyRotationStore: Send + Sync {
    /// Re-seals every stored secret not under the current key (plain ones included), each a
    /// compare-and-set on the value read, so a secret changed meanwhile is left as written.
    /// Running it again finds nothing to do. A value that opens under no configured key stops
    /// the pass with an error naming its column.
    async fn reseal_secrets(&self) -> StoreResult<ResealReport>;
}
