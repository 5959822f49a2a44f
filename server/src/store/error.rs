//! The store layer's one error type.

use checkout::contract::PaymentState;

/// What can go wrong in the store. Messages never carry stored values, only names.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// `DATABASE_URL` is neither a SQLite path/URL nor a `postgres://` URL, or does not parse.
    #[error("DATABASE_URL is not usable: {0}")]
    InvalidUrl(String),
    /// Creating the SQLite file's directory failed.
    #[error("cannot create the database directory {path}: {source}")]
    CreateDir {
        /// The directory.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The database refused or failed a query (connection lost, constraint, ...).
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// Applying the schema migrations failed.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A value handed to the store breaks a rule of its record.
    #[error("{field} is invalid: {reason}")]
    Invalid {
        /// The record field.
        field: &'static str,
        /// The rule it breaks.
        reason: &'static str,
    },
    /// No record with that id.
    #[error("no {0} with that id")]
    NotFound(&'static str),
    /// The caller asked for a step the payment state machine forbids.
    #[error("a payment cannot move from {from:?} to {to:?}")]
    IllegalTransition {
        /// Expected current state.
        from: PaymentState,
        /// Requested state.
        to: PaymentState,
    },
    /// A uniqueness rule refused the write (e.g. a gateway transaction id already recorded on
    /// another payment).
    #[error("conflicts with a stored record: {0}")]
    Conflict(&'static str),
    /// A stored column holds a value this version cannot read.
    #[error("stored {0} holds an unreadable value")]
    Corrupt(&'static str),
    /// A sealed secret does not open (or cannot be sealed) with the configured keys.
    #[error("stored {column} {source}")]
    Sealed {
        /// The column, e.g. `webhook_endpoints.secret`.
        column: &'static str,
        /// Why.
        source: super::sealed::SealError,
    },
}

impl StoreError {
    /// Maps a unique-constraint violation to [`StoreError::Conflict`], anything else unchanged.
    pub(crate) fn on_unique(error: sqlx::Error, what: &'static str) -> Self {
        match &error {
            sqlx::Error::Database(db) if db.is_unique_violation() => Self::Conflict(what),
            _ => Self::Database(error),
        }
    }
}

/// Result of a store operation.
pub type StoreResult<T> = Result<T, StoreError>;
