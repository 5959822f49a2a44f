//! `/readyz` is cheap: one answer serves every probe for a few seconds, and probes arriving
//! while a check runs wait for it, so a flood of calls costs at most one gateway status lookup
//! (and one database ping) instead of spending the merchant's gateway quota.

use crate::api::support::Backend;
use crate::gateway::test_server::{Action, TestServer};
use crate::ops::support::{send, start};

const TOKEN: &str = "ops_token_0123456789";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_probes_make_one_gateway_lookup() {
    // The gateway's "no such transaction" for the nil id: ready. Any request beyond the first
    // two gets 599 (and its retries), and is counted. The other of the two is the reconciler's
    // read of the subscription list in its pass at start (the whole-list check, issue 46),
    // which may come first and is not counted.
    let not_found = serde_json::json!({"success": false, "message": "Transaction not found"});
    let gateway = TestServer::start(vec![
        Action::json(404, &not_found),
        Action::json(404, &not_found),
    ])
    .await;
    let h = start(
        Backend::Sqlite,
        &[
            ("GATEWAY_BASE_URL", &gateway.base_url()),
            (
                "CARD_FINGERPRINT_KEY",
                "abababababababababababababababababababababababababababababababab",
            ),
            ("GATEWAY_API_KEY", "live-key"),
            ("GATEWAY_X_API_KEY", "live-x-key"),
            ("GATEWAY_MERCHANT_ID", "merchant-1"),
            ("OPS_TOKEN", TOKEN),
        ],
    )
    .await;
    let url = format!("{}/readyz", h.base);
    let probe = || send(h.api.get(&url).bearer_auth(TOKEN));
    let mut concurrent = tokio::task::JoinSet::new();
    for _ in 0..10 {
        concurrent.spawn(probe());
    }
    let mut answers = concurrent.join_all().await;
    for _ in 0..10 {
        answers.push(probe().await);
    }
    let lookups: Vec<_> = gateway
        .requests()
        .into_iter()
        .map(|r| r.path)
        .filter(|path| !path.ends_with("/subscription/list"))
        .collect();
    assert_eq!(lookups.len(), 1, "gateway requests: {lookups:?}");
    assert!(
        lookups[0].ends_with("/transaction/status/00000000-0000-0000-0000-000000000000"),
        "{lookups:?}"
    );
    for ready in &answers {
        assert_eq!(ready.status, 200, "{}", ready.text);
        assert_eq!(ready.json["status"], "ready");
        assert_eq!(ready.headers["cache-control"], "no-store");
    }
    h.finish().await;
}
