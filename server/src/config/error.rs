//! The configuration layer's one error type. Every variant names the exact key (environment
//! variable or file key) at fault, and never repeats a secret's value.

use std::path::PathBuf;

/// Why the configuration cannot be used; start-up stops with this message.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The `--config` file could not be read.
    #[error("cannot read the config file {path}: {source}")]
    ReadFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The `--config` file is not valid TOML.
    #[error("the config file {path} is not valid TOML: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// The parser's message (line and column included).
        message: String,
    },
    /// A key holds a value that cannot be used.
    #[error("{key}: {reason}")]
    Invalid {
        /// The key and where it came from, e.g. `LISTEN (environment)`.
        key: String,
        /// What is wrong, without the value when it is a secret.
        reason: String,
    },
    /// A key that has no default in this setup was not given.
    #[error("{key} is required {when}")]
    Missing {
        /// The environment variable (or the file key in lower case).
        key: &'static str,
        /// The condition that makes it required.
        when: &'static str,
    },
}
