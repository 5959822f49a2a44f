//! HTTP metrics: requests by route, method and status, and their latency by route. The route
//! is the matched pattern (`/v1/checkout/{session_id}/pay`), never the raw path, so ids and
//! webhook tokens never become labels.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;

use super::histogram::Histogram;

#[derive(Default)]
struct HttpMetrics {
    requests: Mutex<BTreeMap<(String, &'static str, u16), u64>>,
    latency: Mutex<HashMap<String, Arc<Histogram>>>,
}

static HTTP: LazyLock<HttpMetrics> = LazyLock::new(HttpMetrics::default);

/// Middleware: counts the request and times it (add with `axum::middleware::from_fn`).
pub async fn track(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .to_owned();
    let method = method_label(request.method());
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16();
    let histogram = {
        let mut latency = HTTP.latency.lock().unwrap_or_else(PoisonError::into_inner);
        latency.entry(route.clone()).or_default().clone()
    };
    histogram.observe(started.elapsed());
    *HTTP
        .requests
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .entry((route, method, status))
        .or_insert(0) += 1;
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

/// Escapes a label value (backslash, quote, newline).
pub fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// Writes the HTTP metrics.
pub(super) fn write(out: &mut String) {
    out.push_str("# HELP checkout_http_requests_total Requests served, by route pattern, method and status.\n");
    out.push_str("# TYPE checkout_http_requests_total counter\n");
    let requests = HTTP
        .requests
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    for ((route, method, status), count) in requests {
        let _ = writeln!(
            out,
            "checkout_http_requests_total{{route=\"{}\",method=\"{method}\",status=\"{status}\"}} {count}",
            escape(&route)
        );
    }
    out.push_str("# HELP checkout_http_request_duration_seconds Time to answer a request, by route pattern.\n");
    out.push_str("# TYPE checkout_http_request_duration_seconds histogram\n");
    let mut routes: Vec<(String, Arc<Histogram>)> = HTTP
        .latency
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .map(|(route, histogram)| (route.clone(), histogram.clone()))
        .collect();
    routes.sort_by(|a, b| a.0.cmp(&b.0));
    for (route, histogram) in routes {
        let labels = format!("route=\"{}\"", escape(&route));
        histogram.write(out, "checkout_http_request_duration_seconds", &labels);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }
}
