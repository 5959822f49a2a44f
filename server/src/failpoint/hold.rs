//! Hold points: places where a task pauses while a test holds it, so the test can act between
//! two steps of it (a subscription poll between its gateway read and its write, say) and then
//! let it go on. Off unless a test arms one: reaching a point costs one atomic load.
//!
//! A hold names its point and a key (the id of the record the task works on), so tests running
//! side by side in one process hold only their own task.
//!
//! | point | where | key |
//! |---|---|---|
//! | [`SUBSCRIPTION_POLL_BEFORE_WRITE`] | a subscription poll: the gateway answered, nothing is written yet | the server's subscription id |

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use tokio::sync::watch;

/// A subscription poll has the gateway's answer and has not written it.
pub const SUBSCRIPTION_POLL_BEFORE_WRITE: &str = "subscription_poll_before_write";

/// One armed hold: who it is for, and the two signals between the test and the task.
struct Armed {
    point: &'static str,
    key: String,
    reached: watch::Sender<bool>,
    released: watch::Receiver<bool>,
}

/// The armed holds of this process.
struct Holds {
    armed: Mutex<Vec<Armed>>,
    any: AtomicBool,
}

fn holds() -> &'static Holds {
    static HOLDS: OnceLock<Holds> = OnceLock::new();
    HOLDS.get_or_init(|| Holds {
        armed: Mutex::new(Vec::new()),
        any: AtomicBool::new(false),
    })
}

/// A test's end of an armed hold. Dropping it releases the task (if it is held) and disarms
/// the point (if it was never reached).
pub struct Hold {
    reached: watch::Receiver<bool>,
    release: watch::Sender<bool>,
}

/// Arms `point` for the next task that reaches it with `key`.
pub fn hold(point: &'static str, key: &str) -> Hold {
    let (reached_tx, reached_rx) = watch::channel(false);
    let (release_tx, release_rx) = watch::channel(false);
    let holds = holds();
    let mut armed = holds.armed.lock().unwrap_or_else(PoisonError::into_inner);
    armed.push(Armed {
        point,
        key: key.to_owned(),
        reached: reached_tx,
        released: release_rx,
    });
    holds.any.store(true, Ordering::Release);
    Hold {
        reached: reached_rx,
        release: release_tx,
    }
}

impl Hold {
    /// Waits until a task is held at the point.
    pub async fn reached(&mut self) {
        // The sender lives in the armed entry, then with the held task: it is never dropped
        // before the value turns true, so an error cannot happen while the hold is armed.
        let _ = self.reached.wait_for(|reached| *reached).await;
    }

    /// Lets the held task go on.
    pub fn release(self) {
        drop(self);
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        let _ = self.release.send(true);
        // A hold never reached is disarmed: its entry is the one now released.
        let holds = holds();
        let mut armed = holds.armed.lock().unwrap_or_else(PoisonError::into_inner);
        armed.retain(|entry| !*entry.released.borrow());
        holds.any.store(!armed.is_empty(), Ordering::Release);
    }
}

/// Called by the task at `point` for the record `key`: waits there while a test holds it.
pub async fn hold_point(point: &'static str, key: &str) {
    let holds = holds();
    if !holds.any.load(Ordering::Acquire) {
        return;
    }
    let taken = {
        let mut armed = holds.armed.lock().unwrap_or_else(PoisonError::into_inner);
        let found = armed
            .iter()
            .position(|entry| entry.point == point && entry.key == key);
        let taken = found.map(|index| armed.swap_remove(index));
        holds.any.store(!armed.is_empty(), Ordering::Release);
        taken
    };
    let Some(mut entry) = taken else { return };
    tracing::warn!(
        point,
        key,
        "hold point reached: waiting for the test to release it"
    );
    let _ = entry.reached.send(true);
    // A dropped `Hold` counts as a release.
    let _ = entry.released.wait_for(|released| *released).await;
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn a_task_waits_at_its_point_until_released_and_others_pass() {
        let mut held = hold("test_point", "key-1");
        // Another key and another point pass at once.
        hold_point("test_point", "key-2").await;
        hold_point("other_point", "key-1").await;
        let task = tokio::spawn(hold_point("test_point", "key-1"));
        held.reached().await;
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!task.is_finished(), "held");
        held.release();
        task.await.expect("released");
        // Used once: the next task passes.
        hold_point("test_point", "key-1").await;
        // A hold dropped unreached is disarmed.
        drop(hold("test_point", "key-3"));
        hold_point("test_point", "key-3").await;
    }
}
