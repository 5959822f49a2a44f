//! `/v1/events`: each change a shop acts on, made through the APIs and the sandbox (a payment
//! through 3-D Secure, a refund, a subscription, a card saved and removed), shows its event
//! exactly once, with the object as the merchant API shows it and no card number; and the
//! helpers the other event-API files share (listing.rs, attempts.rs).
//!
//! Deliveries are made by the delivery worker's fan-out; the tests fan out themselves
//! (`fan_out_events`, safe beside a running worker) and record attempts as a worker would,
//! with their own lease, so nothing depends on the worker's timing.

use reqwest::Method;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::call;
use crate::api::customer_cards::{new_customer, save_card_by_paying};
use crate::api::support::{Harness, api_suite, cards};
use crate::ops::support::subscribe;

api_suite!(
    a_paid_session_shows_payment_captured_and_session_completed,
    a_refund_shows_payment_refunded,
    a_subscription_shows_subscription_created,
    a_saved_and_removed_card_shows_its_events,
);

/// Pays a 1000 JPY session through 3-D Secure; returns the session id and the payment id.
pub(super) async fn paid(h: &Harness) -> (String, String) {
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
pub(super) async fn events(h: &Harness, query: &str) -> Value {
    let reply = call(h, Method::GET, &format!("/v1/events?{query}"), None).await;
    assert_eq!(reply.status, 200, "{query}: {}", reply.text);
    reply.json
}

/// The types of the events about `object_id`, oldest first.
pub(super) async fn types_of(h: &Harness, object_id: &str) -> Vec<String> {
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
pub(super) async fn only_event(h: &Harness, object_id: &str, kind: &str) -> Value {
    let page = events(h, &format!("object_id={object_id}&type={kind}")).await;
    let data = page["data"].as_array().expect("data");
    assert_eq!(data.len(), 1, "one {kind} for {object_id}: {page}");
    assert_eq!(page["has_more"], false);
    data[0].clone()
}

pub(super) fn count(types: &[String], kind: &str) -> usize {
    types.iter().filter(|t| *t == kind).count()
}

pub(super) fn ids(page: &Value) -> Vec<String> {
    page["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|e| e["id"].as_str().expect("id").to_owned())
        .collect()
}

pub(super) fn rfc3339(at: OffsetDateTime) -> String {
    at.format(&Rfc3339).expect("formats")
}

/// Fans out every event written so far (as the delivery worker does).
pub(super) async fn fan_out(h: &Harness) {
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
