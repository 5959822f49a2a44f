//! The JSON body extractor of the emulator: malformed JSON and wrong field types become a 400
//! failure body naming the field, oversized bodies a 413, never axum's plain-text rejections.
//! Error texts never repeat submitted values (they may be card data).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;
use serde_json::error::Category;

use super::error::SandboxError;
use super::state::SandboxState;

/// A JSON request body of type `T`.
#[derive(Debug, Clone)]
pub struct WireJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<SandboxState> for WireJson<T> {
    type Rejection = SandboxError;

    async fn from_request(request: Request, state: &SandboxState) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| body_error(&rejection, state.config.body_limit))?;
        parse(&bytes).map(WireJson)
    }
}

/// Parses `bytes` as `T`, describing a failure by field path without values.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, SandboxError> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value =
        serde_path_to_error::deserialize(&mut deserializer).map_err(|error| describe(&error))?;
    deserializer.end().map_err(|error| syntax(&error))?;
    Ok(value)
}

fn body_error(rejection: &BytesRejection, limit: usize) -> SandboxError {
    let too_large = rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE;
    if too_large {
        SandboxError::BodyTooLarge { limit }
    } else {
        SandboxError::MalformedBody("the request body could not be read".to_owned())
    }
}

fn describe(error: &serde_path_to_error::Error<serde_json::Error>) -> SandboxError {
    let inner = error.inner();
    match inner.classify() {
        Category::Data => {
            let path = error.path().to_string();
            let problem = data_problem(inner);
            if path == "." {
                SandboxError::MalformedBody(problem)
            } else {
                SandboxError::MalformedBody(format!("`{path}`: {problem}"))
            }
        }
        Category::Syntax | Category::Eof | Category::Io => syntax(inner),
    }
}

fn syntax(error: &serde_json::Error) -> SandboxError {
    if error.classify() == Category::Data {
        return SandboxError::MalformedBody(data_problem(error));
    }
    let what = match error.classify() {
        Category::Eof => "the body ends before the JSON value is complete",
        _ => "the body is not valid JSON",
    };
    SandboxError::MalformedBody(format!(
        "{what} (line {}, column {})",
        error.line(),
        error.column()
    ))
}

/// The problem without the submitted value: "invalid type, expected a string",
/// "missing field `amount`". serde quotes offending values in backticks or as `string "..."`,
/// so only the parts that come from our own types are kept.
fn data_problem(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let text = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(message, _)| message);
    if text.starts_with("missing field") {
        return text.to_owned();
    }
    for kind in [
        "invalid type",
        "invalid value",
        "invalid length",
        "unknown variant",
        "unknown field",
    ] {
        if text.starts_with(kind) {
            return match text.split_once(", expected ") {
                Some((_, expected)) => format!("{kind}, expected {}", mask_digit_runs(expected)),
                None => kind.to_owned(),
            };
        }
    }
    mask_digit_runs(text)
}

/// Replaces runs of nine or more digits with `*`s, in case a custom error quoted a number.
pub fn mask_digit_runs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.len() >= 9 {
            out.extend(std::iter::repeat_n('*', run.len()));
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for ch in text.chars() {
        if ch.is_ascii_digit() {
            run.push(ch);
        } else {
            flush(&mut run, &mut out);
            out.push(ch);
        }
    }
    flush(&mut run, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Body {
        amount: String,
        card: Card,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Card {
        number: String,
    }

    fn message(json: &str) -> String {
        parse::<Body>(json.as_bytes())
            .expect_err("invalid")
            .to_string()
    }

    #[test]
    fn names_the_field_without_the_value() {
        let text = message(r#"{"amount":"1","card":{"number":4242424242424242}}"#);
        assert!(text.contains("card.number"), "{text}");
        assert!(text.contains("expected a string"), "{text}");
        assert!(!text.contains("4242"), "{text}");
    }

    #[test]
    fn names_missing_fields() {
        let text = message(r#"{"card":{"number":"1"}}"#);
        assert!(text.contains("missing field `amount`"), "{text}");
    }

    #[test]
    fn reports_syntax_errors_with_position() {
        let text = message(r#"{"amount": "1", "#);
        assert!(text.contains("line 1"), "{text}");
        let trailing = message(r#"{"amount":"1","card":{"number":"1"}} x"#);
        assert!(trailing.contains("not valid JSON"), "{trailing}");
    }

    #[test]
    fn masks_long_digit_runs() {
        assert_eq!(
            mask_digit_runs("a 4242424242424242 b 12"),
            "a **************** b 12"
        );
    }
}
