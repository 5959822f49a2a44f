//! Subscriptions end to end: created through a subscription session, later cycles billed by
//! the emulator's clock and recorded by the reconciler (idempotently), failed cycles recorded
//! as failures, and pause / resume / cancel through the merchant API with the gateway as the
//! source of truth.

use checkout_server::store::prelude::*;
use reqwest::Method;
use serde_json::json;

use crate::api::support::{Harness, cards};
use crate::ops::support::{
    advance_gateway_clock, gateway_subscription_status, in_seconds, merchant_subscription,
    ops_suite, reconciler, send, subscribe, unique,
};

const CONFIG: &[(&str, &str)] = &[];

/// Approved at creation, declined 51 on every later cycle (docs/sandbox-subscriptions.md).
const APPROVE_ONCE: &str = "4000000000000341";

ops_suite!(
    reconciler_records_new_cycles_once,
    failed_cycles_are_recorded_as_failures,
    pause_resume_cancel_through_the_merchant_api,
    merchant_list_filters_and_names_bad_parameters,
);

async fn reconciler_records_new_cycles_once(h: &Harness) {
    let customer = unique("cust");
    let (_, id) = subscribe(h, &customer, "demo-monthly", cards::VISA_OK).await;
    let created = merchant_subscription(h, &id).await;
    assert_eq!(created["status"], "active", "{created}");
    assert_eq!(created["completed_cycles"], 1);
    assert_eq!(created["plan_id"], "demo-monthly");
    assert_eq!(created["plan"]["amount"], 980);
    assert_eq!(
        created["history"].as_array().map(Vec::len),
        Some(1),
        "{created}"
    );
    assert_eq!(created["history"][0]["status"], "succeeded");

    // Two months pass at the gateway: cycles 2 and 3 are billed there, with no webhook.
    advance_gateway_clock(h, 62);
    let unchanged = merchant_subscription(h, &id).await;
    assert_eq!(
        unchanged["completed_cycles"], 1,
        "nothing is known before the reconciler polls"
    );

    let report = reconciler(h).run_once_at(in_seconds(7200)).await;
    assert_eq!(report.subscriptions_polled, 1, "{report:?}");
    assert_eq!(report.cycles_paid, 2, "{report:?}");
    let polled = merchant_subscription(h, &id).await;
    assert_eq!(polled["completed_cycles"], 3, "{polled}");
    let history = polled["history"].as_array().expect("history");
    let cycles: Vec<(u64, &str, u64)> = history
        .iter()
        .map(|c| {
            (
                c["cycle"].as_u64().unwrap_or(0),
                c["status"].as_str().unwrap_or(""),
                c["amount"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        cycles,
        vec![
            (1, "succeeded", 980),
            (2, "succeeded", 980),
            (3, "succeeded", 980)
        ]
    );
    assert!(
        history[2]["gateway_transaction_id"]
            .as_str()
            .is_some_and(|t| t.len() == 36)
    );

    // Polling again learns nothing new and records nothing twice.
    let again = reconciler(h).run_once_at(in_seconds(4 * 7200)).await;
    assert_eq!(again.subscriptions_polled, 1, "{again:?}");
    assert_eq!(
        (again.cycles_paid, again.cycles_failed),
        (0, 0),
        "{again:?}"
    );
    let cycles = h.store().list_cycles(&id).await.expect("cycles");
    assert_eq!(cycles.len(), 3);
}

async fn failed_cycles_are_recorded_as_failures(h: &Harness) {
    let (_, id) = subscribe(h, &unique("cust"), "demo-monthly", APPROVE_ONCE).await;
    advance_gateway_clock(h, 31);
    let report = reconciler(h).run_once_at(in_seconds(7200)).await;
    assert_eq!(
        (report.cycles_paid, report.cycles_failed),
        (0, 1),
        "{report:?}"
    );
    let polled = merchant_subscription(h, &id).await;
    assert_eq!(polled["last_payment_status"], "FAILED", "{polled}");
    assert_eq!(polled["history"][1]["cycle"], 2);
    assert_eq!(polled["history"][1]["status"], "failed");
    assert_eq!(
        polled["status"], "active",
        "a failed cycle does not end the subscription"
    );

    // The gateway retries the cycle a day later (declined again): still one failed cycle 2.
    advance_gateway_clock(h, 1);
    let retry = reconciler(h).run_once_at(in_seconds(4 * 7200)).await;
    assert_eq!(retry.subscriptions_polled, 1, "{retry:?}");
    let cycles = h.store().list_cycles(&id).await.expect("cycles");
    assert_eq!(cycles.len(), 2, "{cycles:?}");
    assert_eq!(cycles[1].status, CycleStatus::Failed);
}

async fn pause_resume_cancel_through_the_merchant_api(h: &Harness) {
    let (_, id) = subscribe(h, &unique("cust"), "demo-weekly", cards::VISA_OK).await;
    let gateway_id = merchant_subscription(h, &id).await["gateway_subscription_id"]
        .as_str()
        .expect("gateway id")
        .to_owned();
    let act = |action: &'static str| {
        let path = format!("/v1/subscriptions/{id}/{action}");
        async move { send(h.merchant(Method::POST, &path)).await }
    };

    let paused = act("pause").await;
    assert_eq!(paused.status, 200, "{}", paused.text);
    assert_eq!(paused.json["status"], "paused");
    assert_eq!(gateway_subscription_status(h, &gateway_id).await, "PAUSED");

    act("pause")
        .await
        .assert_error(409, "subscription_transition_refused", None);
    assert_eq!(merchant_subscription(h, &id).await["status"], "paused");

    let resumed = send(
        h.merchant(Method::POST, &format!("/v1/subscriptions/{id}/resume"))
            .json(&json!({})),
    )
    .await;
    assert_eq!(resumed.status, 200, "{}", resumed.text);
    assert_eq!(resumed.json["status"], "active");
    assert_eq!(gateway_subscription_status(h, &gateway_id).await, "ACTIVE");

    let cancelled = act("cancel").await;
    assert_eq!(cancelled.status, 200, "{}", cancelled.text);
    assert_eq!(cancelled.json["status"], "cancelled");
    assert_eq!(
        cancelled.json["next_poll_at"],
        serde_json::Value::Null,
        "a final subscription is never polled"
    );
    assert_eq!(
        gateway_subscription_status(h, &gateway_id).await,
        "CANCELLED"
    );
    act("resume")
        .await
        .assert_error(409, "subscription_final", None);

    // Unknown bodies, unknown ids and missing credentials.
    send(
        h.merchant(Method::POST, &format!("/v1/subscriptions/{id}/pause"))
            .json(&json!({"why": "x"})),
    )
    .await
    .assert_error(400, "invalid_field", Some("why"));
    send(h.merchant(Method::POST, "/v1/subscriptions/no-such-id/pause"))
        .await
        .assert_error(404, "not_found", None);
    let anonymous = send(
        h.api
            .post(format!("{}/v1/subscriptions/{id}/cancel", h.base)),
    )
    .await;
    anonymous.assert_error(401, "unauthorized", None);
}

async fn merchant_list_filters_and_names_bad_parameters(h: &Harness) {
    let customer = unique("cust");
    let (_, first) = subscribe(h, &customer, "demo-monthly", cards::VISA_OK).await;
    let (_, second) = subscribe(h, &customer, "demo-weekly", cards::VISA_OK).await;
    let (_, _) = subscribe(h, &unique("other"), "demo-monthly", cards::VISA_OK).await;
    send(h.merchant(Method::POST, &format!("/v1/subscriptions/{second}/pause"))).await;

    let mine = send(h.merchant(
        Method::GET,
        &format!("/v1/subscriptions?customer_id={customer}"),
    ))
    .await;
    assert_eq!(mine.status, 200, "{}", mine.text);
    let ids: Vec<&str> = mine.json["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter_map(|s| s["id"].as_str())
        .collect();
    assert_eq!(
        ids,
        vec![second.as_str(), first.as_str()],
        "newest first, only this customer's"
    );
    assert!(
        mine.json["data"][0].get("history").is_none(),
        "lists carry no history"
    );

    let paused = send(h.merchant(
        Method::GET,
        &format!("/v1/subscriptions?customer_id={customer}&status=paused"),
    ))
    .await;
    assert_eq!(
        paused.json["data"].as_array().map(Vec::len),
        Some(1),
        "{}",
        paused.text
    );

    let page = send(h.merchant(
        Method::GET,
        &format!("/v1/subscriptions?customer_id={customer}&limit=1"),
    ))
    .await;
    let cursor = page.json["next_cursor"]
        .as_str()
        .expect("a next page")
        .to_owned();
    let next = send(h.merchant(
        Method::GET,
        &format!("/v1/subscriptions?customer_id={customer}&limit=1&after={cursor}"),
    ))
    .await;
    assert_eq!(next.json["data"][0]["id"], first.as_str(), "{}", next.text);

    send(h.merchant(Method::GET, "/v1/subscriptions?status=sleeping"))
        .await
        .assert_error(400, "invalid_field", Some("status"));
    send(h.merchant(Method::GET, "/v1/subscriptions?limit=1000"))
        .await
        .assert_error(400, "invalid_field", Some("limit"));
    send(h.merchant(Method::GET, "/v1/subscriptions?order=asc"))
        .await
        .assert_error(400, "unknown_parameter", Some("order"));

    let refreshed = send(h.merchant(
        Method::GET,
        &format!("/v1/subscriptions/{first}?refresh=true"),
    ))
    .await;
    assert_eq!(refreshed.status, 200, "{}", refreshed.text);
    assert_eq!(refreshed.json["status"], "active");
}
