//! `Idempotency-Key` on the pay call and on merchant POSTs.
//!
//! The first request with a key runs and its answer is stored; a later request with the same
//! key and the same body gets the stored answer (header `Idempotent-Replayed: true`) and
//! causes no second gateway call; the same key with a different body is a 409. A request that
//! arrives while the first is still running waits for its answer, so two concurrent identical
//! requests make one gateway call. Only successful answers are stored: an error (validation,
//! conflict, gateway trouble) releases the key, so a corrected retry runs again. The answer is
//! stored right after it is sent, so the write costs the client no time; a repeat arriving in
//! between waits for it like any repeat of a running request. A key whose first request was
//! cut off (the process died before storing its answer) is answered at once with 409
//! `idempotency_key_interrupted`: whether that request's work happened is for the client to
//! look up, never for a blind second run to guess.

use std::future::Future;
use std::time::Duration;

use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use time::OffsetDateTime;
use tokio::sync::oneshot;

use crate::payments::abandoned_after;
use crate::store::model::{IdempotencyBegin, IdempotencyKey, StoredResponse};
use crate::store::prelude::*;
use crate::web::ApiFailure;
use crate::web::AppState;

/// The request header.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
/// Set on a replayed answer.
pub const REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");
/// How often a waiting request looks for the first one's answer.
const POLL: Duration = Duration::from_millis(20);

/// A JSON answer that can be stored and replayed byte for byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// HTTP status.
    pub status: StatusCode,
    /// The JSON text.
    pub body: String,
}

impl Reply {
    /// `value` as JSON with `status`.
    pub fn json<T: Serialize>(status: StatusCode, value: &T) -> Result<Self, ApiFailure> {
        serde_json::to_string(value)
            .map(|body| Self { status, body })
            .map_err(|e| ApiFailure::Internal(format!("cannot serialise an answer: {e}")))
    }
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        (
            self.status,
            [(CONTENT_TYPE, HeaderValue::from_static("application/json"))],
            self.body,
        )
            .into_response()
    }
}

/// Runs `work` at most once per (`scope`, key, `digest`) when the request carries an
/// `Idempotency-Key`, and simply runs it otherwise.
///
/// The work runs on its own task, tracked in `state.tasks`: a client that disconnects
/// mid-request cannot cut a payment off between the gateway's answer and the store's record of
/// it, and neither can a shutdown, which waits for the task. The answer goes out as soon as it
/// is ready; the key's record (the stored answer, or the key released after an error) is
/// written right after, on the same task.
pub async fn run_idempotent<F, Fut>(
    state: &AppState,
    headers: &HeaderMap,
    scope: String,
    digest: BodyDigest,
    work: F,
) -> Response
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = Result<Reply, ApiFailure>> + Send + 'static,
{
    let raw = headers.get(IDEMPOTENCY_KEY).cloned();
    let (answer, answered) = oneshot::channel();
    let task_state = state.clone();
    state.tasks.spawn(async move {
        let (response, record) = run(&task_state, raw, scope, digest, work).await;
        // Unlike the answer, the record waits for nothing: a repeat that arrives before it is
        // written finds the key in progress and waits for it.
        let _ = answer.send(response);
        if let Some(record) = record {
            record.write(&task_state).await;
        }
    });
    answered.await.unwrap_or_else(|_| {
        ApiFailure::Internal("the request's task stopped before answering".into()).into_response()
    })
}

/// What the store keeps of a key once its request has run.
enum KeyRecord {
    /// A successful answer, replayed to repeats of the request.
    Answer(IdempotencyKey, StoredResponse),
    /// An error: the key is released, so a corrected retry runs again.
    Released(IdempotencyKey),
}

impl KeyRecord {
    async fn write(self, state: &AppState) {
        let (written, failure) = match &self {
            Self::Answer(key, stored) => (
                state.store.complete_idempotent(key, stored, now()).await,
                "could not store an idempotent answer",
            ),
            Self::Released(key) => (
                state.store.release_idempotent(key).await,
                "could not release an idempotency key",
            ),
        };
        if let Err(error) = written {
            tracing::error!(%error, "{failure}");
        }
    }
}

/// The answer for the request, and what to record for its key (none without a key, or when
/// the answer is a replay or a refusal of the key).
async fn run<F, Fut>(
    state: &AppState,
    raw: Option<HeaderValue>,
    scope: String,
    digest: BodyDigest,
    work: F,
) -> (Response, Option<KeyRecord>)
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Reply, ApiFailure>>,
{
    let Some(raw) = raw else {
        return (into_response(work().await), None);
    };
    let key = match raw
        .to_str()
        .map_err(|_| ())
        .and_then(|k| IdempotencyKey::new(scope, k).map_err(|_| ()))
    {
        Ok(key) => key,
        Err(()) => {
            let refusal = ApiFailure::invalid(
                "invalid_idempotency_key",
                "Idempotency-Key",
                "must be 1 to 255 visible ASCII characters",
            );
            return (refusal.into_response(), None);
        }
    };
    match claim(state, &key, &digest).await {
        Ok(Claimed::Run) => {}
        Ok(Claimed::Replay(stored)) => return (replay(stored), None),
        Err(failure) => return (failure.into_response(), None),
    }
    match work().await {
        Ok(reply) if reply.status.is_success() => {
            let stored = StoredResponse {
                status: reply.status.as_u16(),
                body: reply.body.clone(),
            };
            (reply.into_response(), Some(KeyRecord::Answer(key, stored)))
        }
        other => (into_response(other), Some(KeyRecord::Released(key))),
    }
}

enum Claimed {
    Run,
    Replay(StoredResponse),
}

/// Claims the key, waiting for a concurrent request with the same key to finish.
async fn claim(
    state: &AppState,
    key: &IdempotencyKey,
    digest: &BodyDigest,
) -> Result<Claimed, ApiFailure> {
    let deadline =
        tokio::time::Instant::now() + state.config.gateway.timeout + Duration::from_secs(5);
    loop {
        match state.store.begin_idempotent(key, digest, now()).await? {
            IdempotencyBegin::New => return Ok(Claimed::Run),
            IdempotencyBegin::Completed(stored) => return Ok(Claimed::Replay(stored)),
            IdempotencyBegin::Conflict => {
                return Err(ApiFailure::Conflict {
                    code: "idempotency_key_reused",
                    message: "this Idempotency-Key was used with a different request".into(),
                    field: Some("Idempotency-Key".into()),
                });
            }
            IdempotencyBegin::InProgress { since }
                if now() - since > abandoned_after(state.config.gateway.timeout) =>
            {
                return Err(ApiFailure::conflict(
                    "idempotency_key_interrupted",
                    "the request first sent with this Idempotency-Key was interrupted before it \
                     finished; look up the current state of what it changes, then retry with a \
                     new key",
                ));
            }
            IdempotencyBegin::InProgress { .. } if tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(POLL).await;
            }
            IdempotencyBegin::InProgress { .. } => {
                return Err(ApiFailure::conflict(
                    "idempotency_in_progress",
                    "a request with this Idempotency-Key is still being processed; retry later",
                ));
            }
        }
    }
}

fn replay(stored: StoredResponse) -> Response {
    let status = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
    let mut response = Reply {
        status,
        body: stored.body,
    }
    .into_response();
    response
        .headers_mut()
        .insert(REPLAYED, HeaderValue::from_static("true"));
    response
}

fn into_response(outcome: Result<Reply, ApiFailure>) -> Response {
    match outcome {
        Ok(reply) => reply.into_response(),
        Err(failure) => failure.into_response(),
    }
}

fn now() -> OffsetDateTime {
    OffsetDateTime::now_utc()
}
