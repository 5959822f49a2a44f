//! `/v1/webhook_endpoints`: an endpoint is created with a Standard Webhooks secret shown in
//! that answer only (and again, the same, to a replay of the same `Idempotency-Key`), listed
//! and read without it, changed, disabled and enabled again, given a new secret by rotation
//! (the old one signing for the overlap), and deleted. What is refused is in
//! endpoint_refusals.rs.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use checkout_server::store::prelude::*;
use reqwest::Method;
use secrecy::ExposeSecret as _;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::{DEAD_URL, call, create_endpoint};
use crate::api::support::{Harness, Reply, api_suite};

api_suite!(
    endpoints_are_created_listed_changed_and_deleted,
    the_secret_is_shown_only_when_issued_and_rotates_with_an_overlap,
    a_replayed_creation_shows_the_same_secret_until_it_is_replaced,
);

/// The secret of an answer: `whsec_` and the base64 of 24 bytes.
fn secret_of(reply: &Value) -> String {
    let secret = reply["secret"].as_str().expect("a secret").to_owned();
    let encoded = secret.strip_prefix("whsec_").expect("whsec_ prefix");
    assert_eq!(STANDARD.decode(encoded).expect("base64").len(), 24);
    secret
}

fn time_of(value: &Value) -> OffsetDateTime {
    OffsetDateTime::parse(value.as_str().expect("a time"), &Rfc3339).expect("RFC 3339")
}

async fn endpoints_are_created_listed_changed_and_deleted(h: &Harness) {
    let created = create_endpoint(h, json!({"description": "orders"})).await;
    let id = created["id"].as_str().expect("id").to_owned();
    let hex = id.strip_prefix("we_").expect("we_ prefix");
    assert!(
        hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()),
        "{id}"
    );
    assert_eq!(created["url"], DEAD_URL);
    assert_eq!(created["description"], "orders");
    assert_eq!(created["event_types"], json!(["*"]));
    assert_eq!(created["status"], "enabled");
    assert_eq!(created["disabled_reason"], Value::Null);
    assert_eq!(created["failing_since"], Value::Null);
    time_of(&created["created_at"]);
    time_of(&created["updated_at"]);
    secret_of(&created);

    let path = format!("/v1/webhook_endpoints/{id}");
    let shown = call(h, Method::GET, &path, None).await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    assert_eq!(shown.json["id"], id.as_str());
    assert!(shown.json.get("secret").is_none(), "{}", shown.text);

    let second = create_endpoint(
        h,
        json!({"url": "https://shop.example/hooks", "event_types": ["payment.captured", "session.completed"]}),
    )
    .await;
    assert_eq!(
        second["event_types"],
        json!(["payment.captured", "session.completed"])
    );
    let listed = call(h, Method::GET, "/v1/webhook_endpoints", None).await;
    assert_eq!(listed.status, 200, "{}", listed.text);
    assert_eq!(listed.json["has_more"], false);
    let data = listed.json["data"].as_array().expect("data");
    let ids: Vec<&str> = data.iter().filter_map(|e| e["id"].as_str()).collect();
    assert_eq!(ids, vec![id.as_str(), second["id"].as_str().expect("id")]);
    assert!(!listed.text.contains("whsec_"), "{}", listed.text);

    // Change the address, the types and the note; a null note removes it.
    let changed = call(
        h,
        Method::POST,
        &path,
        Some(json!({"url": "https://shop.example/events", "event_types": ["payment.refunded"], "description": null})),
    )
    .await;
    assert_eq!(changed.status, 200, "{}", changed.text);
    assert_eq!(changed.json["url"], "https://shop.example/events");
    assert_eq!(changed.json["event_types"], json!(["payment.refunded"]));
    assert_eq!(changed.json["description"], Value::Null);
    assert!(changed.json.get("secret").is_none());
    let kept = call(h, Method::POST, &path, Some(json!({}))).await;
    assert_eq!(kept.json["url"], "https://shop.example/events");
    assert_eq!(kept.json["event_types"], json!(["payment.refunded"]));

    // Disable, then enable (which clears the failure record the worker keeps).
    let disabled = call(h, Method::POST, &path, Some(json!({"status": "disabled"}))).await;
    assert_eq!(disabled.status, 200, "{}", disabled.text);
    assert_eq!(disabled.json["status"], "disabled");
    assert!(
        disabled.json["disabled_reason"].is_string(),
        "{}",
        disabled.text
    );
    let stored = h.store().get_endpoint(&id).await.unwrap().unwrap();
    assert_eq!(stored.status, EndpointStatus::Disabled);
    let enabled = call(
        h,
        Method::POST,
        &path,
        Some(json!({"status": "enabled", "event_types": ["*"]})),
    )
    .await;
    assert_eq!(enabled.json["status"], "enabled", "{}", enabled.text);
    assert_eq!(enabled.json["disabled_reason"], Value::Null);
    assert_eq!(enabled.json["event_types"], json!(["*"]));

    let deleted = call(h, Method::DELETE, &path, None).await;
    assert_eq!(deleted.status, 204, "{}", deleted.text);
    call(h, Method::GET, &path, None)
        .await
        .assert_error(404, "not_found", None);
    call(h, Method::DELETE, &path, None)
        .await
        .assert_error(404, "not_found", None);
    assert!(h.store().get_endpoint(&id).await.unwrap().is_none());
    let listed = call(h, Method::GET, "/v1/webhook_endpoints", None).await;
    assert_eq!(listed.json["data"].as_array().map(Vec::len), Some(1));
}

async fn the_secret_is_shown_only_when_issued_and_rotates_with_an_overlap(h: &Harness) {
    let created = create_endpoint(h, json!({})).await;
    let id = created["id"].as_str().expect("id");
    let first = secret_of(&created);
    let stored = h.store().get_endpoint(id).await.unwrap().unwrap();
    assert_eq!(stored.secret.expose_secret(), first);

    let path = format!("/v1/webhook_endpoints/{id}/rotate_secret");
    let before = OffsetDateTime::now_utc();
    let rotated = call(h, Method::POST, &path, None).await;
    assert_eq!(rotated.status, 200, "{}", rotated.text);
    let second = secret_of(&rotated.json);
    assert_ne!(second, first);
    let until = time_of(&rotated.json["previous_secret_expires_at"]);
    let day = time::Duration::hours(24);
    assert!(
        until >= before + day - time::Duration::seconds(2),
        "{until}"
    );
    assert!(until <= OffsetDateTime::now_utc() + day + time::Duration::seconds(2));
    let stored = h.store().get_endpoint(id).await.unwrap().unwrap();
    assert_eq!(stored.secret.expose_secret(), second);
    assert_eq!(
        stored
            .previous_secret
            .as_ref()
            .map(|s| s.expose_secret().to_owned()),
        Some(first.clone()),
        "the old secret keeps signing during the overlap"
    );

    // Not shown by any read.
    for read in [
        format!("/v1/webhook_endpoints/{id}"),
        "/v1/webhook_endpoints".to_owned(),
    ] {
        let reply = call(h, Method::GET, &read, None).await;
        assert_eq!(reply.status, 200);
        assert!(!reply.text.contains(&first) && !reply.text.contains(&second));
        assert!(!reply.text.contains("\"secret\""), "{}", reply.text);
    }

    // An overlap of a minute; none at all; too long.
    let short = call(h, Method::POST, &path, Some(json!({"overlap_seconds": 60}))).await;
    assert_eq!(short.status, 200, "{}", short.text);
    let until = time_of(&short.json["previous_secret_expires_at"]);
    assert!(until <= OffsetDateTime::now_utc() + time::Duration::seconds(62));
    let third = secret_of(&short.json);
    let none = call(h, Method::POST, &path, Some(json!({"overlap_seconds": 0}))).await;
    assert_eq!(none.status, 200, "{}", none.text);
    assert_eq!(none.json["previous_secret_expires_at"], Value::Null);
    assert_ne!(secret_of(&none.json), third);
    for bad in [
        json!({"overlap_seconds": 604_801}),
        json!({"overlap_seconds": -1}),
    ] {
        call(h, Method::POST, &path, Some(bad)).await.assert_error(
            400,
            "invalid_field",
            Some("overlap_seconds"),
        );
    }
    assert!(
        call(
            h,
            Method::POST,
            &path,
            Some(json!({"overlap_seconds": 604_800}))
        )
        .await
        .status
            == 200
    );
}

async fn a_replayed_creation_shows_the_same_secret_until_it_is_replaced(h: &Harness) {
    let create = |key: &'static str, body: Value| async move {
        Reply::read(
            h.merchant(Method::POST, "/v1/webhook_endpoints")
                .header("Idempotency-Key", key)
                .json(&body)
                .send()
                .await
                .expect("sent"),
        )
        .await
    };
    let body = json!({"url": DEAD_URL, "event_types": ["payment.captured"]});
    let first = create("create-endpoint-1", body.clone()).await;
    assert_eq!(first.status, 201, "{}", first.text);
    assert!(first.json.get("secret_sha256").is_none(), "{}", first.text);
    let again = create("create-endpoint-1", body.clone()).await;
    assert_eq!(again.status, 201, "{}", again.text);
    assert_eq!(again.headers["idempotent-replayed"], "true");
    assert_eq!(again.json["id"], first.json["id"]);
    assert_eq!(secret_of(&again.json), secret_of(&first.json));
    assert!(again.json.get("secret_sha256").is_none(), "{}", again.text);
    let listed = call(h, Method::GET, "/v1/webhook_endpoints", None).await;
    assert_eq!(listed.json["data"].as_array().map(Vec::len), Some(1));

    create(
        "create-endpoint-1",
        json!({"url": "https://shop.example/other"}),
    )
    .await
    .assert_error(409, "idempotency_key_reused", Some("Idempotency-Key"));

    // After a rotation the first secret is gone: a replay says so instead of showing another.
    let id = first.json["id"].as_str().expect("id");
    let rotate = |key: &'static str| async move {
        Reply::read(
            h.merchant(
                Method::POST,
                &format!("/v1/webhook_endpoints/{id}/rotate_secret"),
            )
            .header("Idempotency-Key", key)
            .send()
            .await
            .expect("sent"),
        )
        .await
    };
    let rotated = rotate("rotate-1").await;
    assert_eq!(rotated.status, 200, "{}", rotated.text);
    let replayed = rotate("rotate-1").await;
    assert_eq!(replayed.headers["idempotent-replayed"], "true");
    assert_eq!(secret_of(&replayed.json), secret_of(&rotated.json));
    create("create-endpoint-1", body.clone())
        .await
        .assert_error(409, "secret_unavailable", None);

    // What the store keeps for the keys holds neither secret.
    let secrets = [secret_of(&first.json), secret_of(&rotated.json)];
    for (scope, bytes) in [
        (
            "merchant:/v1/webhook_endpoints".to_owned(),
            serde_json::to_vec(&body).expect("json"),
        ),
        (
            format!("merchant:/v1/webhook_endpoints/{id}/rotate_secret"),
            Vec::new(),
        ),
    ] {
        let key = if bytes.is_empty() {
            "rotate-1"
        } else {
            "create-endpoint-1"
        };
        let key = IdempotencyKey::new(scope, key).expect("key");
        match h
            .store()
            .begin_idempotent(&key, &BodyDigest::of(&bytes), OffsetDateTime::now_utc())
            .await
            .unwrap()
        {
            IdempotencyBegin::Completed(stored) => {
                for secret in &secrets {
                    assert!(!stored.body.contains(secret.as_str()), "{}", stored.body);
                }
                assert!(stored.body.contains("secret_sha256"), "{}", stored.body);
            }
            other => panic!("expected the stored answer, got {other:?}"),
        }
    }
}
