//! The JSON body extractor: like `axum::Json`, but every failure is an [`ApiFailure`] in the
//! contract's error shape: 415 when the body is not declared JSON, 413 when it is too large,
//! and 400 naming the field (`card.expiry_month`) when it does not parse or fit the type.
//! Error messages never quote the rejected value (it may be a card number).

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::error::ApiFailure;
use crate::store::secret::BodyDigest;

/// A JSON request body of type `T` (as an extractor) or a JSON response (as a return value).
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

/// A JSON request body together with the digest of its raw bytes (for `Idempotency-Key`).
#[derive(Debug, Clone)]
pub struct JsonWithDigest<T> {
    /// The parsed body.
    pub value: T,
    /// SHA-256 of the bytes as received.
    pub digest: BodyDigest,
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = ApiFailure;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = json_bytes(req, state).await?;
        parse(&bytes).map(Json)
    }
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonWithDigest<T> {
    type Rejection = ApiFailure;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = json_bytes(req, state).await?;
        Ok(Self {
            value: parse(&bytes)?,
            digest: BodyDigest::of(&bytes),
        })
    }
}

/// An optional JSON request body: an empty body is `None` (no `Content-Type` needed); a
/// non-empty one must be JSON and parse as `T`. The digest covers the bytes as received.
#[derive(Debug, Clone)]
pub struct MaybeJson<T> {
    /// The parsed body, if one was sent.
    pub value: Option<T>,
    /// SHA-256 of the bytes as received (empty body included).
    pub digest: BodyDigest,
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for MaybeJson<T> {
    type Rejection = ApiFailure;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let declared = declares_json(&req);
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(body_rejection)?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self {
                value: None,
                digest: BodyDigest::of(&bytes),
            });
        }
        if !declared {
            return Err(ApiFailure::UnsupportedMediaType);
        }
        Ok(Self {
            value: Some(parse(&bytes)?),
            digest: BodyDigest::of(&bytes),
        })
    }
}

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

/// The body bytes of a request that declares a JSON content type.
async fn json_bytes<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiFailure> {
    if !declares_json(&req) {
        return Err(ApiFailure::UnsupportedMediaType);
    }
    Bytes::from_request(req, state)
        .await
        .map_err(body_rejection)
}

fn body_rejection(rejection: axum::extract::rejection::BytesRejection) -> ApiFailure {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiFailure::PayloadTooLarge
    } else {
        ApiFailure::BadRequest {
            code: "invalid_body",
            message: "the request body could not be read".into(),
            field: None,
        }
    }
}

/// `application/json` or any `application/*+json`, parameters ignored.
pub(super) fn declares_json(req: &Request) -> bool {
    let Some(value) = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// Parses `bytes` as `T`, naming the field at fault on failure.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiFailure> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(json_failure)?;
    deserializer.end().map_err(|e| ApiFailure::BadRequest {
        code: "invalid_json",
        message: format!(
            "the body is not valid JSON: trailing data at line {} column {}",
            e.line(),
            e.column()
        ),
        field: None,
    })?;
    Ok(value)
}

fn json_failure(error: serde_path_to_error::Error<serde_json::Error>) -> ApiFailure {
    let path = error.path().to_string();
    let inner = error.inner();
    if !inner.is_data() {
        return ApiFailure::BadRequest {
            code: "invalid_json",
            message: format!(
                "the body is not valid JSON (line {} column {})",
                inner.line(),
                inner.column()
            ),
            field: None,
        };
    }
    let text = inner.to_string();
    let text = text.split(" at line ").next().unwrap_or_default();
    let (field, message) = match missing_field(text) {
        Some(name) => (join(&path, name), format!("`{name}` is required")),
        None => ((path != ".").then(|| path.clone()), without_values(text)),
    };
    let message = match &field {
        Some(field) => format!("{field}: {message}"),
        None => message,
    };
    ApiFailure::BadRequest {
        code: "invalid_field",
        message,
        field,
    }
}

/// `missing field `x`` → `x`.
fn missing_field(text: &str) -> Option<&str> {
    text.strip_prefix("missing field `")?.strip_suffix('`')
}

fn join(path: &str, name: &str) -> Option<String> {
    Some(if path == "." {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    })
}

/// serde's messages quote the offending value (`invalid type: integer `4242…`, expected a
/// string`); keep only what was expected.
fn without_values(text: &str) -> String {
    for prefix in ["invalid type: ", "invalid value: ", "unknown variant "] {
        if let Some(rest) = text.strip_prefix(prefix) {
            let expected = rest
                .split_once(", expected ")
                .map_or("a different value", |(_, expected)| expected);
            let what = prefix.trim_end().trim_end_matches(':');
            return format!("{what}, expected {expected}");
        }
    }
    text.to_owned()
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Body {
        card: Card,
        amount: u64,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Card {
        number: String,
        expiry_month: String,
    }

    fn failure(json: &str) -> (Option<String>, String) {
        match parse::<Body>(json.as_bytes()) {
            Err(ApiFailure::BadRequest { field, message, .. }) => (field, message),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn names_the_field() {
        let (field, message) =
            failure(r#"{"card": {"number": 4242424242424242, "expiry_month": "01"}, "amount": 1}"#);
        assert_eq!(field.as_deref(), Some("card.number"));
        assert!(!message.contains("4242"), "{message}");
        let (field, _) = failure(r#"{"card": {"number": "1"}, "amount": 1}"#);
        assert_eq!(field.as_deref(), Some("card.expiry_month"));
        let (field, _) = failure(r#"{"card": {"number": "1", "expiry_month": "1"}, "amount": -5}"#);
        assert_eq!(field.as_deref(), Some("amount"));
        let (field, _) = failure(r#"{"card": {"number": "1", "expiry_month": "1"}}"#);
        assert_eq!(field.as_deref(), Some("amount"));
    }

    #[test]
    fn syntax_errors_have_no_field() {
        let (field, message) = failure(r#"{"card": "#);
        assert_eq!(field, None);
        assert!(
            message.starts_with("the body is not valid JSON"),
            "{message}"
        );
        let (field, _) =
            failure(r#"{"card": {"number": "1", "expiry_month": "1"}, "amount": 1} x"#);
        assert_eq!(field, None);
    }
}
