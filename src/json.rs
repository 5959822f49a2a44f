//! JSON request bodies as both servers read them (checkout-server's API and checkout-sandbox's
//! emulator): the [`Json`] extractor reads the body (413 when over the route's limit) and
//! parses it with `serde_path_to_error`, so a failure names the field at fault
//! (`card.expiry_month`). Each server maps a [`JsonRejection`] into its own error shape. Error
//! texts never quote the rejected value (it may be a card number): serde's messages go through
//! [`crate::card::scrub`].

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use crate::contract::ApiError;

/// A JSON request body of type `T`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

/// Why a body was not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonRejection {
    /// Longer than the route's body limit.
    #[error("the request body is too large")]
    TooLarge,
    /// The body could not be read (the connection broke).
    #[error("the request body could not be read")]
    Unreadable,
    /// Not JSON, or not the expected shape.
    #[error(transparent)]
    Invalid(#[from] InvalidJson),
}

/// A body that is not valid JSON (`field` is `None`) or does not fit the type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct InvalidJson {
    /// The field at fault as a dotted path (`card.number`), when there is one.
    pub field: Option<String>,
    /// What was wrong, the field first, no submitted value.
    pub message: String,
}

impl InvalidJson {
    /// True when the text is not JSON at all (rather than a field of the wrong shape).
    pub fn is_syntax(&self) -> bool {
        self.field.is_none()
    }
}

/// Answered as the contract's error shape (`invalid_json`, `invalid_field` naming the field,
/// `payload_too_large`), for a handler that takes the rejection as it is.
impl IntoResponse for JsonRejection {
    fn into_response(self) -> Response {
        let (status, code, field) = match &self {
            Self::TooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large", None),
            Self::Unreadable => (StatusCode::BAD_REQUEST, "invalid_body", None),
            Self::Invalid(invalid) if invalid.is_syntax() => {
                (StatusCode::BAD_REQUEST, "invalid_json", None)
            }
            Self::Invalid(invalid) => (
                StatusCode::BAD_REQUEST,
                "invalid_field",
                invalid.field.clone(),
            ),
        };
        let mut body = ApiError::new(code, self.to_string());
        body.error.field = field;
        (status, axum::Json(body)).into_response()
    }
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = JsonRejection;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = read_body(request, state).await?;
        Ok(Self(parse(&bytes)?))
    }
}

/// The body's bytes, [`JsonRejection::TooLarge`] over the route's limit.
pub async fn read_body<S: Send + Sync>(
    request: Request,
    state: &S,
) -> Result<Bytes, JsonRejection> {
    Bytes::from_request(request, state)
        .await
        .map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                JsonRejection::TooLarge
            } else {
                JsonRejection::Unreadable
            }
        })
}

/// `application/json` or any `application/*+json`, parameters ignored.
pub fn declares_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
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
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, InvalidJson> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(describe)?;
    deserializer.end().map_err(|error| InvalidJson {
        field: None,
        message: format!(
            "the body is not valid JSON: trailing data at line {} column {}",
            error.line(),
            error.column()
        ),
    })?;
    Ok(value)
}

fn describe(error: serde_path_to_error::Error<serde_json::Error>) -> InvalidJson {
    let path = error.path().to_string();
    let inner = error.inner();
    if !inner.is_data() {
        let what = if inner.is_eof() {
            "the body is not valid JSON: it ends before the value is complete"
        } else {
            "the body is not valid JSON"
        };
        return InvalidJson {
            field: None,
            message: format!("{what} (line {} column {})", inner.line(), inner.column()),
        };
    }
    let text = inner.to_string();
    let text = text.split(" at line ").next().unwrap_or_default();
    let (field, problem) = match missing_field(text) {
        Some(name) => (join(&path, name), format!("missing field `{name}`")),
        None => (path.clone(), crate::card::scrub(text)),
    };
    InvalidJson {
        message: format!("{field}: {problem}"),
        field: Some(field),
    }
}

/// `missing field `x`` → `x`.
fn missing_field(text: &str) -> Option<&str> {
    text.strip_prefix("missing field `")?.strip_suffix('`')
}

/// `path.name`, or `name` at the top level (serde_path_to_error writes the root as `.`).
fn join(path: &str, name: &str) -> String {
    if path == "." {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
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

    fn failure(json: &str) -> InvalidJson {
        parse::<Body>(json.as_bytes()).expect_err("invalid")
    }

    #[test]
    fn names_the_field_without_the_value() {
        let error =
            failure(r#"{"card": {"number": 4242424242424242, "expiry_month": "01"}, "amount": 1}"#);
        assert_eq!(error.field.as_deref(), Some("card.number"));
        assert!(error.message.contains("expected a string"), "{error}");
        assert!(!error.message.contains("4242"), "{error}");
        let error = failure(r#"{"card": {"number": "1"}, "amount": 1}"#);
        assert_eq!(error.field.as_deref(), Some("card.expiry_month"));
        assert!(
            error.message.contains("missing field `expiry_month`"),
            "{error}"
        );
        let error = failure(r#"{"card": {"number": "1", "expiry_month": "1"}, "amount": -5}"#);
        assert_eq!(error.field.as_deref(), Some("amount"));
        let error = failure(r#"{"card": {"number": "1", "expiry_month": "1"}}"#);
        assert_eq!(error.field.as_deref(), Some("amount"));
    }

    #[test]
    fn syntax_errors_have_no_field_and_a_position() {
        let error = failure(r#"{"card": "#);
        assert!(error.is_syntax());
        assert!(
            error.message.starts_with("the body is not valid JSON"),
            "{error}"
        );
        assert!(error.message.contains("line 1"), "{error}");
        let error = failure(r#"{"card": {"number": "1", "expiry_month": "1"}, "amount": 1} x"#);
        assert!(error.is_syntax());
    }

    #[test]
    fn content_types() {
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(CONTENT_TYPE, value.parse().expect("header value"));
            declares_json(&headers)
        };
        assert!(with("application/json"));
        assert!(with("Application/JSON; charset=utf-8"));
        assert!(with("application/merge-patch+json"));
        assert!(!with("text/plain"));
        assert!(!declares_json(&HeaderMap::new()));
    }
}
