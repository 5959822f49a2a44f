//! `/readyz` with a gateway nobody answers at: 503 naming the gateway, while `/healthz` stays
//! 200 (the process is fine; it cannot take payments).

use crate::api::support::Harness;
use crate::ops::support::{ops_suite, send};

/// Port 9 (discard) on loopback: nothing listens there, connections are refused at once.
const CONFIG: &[(&str, &str)] = &[
    ("GATEWAY_BASE_URL", "http://127.0.0.1:9"),
    ("GATEWAY_API_KEY", "live-key"),
    ("GATEWAY_X_API_KEY", "live-x-key"),
    ("GATEWAY_MERCHANT_ID", "merchant-1"),
    ("GATEWAY_CONNECT_TIMEOUT_MS", "500"),
];

ops_suite!(readiness_fails_when_the_gateway_is_unreachable);

async fn readiness_fails_when_the_gateway_is_unreachable(h: &Harness) {
    let ready = send(h.api.get(format!("{}/readyz", h.base))).await;
    assert_eq!(ready.status, 503, "{}", ready.text);
    assert_eq!(ready.json["checks"]["database"], "ok");
    assert_eq!(
        ready.json["checks"]["gateway"],
        "the gateway is unreachable"
    );
    assert_eq!(
        send(h.api.get(format!("{}/healthz", h.base))).await.status,
        200
    );
}
