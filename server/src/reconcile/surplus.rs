//! The surplus rule's leftovers: payments whose check or reversal is due because the process
//! that paid them died first, another operation held them, or the gateway refused or left the
//! reversal unknown ([`crate::payments::surplus`]). Taking a payment pushes its due time
//! forward, so another instance leaves it alone meanwhile; a crash makes it due again then.

use time::OffsetDateTime;
use tokio::task::JoinSet;

use super::{BATCH, PassReport, Reconciler, collect};
use crate::payments::surplus::SurplusOutcome;

/// How long a taken payment is left to the instance that took it.
const HOLD: time::Duration = time::Duration::minutes(5);

impl Reconciler {
    pub(super) async fn surplus_batch(&self, now: OffsetDateTime) -> PassReport {
        let taken = match self.state.store.take_due_surplus(now, HOLD, BATCH).await {
            Ok(taken) => taken,
            Err(error) => {
                tracing::error!(%error, "reconciler: cannot take due surplus work");
                return PassReport::default();
            }
        };
        let mut tasks = JoinSet::new();
        for payment in taken {
            let payments = self.state.payments.clone();
            tasks.spawn(async move {
                let outcome = payments.surplus_work(payment).await;
                PassReport {
                    surplus_reversed: usize::from(outcome == SurplusOutcome::Reversed),
                    failures: usize::from(outcome == SurplusOutcome::Failed),
                    ..PassReport::default()
                }
            });
        }
        collect(tasks).await
    }
}
