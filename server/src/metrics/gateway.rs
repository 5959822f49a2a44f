//! Gateway call metrics: latency histogram and result counts per endpoint. The gateway
//! client's transport reports every HTTP attempt here ([`observe`]) with the path it called
//! under the gateway's API prefix; the path is reduced to a fixed endpoint name so ids never
//! become labels.

use std::time::Duration;

use metrics::{counter, describe_counter, describe_histogram, histogram};

/// Endpoint names, as the gateway client's tracing spans name them; `other` catches the rest.
pub const ENDPOINTS: [&str; 15] = [
    "payment",
    "authorization",
    "paymentv2",
    "authorizationv2",
    "capture",
    "refund",
    "void",
    "transaction_status",
    "subscription_payment",
    "subscription_pause",
    "subscription_resume",
    "subscription_cancel",
    "subscription_get",
    "subscription_list",
    "other",
];

/// How one attempt ended, as a label.
const RESULTS: [&str; 4] = ["2xx", "4xx", "5xx", "error"];

/// How one HTTP attempt to the gateway ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallResult {
    /// An answer with this HTTP status arrived.
    Status(u16),
    /// No answer: connection failure, timeout, unreadable body.
    Failed,
}

impl CallResult {
    fn label(self) -> &'static str {
        match self {
            Self::Status(status) if status < 400 => RESULTS[0],
            Self::Status(status) if status < 500 => RESULTS[1],
            Self::Status(_) => RESULTS[2],
            Self::Failed => RESULTS[3],
        }
    }
}

/// Records one attempt to `path` (the URL path after the gateway's API prefix) that took
/// `elapsed`.
/// An endpoint's first attempt also shows its other results at zero, so a rate over them is
/// defined from the start.
pub fn observe(path: &str, elapsed: Duration, result: CallResult) {
    super::recorder();
    let endpoint = endpoint_label(path);
    histogram!("checkout_gateway_request_duration_seconds", "endpoint" => endpoint)
        .record(elapsed.as_secs_f64());
    for label in RESULTS {
        let counted = u64::from(label == result.label());
        counter!("checkout_gateway_requests_total", "endpoint" => endpoint, "result" => label)
            .increment(counted);
    }
}

pub(super) fn describe() {
    describe_histogram!(
        "checkout_gateway_request_duration_seconds",
        "Time of one HTTP attempt to the gateway, by endpoint."
    );
    describe_counter!(
        "checkout_gateway_requests_total",
        "HTTP attempts to the gateway, by endpoint and result."
    );
}

/// The endpoint name of a gateway URL path.
pub fn endpoint_label(path: &str) -> &'static str {
    ENDPOINTS[endpoint_slot(path)]
}

fn endpoint_slot(path: &str) -> usize {
    let tail = path.trim_matches('/');
    let segments: Vec<&str> = tail.split('/').collect();
    let name = match segments.as_slice() {
        [single] => *single,
        ["transaction", "status", _] => "transaction_status",
        ["subscription", "payment"] => "subscription_payment",
        ["subscription", "list"] => "subscription_list",
        ["subscription", _] => "subscription_get",
        ["subscription", _, "pause"] => "subscription_pause",
        ["subscription", _, "resume"] => "subscription_resume",
        ["subscription", _, "cancel"] => "subscription_cancel",
        _ => "other",
    };
    ENDPOINTS
        .iter()
        .position(|known| *known == name)
        .unwrap_or(ENDPOINTS.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_fixed_names() {
        let p = |tail: &str| tail.to_owned();
        assert_eq!(endpoint_label(&p("payment")), "payment");
        assert_eq!(endpoint_label(&p("paymentv2")), "paymentv2");
        assert_eq!(
            endpoint_label(&p(
                "transaction/status/0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f60"
            )),
            "transaction_status"
        );
        assert_eq!(endpoint_label(&p("subscription/list")), "subscription_list");
        assert_eq!(endpoint_label(&p("subscription/abc")), "subscription_get");
        assert_eq!(
            endpoint_label(&p("subscription/abc/resume")),
            "subscription_resume"
        );
        assert_eq!(endpoint_label(&p("refund/")), "refund");
        assert_eq!(endpoint_label(&p("nope/a/b/c")), "other");
        assert_eq!(endpoint_label(&p("unheard-of")), "other");
    }

    #[test]
    fn observations_are_written_per_endpoint() {
        observe(
            "subscription/x/pause",
            Duration::from_millis(2),
            CallResult::Status(200),
        );
        let out = crate::metrics::recorder().render();
        assert!(out.contains("checkout_gateway_request_duration_seconds_bucket{endpoint=\"subscription_pause\",le=\"0.0025\"}"), "{out}");
        assert!(
            out.contains(
                "checkout_gateway_requests_total{endpoint=\"subscription_pause\",result=\"2xx\"}"
            ),
            "{out}"
        );
    }
}
