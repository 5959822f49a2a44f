//! Issue 45's four reproductions, each on both backends: the rules for paying again must be
//! one rule, and a charge that cannot be proven either way must reach staff.

use std::time::Duration;

use checkout::contract::PaymentState;
use serde_json::json;

use super::support::{
    attempt_ids, back_from_the_bank, bank_decides_unseen, completions, live_charges, overlapping,
    shop_events, until_state,
};
use crate::api::support::{Harness, cards, pay_body};
use crate::ops::support::{in_seconds, ops_suite, reconciler, send};

const CONFIG: &[(&str, &str)] = &[("PAYMENT_REVIEW_AFTER_SECONDS", "600")];

ops_suite!(
    a_charge_with_lost_evidence_goes_to_staff_not_to_failed,
    a_paid_session_takes_no_new_pay_after_its_last_attempt_declines,
    a_voided_payment_keeps_its_session_paid_everywhere,
    the_session_is_completed_once_by_its_keeper_under_concurrency,
);

/// Reproduction 1: the bank approves attempt A while its webhook is lost and the shopper never returns;
/// the shopper pays again with B, captured. At A's deadline A may hold a charge nothing can
/// look up: it goes to review (`unverified_at_the_bank`), and the shop hears it. Today's main
/// closed it as `failed` and kept the second charge.
async fn a_charge_with_lost_evidence_goes_to_staff_not_to_failed(h: &Harness) {
    let session = h.session(1400, json!({})).await;
    let a = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    let charged = bank_decides_unseen(h, &a, "approve", true)
        .await
        .expect("the bank approved A");
    back_from_the_bank(h, &session).await;
    let b = h.pay_to_redirect(&session, cards::FRICTIONLESS).await;
    h.complete_3ds(&b, "approve").await;
    let ids = attempt_ids(h, &session).await;
    let (a_id, b_id) = (ids[0].clone(), ids[1].clone());
    assert_eq!(h.payment(&b_id).await["state"], "captured");
    assert_eq!(
        live_charges(h, &session.reference).len(),
        2,
        "the gateway holds both"
    );

    let report = reconciler(h).run_once_at(in_seconds(601)).await;
    assert_eq!(report.payments_to_review, 1, "{report:?}");
    let view = h.payment(&a_id).await;
    assert_eq!(view["state"], "needs_review", "{view}");
    assert_eq!(view["review_reason"], "unverified_at_the_bank");
    assert_eq!(view["superseded_by"], b_id.as_str());
    let events = shop_events(h, &session.id).await;
    let told = events
        .iter()
        .find(|e| e["type"] == "payment.needs_review")
        .expect("the shop hears it");
    assert_eq!(
        told["data"]["object"]["review_reason"],
        "unverified_at_the_bank"
    );
    let queue = h
        .state
        .payments
        .review_queue(in_seconds(601), Duration::from_secs(600), 100)
        .await
        .expect("queue");
    assert!(queue.iter().any(|p| p.id == a_id), "in front of staff");

    // Staff find A's transaction at the gateway by its reference and attach it: confirmed,
    // then reversed as a second charge of the paid session.
    assert!(
        view["reference"]
            .as_str()
            .is_some_and(|r| r.ends_with("-1")),
        "{view}"
    );
    h.state
        .payments
        .attach_transaction_id(&a_id, &charged)
        .await
        .expect("attached");
    let reversed = until_state(h, &a_id, "refunded").await;
    assert_eq!(reversed["surplus_of"], b_id.as_str());
    assert_eq!(reversed["reversal_reason"], "duplicate_attempt");
    let live = live_charges(h, &session.reference);
    assert_eq!(live.len(), 1, "{live:?}");
    assert!(
        live[0].merchant_txn_ref.ends_with("-2"),
        "B keeps the charge: {live:?}"
    );
}

/// Reproduction 2: a is left at the bank and superseded by B; the bank approves A, then B is declined.
/// The session is paid (by A): the decline gives nothing back, and a new pay is refused
/// before anything reaches the gateway. Today's main took and charged it.
async fn a_paid_session_takes_no_new_pay_after_its_last_attempt_declines(h: &Harness) {
    let session = h.session(800, json!({})).await;
    let a = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    back_from_the_bank(h, &session).await;
    let b = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    h.complete_3ds(&a, "approve").await;
    let ids = attempt_ids(h, &session).await;
    until_state(h, &ids[0], "captured").await;
    h.complete_3ds(&b, "reject").await;
    until_state(h, &ids[1], "declined").await;

    h.pay(&session, &pay_body(cards::FRICTIONLESS, "123"), None)
        .await
        .assert_error(409, "session_paid", None);
    assert_eq!(attempt_ids(h, &session).await.len(), 2, "nothing recorded");
    let live = live_charges(h, &session.reference);
    assert_eq!(live.len(), 1, "{live:?}");
    assert_eq!(live[0].amount, 800);
    let view = send(h.merchant(
        reqwest::Method::GET,
        &format!("/v1/sessions/{}", session.id),
    ))
    .await;
    assert_eq!(view.json["status"], "paid");
    assert_eq!(view.json["paid_by"], ids[0].as_str());
    assert_eq!(h.result(&session).await["payment_id"], ids[0].as_str());
}

/// Reproduction 3: the merchant voids the payment that paid a session: the session is still paid, for the
/// merchant view, the retry rules (a new pay is refused even once the claim is gone, as after
/// a stale claim's take-over) and the surplus rule alike. Today's main took a new pay.
async fn a_voided_payment_keeps_its_session_paid_everywhere(h: &Harness) {
    let session = h.session(600, json!({"capture": false})).await;
    let redirect = h.pay_to_redirect(&session, cards::FRICTIONLESS).await;
    h.complete_3ds(&redirect, "approve").await;
    let paid = h.stored_payment(&session).await;
    assert_eq!(paid.state, PaymentState::Authorized);
    let void = send(h.merchant(
        reqwest::Method::POST,
        &format!("/v1/payments/{}/void", paid.id),
    ))
    .await;
    assert_eq!(void.status, 200, "{}", void.text);
    // The claim a stale pay left is taken over by the next pay: gone.
    h.execute(&format!(
        "DELETE FROM idempotency_records WHERE scope = 'session-pay' AND key = '{}'",
        session.id
    ))
    .await;

    h.pay(&session, &pay_body(cards::FRICTIONLESS, "123"), None)
        .await
        .assert_error(409, "session_paid", None);
    let view = send(h.merchant(
        reqwest::Method::GET,
        &format!("/v1/sessions/{}", session.id),
    ))
    .await;
    assert_eq!(view.json["status"], "paid", "{}", view.text);
    assert_eq!(view.json["paid_by"], paid.id.as_str());
    assert_eq!(h.gateway_charges(&session.reference), 1);
    let voided = h.payment(&paid.id).await;
    assert_eq!(voided["reversal_reason"], "requested_by_merchant");
    assert_eq!(voided["surplus_of"], serde_json::Value::Null);
}

/// Reproduction 4: two payments of one session paid at the same moment (two transactions, the second
/// waiting on the first): `session.completed` is written once, naming the first, and the
/// second is marked surplus of it in its own statement. On SQLite the two run one after the
/// other (one writer); on PostgreSQL today's main wrote the event twice.
async fn the_session_is_completed_once_by_its_keeper_under_concurrency(h: &Harness) {
    let session = h.session(500, json!({})).await;
    h.pay_to_redirect(&session, cards::CHALLENGE).await;
    back_from_the_bank(h, &session).await;
    h.pay_to_redirect(&session, cards::CHALLENGE).await;
    let ids = attempt_ids(h, &session).await;
    let capture = |id: &str| {
        format!(
            "UPDATE payments SET state = 'captured', captured_amount = amount, \
             paid_at = updated_at + 1, updated_at = updated_at + 1 WHERE id = '{id}'"
        )
    };
    let overlapped = overlapping(h, &capture(&ids[0]), &capture(&ids[1])).await;

    let events = shop_events(h, &session.id).await;
    let completed = completions(&events);
    assert_eq!(completed.len(), 1, "{completed:?}");
    assert_eq!(completed[0]["data"]["object"]["paid_by"], ids[0].as_str());
    if overlapped {
        // The keeper's trigger marked the second in its own row, the keeper written by the
        // other transaction while it waited (on SQLite the state step itself reads the keeper,
        // which this bare statement does not).
        let second = h
            .store()
            .get_payment(&ids[1])
            .await
            .expect("read")
            .expect("second");
        assert_eq!(second.retry.surplus_of.as_deref(), Some(ids[0].as_str()));
        let captured_event = events
            .iter()
            .find(|e| {
                e["type"] == "payment.captured" && e["data"]["object"]["id"] == ids[1].as_str()
            })
            .expect("the second's capture is told");
        assert_eq!(
            captured_event["data"]["object"]["surplus_of"],
            ids[0].as_str()
        );
    }
}
