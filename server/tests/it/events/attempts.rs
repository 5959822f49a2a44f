//! An event's deliveries: shown once fanned out, sent again on request; an endpoint's
//! attempts page newest first. Attempts are recorded as a delivery worker would, with the
//! test's own lease.

use checkout_server::store::prelude::*;
use reqwest::Method;
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};

use super::{call, create_endpoint};
use crate::api::support::{Harness, Reply, api_suite};

use super::api::{fan_out, only_event, paid};

api_suite!(
    an_event_shows_its_deliveries_and_is_sent_again,
    an_endpoints_attempts_page_newest_first,
);

async fn an_event_shows_its_deliveries_and_is_sent_again(h: &Harness) {
    let all = create_endpoint(h, json!({})).await;
    let all_id = all["id"].as_str().expect("id");
    let refunds = create_endpoint(h, json!({"event_types": ["payment.refunded"]})).await;
    let refunds_id = refunds["id"].as_str().expect("id");
    let (_, payment) = paid(h).await;
    fan_out(h).await;

    let captured = only_event(h, &payment, "payment.captured").await;
    let event_id = captured["id"].as_str().expect("id");
    let path = format!("/v1/events/{event_id}");
    let shown = call(h, Method::GET, &path, None).await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    let deliveries = shown.json["deliveries"].as_array().expect("deliveries");
    assert_eq!(
        deliveries.len(),
        1,
        "only the endpoint taking every type: {}",
        shown.text
    );
    let delivery = &deliveries[0];
    assert_eq!(delivery["endpoint_id"], all_id);
    assert!(
        ["pending", "delivered", "failed"].contains(&delivery["state"].as_str().expect("state")),
        "{delivery}"
    );
    assert!(delivery["attempts"].as_u64().is_some());
    if delivery["state"] == "pending" {
        assert!(delivery["next_attempt_at"].is_string(), "{delivery}");
    }

    // Again to every endpoint it went to, then to one it never went to.
    let again = call(h, Method::POST, &format!("{path}/redeliver"), None).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.json, json!({"deliveries": 1}));
    let to_refunds = Reply::read(
        h.merchant(Method::POST, &format!("{path}/redeliver"))
            .header("Idempotency-Key", "redeliver-1")
            .json(&json!({"endpoint_id": refunds_id}))
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(to_refunds.status, 200, "{}", to_refunds.text);
    assert_eq!(to_refunds.json, json!({"deliveries": 1}));
    let replayed = Reply::read(
        h.merchant(Method::POST, &format!("{path}/redeliver"))
            .header("Idempotency-Key", "redeliver-1")
            .json(&json!({"endpoint_id": refunds_id}))
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(replayed.headers["idempotent-replayed"], "true");
    assert_eq!(replayed.json, to_refunds.json);
    let shown = call(h, Method::GET, &path, None).await;
    let endpoints: Vec<&str> = shown.json["deliveries"]
        .as_array()
        .expect("deliveries")
        .iter()
        .map(|d| d["endpoint_id"].as_str().expect("endpoint"))
        .collect();
    let mut expected = vec![all_id, refunds_id];
    expected.sort_unstable();
    assert_eq!(endpoints, expected);

    // Unknown ids.
    call(
        h,
        Method::GET,
        "/v1/events/evt_00000000000000000000000000000000",
        None,
    )
    .await
    .assert_error(404, "not_found", None);
    call(
        h,
        Method::POST,
        "/v1/events/evt_00000000000000000000000000000000/redeliver",
        None,
    )
    .await
    .assert_error(404, "not_found", None);
    call(
        h,
        Method::POST,
        &format!("{path}/redeliver"),
        Some(json!({"endpoint_id": "we_00000000000000000000000000000000"})),
    )
    .await
    .assert_error(404, "not_found", None);
    call(
        h,
        Method::POST,
        &format!("{path}/redeliver"),
        Some(json!({"endpoint": all_id})),
    )
    .await
    .assert_error(400, "invalid_field", Some("endpoint"));
}

/// Records `n` failed attempts to `endpoint_id`, as a delivery worker would: claims with its
/// own lease at a time past every backoff, answers 500, asks for another try then.
async fn record_failures(h: &Harness, endpoint_id: &str, n: usize) {
    let store = h.store();
    let at = OffsetDateTime::now_utc() + Duration::days(30);
    for _ in 0..n {
        let claimed = store
            .claim_deliveries("events-api-test", at, Duration::seconds(60), 100)
            .await
            .expect("claim");
        let due = claimed
            .iter()
            .find(|d| d.endpoint_id == endpoint_id)
            .expect("a delivery to the endpoint");
        let attempt = NewDeliveryAttempt {
            attempted_at: at,
            duration_us: 1_500,
            status_code: Some(500),
            error: Some("the endpoint answered 500".into()),
        };
        let finished = store
            .finish_delivery(
                "events-api-test",
                endpoint_id,
                due.event.seq,
                attempt,
                DeliveryOutcome::RetryAt(at),
            )
            .await
            .expect("finish");
        assert!(finished);
    }
}

async fn an_endpoints_attempts_page_newest_first(h: &Harness) {
    let endpoint = create_endpoint(h, json!({"event_types": ["session.completed"]})).await;
    let endpoint_id = endpoint["id"].as_str().expect("id");
    let path = format!("/v1/webhook_endpoints/{endpoint_id}/deliveries");
    let empty = call(h, Method::GET, &path, None).await;
    assert_eq!(empty.status, 200, "{}", empty.text);
    assert_eq!(
        empty.json,
        json!({"data": [], "has_more": false, "next_cursor": null})
    );

    let (session, _) = paid(h).await;
    fan_out(h).await;
    record_failures(h, endpoint_id, 3).await;
    let completed = only_event(h, &session, "session.completed").await;

    let everything = call(h, Method::GET, &format!("{path}?limit=100"), None).await;
    assert_eq!(everything.status, 200, "{}", everything.text);
    let all: Vec<i64> = everything.json["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|a| a["id"].as_i64().expect("id"))
        .collect();
    assert!(all.len() >= 3, "{}", everything.text);
    assert!(all.windows(2).all(|w| w[0] > w[1]), "newest first: {all:?}");
    let ours: Vec<&Value> = everything.json["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter(|a| a["status_code"] == 500)
        .collect();
    assert_eq!(ours.len(), 3);
    for attempt in ours {
        assert_eq!(attempt["event_id"], completed["id"]);
        assert_eq!(attempt["endpoint_id"], endpoint_id);
        assert_eq!(attempt["duration_ms"], 1.5);
        assert_eq!(attempt["error"], "the endpoint answered 500");
        assert!(attempt["attempted_at"].is_string());
    }

    let mut paged = Vec::new();
    let mut query = "limit=2".to_owned();
    loop {
        let page = call(h, Method::GET, &format!("{path}?{query}"), None).await;
        assert_eq!(page.status, 200, "{}", page.text);
        paged.extend(
            page.json["data"]
                .as_array()
                .expect("data")
                .iter()
                .map(|a| a["id"].as_i64().expect("id")),
        );
        match page.json["next_cursor"].as_str() {
            Some(cursor) => {
                assert_eq!(page.json["has_more"], true);
                query = format!("limit=2&starting_after={cursor}");
            }
            None => {
                assert_eq!(page.json["has_more"], false);
                break;
            }
        }
    }
    assert_eq!(paged, all);
    call(h, Method::GET, &format!("{path}?starting_after=abc"), None)
        .await
        .assert_error(400, "invalid_field", Some("starting_after"));

    let shown = call(
        h,
        Method::GET,
        &format!("/v1/events/{}", completed["id"].as_str().expect("id")),
        None,
    )
    .await;
    let delivery = &shown.json["deliveries"][0];
    assert!(
        delivery["attempts"].as_u64().is_some_and(|n| n >= 3),
        "{}",
        shown.text
    );
}
