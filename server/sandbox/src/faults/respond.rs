//! The answers a spoiling fault produces: an injected 5xx, a body that is not JSON, and a
//! body cut short under a `Content-Length` that promises more.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body::Frame;

use super::spec::{Fault, Stage};
use crate::error::SandboxError;

/// Largest real response body read back for spoiling (responses are a few KiB).
const MAX_SPOILED_BODY: usize = 1024 * 1024;

/// The stage of a fault that spoils an answer; `None` for latency and webhook faults.
pub fn spoiling_stage(fault: &Fault) -> Option<Stage> {
    match fault {
        Fault::ServerError { stage, .. } | Fault::Malformed(stage) | Fault::Truncated(stage) => {
            Some(*stage)
        }
        Fault::Latency(_)
        | Fault::SlowAnswer(_)
        | Fault::DropWebhook
        | Fault::DuplicateWebhook
        | Fault::RefuseFraming => None,
    }
}

/// The answer to a call failed before processing: nothing was recorded.
pub fn before_processing(fault: &Fault) -> Response {
    match fault {
        Fault::ServerError { status, .. } => injected(*status, Stage::Before).into_response(),
        Fault::Malformed(_) => {
            let body = failure_bytes(StatusCode::INTERNAL_SERVER_ERROR, Stage::Before);
            malformed(StatusCode::INTERNAL_SERVER_ERROR, &body)
        }
        Fault::Truncated(_) => {
            let body = failure_bytes(StatusCode::INTERNAL_SERVER_ERROR, Stage::Before);
            truncated(StatusCode::INTERNAL_SERVER_ERROR, body)
        }
        Fault::Latency(_)
        | Fault::SlowAnswer(_)
        | Fault::DropWebhook
        | Fault::DuplicateWebhook
        | Fault::RefuseFraming => SandboxError::Internal.into_response(),
    }
}

/// Spoils the real answer of a call that was processed.
pub async fn after_processing(fault: &Fault, response: Response) -> Response {
    match fault {
        Fault::ServerError { status, .. } => injected(*status, Stage::After).into_response(),
        Fault::Malformed(_) | Fault::Truncated(_) => {
            let status = response.status();
            let body = match axum::body::to_bytes(response.into_body(), MAX_SPOILED_BODY).await {
                Ok(body) => body,
                Err(error) => {
                    tracing::error!(%error, "could not read a response back to spoil it");
                    return SandboxError::Internal.into_response();
                }
            };
            if matches!(fault, Fault::Malformed(_)) {
                malformed(status, &body)
            } else {
                truncated(status, body)
            }
        }
        Fault::Latency(_)
        | Fault::SlowAnswer(_)
        | Fault::DropWebhook
        | Fault::DuplicateWebhook
        | Fault::RefuseFraming => response,
    }
}

fn injected(status: StatusCode, stage: Stage) -> SandboxError {
    let message = match stage {
        Stage::Before => "injected fault before processing: nothing was recorded",
        Stage::After => "injected fault after processing: the request was processed",
    };
    SandboxError::InjectedFault {
        status,
        message: message.to_owned(),
    }
}

fn failure_bytes(status: StatusCode, stage: Stage) -> Bytes {
    serde_json::to_vec(&injected(status, stage).body())
        .map(Bytes::from)
        .unwrap_or_default()
}

/// The first half of `body` followed by an HTML error fragment: never valid JSON, still
/// labelled `application/json` as a broken upstream would.
fn malformed(status: StatusCode, body: &[u8]) -> Response {
    let mut spoiled = body[..body.len() / 2].to_vec();
    spoiled.extend_from_slice(b"\n<html><body><h1>502 Bad Gateway</h1></body></html>\n");
    let mut response = (status, spoiled).into_response();
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// Declares `Content-Length` of the whole body, sends the first half, then fails the body so
/// the server closes the connection mid-message.
fn truncated(status: StatusCode, body: Bytes) -> Response {
    let full_length = body.len();
    let half = body.slice(..full_length / 2);
    let mut response = Response::new(Body::new(TruncatedBody::new(half)));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(CONTENT_LENGTH, HeaderValue::from(full_length));
    response
}

/// A body that yields one chunk, pauses so the server flushes the head and that chunk to the
/// client, then fails so hyper closes the connection short of the declared length.
struct TruncatedBody {
    half: Option<Bytes>,
    pause: Pin<Box<tokio::time::Sleep>>,
}

impl TruncatedBody {
    fn new(half: Bytes) -> Self {
        Self {
            half: Some(half),
            pause: Box::pin(tokio::time::sleep(FLUSH_PAUSE)),
        }
    }
}

/// Time given to the server to flush the partial answer before the connection is cut.
const FLUSH_PAUSE: std::time::Duration = std::time::Duration::from_millis(20);

impl http_body::Body for TruncatedBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        if let Some(half) = self.half.take() {
            return Poll::Ready(Some(Ok(Frame::data(half))));
        }
        match self.pause.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(()) => Poll::Ready(Some(Err(io::Error::new(
                io::ErrorKind::ConnectionAborted,
                "response truncated by fault injection",
            )))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn malformed_bodies_do_not_parse() {
        let response = before_processing(&Fault::Malformed(Stage::Before));
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("readable");
        assert!(serde_json::from_slice::<serde_json::Value>(&body).is_err());
    }

    #[tokio::test]
    async fn after_keeps_the_real_status_when_spoiling_the_body() {
        let real = (StatusCode::CREATED, r#"{"success":true,"status_code":201}"#).into_response();
        let response = after_processing(&Fault::Malformed(Stage::After), real).await;
        assert_eq!(response.status(), StatusCode::CREATED);
    }

    #[tokio::test]
    async fn injected_status_after_processing_says_so() {
        let real = (StatusCode::CREATED, "{}").into_response();
        let fault = Fault::ServerError {
            status: StatusCode::BAD_GATEWAY,
            stage: Stage::After,
        };
        let response = after_processing(&fault, real).await;
        assert_eq!(response.status(), StatusCode::BAD_GATEWAY);
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("readable");
        let json: serde_json::Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(json["gateway_response"]["code"], "ERR9000");
        assert_eq!(json["status_code"], 502);
    }

    #[tokio::test]
    async fn truncated_bodies_promise_more_than_they_send() {
        let response = before_processing(&Fault::Truncated(Stage::Before));
        let declared: usize = response.headers()[CONTENT_LENGTH]
            .to_str()
            .expect("ascii")
            .parse()
            .expect("number");
        assert!(declared > 0);
        assert!(
            axum::body::to_bytes(response.into_body(), 1 << 20)
                .await
                .is_err()
        );
    }
}
