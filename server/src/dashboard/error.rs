//! The dashboard's one error type and how each becomes a page: no session → 303 to the login
//! page; an admin who must enrol in two-factor sign-in → 303 to the account page; a refusal →
//! its status with a short page naming the reason (the field, for bad input); an internal
//! error → 500 with a generic page, its cause logged.

use std::time::Duration;

use axum::http::header::{LOCATION, RETRY_AFTER};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use maud::html;

use super::pages::layout::page;
use crate::events::endpoints::EndpointError;
use crate::store::StoreError;
use crate::store::error::UNAVAILABLE_RETRY_SECS;

/// What went wrong in a dashboard request.
#[derive(Debug, thiserror::Error)]
pub enum DashboardError {
    /// No live session: log in first.
    #[error("log in first")]
    Login,
    /// An admin without two-factor sign-in under `DASHBOARD_REQUIRE_2FA`: enrol first.
    #[error("set up two-factor sign-in first")]
    EnrolFirst,
    /// Authenticated, but not allowed (role, CSRF token, origin).
    #[error("forbidden: {0}")]
    Forbidden(&'static str),
    /// No such record.
    #[error("no such {0}")]
    NotFound(&'static str),
    /// Bad input, naming the field.
    #[error("{field}: {message}")]
    BadRequest {
        /// The form field or query parameter.
        field: String,
        /// What is wrong with it.
        message: String,
    },
    /// The service refused the action in the payment's current state.
    #[error("{0}")]
    Conflict(String),
    /// Too many attempts; retry after this long.
    #[error("too many attempts")]
    TooMany(Duration),
    /// The database cannot be reached just now (logged; 503, retry shortly).
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// A failure of ours (logged; the page says nothing of it).
    #[error("internal error: {0}")]
    Internal(String),
}

impl DashboardError {
    /// Bad input in `field`.
    pub fn bad(field: &str, message: impl Into<String>) -> Self {
        Self::BadRequest {
            field: field.to_owned(),
            message: message.into(),
        }
    }
}

impl From<StoreError> for DashboardError {
    fn from(error: StoreError) -> Self {
        if error.is_unavailable() {
            Self::Unavailable(error.to_string())
        } else {
            Self::Internal(error.to_string())
        }
    }
}

/// An endpoint service failure as a page: the field at fault, or what was not found.
impl From<EndpointError> for DashboardError {
    fn from(error: EndpointError) -> Self {
        match error {
            EndpointError::Invalid { field, message } => Self::bad(field, message),
            EndpointError::NotFound(what) => Self::NotFound(what),
            EndpointError::Store(error) => Self::from(error),
        }
    }
}

impl IntoResponse for DashboardError {
    fn into_response(self) -> Response {
        let (status, message) = match &self {
            Self::Login => {
                return (
                    StatusCode::SEE_OTHER,
                    [(LOCATION, HeaderValue::from_static("/login"))],
                )
                    .into_response();
            }
            Self::EnrolFirst => {
                return (
                    StatusCode::SEE_OTHER,
                    [(LOCATION, HeaderValue::from_static("/account"))],
                )
                    .into_response();
            }
            Self::Forbidden(why) => (StatusCode::FORBIDDEN, format!("Forbidden: {why}.")),
            Self::NotFound(what) => (StatusCode::NOT_FOUND, format!("No such {what}.")),
            Self::BadRequest { field, message } => {
                (StatusCode::BAD_REQUEST, format!("{field}: {message}"))
            }
            Self::Conflict(message) => (StatusCode::CONFLICT, message.clone()),
            Self::TooMany(_) => (
                StatusCode::TOO_MANY_REQUESTS,
                "Too many attempts; wait a minute and try again.".to_owned(),
            ),
            Self::Unavailable(cause) => {
                tracing::warn!(cause, "dashboard request failed on the database");
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    "The database cannot be reached just now; try again in a moment.".to_owned(),
                )
            }
            Self::Internal(cause) => {
                tracing::error!(cause, "dashboard request failed");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Something went wrong on our side; it has been logged.".to_owned(),
                )
            }
        };
        let body = page(
            status.canonical_reason().unwrap_or("Error"),
            None,
            html! {
                p role="alert" class="error" { (message) }
                p { a href="/payments" { "Back to payments" } }
            },
        );
        let mut response = (status, body).into_response();
        let retry_after = match &self {
            Self::TooMany(wait) => Some(wait.as_secs().max(1)),
            Self::Unavailable(_) => Some(u64::from(UNAVAILABLE_RETRY_SECS)),
            _ => None,
        };
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
