//! Why the emulator's state could not be loaded or saved. Every message names the file and
//! says what to do; none quotes the file's contents.

use std::path::PathBuf;

/// A persistence failure.
#[derive(Debug, thiserror::Error)]
pub enum PersistError {
    /// The key file is unreadable, damaged or cannot be created.
    #[error("the gateway emulator's key file {file}: {reason}")]
    Key {
        /// The key file.
        file: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Another running emulator keeps its state in this file (it holds the key file's lock).
    #[error(
        "another running gateway emulator keeps its state in {file} (it holds a lock on \
         {key_file}); stop it, or give this one a file of its own"
    )]
    InUse {
        /// The state file.
        file: PathBuf,
        /// The locked key file.
        key_file: PathBuf,
    },
    /// The state file exists but cannot be read.
    #[error("cannot read the gateway emulator's state file {file}: {source}")]
    Read {
        /// The state file.
        file: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The state file does not open under the key, or its contents are not a valid state.
    #[error(
        "the gateway emulator's state file {file} cannot be loaded: {reason}. Starting without \
         it would forget every stored card, transaction and subscription the server's database \
         still refers to, so the emulator refuses to start. Restore the key file {key_file} \
         that sealed it, or move the state file aside (the emulator then starts empty)"
    )]
    Unreadable {
        /// The state file.
        file: PathBuf,
        /// The key file it was opened with.
        key_file: PathBuf,
        /// What is wrong (wrong key, damaged, not a state file).
        reason: String,
    },
    /// The state could not be written.
    #[error("cannot write the gateway emulator's state file {file}: {source}")]
    Write {
        /// The state file.
        file: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}
