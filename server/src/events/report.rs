//! What a delivery pass did ([`PassReport`]): counted per send and added up per pass.

use tokio::task::JoinError;

/// What one pass did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PassReport {
    /// Events fanned out.
    pub fanned_out: u64,
    /// Deliveries claimed and sent.
    pub claimed: usize,
    /// Delivered (2xx).
    pub delivered: usize,
    /// Failed, to be tried again.
    pub retried: usize,
    /// Failed for the last time.
    pub failed: usize,
    /// Endpoints disabled after failing for days.
    pub disabled: usize,
    /// Attempts not recorded (the lease was lost, or the store failed): tried again later.
    pub unrecorded: usize,
    /// Events pruned.
    pub pruned: u64,
    /// Whether a claim or the fan-out came back full: more is likely due at once.
    pub full: bool,
    /// Whether endpoints this worker sends to as much as it may were left out of the claim.
    pub held_back: bool,
}

impl PassReport {
    /// Adds `other` to this report.
    pub(super) fn add(&mut self, other: &PassReport) {
        self.fanned_out += other.fanned_out;
        self.claimed += other.claimed;
        self.delivered += other.delivered;
        self.retried += other.retried;
        self.failed += other.failed;
        self.disabled += other.disabled;
        self.unrecorded += other.unrecorded;
        self.pruned += other.pruned;
        self.full |= other.full;
        self.held_back |= other.held_back;
    }
}

/// The report of a send's task; a task that panicked or was aborted counts as unrecorded.
pub(super) fn joined_report(joined: Result<PassReport, JoinError>) -> PassReport {
    match joined {
        Ok(report) => report,
        Err(error) => {
            tracing::error!(%error, "event delivery task failed");
            PassReport {
                unrecorded: 1,
                ..PassReport::default()
            }
        }
    }
}
