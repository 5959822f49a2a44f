//! `OPS_TOKEN`: `/metrics` and `/readyz` on the public listener answer only requests bearing
//! the token (401 in the API's error shape otherwise; the merchant key is not the token), while
//! `/healthz` stays open for load balancers.

use crate::api::support::{Harness, MERCHANT_KEY};
use crate::ops::support::{ops_suite, send};

const TOKEN: &str = "ops_token_0123456789";
const CONFIG: &[(&str, &str)] = &[("OPS_TOKEN", TOKEN)];

ops_suite!(the_token_guards_metrics_and_readiness);

async fn the_token_guards_metrics_and_readiness(h: &Harness) {
    for path in ["/metrics", "/readyz"] {
        let url = format!("{}{path}", h.base);
        let missing = send(h.api.get(&url)).await;
        missing.assert_error(401, "unauthorized", None);
        assert_eq!(missing.headers["www-authenticate"], "Bearer", "{path}");
        for wrong in ["ops_token_0123456788", "ops_token_012345678", MERCHANT_KEY] {
            let refused = send(h.api.get(&url).bearer_auth(wrong)).await;
            refused.assert_error(401, "unauthorized", None);
        }
        let basic = send(h.api.get(&url).basic_auth(TOKEN, None::<&str>)).await;
        basic.assert_error(401, "unauthorized", None);
        let right = send(h.api.get(&url).bearer_auth(TOKEN)).await;
        assert_eq!(right.status, 200, "{path}: {}", right.text);
    }
    let health = send(h.api.get(format!("{}/healthz", h.base))).await;
    assert_eq!(health.status, 200, "{}", health.text);
}
