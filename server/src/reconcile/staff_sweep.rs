//! Each reconciler pass also deletes the dashboard's dead sign-ins: staff sessions past their
//! absolute end or idle too long (the same limits as the dashboard's session check,
//! [`crate::config::SESSION_IDLE`]) and login challenges past their end. No page accepts
//! them any more, so this only keeps the tables from growing with every login; each table
//! loses at most [`SWEEP_BATCH`] rows a pass, so a backlog (a database from before the sweep)
//! goes in short statements, a pass every `RECONCILE_INTERVAL_SECONDS`.

use time::OffsetDateTime;

use crate::config::SESSION_IDLE;
use crate::store::Store;

/// Most rows of each table one pass deletes.
pub const SWEEP_BATCH: u32 = 1_000;

/// Rows one sweep deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Staff sessions.
    pub sessions: u64,
    /// Login challenges.
    pub challenges: u64,
}

/// Deletes what is dead at `now`; a failure is logged and left to the next pass.
pub async fn sweep(store: &dyn Store, now: OffsetDateTime) -> Swept {
    let sessions = store
        .delete_expired_staff_sessions(now, SESSION_IDLE, SWEEP_BATCH)
        .await
        .unwrap_or_else(|error| {
            tracing::error!(%error, "reconciler: cannot delete expired staff sessions");
            0
        });
    let challenges = store
        .delete_expired_login_challenges(now, SWEEP_BATCH)
        .await
        .unwrap_or_else(|error| {
            tracing::error!(%error, "reconciler: cannot delete expired login challenges");
            0
        });
    Swept {
        sessions,
        challenges,
    }
}
