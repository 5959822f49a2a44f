//! The answer to a form the dashboard has handled: 303 See Other to the page to show next, so
//! a reload never posts the form again.

use axum::http::header::LOCATION;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::error::DashboardError;

/// 303 to `location`.
pub(crate) fn see_other(location: &str) -> Response {
    match HeaderValue::from_str(location) {
        Ok(value) => (StatusCode::SEE_OTHER, [(LOCATION, value)]).into_response(),
        Err(_) => DashboardError::Internal("redirect target".into()).into_response(),
    }
}
