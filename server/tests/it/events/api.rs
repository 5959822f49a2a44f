//! `/v1/events`: each change a shop acts on, made through the APIs and the sandbox (a payment
//! through 3-D Secure, a refund, a subscription, a card saved and removed), shows its event
//! exactly once, with the object as the merchant API shows it and no card number; the list
//! filters and pages; an event shows its deliveries once fanned out, and is sent again on
//! request; an endpoint's attempts page newest first.
//!
//! Deliveries are made by the delivery worker's fan-out; the tests fan out themselves
//! (`fan_out_events`, safe beside a running worker) and record attempts as a worker would,
//! with their own lease, so nothing depends on the worker's timing.

use checkout_server::store::prelude::*;
use reqwest::Method;
use serde_json::{Value, json};
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

use super::{call, create_endpoint};
use crate::api::customer_cards::{new_customer, save_card_by_paying};
use crate::api::support::{Harness, Reply, api_suite, cards};
use crate::ops::support::subscribe;

api_suite!(
    a_paid_session_shows_payment_captured_and_session_completed,
    events_filter_and_page_newest_first,
    an_event_shows_its_deliveries_and_is_sent_again,
    an_endpoints_attempts_page_newest_first,
    a_refund_shows_payment_refunded,
    a_subscription_shows_subscription_created,
    a_saved_and_removed_card_shows_its_events,
    bad_event_queries_name_the_parameter,
);

/// Pays a 1000 JPY session through 3-D Secure; returns the session id and the payment id.
async fn paid(h: &Harness) -> (String, String) {
    let session = h.session(1000, json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
    h.complete_3ds(&redirect, "approve").await;
    let result = h.result(&session).await;
    assert_eq!(result["state"], "captured", "{result}");
    let payment = result["payment_id"]
        .as_str()
        .expect("payment id")
        .to_owned();
    (session.id, payment)
}

/// `GET /v1/events?{query}`, 200 expected.
async fn events(h: &Harness, query: &str) -> Value {
    let reply = call(h, Method::GET, &format!("/v1/events?{query}"), None).await;
    assert_eq!(reply.status, 200, "{query}: {}", reply.text);
    reply.json
}

/// The types of the events about `object_id`, oldest first.
async fn types_of(h: &Harness, object_id: &str) -> Vec<String> {
    let page = events(h, &format!("object_id={object_id}&limit=100")).await;
    let mut types: Vec<String> = page["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|e| e["type"].as_str().expect("type").to_owned())
        .collect();
    types.reverse();
    types
}

/// The only event of `kind` about `object_id`.
async fn only_event(h: &Harness, object_id: &str, kind: &str) -> Value {
    let page = events(h, &format!("object_id={object_id}&type={kind}")).await;
    let data = page["data"].as_array().expect("data");
    assert_eq!(data.len(), 1, "one {kind} for {object_id}: {page}");
    assert_eq!(page["has_more"], false);
    data[0].clone()
}

fn count(types: &[String], kind: &str) -> usize {
    types.iter().filter(|t| *t == kind).count()
}

fn ids(page: &Value) -> Vec<String> {
    page["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|e| e["id"].as_str().expect("id").to_owned())
        .collect()
}

fn rfc3339(at: OffsetDateTime) -> String {
    at.format(&Rfc3339).expect("formats")
}

/// Fans out every event written so far (as the delivery worker does).
async fn fan_out(h: &Harness) {
    while h
        .store()
        .fan_out_events(OffsetDateTime::now_utc(), 100)
        .await
        .expect("fan out")
        > 0
    {}
}

async fn a_paid_session_shows_payment_captured_and_session_completed(h: &Harness) {
    let (session, payment) = paid(h).await;
    let types = types_of(h, &payment).await;
    assert_eq!(count(&types, "payment.captured"), 1, "{types:?}");
    assert_eq!(types.last().map(String::as_str), Some("payment.captured"));
    assert_eq!(types_of(h, &session).await, vec!["session.completed"]);

    let captured = only_event(h, &payment, "payment.captured").await;
    let id = captured["id"].as_str().expect("id");
    assert!(id.starts_with("evt_") && id.len() == 36, "{id}");
    assert!(
        captured["created_at"]
            .as_str()
            .is_some_and(|t| OffsetDateTime::parse(t, &Rfc3339).is_ok())
    );
    let object = &captured["data"]["object"];
    assert_eq!(object["object"], "payment", "{captured}");
    assert_eq!(object["id"], payment.as_str());
    assert_eq!(object["session_id"], session.as_str());
    assert_eq!(object["amount"], 1000);
    assert_eq!(object["currency"], "JPY");
    assert_eq!(object["state"], "captured");
    assert_eq!(object["captured_amount"], 1000);
    assert_eq!(object["card"]["brand"], "visa");
    assert_eq!(object["card"]["last4"], "4242");
    let text = captured.to_string();
    assert!(!text.contains(cards::VISA_OK), "{text}");
    assert!(!text.contains("\"cvc\""), "{text}");

    let completed = only_event(h, &session, "session.completed").await;
    let object = &completed["data"]["object"];
    assert_eq!(object["object"], "session", "{completed}");
    assert_eq!(object["id"], session.as_str());
    assert_eq!(object["status"], "paid");
    assert_eq!(object["payments"][0]["id"], payment.as_str());
    assert!(!completed.to_string().contains(cards::VISA_OK));

    // The single event reads the same as in the list.
    let shown = call(h, Method::GET, &format!("/v1/events/{id}"), None).await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    for field in ["id", "type", "created_at", "data"] {
        assert_eq!(shown.json[field], captured[field], "{field}");
    }
    assert_eq!(
        shown.json["deliveries"],
        json!([]),
        "no endpoint, no delivery"
    );
}

async fn events_filter_and_page_newest_first(h: &Harness) {
    let start = OffsetDateTime::now_utc() - Duration::seconds(1);
    let (_, first) = paid(h).await;
    let (_, second) = paid(h).await;

    let all = events(h, "limit=100").await;
    assert_eq!(all["has_more"], false);
    assert_eq!(all["next_cursor"], Value::Null);
    let everything = ids(&all);
    assert!(everything.len() >= 4, "{all}");
    let times: Vec<OffsetDateTime> = all["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|e| {
            OffsetDateTime::parse(e["created_at"].as_str().expect("time"), &Rfc3339).expect("time")
        })
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "newest first");

    // Page by two, by `starting_after`: the same events in the same order, none twice.
    let mut paged = Vec::new();
    let mut query = "limit=2".to_owned();
    loop {
        let page = events(h, &query).await;
        let page_ids = ids(&page);
        assert!(page_ids.len() <= 2);
        paged.extend(page_ids);
        match page["next_cursor"].as_str() {
            Some(cursor) => {
                assert_eq!(page["has_more"], true);
                query = format!("limit=2&starting_after={cursor}");
            }
            None => {
                assert_eq!(page["has_more"], false);
                break;
            }
        }
    }
    assert_eq!(paged, everything);
    let first_page = events(h, "limit=1").await;
    let cursor = first_page["next_cursor"].as_str().expect("a cursor");
    assert_eq!(
        ids(&events(h, &format!("limit=1&after={cursor}")).await),
        vec![everything[1].clone()],
        "`after` as the other lists name it"
    );

    // Filters: type, object, time range.
    let captured = events(h, "type=payment.captured&limit=100").await;
    let captured_objects: Vec<&str> = captured["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|e| e["data"]["object"]["id"].as_str().expect("id"))
        .collect();
    assert_eq!(captured_objects, vec![second.as_str(), first.as_str()]);
    assert!(
        captured["data"]
            .as_array()
            .expect("data")
            .iter()
            .all(|e| e["type"] == "payment.captured")
    );
    let one = events(h, &format!("type=payment.captured&object_id={first}")).await;
    assert_eq!(one["data"].as_array().map(Vec::len), Some(1));
    let none = events(h, &format!("type=session.completed&object_id={first}")).await;
    assert_eq!(none["data"], json!([]));
    let since = rfc3339(start);
    let later = rfc3339(OffsetDateTime::now_utc() + Duration::minutes(1));
    let earlier = rfc3339(start - Duration::days(1));
    assert_eq!(
        ids(&events(h, &format!("limit=100&created_gte={}", urlencode(&since))).await),
        everything
    );
    assert_eq!(
        ids(&events(h, &format!("limit=100&created_lt={}", urlencode(&later))).await),
        everything
    );
    assert_eq!(
        events(h, &format!("created_gte={}", urlencode(&later))).await["data"],
        json!([])
    );
    assert_eq!(
        events(h, &format!("created_lt={}", urlencode(&earlier))).await["data"],
        json!([])
    );
}

/// `+` in an offset must travel as `%2B`.
fn urlencode(text: &str) -> String {
    text.replace('+', "%2B").replace(':', "%3A")
}

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

async fn a_refund_shows_payment_refunded(h: &Harness) {
    let (_, payment) = paid(h).await;
    let refunded = call(
        h,
        Method::POST,
        &format!("/v1/payments/{payment}/refund"),
        Some(json!({"amount": 400})),
    )
    .await;
    assert_eq!(refunded.status, 200, "{}", refunded.text);
    let types = types_of(h, &payment).await;
    assert_eq!(count(&types, "payment.refunded"), 1, "{types:?}");
    assert_eq!(count(&types, "payment.captured"), 1, "{types:?}");
    let position = |kind: &str| types.iter().position(|t| t == kind);
    assert!(
        position("payment.captured") < position("payment.refunded"),
        "{types:?}"
    );
    let event = only_event(h, &payment, "payment.refunded").await;
    let object = &event["data"]["object"];
    assert_eq!(object["refunded_amount"], 400, "{event}");
    assert_eq!(object["refundable_amount"], 600);
    assert_eq!(object["state"], "partially_refunded");
}

async fn a_subscription_shows_subscription_created(h: &Harness) {
    let customer = new_customer();
    let (_, subscription) = subscribe(h, &customer, "demo-monthly", cards::VISA_OK).await;
    let types = types_of(h, &subscription).await;
    assert_eq!(count(&types, "subscription.created"), 1, "{types:?}");
    let event = only_event(h, &subscription, "subscription.created").await;
    let object = &event["data"]["object"];
    assert_eq!(object["object"], "subscription", "{event}");
    assert_eq!(object["id"], subscription.as_str());
    assert_eq!(object["customer_id"], customer.as_str());
    assert_eq!(object["plan_id"], "demo-monthly");
    assert_eq!(object["status"], "active");
}

async fn a_saved_and_removed_card_shows_its_events(h: &Harness) {
    let customer = new_customer();
    let card = save_card_by_paying(h, &customer).await;
    let card_id = card["id"].as_str().expect("id");
    assert_eq!(types_of(h, &customer).await, vec!["customer.card_saved"]);
    let deleted = call(
        h,
        Method::DELETE,
        &format!("/v1/customers/{customer}/cards/{card_id}"),
        None,
    )
    .await;
    assert_eq!(deleted.status, 204, "{}", deleted.text);
    assert_eq!(
        types_of(h, &customer).await,
        vec!["customer.card_saved", "customer.card_removed"]
    );
    for kind in ["customer.card_saved", "customer.card_removed"] {
        let event = only_event(h, &customer, kind).await;
        let object = &event["data"]["object"];
        assert_eq!(object["object"], "card", "{event}");
        assert_eq!(object["id"], card_id);
        assert_eq!(object["customer_id"], customer.as_str());
        assert_eq!(object["brand"], "visa");
        assert_eq!(object["last4"], "4242");
        let text = event.to_string();
        assert!(
            !text.contains(cards::VISA_OK) && !text.contains("token"),
            "{text}"
        );
    }
}

async fn bad_event_queries_name_the_parameter(h: &Harness) {
    for (query, field) in [
        ("type=payment.paid", "type"),
        ("object_id=", "object_id"),
        ("created_gte=yesterday", "created_gte"),
        ("created_lt=2026-13-01T00:00:00Z", "created_lt"),
        ("limit=0", "limit"),
        ("limit=1000", "limit"),
        ("starting_after=nonsense", "starting_after"),
        ("starting_after=1700000000000_evt_abc", "starting_after"),
    ] {
        call(h, Method::GET, &format!("/v1/events?{query}"), None)
            .await
            .assert_error(400, "invalid_field", Some(field));
    }
    call(h, Method::GET, "/v1/events?order=asc", None)
        .await
        .assert_error(400, "unknown_parameter", Some("order"));
    for id in ["nothing", "evt_%00"] {
        call(h, Method::GET, &format!("/v1/events/{id}"), None)
            .await
            .assert_error(404, "not_found", None);
        Reply::read(
            h.merchant(Method::POST, &format!("/v1/events/{id}/redeliver"))
                .header("Idempotency-Key", "unknown-event")
                .send()
                .await
                .expect("sent"),
        )
        .await
        .assert_error(404, "not_found", None);
    }
    let anonymous = Reply::read(
        h.api
            .get(format!("{}/v1/events", h.base))
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text);
}
