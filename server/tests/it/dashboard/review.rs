//! The review queue over HTTP: what it lists and in which order, what a viewer may do, and
//! two of its actions: resolve as failed (a note required), and ask the gateway now; each
//! confirmed first, audited, and shown in the timeline. Attaching the gateway's transaction
//! id is in review_attach.rs, which shares the payments made here.

use checkout::contract::PaymentState;
use checkout_sandbox::ledger::RecordKind;
use checkout_server::store::prelude::*;
use serde_json::json;

use super::support::{Browser, backdate, dashboard_suite, location};
use crate::api::support::{Harness, TestSession, cards, of_session};
use crate::ops::support::arm;

dashboard_suite!(
    the_queue_lists_review_and_old_pending_payments_oldest_first,
    resolving_as_failed_needs_a_note,
    asking_the_gateway_now_settles_a_pending_payment,
);

/// A 3-D Secure payment the shopper approved at the emulator whose outcome the server never
/// learned (webhook dropped, the return visit's status lookup failed): pending, with the
/// return visit's id kept as a hint. Its session, id and the emulator's transaction id.
async fn unlearned(h: &Harness) -> (TestSession, String, String) {
    arm(h, "webhook=drop-webhook*1");
    let session = h.session(1500, json!({"currency": "EUR"})).await;
    let redirect = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    arm(h, "transaction/status/{id}=status:503*50");
    h.complete_3ds(&redirect, "approve").await;
    h.sandbox.faults.clear();
    let payment = h.stored_payment(&session).await;
    assert_eq!(payment.state, PaymentState::Pending, "{payment:?}");
    let txn = h
        .sandbox
        .ledger
        .all()
        .into_iter()
        .find(|r| of_session(&r.merchant.merchant_txn_ref, &session.reference))
        .expect("the emulator's transaction")
        .id
        .to_string();
    (session, payment.id, txn)
}

/// [`unlearned`], then handed to a person without any id (as the reconciler does).
pub(super) async fn in_review(h: &Harness) -> (TestSession, String, String) {
    let (session, id, txn) = unlearned(h).await;
    let _ = h.store().drop_transaction_hint(&id, &txn).await.unwrap();
    let moved = h
        .store()
        .advance_payment(
            &id,
            &[PaymentState::Pending],
            PaymentState::NeedsReview,
            PaymentChanges::default(),
        )
        .await
        .unwrap();
    assert!(moved.moved());
    let payment = h.store().get_payment(&id).await.unwrap().unwrap();
    assert!(payment.gateway_transaction_id.is_none() && payment.transaction_hint.is_none());
    (session, id, txn)
}

async fn the_queue_lists_review_and_old_pending_payments_oldest_first(h: &Harness) {
    let (review, review_id, _) = in_review(h).await;
    let (old, old_id, _) = unlearned(h).await;
    let (fresh, _, _) = unlearned(h).await;
    backdate(h, &old_id, 60).await;
    backdate(h, &review_id, 30).await;
    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let page = operator.get("/review").await;
    assert_eq!(page.status, 200, "{}", page.text);
    let at = |reference: &str| page.text.find(reference);
    let (o, r) = (
        at(&old.reference).expect("old pending listed"),
        at(&review.reference).expect("review listed"),
    );
    assert!(o < r, "oldest first: {}", page.text);
    assert!(
        at(&fresh.reference).is_none(),
        "a fresh pending one is not listed"
    );
    assert!(page.text.contains("1 h 0 min"), "its age: {}", page.text);
    assert!(
        page.text.contains("transaction/status"),
        "the last gateway answer: {}",
        page.text
    );
    assert!(page.text.contains("/attach\""), "operators get the forms");

    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let seen = viewer.get("/review").await;
    assert_eq!(seen.status, 200);
    assert!(seen.text.contains(&old.reference));
    assert!(
        !seen
            .text
            .contains("<form method=\"post\" action=\"/payments/"),
        "{}",
        seen.text
    );
    for action in ["lookup", "attach", "resolve"] {
        let reply = viewer
            .post(
                &format!("/payments/{review_id}/{action}"),
                &[
                    ("csrf", viewer.csrf.as_str()),
                    ("note", "n"),
                    ("confirm", "yes"),
                ],
            )
            .await;
        assert_eq!(reply.status, 403, "{action}: {}", reply.text);
    }
    assert_eq!(
        h.store()
            .get_payment(&review_id)
            .await
            .unwrap()
            .unwrap()
            .state,
        PaymentState::NeedsReview
    );
}

async fn resolving_as_failed_needs_a_note(h: &Harness) {
    let (session, id, _) = in_review(h).await;
    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let path = format!("/payments/{id}/resolve");
    let csrf = operator.csrf.clone();
    let missing = operator
        .post(
            &path,
            &[("csrf", csrf.as_str()), ("note", " "), ("confirm", "yes")],
        )
        .await;
    assert_eq!(missing.status, 400, "{}", missing.text);
    assert!(missing.text.contains("note: required"), "{}", missing.text);
    assert_eq!(
        h.store().get_payment(&id).await.unwrap().unwrap().state,
        PaymentState::NeedsReview
    );
    let note = "shopper says the 3DS page never loaded";
    let done = operator
        .post(
            &path,
            &[("csrf", csrf.as_str()), ("note", note), ("confirm", "yes")],
        )
        .await;
    assert_eq!(
        location(&done),
        format!("/payments/{id}?done=resolved"),
        "{}",
        done.text
    );
    let again = operator
        .post(
            &path,
            &[("csrf", csrf.as_str()), ("note", note), ("confirm", "yes")],
        )
        .await;
    assert_eq!(location(&again), format!("/payments/{id}?done=repeat"));
    assert_eq!(
        h.store().get_payment(&id).await.unwrap().unwrap().state,
        PaymentState::Failed
    );
    let lines = h.store().payment_audit(&id).await.unwrap();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(
        (
            lines[0].entry.action.as_str(),
            lines[0].entry.outcome.as_str()
        ),
        ("resolve_failed", "ok")
    );
    assert_eq!(lines[0].entry.detail.as_deref(), Some(note));
    let page = operator.get(&format!("/payments/{id}")).await;
    assert!(page.text.contains(note), "in the timeline: {}", page.text);
    assert_eq!(h.gateway_records(&session.reference, RecordKind::Refund), 0);
    // Sent to the bank and never heard back: left there, as the reconciler records an
    // abandoned attempt, so the overview counts it as abandoned, not as declined.
    let resolved = h.store().get_payment(&id).await.unwrap().unwrap();
    assert_eq!(
        resolved.decline_code,
        Some(checkout::contract::DeclineCode::AuthenticationFailed)
    );
    let overview = operator.get("/").await;
    let row = |label: &str| {
        let at = overview.text.find(label).expect(label);
        overview.text[at..]
            .split("</tr>")
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    assert!(
        row("Authenticated, then declined or refused").contains(">0<"),
        "{}",
        overview.text
    );
    assert!(
        row("Abandoned (no outcome").contains(">1<"),
        "{}",
        overview.text
    );
}

async fn asking_the_gateway_now_settles_a_pending_payment(h: &Harness) {
    let (_, id, _) = unlearned(h).await;
    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let path = format!("/payments/{id}/lookup");
    let csrf = operator.csrf.clone();
    let ask = operator.post(&path, &[("csrf", csrf.as_str())]).await;
    assert_eq!(ask.status, 200, "a confirmation first: {}", ask.text);
    assert_eq!(
        h.store().get_payment(&id).await.unwrap().unwrap().state,
        PaymentState::Pending
    );
    let done = operator
        .post(&path, &[("csrf", csrf.as_str()), ("confirm", "yes")])
        .await;
    assert_eq!(
        location(&done),
        format!("/payments/{id}?done=settled"),
        "{}",
        done.text
    );
    assert_eq!(
        h.store().get_payment(&id).await.unwrap().unwrap().state,
        PaymentState::Captured
    );
    let again = operator
        .post(&path, &[("csrf", csrf.as_str()), ("confirm", "yes")])
        .await;
    assert_eq!(location(&again), format!("/payments/{id}?done=repeat"));
    let lines = h.store().payment_audit(&id).await.unwrap();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(
        (
            lines[0].entry.action.as_str(),
            lines[0].entry.outcome.as_str()
        ),
        ("lookup", "ok")
    );
}
