//! The bound on password hashing. An argon2 verification holds 19 MiB and tens of
//! milliseconds of CPU on a blocking thread, and anyone can ask for one (`POST /login`, also
//! for an unknown e-mail), so only a few run at once: each needs one of the gate's permits.
//! A few requests more may wait in line for a permit, each for a short while; the rest are
//! told at once to come back later (429 with `Retry-After`). The numbers are in [`limits`](super::limits).
//!
//! A [`HashPermit`] is owned: it moves into the blocking task with the hash and is released
//! when the hash is done, even if the request that asked for it is gone by then. It lends the
//! hash its argon2 work area ([`work_areas`](super::work_areas)), so hashing holds no more memory
//! than the permits' areas.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::work_areas::{WorkArea, WorkAreas};

/// What a refused request is told to wait.
pub const COME_BACK_AFTER: Duration = Duration::from_secs(1);

/// Hashing permits and the short queue before them.
#[derive(Debug)]
pub struct HashGate {
    running: Arc<Semaphore>,
    admitted: Arc<Semaphore>,
    longest_wait: Duration,
    permits: usize,
    counts: Arc<Counts>,
    areas: Arc<WorkAreas>,
}

/// Hashes running now and the most ever at once (what the tests and the bench read).
#[derive(Debug, Default)]
struct Counts {
    now: AtomicUsize,
    most: AtomicUsize,
}

/// The right to run one hash; released when dropped.
///
/// Fields drop in order: the work area goes back to the pool before the permit is released,
/// so the waiter the permit goes to finds it there. The other way round a waiter could take
/// the permit, find no free area and make another 19 MiB one, which the pool keeps for good.
#[derive(Debug)]
pub struct HashPermit {
    area: WorkArea,
    _running: OwnedSemaphorePermit,
    _admitted: OwnedSemaphorePermit,
    counts: Arc<Counts>,
}

impl HashGate {
    /// A gate of `permits` hashes at once and `waiting` more requests in line for them, each
    /// waiting at most `longest_wait`.
    pub fn new(permits: usize, waiting: usize, longest_wait: Duration) -> Self {
        Self {
            running: Arc::new(Semaphore::new(permits)),
            admitted: Arc::new(Semaphore::new(permits.saturating_add(waiting))),
            longest_wait,
            permits,
            counts: Arc::default(),
            areas: Arc::default(),
        }
    }

    /// A permit, after a short wait at most; or how long to wait before asking again when
    /// the line is full or the wait ran out.
    pub async fn enter(&self) -> Result<HashPermit, Duration> {
        let admitted = Arc::clone(&self.admitted)
            .try_acquire_owned()
            .map_err(|_| COME_BACK_AFTER)?;
        let running = Arc::clone(&self.running).acquire_owned();
        match tokio::time::timeout(self.longest_wait, running).await {
            Ok(Ok(running)) => Ok(HashPermit {
                area: self.areas.lend(),
                _running: running,
                _admitted: admitted,
                counts: Arc::clone(&self.counts),
            }),
            // The semaphore is never closed; a wait that ran out is the usual refusal.
            Ok(Err(_)) | Err(_) => Err(COME_BACK_AFTER),
        }
    }

    /// Hashes allowed at once.
    pub fn permits(&self) -> usize {
        self.permits
    }

    /// The most hashes that ever ran at once under this gate.
    pub fn most_at_once(&self) -> usize {
        self.counts.most.load(Ordering::Relaxed)
    }
}

impl HashPermit {
    /// Runs `hash` with this permit's work area (on the blocking thread that holds the
    /// permit), counted as running.
    pub fn run<T>(mut self, hash: impl FnOnce(&mut WorkArea) -> T) -> T {
        let now = self.counts.now.fetch_add(1, Ordering::Relaxed) + 1;
        self.counts.most.fetch_max(now, Ordering::Relaxed);
        let result = hash(&mut self.area);
        self.counts.now.fetch_sub(1, Ordering::Relaxed);
        result
    }
}

#[cfg(test)]
mod tests {
    use std::pin::pin;
    use std::sync::Mutex;
    use std::task::{Context, Poll, Wake, Waker};

    use super::*;

    /// A waiter that takes its area the instant it is woken (as one on another thread can,
    /// while the permit that woke it is still being dropped).
    struct LendOnWake {
        areas: Arc<WorkAreas>,
        lent: Mutex<Vec<WorkArea>>,
    }

    impl Wake for LendOnWake {
        fn wake(self: Arc<Self>) {
            self.wake_by_ref();
        }

        fn wake_by_ref(self: &Arc<Self>) {
            let area = self.areas.lend();
            self.lent.lock().expect("lent").push(area);
        }
    }

    #[tokio::test]
    async fn a_released_permit_leaves_its_area_to_the_next_hash() {
        let gate = HashGate::new(1, 1, Duration::from_secs(60));
        let first = gate.enter().await.expect("a free permit");
        let waiter = Arc::new(LendOnWake {
            areas: Arc::clone(&gate.areas),
            lent: Mutex::default(),
        });
        let waker = Waker::from(Arc::clone(&waiter));
        let mut second = pin!(gate.enter());
        let polled = second.as_mut().poll(&mut Context::from_waker(&waker));
        assert!(polled.is_pending(), "the one permit is taken");
        first.run(|area| area.blocks(1).len());
        assert_eq!(waiter.lent.lock().expect("lent").len(), 1, "woken once");
        assert!(
            gate.areas.made() <= gate.permits(),
            "{} areas for {} permit",
            gate.areas.made(),
            gate.permits()
        );
        assert!(matches!(
            second.as_mut().poll(&mut Context::from_waker(&waker)),
            Poll::Ready(Ok(_))
        ));
    }

    #[tokio::test]
    async fn the_line_is_short_and_the_wait_bounded() {
        let gate = HashGate::new(1, 1, Duration::from_millis(50));
        let first = gate.enter().await.expect("a free permit");
        let started = std::time::Instant::now();
        assert_eq!(gate.enter().await.err(), Some(COME_BACK_AFTER));
        assert!(started.elapsed() >= Duration::from_millis(50), "it waited");
        drop(first);
        let again = gate.enter().await.expect("released");
        assert_eq!(again.run(|_| 7), 7);
        assert_eq!(gate.most_at_once(), 1);
    }

    #[tokio::test]
    async fn a_full_line_is_refused_at_once() {
        let gate = HashGate::new(1, 0, Duration::from_secs(60));
        let _held = gate.enter().await.expect("a free permit");
        let started = std::time::Instant::now();
        assert_eq!(gate.enter().await.err(), Some(COME_BACK_AFTER));
        assert!(started.elapsed() < Duration::from_secs(1), "no wait");
    }
}
