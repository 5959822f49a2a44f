//! The store layer's one error type.

use checkout::contract::PaymentState;

/// `Retry-After`, in seconds, of an answer refused because the database is unavailable
/// ([`StoreError::is_unavailable`]): a restart or failover takes a few seconds.
pub const UNAVAILABLE_RETRY_SECS: u32 = 2;

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
    Database(sqlx::Error),
    /// A payment of a payment link's session was refused by the link (migration 0038): the
    /// link is deactivated or expired, or its places are all held by other payers. Nothing
    /// was written.
    #[error("the payment link takes no more payments")]
    PaymentLinkUnavailable,
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
    /// A collection is at its limit: nothing more is added until something is removed.
    #[error("{what} are at their limit ({limit}): delete one first")]
    AtLimit {
        /// What is full, e.g. `webhook_endpoints`.
        what: &'static str,
        /// How many it may hold.
        limit: usize,
    },
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

/// The message the payment insert's trigger raises for a link that takes no more payments.
const LINK_UNAVAILABLE: &str = "payment_link_unavailable";

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> Self {
        match &error {
            sqlx::Error::Database(db) if db.message() == LINK_UNAVAILABLE => {
                Self::PaymentLinkUnavailable
            }
            _ => Self::Database(error),
        }
    }
}

impl StoreError {
    /// Whether the database could not be reached or is restarting (the connection failed or
    /// was cut, the pool found no connection in time, PostgreSQL shutting down or not yet
    /// accepting, SQLite busy): a retry shortly may pass, so callers answer 503, not 500.
    pub fn is_unavailable(&self) -> bool {
        let Self::Database(error) = self else {
            return false;
        };
        match error {
            sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::Protocol(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::WorkerCrashed => true,
            sqlx::Error::Database(db) => db.code().is_some_and(|code| unavailable_code(&code)),
            _ => false,
        }
    }

    /// Maps a unique-constraint violation to [`StoreError::Conflict`], anything else unchanged.
    pub(crate) fn on_unique(error: sqlx::Error, what: &'static str) -> Self {
        match &error {
            sqlx::Error::Database(db) if db.is_unique_violation() => Self::Conflict(what),
            _ => Self::Database(error),
        }
    }
}

/// A database error code that means "not now" rather than "never": SQLite's busy or locked
/// (primary codes 5 and 6, whatever the extended code), PostgreSQL's connection exceptions
/// (class 08), shutting down or starting up (57P01 to 57P03) and too many connections (53300).
fn unavailable_code(code: &str) -> bool {
    // A SQLSTATE has five characters (`08006`); SQLite's codes are at most four digits.
    if code.len() == 5 {
        return code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03" | "53300");
    }
    code.parse::<i32>()
        .is_ok_and(|sqlite| matches!(sqlite & 0xff, 5 | 6))
}

/// Result of a store operation.
pub type StoreResult<T> = Result<T, StoreError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_now_is_told_from_never() {
        assert!(StoreError::Database(sqlx::Error::PoolTimedOut).is_unavailable());
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert!(StoreError::Database(sqlx::Error::Io(refused)).is_unavailable());
        assert!(!StoreError::Database(sqlx::Error::RowNotFound).is_unavailable());
        assert!(!StoreError::Conflict("a payment").is_unavailable());
        for code in ["5", "517", "6", "08006", "08001", "57P01", "57P03", "53300"] {
            assert!(unavailable_code(code), "{code}");
        }
        for code in ["19", "2067", "23505", "42P01", "40001"] {
            assert!(!unavailable_code(code), "{code}");
        }
    }
}
