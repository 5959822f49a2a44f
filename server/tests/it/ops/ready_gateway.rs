//! `/readyz` with a gateway nobody answers at: 503 naming the gateway, while `/healthz` stays
//! 200 (the process is fine; it cannot take payments). With a real gateway and neither
//! `OPS_LISTEN` nor `OPS_TOKEN`, `/readyz` and `/metrics` are not served at all.

use crate::api::support::{Backend, Harness, UNREACHABLE_GATEWAY};
use crate::ops::support::{ops_suite, send, start};

const TOKEN: &str = "ops_token_0123456789";

const GATEWAY: &[(&str, &str)] = &[
    UNREACHABLE_GATEWAY[0],
    UNREACHABLE_GATEWAY[1],
    UNREACHABLE_GATEWAY[2],
    UNREACHABLE_GATEWAY[3],
    ("GATEWAY_CONNECT_TIMEOUT_MS", "500"),
];

const CONFIG: &[(&str, &str)] = &[
    UNREACHABLE_GATEWAY[0],
    UNREACHABLE_GATEWAY[1],
    UNREACHABLE_GATEWAY[2],
    UNREACHABLE_GATEWAY[3],
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
