//! Each reconciler pass folds the dashboard rollup's shards of past slots
//! ([`AnalyticsStore::fold_rollup`](crate::store::analytics::AnalyticsStore::fold_rollup)): on
//! PostgreSQL every connection counts pays in a shard of its own, so no two pays queue on one
//! row, and a slot ended [`SETTLE`] ago is folded back into one row a group, for the
//! dashboard's reads of past days. The fold changes no sum, so it may run at any time, on any
//! number of instances at once.

use time::OffsetDateTime;

use crate::store::Store;

/// How long after a slot ends its shards are folded: its payments' first steps (capture,
/// decline) are then behind them, and a fold does not contend with them for the rows.
pub const SETTLE: time::Duration = time::Duration::minutes(15);

/// Folds what is due at `now`; how many shard rows were folded (a failure is logged and left
/// to the next pass).
pub async fn fold(store: &dyn Store, now: OffsetDateTime) -> u64 {
    store
        .fold_rollup(now - SETTLE)
        .await
        .unwrap_or_else(|error| {
            tracing::error!(%error, "reconciler: cannot fold the dashboard rollup's shards");
            0
        })
}
