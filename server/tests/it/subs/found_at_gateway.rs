//! The whole-list check (issue 46): a subscription the gateway bills that the server never
//! started (created at the gateway behind its back) is found by the periodic comparison of the
//! gateway's list with the store, recorded for review and reported: `subscription.needs_review`,
//! its paid periods as `subscription.renewed`, the merchant API. It is recorded once; the
//! server's own subscriptions are left alone.

use reqwest::Method;
use serde_json::Value;

use crate::api::support::{Harness, cards};
use crate::ops::support::{
    after_the_startup_pass, in_seconds, object_events, ops_suite, reconciler, send, subscribe,
    unique,
};
use crate::sandbox::subscriptions::{creation, plan};

const CONFIG: &[(&str, &str)] = &[];

ops_suite!(a_subscription_made_behind_the_servers_back_is_found_and_reported);

/// Creates a subscription directly at the emulator (not through checkout-server); its id.
/// First waits for the list check of the reconciler's pass at start, so that the test's own
/// pass is the one to find it.
pub async fn create_at_gateway(h: &Harness) -> String {
    after_the_startup_pass(h).await;
    let url = format!(
        "{}{}/api/v1/server-to-server-interface/subscription/payment",
        h.base,
        checkout_sandbox::in_process::PREFIX
    );
    let reply = send(
        h.api
            .post(url)
            .header("Authorization", crate::sandbox::support::basic_default())
            .header("x-api-key", checkout_sandbox::DEFAULT_X_API_KEY)
            .json(&creation(cards::VISA_OK, plan("MONTHLY", 1, 12))),
    )
    .await;
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json["subscription_details"]["id"]
        .as_str()
        .expect("gateway id")
        .to_owned()
}

async fn a_subscription_made_behind_the_servers_back_is_found_and_reported(h: &Harness) {
    let (_, ours) = subscribe(h, &unique("cust"), "demo-monthly", cards::VISA_OK).await;
    let theirs = create_at_gateway(h).await;

    // The check ran at start; it is due again an hour later.
    let report = reconciler(h).run_once_at(in_seconds(7200)).await;
    assert_eq!(report.subscriptions_found, 1, "{report:?}");

    let listed = send(h.merchant(Method::GET, "/v1/subscriptions?limit=100")).await;
    let all = listed.json["data"].as_array().cloned().expect("data");
    assert_eq!(all.len(), 2, "{}", listed.text);
    let found: Vec<&Value> = all
        .iter()
        .filter(|s| s["origin"] == "gateway_list")
        .collect();
    assert_eq!(found.len(), 1);
    let found = found[0];
    assert_eq!(found["gateway_subscription_id"], theirs.as_str());
    assert_eq!(found["customer_id"], Value::Null);
    assert_eq!(found["plan_id"], "gateway-gold-plan");
    assert_eq!(
        (found["amount"].as_u64(), found["currency"].as_str()),
        (Some(1000), Some("JPY"))
    );
    assert!(
        found["review_note"]
            .as_str()
            .is_some_and(|note| note.contains("found in the gateway's list")),
        "{found}"
    );
    let mine = all.iter().find(|s| s["id"] == ours.as_str()).expect("ours");
    assert_eq!(
        (mine["origin"].as_str(), &mine["review_note"]),
        (Some("checkout"), &Value::Null)
    );

    let id = found["id"].as_str().expect("id");
    let told = object_events(h, id).await;
    let kinds: Vec<&str> = told.iter().filter_map(|e| e["type"].as_str()).collect();
    assert_eq!(kinds, ["subscription.needs_review", "subscription.renewed"]);
    let charge = &told[1]["data"]["object"]["charge"];
    assert_eq!(
        (charge["cycle"].as_u64(), charge["amount"].as_u64()),
        (Some(1), Some(1000)),
        "the money it took is told"
    );

    // Recorded once: the next run finds nothing new.
    let again = reconciler(h).run_once_at(in_seconds(4 * 7200)).await;
    assert_eq!(again.subscriptions_found, 0, "{again:?}");
}
