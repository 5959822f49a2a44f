//! `Idempotency-Key` and double pays: the same key and body replay the stored answer with no
//! second gateway call; another body under the same key is a 409; concurrent pays — with one
//! key or with none — make exactly one gateway call, counted at the emulator. The pay call
//! takes its key in the statement that records its payment: a repeat after a declined payment
//! (claim free again) still replays, and a new key on a busy session is refused and released.

use std::time::Duration;

use serde_json::json;

use checkout_server::store::model::{IdempotencyBegin, IdempotencyKey};
use checkout_server::store::prelude::*;

use crate::api::support::{Harness, Reply, TestSession, api_suite, cards, eventually, pay_body};

api_suite!(
    repeated_pay_is_replayed,
    the_key_record_keeps_nothing_of_the_security_code,
    concurrent_pays_charge_once,
    merchant_posts_are_idempotent,
    replayed_session_keeps_a_working_secret_that_is_never_stored,
    an_interrupted_key_is_reported_at_once,
    a_key_whose_payment_was_declined_replays_it,
    a_new_key_on_a_busy_session_is_refused_and_released,
);

async fn repeated_pay_is_replayed(h: &Harness) {
    let session = h.session(1000, json!({})).await;
    let body = pay_body(cards::CHALLENGE, "123");
    let first = h.pay(&session, &body, Some("attempt-1")).await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert!(first.headers.get("idempotent-replayed").is_none());
    let second = h.pay(&session, &body, Some("attempt-1")).await;
    assert_eq!(second.status, 200);
    assert_eq!(second.text, first.text);
    assert_eq!(second.headers["idempotent-replayed"], "true");
    assert_eq!(h.gateway_charges(&session.reference), 1);

    let other_body = pay_body(cards::VISA_OK, "123");
    h.pay(&session, &other_body, Some("attempt-1"))
        .await
        .assert_error(409, "idempotency_key_reused", Some("Idempotency-Key"));
    let bad_key = h.pay(&session, &body, Some("a key with spaces")).await;
    bad_key.assert_error(400, "invalid_idempotency_key", Some("Idempotency-Key"));
    assert_eq!(h.gateway_charges(&session.reference), 1);
}

/// The key's record is a digest of the body without the security code and with only the
/// number's first six and last four digits (PCI DSS 3.3.1, 3.5.1): a body that differs only in
/// the security code is the same request, anything else is another.
async fn the_key_record_keeps_nothing_of_the_security_code(h: &Harness) {
    let session = h.session(1000, json!({})).await;
    let body = pay_body(cards::CHALLENGE, "123");
    let first = h.pay(&session, &body, Some("cvc-digest")).await;
    assert_eq!(first.status, 200, "{}", first.text);
    let other_code = h
        .pay(
            &session,
            &pay_body(cards::CHALLENGE, "987"),
            Some("cvc-digest"),
        )
        .await;
    assert_eq!(other_code.status, 200, "{}", other_code.text);
    assert_eq!(other_code.headers["idempotent-replayed"], "true");
    let mut other_name = body.clone();
    other_name["card"]["name"] = json!("Someone Else");
    h.pay(&session, &other_name, Some("cvc-digest"))
        .await
        .assert_error(409, "idempotency_key_reused", Some("Idempotency-Key"));
    let raw = serde_json::to_vec(&body).expect("body");
    let record = IdempotencyKey::new(format!("pay:{}", session.id), "cvc-digest").expect("key");
    let begun = h
        .store()
        .begin_idempotent(
            &record,
            &BodyDigest::of(&raw),
            time::OffsetDateTime::now_utc(),
        )
        .await
        .expect("key record");
    assert!(
        matches!(begun, IdempotencyBegin::Conflict),
        "the record is not the digest of the raw body: {begun:?}"
    );
    assert_eq!(h.gateway_charges(&session.reference), 1);
}

async fn concurrent_pays_charge_once(h: &Harness) {
    // Same key, at the same moment: one runs, the other waits for its answer.
    let session = h.session(1000, json!({})).await;
    let body = pay_body(cards::CHALLENGE, "123");
    let (a, b) = tokio::join!(
        h.pay(&session, &body, Some("double-click")),
        h.pay(&session, &body, Some("double-click")),
    );
    assert_eq!((a.status, b.status), (200, 200), "{} / {}", a.text, b.text);
    assert_eq!(a.json, b.json);
    assert_eq!(h.gateway_charges(&session.reference), 1);

    // No key (two tabs): one pays, the other is told a payment is in progress.
    let session = h.session(1000, json!({})).await;
    let replies: Vec<Reply> = futures_join(h, &session, &body).await;
    let ok = replies.iter().filter(|r| r.status == 200).count();
    assert_eq!(ok, 1, "{replies:?}");
    for refused in replies.iter().filter(|r| r.status != 200) {
        refused.assert_error(409, "payment_in_progress", None);
    }
    assert_eq!(h.gateway_charges(&session.reference), 1);
}

async fn futures_join(
    h: &Harness,
    session: &crate::api::support::TestSession,
    body: &serde_json::Value,
) -> Vec<Reply> {
    let (a, b, c) = tokio::join!(
        h.pay(session, body, None),
        h.pay(session, body, None),
        h.pay(session, body, None)
    );
    vec![a, b, c]
}

async fn merchant_posts_are_idempotent(h: &Harness) {
    let body = json!({"amount": 4200, "currency": "EUR", "reference": "order-idem-1"});
    let create = || create_session(h, &body, "create-order-idem-1");
    let first = create().await;
    assert_eq!(first.status, 201, "{}", first.text);
    let second = create().await;
    assert_eq!(second.status, 201);
    assert_eq!(second.json["id"], first.json["id"]);
    assert_eq!(second.headers["idempotent-replayed"], "true");

    let session = h.session(900, json!({"capture": false})).await;
    let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
    h.complete_3ds(&redirect, "approve").await;
    let id = h.result(&session).await["payment_id"]
        .as_str()
        .expect("id")
        .to_owned();
    let capture = || async {
        Reply::read(
            h.merchant(reqwest::Method::POST, &format!("/v1/payments/{id}/capture"))
                .header("Idempotency-Key", "capture-1")
                .json(&json!({"amount": 500}))
                .send()
                .await
                .expect("sent"),
        )
        .await
    };
    let (a, b) = tokio::join!(capture(), capture());
    assert_eq!((a.status, b.status), (200, 200), "{} / {}", a.text, b.text);
    assert_eq!(a.json["captured_amount"], 500);
    assert_eq!(
        h.gateway_records(
            &session.reference,
            checkout_sandbox::ledger::RecordKind::Capture
        ),
        1
    );
}

/// The create answer an `Idempotency-Key` stores holds no client secret, yet the replay shows
/// the same secret as the first answer, and it opens the session.
async fn replayed_session_keeps_a_working_secret_that_is_never_stored(h: &Harness) {
    let body = json!({"amount": 1500, "currency": "EUR", "reference": "order-idem-secret"});
    let create = || create_session(h, &body, "create-order-idem-secret");
    let first = create().await;
    assert_eq!(first.status, 201, "{}", first.text);
    let replay = create().await;
    assert_eq!(replay.status, 201, "{}", replay.text);
    assert_eq!(replay.headers["idempotent-replayed"], "true");
    let secret = first.json["client_secret"].as_str().expect("secret");
    assert_eq!(replay.json["client_secret"], secret);
    assert_eq!(replay.json["id"], first.json["id"]);

    let session = TestSession {
        id: replay.json["id"].as_str().expect("id").to_owned(),
        secret: secret.to_owned(),
        reference: "order-idem-secret".into(),
    };
    let view = Reply::read(
        h.checkout(reqwest::Method::GET, &session, "")
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(view.status, 200, "{}", view.text);

    let key =
        IdempotencyKey::new("merchant:/v1/sessions", "create-order-idem-secret").expect("key");
    let digest = BodyDigest::of(&serde_json::to_vec(&body).expect("json"));
    let stored = h
        .store()
        .begin_idempotent(&key, &digest, time::OffsetDateTime::now_utc())
        .await
        .expect("store");
    let IdempotencyBegin::Completed(stored) = stored else {
        panic!("the create answer is stored");
    };
    assert!(stored.body.contains(&session.id), "{}", stored.body);
    assert!(
        !stored.body.contains(secret),
        "the stored answer holds the secret"
    );
    assert!(!stored.body.contains("client_secret"), "{}", stored.body);
}

/// A key whose first request died before its answer was stored (left "in progress" long ago)
/// gets a clear 409 (not a wait ending in "still processing"); another body under the key is
/// still a reuse.
async fn an_interrupted_key_is_reported_at_once(h: &Harness) {
    let body = json!({"amount": 700, "currency": "EUR", "reference": "order-idem-crashed"});
    let key =
        IdempotencyKey::new("merchant:/v1/sessions", "create-order-idem-crashed").expect("key");
    let digest = BodyDigest::of(&serde_json::to_vec(&body).expect("json"));
    let crashed_at = time::OffsetDateTime::now_utc() - time::Duration::minutes(10);
    let begun = h
        .store()
        .begin_idempotent(&key, &digest, crashed_at)
        .await
        .expect("store");
    assert!(matches!(begun, IdempotencyBegin::New));

    create_session(h, &body, "create-order-idem-crashed")
        .await
        .assert_error(409, "idempotency_key_interrupted", None);
    let other = json!({"amount": 800, "currency": "EUR", "reference": "order-idem-crashed"});
    create_session(h, &other, "create-order-idem-crashed")
        .await
        .assert_error(409, "idempotency_key_reused", Some("Idempotency-Key"));
}

async fn a_key_whose_payment_was_declined_replays_it(h: &Harness) {
    let session = h.session(1300, json!({})).await;
    let body = pay_body(cards::DO_NOT_HONOUR, "123");
    let first = h.pay(&session, &body, Some("declined-once")).await;
    assert_eq!(first.json["next_action"], "redirect", "{}", first.text);
    let redirect = first.json["redirect_url"].as_str().expect("url");
    h.complete_3ds(redirect, "approve").await;
    assert_eq!(h.result(&session).await["state"], "declined");

    // The session may be paid again, but not under the same key: that is a repeat.
    let again = h.pay(&session, &body, Some("declined-once")).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.text, first.text);
    assert_eq!(again.headers["idempotent-replayed"], "true");
    assert_eq!(h.gateway_charges(&session.reference), 1);
    assert_eq!(
        h.stored_payments(&session).await.len(),
        1,
        "no second payment"
    );

    let fresh = h
        .pay(
            &session,
            &pay_body(cards::VISA_OK, "123"),
            Some("second-try"),
        )
        .await;
    assert_eq!(fresh.json["next_action"], "redirect", "{}", fresh.text);
    assert_eq!(h.gateway_charges(&session.reference), 2);
}

async fn a_new_key_on_a_busy_session_is_refused_and_released(h: &Harness) {
    // The first payment's 3DS start is processed but its answer lost (a 503 after acting):
    // its outcome is unknown, so it is in flight (one waiting at the ACS page would be
    // superseded instead: pay_again.rs).
    h.sandbox.faults.arm(
        checkout_sandbox::faults::ArmedFault::new(
            Some("paymentv2"),
            "status:503:after"
                .parse::<checkout_sandbox::faults::Fault>()
                .expect("fault"),
            Some(1),
        )
        .expect("armed"),
    );
    let session = h.session(1400, json!({})).await;
    let first = h
        .pay(&session, &pay_body(cards::CHALLENGE, "123"), Some("tab-1"))
        .await;
    assert_eq!(first.json["next_action"], "none", "{}", first.text);
    // The first payment is in flight: another tab's key is refused, not kept.
    let body = pay_body(cards::VISA_OK, "123");
    for _ in 0..2 {
        h.pay(&session, &body, Some("tab-2"))
            .await
            .assert_error(409, "payment_in_progress", None);
    }
    let key = IdempotencyKey::new(format!("pay:{}", session.id), "tab-2").expect("key");
    let digest = BodyDigest::of(&serde_json::to_vec(&body).expect("json"));
    // Released right after the answer went out.
    eventually(
        "the refused request's key released",
        Duration::from_secs(2),
        || async {
            let found = h
                .store()
                .begin_idempotent(&key, &digest, time::OffsetDateTime::now_utc())
                .await
                .expect("store");
            (found == IdempotencyBegin::New).then_some(())
        },
    )
    .await;
    assert_eq!(h.gateway_charges(&session.reference), 1);
}

/// `POST /v1/sessions` with `body` under `Idempotency-Key: key`.
async fn create_session(h: &Harness, body: &serde_json::Value, key: &str) -> Reply {
    Reply::read(
        h.merchant(reqwest::Method::POST, "/v1/sessions")
            .header("Idempotency-Key", key)
            .json(body)
            .send()
            .await
            .expect("sent"),
    )
    .await
}
