//! Why a frame answer is refused ([`FrameRefusal`]): a short plain-text page with the status,
//! readable inside any page's frame, so the shop's developer sees why.

use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

/// Why a frame document is refused.
#[derive(Debug, PartialEq, Eq)]
pub enum FrameRefusal {
    /// The body is not a form.
    Unreadable,
    /// `field` is too long, has control characters or an unknown value.
    Invalid(&'static str),
    /// The `Origin` header names another origin than the `origin` field.
    OriginMismatch,
    /// The origin is not in `ALLOWED_ORIGINS`.
    OriginNotAllowed(String),
    /// The browser says the document is not for a frame (`Sec-Fetch-Dest`).
    NotFramed,
    /// `COMPONENT_DIR` holds no built page.
    NotBuilt,
}

impl IntoResponse for FrameRefusal {
    fn into_response(self) -> Response {
        let (status, text) = match self {
            Self::Unreadable => (
                StatusCode::BAD_REQUEST,
                "The payment form was asked for without its options.".to_owned(),
            ),
            Self::Invalid(field) => (
                StatusCode::BAD_REQUEST,
                format!("The payment form's option `{field}` is not valid."),
            ),
            Self::OriginMismatch => (
                StatusCode::FORBIDDEN,
                "The payment form must be opened by the page's own loader (checkout.js)."
                    .to_owned(),
            ),
            Self::OriginNotAllowed(origin) => (
                StatusCode::FORBIDDEN,
                format!("{origin} may not embed this payment form: it is not in ALLOWED_ORIGINS."),
            ),
            Self::NotFramed => (
                StatusCode::FORBIDDEN,
                "This payment form opens only inside the shop's checkout page. Go back to the \
                 shop to pay."
                    .to_owned(),
            ),
            Self::NotBuilt => (
                StatusCode::SERVICE_UNAVAILABLE,
                "The payment form is not built on this server (see COMPONENT_DIR).".to_owned(),
            ),
        };
        tracing::warn!(status = status.as_u16(), reason = %text, "frame document refused");
        // Plain text, no script: it may show inside any page's frame so the shop's developer
        // reads why.
        (
            status,
            [
                (CONTENT_TYPE, "text/plain; charset=utf-8"),
                (CACHE_CONTROL, "no-store"),
                (
                    CONTENT_SECURITY_POLICY,
                    "default-src 'none'; frame-ancestors *",
                ),
            ],
            text,
        )
            .into_response()
    }
}
