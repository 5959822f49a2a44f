//! Idempotency records: a client's `Idempotency-Key` remembered with the request's digest and,
//! once done, the response, so a retry gets the same answer and causes no second gateway call.

use time::OffsetDateTime;

use crate::store::error::{StoreError, StoreResult};

/// Longest accepted `Idempotency-Key`.
pub const MAX_KEY_CHARS: usize = 255;

/// A key within its scope (e.g. `merchant` or `pay:<session id>`): the same key in two scopes
/// names two different operations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IdempotencyKey {
    scope: String,
    key: String,
}

impl IdempotencyKey {
    /// Checks the key is 1–255 visible ASCII characters (what an HTTP header can carry).
    pub fn new(scope: impl Into<String>, key: &str) -> StoreResult<Self> {
        let visible = key.bytes().all(|b| b.is_ascii_graphic());
        if key.is_empty() || key.len() > MAX_KEY_CHARS || !visible {
            return Err(StoreError::Invalid {
                field: "Idempotency-Key",
                reason: "must be 1 to 255 visible ASCII characters",
            });
        }
        Ok(Self {
            scope: scope.into(),
            key: key.to_owned(),
        })
    }

    /// The scope.
    pub fn scope(&self) -> &str {
        &self.scope
    }

    /// The client's key.
    pub fn key(&self) -> &str {
        &self.key
    }
}

/// A response kept for replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredResponse {
    /// HTTP status.
    pub status: u16,
    /// The JSON body as sent.
    pub body: String,
}

/// What [`begin_idempotent`](crate::store::IdempotencyStore::begin_idempotent) found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IdempotencyBegin {
    /// First use of the key: this caller does the work, then completes or releases it.
    New,
    /// Another request with the same key and body is being processed right now.
    InProgress {
        /// When that request began.
        since: OffsetDateTime,
    },
    /// Done before: answer with this.
    Completed(StoredResponse),
    /// The key was used with a different body (→ 409).
    Conflict,
}
