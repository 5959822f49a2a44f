//! Keeping the emulator's state across restarts, so a restarted demo behaves like a real
//! gateway that kept its records: the stored cards the server still offers, the transactions
//! its payments name, the subscriptions it bills, the clock's offset ([`snapshot`]).
//!
//! Off unless configured ([`Persistence`] in `SandboxConfig::persistence`): checkout-server's
//! `serve` turns it on for its in-process emulator (`gateway-emulator.state` in the data
//! directory), `checkout-server sandbox --state FILE` for the standalone one; tests and
//! benchmarks pay nothing for it.
//!
//! The snapshot holds full card numbers (the token vault), so it is only ever written sealed
//! with AES-256-GCM ([`seal`]) under a key kept in a file of its own ([`key`]), atomically and
//! private ([`file`]). Requests only count changes (`crate::changes`); a background task writes
//! at most once a second and once more at shutdown (`crate::keeper`). A file that cannot be opened
//! stops the start with an error naming it ([`PersistError::Unreadable`]), never silently
//! starting empty.

pub mod error;
pub mod file;
pub mod key;
pub mod seal;
pub mod snapshot;

use std::fs::File;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

pub use error::PersistError;
pub use file::StateFile;
pub use key::SnapshotKey;
pub use snapshot::StateSnapshot;

/// The file name checkout-server gives the state in its data directory.
pub const STATE_FILE_NAME: &str = "gateway-emulator.state";
/// The file name of the key sealing it, beside it.
pub const KEY_FILE_NAME: &str = "gateway-emulator.key";
/// How often, at most, the state is written.
pub const SAVE_INTERVAL: Duration = Duration::from_secs(1);

/// A configured state file and what it held at start.
#[derive(Debug, Clone)]
pub struct Persistence {
    /// Where the state is written.
    pub file: StateFile,
    /// The longest a change waits before it is written ([`SAVE_INTERVAL`]).
    pub interval: Duration,
    /// The state read at start; `None` when there was no file.
    pub restored: Option<Arc<StateSnapshot>>,
    /// The lock taken at [`Persistence::open`], until the `StateKeeper` (`crate::keeper`) takes it
    /// over.
    lock: Arc<Mutex<Option<File>>>,
}

impl Persistence {
    /// Opens `file`: takes its lock ([`PersistError::InUse`] when another running emulator
    /// holds it), then reads and checks the state it holds now, so that a wrong key or a
    /// damaged file stops the start here with an error naming the file.
    pub fn open(file: StateFile) -> Result<Self, PersistError> {
        let lock = file.lock()?;
        let restored = match file.read()? {
            Some(plain) => Some(Arc::new(
                StateSnapshot::from_bytes(&plain).map_err(|reason| file.unreadable(&reason))?,
            )),
            None => None,
        };
        Ok(Self {
            file,
            interval: SAVE_INTERVAL,
            restored,
            lock: Arc::new(Mutex::new(Some(lock))),
        })
    }

    /// The file's lock, for the keeper that writes it (once; `None` afterwards).
    pub(crate) fn take_lock(&self) -> Option<File> {
        self.lock
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}
