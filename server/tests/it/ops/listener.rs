//! `OPS_LISTEN`: `/metrics` and `/readyz` move to the internal listener (no token there) and
//! the public listener answers 404 for them; `/healthz` is on both, and the internal listener
//! serves nothing of the API.

use crate::api::support::{Harness, MERCHANT_KEY};
use crate::ops::support::{ops_suite, send};

const CONFIG: &[(&str, &str)] = &[("OPS_LISTEN", "127.0.0.1:0")];

ops_suite!(metrics_and_readiness_only_on_the_internal_listener);

async fn metrics_and_readiness_only_on_the_internal_listener(h: &Harness) {
    for path in ["/metrics", "/readyz"] {
        let public = send(h.api.get(format!("{}{path}", h.base))).await;
        public.assert_error(404, "not_found", None);
    }
    let internal = h.ops.as_deref().expect("OPS_LISTEN is bound");
    assert_ne!(internal, h.base);
    for path in ["/metrics", "/readyz"] {
        let served = send(h.api.get(format!("{internal}{path}"))).await;
        assert_eq!(served.status, 200, "{path}: {}", served.text);
    }
    let metrics = send(h.api.get(format!("{internal}/metrics"))).await;
    assert!(
        metrics.text.contains("checkout_store_up 1"),
        "{}",
        metrics.text
    );
    for base in [h.base.as_str(), internal] {
        let health = send(h.api.get(format!("{base}/healthz"))).await;
        assert_eq!(health.status, 200, "{base}: {}", health.text);
    }
    let api = send(
        h.api
            .get(format!("{internal}/v1/payments"))
            .bearer_auth(MERCHANT_KEY),
    )
    .await;
    api.assert_error(404, "not_found", None);
    let public_api = send(h.merchant(reqwest::Method::GET, "/v1/payments")).await;
    assert_eq!(public_api.status, 200, "{}", public_api.text);
}
