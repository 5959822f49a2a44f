//! Input at the edges of what times and durations hold never panics the merchant API: a
//! rotation's `overlap_seconds` past any `Duration` is a 400 naming the field (and its
//! idempotency key then answers the same refusal, never "still being processed"), and a
//! property test throws arbitrary strings and extreme numbers at the list endpoints' query
//! parameters and never gets a 5xx.

use reqwest::Method;
use serde_json::json;

use super::support::{Harness, Reply, api_suite};
use crate::dashboard::input_limits::queries;
use crate::events::receiver::support::endpoint;

api_suite!(
    an_overlap_past_any_duration_is_refused,
    no_list_parameter_brings_a_server_error,
);

async fn an_overlap_past_any_duration_is_refused(h: &Harness) {
    let endpoint_id = endpoint(
        h,
        "http://127.0.0.1:9/hook",
        &[],
        "whsec_dGVzdHRlc3R0ZXN0dGVzdA==",
    )
    .await;
    let path = format!("/v1/webhook_endpoints/{endpoint_id}/rotate_secret");
    for seconds in [json!(u64::MAX), json!(i64::MAX), json!(604_801)] {
        for _ in 0..2 {
            let refused = Reply::read(
                h.merchant(Method::POST, &path)
                    .header("Idempotency-Key", format!("overlap-{seconds}"))
                    .json(&json!({ "overlap_seconds": seconds }))
                    .send()
                    .await
                    .expect("sent"),
            )
            .await;
            assert_eq!(refused.status, 400, "{seconds}: {}", refused.text);
            assert_eq!(
                refused.json["error"]["field"], "overlap_seconds",
                "{}",
                refused.text
            );
        }
    }
}

const PAYMENT_PARAMETERS: &[&str] = &["customer_id", "session_id", "state", "limit", "after"];
const EVENT_PARAMETERS: &[&str] = &[
    "type",
    "object_id",
    "created_gte",
    "created_lt",
    "limit",
    "starting_after",
];

async fn no_list_parameter_brings_a_server_error(h: &Harness) {
    for (list, parameters) in [
        ("/v1/payments", PAYMENT_PARAMETERS),
        ("/v1/events", EVENT_PARAMETERS),
    ] {
        for query in queries(parameters, 150) {
            let path = format!("{list}?{query}");
            let reply =
                Reply::read(h.merchant(Method::GET, &path).send().await.expect("sent")).await;
            assert!(
                reply.status < 500,
                "{path}: {} {}",
                reply.status,
                reply.text
            );
        }
    }
}
