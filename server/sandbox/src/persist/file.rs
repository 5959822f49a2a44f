//! The state file on disk: read and opened at start, and written atomically (a private
//! temporary file beside it, synced, then renamed over it), so a crash mid-write leaves the
//! previous snapshot whole and no reader ever sees half a file. Mode 0600 on Unix.
//!
//! One running emulator per file: the emulator using it holds an advisory lock on the key file
//! (which, unlike the state file, is never replaced), so a second process on the same data
//! directory (two server instances on one PostgreSQL database, say) cannot overwrite its state.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use checkout_key_file::{create_private, temporary_beside};
use secrecy::zeroize::Zeroizing;

use super::error::PersistError;
use super::key::SnapshotKey;
use super::seal::{self, OpenFailure};

/// Where the state lives and the key that seals it.
#[derive(Debug, Clone)]
pub struct StateFile {
    path: PathBuf,
    key_file: PathBuf,
    key: SnapshotKey,
}

impl StateFile {
    /// The state file `path`, sealed with the key kept in `key_file` (created when missing).
    pub fn new(path: PathBuf, key_file: PathBuf) -> Result<Self, PersistError> {
        let key = SnapshotKey::load_or_create(&key_file)?;
        Ok(Self::with_key(path, key_file, key))
    }

    /// The state file `path`, sealed with the key kept beside it: the same name with the
    /// extension `.key` (`gateway-emulator.state` → `gateway-emulator.key`), created when
    /// missing. A `path` ending in `.key` is refused: it would be its own key file.
    pub fn at(path: PathBuf) -> Result<Self, PersistError> {
        let key_file = path.with_extension("key");
        if key_file == path {
            return Err(PersistError::Key {
                file: path,
                reason: "the state file cannot end in `.key`: that name is its key file's".into(),
            });
        }
        Self::new(path, key_file)
    }

    /// The state file `path` sealed with `key` (named `key_file` in error messages).
    pub fn with_key(path: PathBuf, key_file: PathBuf, key: SnapshotKey) -> Self {
        Self {
            path,
            key_file,
            key,
        }
    }

    /// The state file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Takes the lock that makes this emulator the file's only writer; it lasts as long as
    /// the returned handle is open. [`PersistError::InUse`] when another process holds it.
    pub fn lock(&self) -> Result<File, PersistError> {
        let key_file = File::open(&self.key_file).map_err(|error| PersistError::Key {
            file: self.key_file.clone(),
            reason: format!("cannot be opened: {error}"),
        })?;
        match key_file.try_lock() {
            Ok(()) => Ok(key_file),
            Err(std::fs::TryLockError::WouldBlock) => Err(PersistError::InUse {
                file: self.path.clone(),
                key_file: self.key_file.clone(),
            }),
            Err(std::fs::TryLockError::Error(error)) => Err(PersistError::Key {
                file: self.key_file.clone(),
                reason: format!("cannot be locked: {error}"),
            }),
        }
    }

    /// The decrypted contents, or `None` when there is no file yet.
    pub fn read(&self) -> Result<Option<Zeroizing<Vec<u8>>>, PersistError> {
        let sealed = match std::fs::read(&self.path) {
            Ok(sealed) => sealed,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(PersistError::Read {
                    file: self.path.clone(),
                    source,
                });
            }
        };
        seal::open(&self.key, &sealed).map(Some).map_err(|failure| {
            self.unreadable(match failure {
                OpenFailure::NotAStateFile => "it is not a gateway emulator state file",
                OpenFailure::WrongKeyOrDamaged => {
                    "it was sealed with another key, or it is damaged"
                }
            })
        })
    }

    /// The error for a file whose contents cannot be used.
    pub fn unreadable(&self, reason: &str) -> PersistError {
        PersistError::Unreadable {
            file: self.path.clone(),
            key_file: self.key_file.clone(),
            reason: reason.to_owned(),
        }
    }

    /// Seals `plain` and replaces the file with it atomically.
    pub fn write(&self, plain: &[u8]) -> Result<(), PersistError> {
        let sealed = seal::seal(&self.key, plain);
        let fail = |source| PersistError::Write {
            file: self.path.clone(),
            source,
        };
        if let Some(dir) = self.path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(fail)?;
        }
        let temporary = temporary_beside(&self.path);
        let written = create_private(&temporary).and_then(|mut out| {
            out.write_all(&sealed)?;
            out.sync_all()
        });
        let renamed = written.and_then(|()| std::fs::rename(&temporary, &self.path));
        if renamed.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        renamed.map_err(fail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state_file(dir: &Path) -> StateFile {
        StateFile::new(
            dir.join("gateway-emulator.state"),
            dir.join("gateway-emulator.key"),
        )
        .expect("key")
    }

    #[test]
    fn written_private_read_back_and_nothing_left_beside() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = state_file(dir.path());
        assert!(file.read().expect("no file yet").is_none());
        file.write(b"first").expect("written");
        file.write(b"second").expect("written again");
        assert_eq!(
            file.read().expect("read").expect("some").as_slice(),
            b"second"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(file.path())
                .expect("meta")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|entry| entry.expect("entry").file_name())
            .collect();
        assert_eq!(names.len(), 2, "state and key only: {names:?}");
    }

    #[test]
    fn a_file_sealed_under_another_key_is_refused_naming_both_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("gateway-emulator.state");
        let key_file = dir.path().join("gateway-emulator.key");
        StateFile::with_key(path.clone(), key_file.clone(), SnapshotKey::generate())
            .write(b"state")
            .expect("written");
        let error = state_file(dir.path()).read().expect_err("refused");
        let message = error.to_string();
        assert!(message.contains(&path.display().to_string()), "{message}");
        assert!(
            message.contains(&key_file.display().to_string()),
            "{message}"
        );
        assert!(message.contains("another key"), "{message}");
        assert!(message.contains("move the state file aside"), "{message}");
    }
}
