//! An operator captures part of an authorization, and voids another: each through a
//! confirmation step, done once on a double submit, sent to the gateway once, audited; a void
//! with an amount and a capture beyond the authorization are refused naming `amount`, with
//! nothing sent; a viewer's capture is a 403.

use checkout_sandbox::ledger::RecordKind;
use checkout_server::store::prelude::*;
use serde_json::json;

use super::support::{Browser, dashboard_suite, hidden, location};
use crate::api::support::{Harness, TestSession, cards};

dashboard_suite!(
    a_partial_capture_is_confirmed_done_once_and_audited,
    a_void_releases_the_authorization_once
);

/// An authorization of `amount` minor units of EUR (a session with `capture: false`).
async fn authorized(h: &Harness, amount: u64) -> (TestSession, String) {
    let session = h
        .session(amount, json!({"currency": "EUR", "capture": false}))
        .await;
    let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
    h.complete_3ds(&redirect, "approve").await;
    let result = h.result(&session).await;
    assert_eq!(result["state"], "authorized", "{result}");
    let id = result["payment_id"]
        .as_str()
        .expect("payment id")
        .to_owned();
    (session, id)
}

async fn a_partial_capture_is_confirmed_done_once_and_audited(h: &Harness) {
    let (session, id) = authorized(h, 1000).await;
    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let page = operator.get(&format!("/payments/{id}")).await;
    assert!(page.text.contains("Capture amount (EUR)"), "{}", page.text);
    let key = hidden(&page.text, "idempotency_key").expect("the form's key");
    let path = format!("/payments/{id}/capture");

    let seen = viewer.get(&format!("/payments/{id}")).await;
    assert!(!seen.text.contains("Capture amount"), "{}", seen.text);
    let refused = viewer
        .post(
            &path,
            &[
                ("csrf", viewer.csrf.as_str()),
                ("idempotency_key", "viewer"),
                ("amount", "1.00"),
                ("confirm", "yes"),
            ],
        )
        .await;
    assert_eq!(refused.status, 403, "{}", refused.text);

    let too_much = [
        ("csrf", operator.csrf.as_str()),
        ("idempotency_key", "too-much"),
        ("amount", "10.01"),
        ("confirm", "yes"),
    ];
    let over = operator.post(&path, &too_much).await;
    assert!(over.status == 400 || over.status == 409, "{}", over.text);
    assert_eq!(
        h.gateway_records(&session.reference, RecordKind::Capture),
        0
    );

    let ask = [
        ("csrf", operator.csrf.as_str()),
        ("idempotency_key", key.as_str()),
        ("amount", "6.00"),
    ];
    let confirm = operator.post(&path, &ask).await;
    assert_eq!(confirm.status, 200, "{}", confirm.text);
    assert_eq!(
        h.gateway_records(&session.reference, RecordKind::Capture),
        0
    );
    let confirmed = [
        ("csrf", operator.csrf.as_str()),
        ("idempotency_key", key.as_str()),
        ("amount", "6.00"),
        ("confirm", "yes"),
    ];
    let done = operator.post(&path, &confirmed).await;
    assert_eq!(done.status, 303, "{}", done.text);
    let again = operator.post(&path, &confirmed).await;
    assert_eq!(location(&again), format!("/payments/{id}?done=repeat"));
    assert_eq!(
        h.gateway_records(&session.reference, RecordKind::Capture),
        1
    );
    let payment = h.store().get_payment(&id).await.unwrap().expect("payment");
    assert_eq!(payment.state, checkout::contract::PaymentState::Captured);
    assert_eq!(payment.captured_amount, 600);

    let lines = h.store().payment_audit(&id).await.unwrap();
    let captures: Vec<_> = lines
        .iter()
        .filter(|l| l.entry.action == "capture" && l.entry.outcome == "ok")
        .collect();
    assert_eq!(captures.len(), 1, "{lines:?}");
    assert_eq!(captures[0].entry.amount, Some(600));
}

async fn a_void_releases_the_authorization_once(h: &Harness) {
    let (session, id) = authorized(h, 1000).await;
    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let page = operator.get(&format!("/payments/{id}")).await;
    let key = hidden(&page.text, "idempotency_key").expect("the form's key");
    let path = format!("/payments/{id}/void");

    let with_amount = operator
        .post(
            &path,
            &[
                ("csrf", operator.csrf.as_str()),
                ("idempotency_key", "amount"),
                ("amount", "1.00"),
                ("confirm", "yes"),
            ],
        )
        .await;
    assert_eq!(with_amount.status, 400, "{}", with_amount.text);
    assert!(with_amount.text.contains("amount"), "{}", with_amount.text);
    assert_eq!(h.gateway_records(&session.reference, RecordKind::Void), 0);

    let confirmed = [
        ("csrf", operator.csrf.as_str()),
        ("idempotency_key", key.as_str()),
        ("amount", ""),
        ("confirm", "yes"),
    ];
    let done = operator.post(&path, &confirmed).await;
    assert_eq!(done.status, 303, "{}", done.text);
    let again = operator.post(&path, &confirmed).await;
    assert_eq!(location(&again), format!("/payments/{id}?done=repeat"));
    assert_eq!(h.gateway_records(&session.reference, RecordKind::Void), 1);
    let payment = h.store().get_payment(&id).await.unwrap().expect("payment");
    assert_eq!(payment.state, checkout::contract::PaymentState::Voided);
    let lines = h.store().payment_audit(&id).await.unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l.entry.action == "void" && l.entry.outcome == "ok"),
        "{lines:?}"
    );
}
