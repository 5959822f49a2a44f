//! `/readyz` with a gateway nobody answers at: 503 naming the gateway, while `/healthz` stays
//! 200 (the process is fine; it cannot take payments). With a real gateway and neither
//! `OPS_LISTEN` nor `OPS_TOKEN`, `/readyz` and `/metrics` are not served at all.

use crate::api::support::{Backend, Harness};
use crate::ops::support::{ops_suite, send, start};

const TOKEN: &str = "ops_token_0123456789";

/// Port 9 (discard) on loopback: nothing listens there, connections are refused at once.
const GATEWAY: &[(&str, &str)] = &[
    ("GATEWAY_BASE_URL", "http://127.0.0.1:9"),
    (
        "CARD_FINGERPRINT_KEY",
        "abababababababababababababababababababababababababababababababab",
    ),
    ("GATEWAY_API_KEY", "live-key"),
    ("GATEWAY_X_API_KEY", "live-x-key"),
    ("GATEWAY_MERCHANT_ID", "merchant-1"),
    ("GATEWAY_CONNECT_TIMEOUT_MS", "500"),
];

const CONFIG: &[(&str, &str)] = &[
    GATEWAY[0],
    GATEWAY[1],
    GATEWAY[2],
    GATEWAY[3],
    GATEWAY[4],
    ("OPS_TOKEN", TOKEN),
];

ops_suite!(readiness_fails_when_the_gateway_is_unreachable);

async fn readiness_fails_when_the_gateway_is_unreachable(h: &Harness) {
    let ready = send(h.api.get(format!("{}/readyz", h.base)).bearer_auth(TOKEN)).await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_real_gateway_keeps_metrics_and_readiness_private_by_default() {
    let h = start(Backend::Sqlite, GATEWAY).await;
    assert!(h.ops.is_none());
    for path in ["/metrics", "/readyz"] {
        let reply = send(h.api.get(format!("{}{path}", h.base))).await;
        reply.assert_error(404, "not_found", None);
    }
    assert_eq!(
        send(h.api.get(format!("{}/healthz", h.base))).await.status,
        200
    );
    h.finish().await;
}
