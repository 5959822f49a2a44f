//! HTTP metrics: requests by route, method and status, and their latency by route. The route
//! is the matched pattern (`/v1/checkout/{session_id}/pay`), never the raw path, so ids and
//! webhook tokens never become labels.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use metrics::{counter, describe_counter, describe_histogram, histogram};

/// Middleware: counts the request and times it (add with `axum::middleware::from_fn`).
pub async fn track(request: Request, next: Next) -> Response {
    super::recorder();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .to_owned();
    let method = method_label(request.method());
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    histogram!("checkout_http_request_duration_seconds", "route" => route.clone())
        .record(started.elapsed().as_secs_f64());
    counter!(
        "checkout_http_requests_total",
        "route" => route,
        "method" => method,
        "status" => status
    )
    .increment(1);
    response
}

fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

pub(super) fn describe() {
    describe_counter!(
        "checkout_http_requests_total",
        "Requests served, by route pattern, method and status."
    );
    describe_histogram!(
        "checkout_http_request_duration_seconds",
        "Time to answer a request, by route pattern."
    );
}
