//! Issue 32: a shopper who leaves a 3-D Secure payment at the bank pays again at once (the new
//! payment supersedes the old), and one session is never charged twice: a late approval of
//! either payment is reversed by the server itself (refund, or void for an authorization),
//! at once or, after a crash, by the reconciler. A superseded payment that never hears back
//! goes to staff (`needs_review`, `unverified_at_the_bank`), even once its session is paid:
//! the bank may have charged it (issue 45).

use std::time::Duration;

use checkout::contract::PaymentState;
use checkout_sandbox::ledger::RecordKind;
use checkout_server::store::prelude::*;
use serde_json::{Value, json};

use crate::api::support::{Harness, TestSession, cards, eventually, of_session, param};
use crate::attempts::support::{attempt_ids, held, until_state};
use crate::ops::support::{arm, in_seconds, ops_suite, reconciler, send};
use crate::sandbox::support::AcsForm;

const CONFIG: &[(&str, &str)] = &[("PAYMENT_REVIEW_AFTER_SECONDS", "600")];

ops_suite!(
    pay_again_after_leaving_the_bank,
    superseded_then_session_open_again,
    late_approval_of_the_superseded_payment_is_refunded,
    late_approval_of_a_superseded_authorization_is_voided,
    the_later_approval_is_the_surplus,
    a_crash_before_the_reversal_is_repaired_by_the_reconciler,
    superseded_and_unheard_goes_to_review,
);

/// The shopper's way to the bank and back: longer than the double-click guard, within
/// which a second pay is the same click and answered `payment_in_progress`.
async fn back_from_the_bank() {
    tokio::time::sleep(
        checkout_server::payments::supersede::DOUBLE_CLICK_GUARD + Duration::from_millis(100),
    )
    .await;
}

/// The merchant view of `session`.
async fn session_view(h: &Harness, session: &TestSession) -> Value {
    let reply = send(h.merchant(
        reqwest::Method::GET,
        &format!("/v1/sessions/{}", session.id),
    ))
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json
}

/// Approved records of `kind` the emulator holds for `reference`.
fn approved(h: &Harness, reference: &str, kind: RecordKind) -> usize {
    h.sandbox
        .ledger
        .all()
        .iter()
        .filter(|r| of_session(&r.merchant.merchant_txn_ref, reference) && r.kind == kind)
        .filter(|r| r.is_approved())
        .count()
}

/// Checks the surplus rule's record of `id`: its event, the audit line by the system naming
/// `keeper`, and the mark in the merchant view.
async fn assert_reversed_as_surplus(
    h: &Harness,
    id: &str,
    keeper: &str,
    event: &str,
    action: &str,
) {
    let events = h.store().object_events(id).await.expect("events");
    assert!(events.iter().any(|e| e.kind == event), "{events:?}");
    // The audit line is written right after the reversal it reports is recorded.
    let line = eventually(
        &format!("a {action} line"),
        Duration::from_secs(5),
        || async {
            let audit = h.store().payment_audit(id).await.expect("audit");
            audit.into_iter().find(|l| l.entry.action == action)
        },
    )
    .await;
    assert_eq!(line.entry.staff_email, "system");
    assert_eq!(line.entry.outcome, "ok");
    assert_eq!(
        line.entry.detail.as_deref(),
        Some(format!("surplus charge: session already paid by payment {keeper}").as_str())
    );
    let payment = h.payment(id).await;
    assert_eq!(payment["surplus_of"], keeper);
    // The session was completed once, by the payment that keeps the charge (migration 0013).
    let session = payment["session_id"].as_str().expect("session id");
    let completed: Vec<_> = h
        .store()
        .object_events(session)
        .await
        .expect("session events")
        .into_iter()
        .filter(|e| e.kind == "session.completed")
        .collect();
    assert_eq!(completed.len(), 1, "{completed:?}");
}

async fn pay_again_after_leaving_the_bank(h: &Harness) {
    let session = h.session(1500, json!({})).await;
    let _left_at_the_bank = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    assert_eq!(session_view(h, &session).await["status"], "processing");
    // The same click again is refused as before.
    h.pay(
        &session,
        &crate::api::support::pay_body(cards::FRICTIONLESS, "123"),
        None,
    )
    .await
    .assert_error(409, "payment_in_progress", None);
    back_from_the_bank().await;

    // Another card, back from the bank: a redirect, not 409.
    let redirect = h.pay_to_redirect(&session, cards::FRICTIONLESS).await;
    let landed = h.complete_3ds(&redirect, "approve").await;
    assert_eq!(param(&landed, "checkout").as_deref(), Some("paid"));

    let ids = attempt_ids(h, &session).await;
    assert_eq!(ids.len(), 2);
    let view = session_view(h, &session).await;
    assert_eq!(view["status"], "paid", "{view}");
    let listed = view["payments"].as_array().expect("payments");
    let first = listed
        .iter()
        .find(|p| p["id"] == ids[0].as_str())
        .expect("first listed");
    assert_eq!(first["state"], "pending");
    assert_eq!(first["superseded_by"], ids[1].as_str());
    assert_eq!(h.result(&session).await["state"], "captured");
    assert_eq!(approved(h, &session.reference, RecordKind::Purchase), 1);
    assert_eq!(held(h, &session.reference), 1500);
}

async fn superseded_then_session_open_again(h: &Harness) {
    let session = h.session(700, json!({})).await;
    h.pay_to_redirect(&session, cards::CHALLENGE).await;
    back_from_the_bank().await;
    let second = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    // The shopper rejects the second at the bank: only the superseded one is left in flight.
    h.complete_3ds(&second, "reject").await;
    let view = session_view(h, &session).await;
    assert_eq!(view["status"], "open", "{view}");
    // And can pay a third time (the claim was given back).
    let third = h.pay_to_redirect(&session, cards::FRICTIONLESS).await;
    h.complete_3ds(&third, "approve").await;
    assert_eq!(session_view(h, &session).await["status"], "paid");
    assert_eq!(held(h, &session.reference), 700);
}

/// Pay A (left at the bank), pay B, approve B, then A: A is reversed with `event`/`action`.
async fn late_approval_of_a(h: &Harness, extra: Value, event: &str, action: &str, end: &str) {
    let session = h.session(1200, extra).await;
    let a = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    back_from_the_bank().await;
    let b = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    h.complete_3ds(&b, "approve").await;
    let ids = attempt_ids(h, &session).await;
    let (a_id, b_id) = (ids[0].clone(), ids[1].clone());
    assert!(
        h.payment(&b_id).await["state"]
            .as_str()
            .is_some_and(|s| s != "pending")
    );

    // The bank approves A after all (a page left open in another tab).
    h.complete_3ds(&a, "approve").await;
    until_state(h, &a_id, end).await;
    assert_reversed_as_surplus(h, &a_id, &b_id, event, action).await;
    let b_view = h.payment(&b_id).await;
    assert!(
        matches!(b_view["state"].as_str(), Some("captured" | "authorized")),
        "{b_view}"
    );
    assert_eq!(b_view["surplus_of"], Value::Null);
    assert_eq!(session_view(h, &session).await["status"], "paid");
    let charged = h.sandbox.ledger.all();
    let reference = &session.reference;
    let reversals = charged
        .iter()
        .filter(|r| of_session(&r.merchant.merchant_txn_ref, reference))
        .filter(|r| matches!(r.kind, RecordKind::Refund | RecordKind::Void) && r.is_approved())
        .count();
    assert_eq!(reversals, 1, "one reversal at the gateway");
    assert_eq!(held(h, reference), 1200, "the card carries one amount");
}

async fn late_approval_of_the_superseded_payment_is_refunded(h: &Harness) {
    late_approval_of_a(
        h,
        json!({}),
        "payment.refunded",
        "surplus_refund",
        "refunded",
    )
    .await;
}

async fn late_approval_of_a_superseded_authorization_is_voided(h: &Harness) {
    late_approval_of_a(
        h,
        json!({"capture": false}),
        "payment.voided",
        "surplus_void",
        "voided",
    )
    .await;
}

async fn the_later_approval_is_the_surplus(h: &Harness) {
    let session = h.session(900, json!({})).await;
    let a = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    back_from_the_bank().await;
    let b = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    // The superseded A is approved first: it keeps the charge; B, approved next, is surplus.
    h.complete_3ds(&a, "approve").await;
    let ids = attempt_ids(h, &session).await;
    let (a_id, b_id) = (ids[0].clone(), ids[1].clone());
    until_state(h, &a_id, "captured").await;
    assert_eq!(session_view(h, &session).await["status"], "paid");
    h.complete_3ds(&b, "approve").await;
    until_state(h, &b_id, "refunded").await;
    assert_reversed_as_surplus(h, &b_id, &a_id, "payment.refunded", "surplus_refund").await;
    assert_eq!(h.payment(&a_id).await["state"], "captured");
    assert_eq!(held(h, &session.reference), 900);
}

async fn a_crash_before_the_reversal_is_repaired_by_the_reconciler(h: &Harness) {
    let session = h.session(1100, json!({})).await;
    let a = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    back_from_the_bank().await;
    let b = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    h.complete_3ds(&b, "approve").await;
    let ids = attempt_ids(h, &session).await;
    let (a_id, b_id) = (ids[0].clone(), ids[1].clone());
    // B's own webhook has come, so the fault below drops A's.
    eventually("B's webhook", Duration::from_secs(5), || async {
        let hooks = h.store().list_webhooks(&b_id).await.expect("webhooks");
        (!hooks.is_empty()).then_some(())
    })
    .await;

    // The bank approves A; the shopper's browser never comes back and its webhook is lost.
    arm(h, "webhook=drop-webhook*1");
    let page = h.browser.get(&a).send().await.expect("ACS");
    let html = page.text().await.expect("ACS html");
    let answer = AcsForm::parse(&html).submit(&h.api, "approve").await;
    let back = answer
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|l| l.to_str().ok())
        .and_then(|l| reqwest::Url::parse(l).ok())
        .expect("redirect back");
    let transaction_id = param(&back, "transaction_id").expect("transaction id");

    // A server confirmed A (status lookup) and died before the surplus rule ran: the step is
    // recorded, nothing else.
    let changes = PaymentChanges {
        gateway_transaction_id: Some(transaction_id),
        ..PaymentChanges::default()
    };
    let stepped = h
        .store()
        .advance_payment(
            &a_id,
            &[PaymentState::Pending],
            PaymentState::Captured,
            changes,
        )
        .await
        .expect("step");
    assert!(stepped.moved());
    assert!(
        stepped.payment().retry.surplus_due_at.is_some(),
        "the rule is due, durably"
    );
    assert_eq!(h.payment(&a_id).await["state"], "captured");

    let report = reconciler(h).run_once().await;
    assert_eq!(report.surplus_reversed, 1, "{report:?}");
    assert_eq!(h.payment(&a_id).await["state"], "refunded");
    assert_reversed_as_surplus(h, &a_id, &b_id, "payment.refunded", "surplus_refund").await;
    assert_eq!(held(h, &session.reference), 1100);
    // Nothing is left due: a second pass reverses nothing.
    let again = reconciler(h).run_once().await;
    assert_eq!(again.surplus_reversed, 0, "{again:?}");
    let stored = h
        .store()
        .get_payment(&a_id)
        .await
        .expect("read")
        .expect("a");
    assert_eq!(stored.retry.surplus_due_at, None);
}

async fn superseded_and_unheard_goes_to_review(h: &Harness) {
    let session = h.session(1300, json!({})).await;
    let a = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    back_from_the_bank().await;
    let b = h.pay_to_redirect(&session, cards::FRICTIONLESS).await;
    h.complete_3ds(&b, "approve").await;
    let ids = attempt_ids(h, &session).await;
    let a_id = ids[0].clone();

    let report = reconciler(h).run_once_at(in_seconds(601)).await;
    assert_eq!(report.payments_to_review, 1, "{report:?}");
    let view = h.payment(&a_id).await;
    assert_eq!(view["state"], "needs_review", "{view}");
    assert_eq!(view["review_reason"], "unverified_at_the_bank");
    let queue = h
        .state
        .payments
        .review_queue(in_seconds(601), Duration::from_secs(600), 100)
        .await
        .expect("queue");
    assert!(queue.iter().any(|p| p.id == a_id), "for staff: {queue:?}");

    // A charge proven on it later is recorded and reversed, not lost.
    h.complete_3ds(&a, "approve").await;
    until_state(h, &a_id, "refunded").await;
    assert_eq!(held(h, &session.reference), 1300);
    assert_eq!(session_view(h, &session).await["paid_by"], ids[1].as_str());
}
