//! Writing the state back: a background task that saves the snapshot at most once per
//! interval (default one second) and only when something changed, and once more when the
//! keeper is finished or dropped (a graceful stop). Requests never wait for a write: they only
//! bump the [`ChangeCounter`](crate::changes::ChangeCounter).

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::task::JoinHandle;

use crate::persist::{PersistError, StateFile, StateSnapshot};
use crate::state::SandboxState;

/// Saves one emulator's state to its file while it runs; see the module header.
#[derive(Debug)]
pub struct StateKeeper {
    shared: Arc<Shared>,
    task: JoinHandle<()>,
    finished: bool,
    /// The file's lock ([`StateFile::lock`]), released once the last write is done.
    _lock: Option<std::fs::File>,
}

#[derive(Debug)]
struct Shared {
    state: SandboxState,
    file: StateFile,
    /// What the file holds: the version last written (the lock also orders the writes).
    written: Mutex<Version>,
}

/// Changes counted and the clock offset: when either moved, the file is behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Version {
    changes: u64,
    clock_offset: time::Duration,
}

impl StateKeeper {
    /// Starts saving `state` to `file` every `interval` when it changed. The state is taken
    /// as what the file holds already (it was just restored from it, or there is no file and
    /// nothing yet to write). Needs a tokio runtime.
    pub fn start(state: SandboxState, file: StateFile, interval: Duration) -> Self {
        let written = Mutex::new(version_of(&state));
        let shared = Arc::new(Shared {
            state,
            file,
            written,
        });
        let task = tokio::spawn(save_periodically(Arc::clone(&shared), interval));
        Self {
            shared,
            task,
            finished: false,
            _lock: None,
        }
    }

    /// The keeper `state`'s configuration asks for (`SandboxConfig::persistence`), if any; it
    /// takes over the file's lock and releases it when it is finished or dropped.
    pub fn for_state(state: &SandboxState) -> Option<Self> {
        let persistence = state.config.persistence.as_ref()?;
        let mut keeper = Self::start(
            state.clone(),
            persistence.file.clone(),
            persistence.interval,
        );
        keeper._lock = persistence.take_lock();
        Some(keeper)
    }

    /// Writes the snapshot now if it changed since the last write; `true` when written.
    pub fn save_now(&self) -> Result<bool, PersistError> {
        self.shared.save_if_changed()
    }

    /// Stops the background task and writes the last changes (the graceful stop).
    pub fn finish(mut self) -> Result<(), PersistError> {
        self.finished = true;
        self.task.abort();
        self.shared.save_if_changed().map(|_| ())
    }
}

impl Drop for StateKeeper {
    /// Without [`StateKeeper::finish`], still stops the task and writes the last changes,
    /// logging a failure (a drop cannot return it).
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        self.task.abort();
        if let Err(error) = self.shared.save_if_changed() {
            tracing::error!(%error, "the gateway emulator's last changes were not saved");
        }
    }
}

impl Shared {
    fn save_if_changed(&self) -> Result<bool, PersistError> {
        let mut written = self.written.lock().unwrap_or_else(PoisonError::into_inner);
        // Read before capturing: a change made during the capture is saved next time.
        let now = version_of(&self.state);
        if now == *written {
            return Ok(false);
        }
        let started = Instant::now();
        let snapshot = StateSnapshot::capture(&self.state);
        let bytes = snapshot.to_bytes().map_err(|error| PersistError::Write {
            file: self.file.path().to_path_buf(),
            source: std::io::Error::other(error),
        })?;
        self.file.write(&bytes)?;
        *written = now;
        tracing::debug!(
            transactions = snapshot.transactions.len(),
            bytes = bytes.len(),
            elapsed_us = started.elapsed().as_micros() as u64,
            "gateway emulator state saved"
        );
        Ok(true)
    }
}

fn version_of(state: &SandboxState) -> Version {
    Version {
        changes: state.changes.count(),
        clock_offset: state.clock.offset(),
    }
}

async fn save_periodically(shared: Arc<Shared>, interval: Duration) {
    let mut ticks = tokio::time::interval(interval);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let shared = Arc::clone(&shared);
        match tokio::task::spawn_blocking(move || shared.save_if_changed()).await {
            Ok(Ok(_)) => {}
            Ok(Err(error)) => tracing::error!(%error, "the gateway emulator's state was not saved"),
            Err(error) => tracing::error!(%error, "the gateway emulator's save task failed"),
        }
    }
}

#[cfg(test)]
mod round_trip_tests;
