//! `/healthz` (the process answers) and `/readyz` (the database and the gateway answer).

use crate::api::support::Harness;
use crate::ops::support::{ops_suite, send};

const CONFIG: &[(&str, &str)] = &[];

ops_suite!(
    health_and_readiness,
    readiness_fails_when_the_database_is_closed
);

async fn health_and_readiness(h: &Harness) {
    let health = send(h.api.get(format!("{}/healthz", h.base))).await;
    assert_eq!(health.status, 200, "{}", health.text);
    assert_eq!(health.json, serde_json::json!({"status": "ok"}));
    let ready = send(h.api.get(format!("{}/readyz", h.base))).await;
    assert_eq!(ready.status, 200, "{}", ready.text);
    assert_eq!(ready.json["status"], "ready");
    assert_eq!(
        ready.json["checks"],
        serde_json::json!({"database": "ok", "gateway": "ok"})
    );
    assert_eq!(ready.headers["cache-control"], "no-store");
}

async fn readiness_fails_when_the_database_is_closed(h: &Harness) {
    h.store().close().await;
    let ready = send(h.api.get(format!("{}/readyz", h.base))).await;
    assert_eq!(ready.status, 503, "{}", ready.text);
    assert_eq!(ready.json["status"], "unavailable");
    assert_ne!(ready.json["checks"]["database"], "ok");
    assert_eq!(ready.json["checks"]["gateway"], "ok");
    let health = send(h.api.get(format!("{}/healthz", h.base))).await;
    assert_eq!(health.status, 200, "the process is still up");
}
