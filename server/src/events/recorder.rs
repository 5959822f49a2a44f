//! Records finished attempts in batches: the sends hand their attempt to one task, which
//! writes as many as are waiting (up to [`RECORD_BATCH`]) in one transaction, so a busy
//! worker commits once per batch, not once per delivery.

use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};

use crate::store::Store;
use crate::store::model::FinishedAttempt;

/// Most attempts recorded in one transaction.
pub const RECORD_BATCH: usize = 64;

/// An attempt to record, and where to say whether it was.
pub(super) type Recording = (FinishedAttempt, oneshot::Sender<Result<bool, String>>);

/// Records the attempts sent to it, as many at a time as are waiting (up to
/// [`RECORD_BATCH`]) in one transaction: one commit, not one per delivery. Ends when every
/// sender is gone.
pub(super) async fn record_batches(
    store: Arc<dyn Store>,
    owner: String,
    mut waiting: mpsc::UnboundedReceiver<Recording>,
) {
    let mut batch = Vec::with_capacity(RECORD_BATCH);
    while waiting.recv_many(&mut batch, RECORD_BATCH).await > 0 {
        let (attempts, replies): (Vec<_>, Vec<_>) = batch.drain(..).unzip();
        match store.finish_deliveries(&owner, attempts).await {
            Ok(recorded) => {
                let recorded = recorded.into_iter().chain(std::iter::repeat(false));
                for (reply, held) in replies.into_iter().zip(recorded) {
                    let _ = reply.send(Ok(held));
                }
            }
            Err(error) => {
                let error = error.to_string();
                for reply in replies {
                    let _ = reply.send(Err(error.clone()));
                }
            }
        }
    }
}
