//! Card-testing thresholds an admin set in the dashboard, kept in the database so every
//! instance applies the same ones (`risk::RiskService::refresh_overrides`).

use async_trait::async_trait;
use time::OffsetDateTime;

use super::error::StoreResult;

/// A threshold set in the dashboard for one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RiskOverride {
    /// The rule's stored name (`cards_per_session`, …).
    pub rule: String,
    /// The threshold that applies instead of the configuration file's.
    pub threshold: u32,
    /// The e-mail of the admin who set it.
    pub set_by: String,
    /// When.
    pub set_at: OffsetDateTime,
}

/// Reads and writes of the thresholds set in the dashboard.
#[async_trait]
pub trait RiskOverrideStore: Send + Sync {
    /// Every threshold set, by rule name.
    async fn risk_overrides(&self) -> StoreResult<Vec<RiskOverride>>;
    /// Sets (or replaces) the threshold of `item.rule`.
    async fn set_risk_override(&self, item: &RiskOverride) -> StoreResult<()>;
    /// Removes the threshold of `rule`, so the configuration file's applies; false when none
    /// was set.
    async fn clear_risk_override(&self, rule: &str) -> StoreResult<bool>;
}
