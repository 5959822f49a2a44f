//! The review queue over HTTP: what it lists and in which order, what a viewer may do, and
//! its three actions — attach the gateway's transaction id (confirmed by status lookup; a
//! mismatching or unknown id changes nothing), resolve as failed (a note required), and ask
//! the gateway now — each confirmed first, audited, and shown in the timeline.

use checkout::contract::PaymentState;
use checkout_sandbox::ledger::RecordKind;
use checkout_server::store::prelude::*;
use serde_json::json;

use super::support::{Browser, backdate, dashboard_suite, location, paid};
use crate::api::support::{Harness, TestSession, cards, of_session};
use crate::ops::support::arm;

dashboard_suite!(
    the_queue_lists_review_and_old_pending_payments_oldest_first,
    an_attached_transaction_id_settles_only_when_it_matches,
    attaching_while_the_gateway_is_down_changes_nothing,
    resolving_as_failed_needs_a_note,
    asking_the_gateway_now_settles_a_pending_payment
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
async fn in_review(h: &Harness) -> (TestSession, String, String) {
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

async fn an_attached_transaction_id_settles_only_when_it_matches(h: &Harness) {
    let (session, id, txn) = in_review(h).await;
    let (_, other) = paid(h, 1000).await;
    let other_txn = h
        .store()
        .get_payment(&other)
        .await
        .unwrap()
        .unwrap()
        .gateway_transaction_id
        .expect("id");
    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let path = format!("/payments/{id}/attach");
    let attach = |txn: String, confirm: &'static str| {
        let operator = operator.clone();
        let path = path.clone();
        async move {
            let csrf = operator.csrf.clone();
            operator
                .post(
                    &path,
                    &[
                        ("csrf", csrf.as_str()),
                        ("transaction_id", txn.as_str()),
                        ("confirm", confirm),
                    ],
                )
                .await
        }
    };
    let bad = attach("not-an-id".into(), "yes").await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    assert!(bad.text.contains("transaction_id:"), "{}", bad.text);
    let wrong = attach(other_txn.clone(), "yes").await;
    assert_eq!(wrong.status, 409, "{}", wrong.text);
    assert!(
        wrong.text.contains("its amount does not match"),
        "{}",
        wrong.text
    );
    let unknown = attach("0b6f3a52-3c6e-4f0e-9a53-1d2c3b4a5f60".into(), "yes").await;
    assert_eq!(unknown.status, 409, "{}", unknown.text);
    assert!(
        unknown.text.contains("the gateway does not know it"),
        "{}",
        unknown.text
    );
    let still = h.store().get_payment(&id).await.unwrap().unwrap();
    assert_eq!(
        (still.state, still.gateway_transaction_id),
        (PaymentState::NeedsReview, None)
    );

    let ask = attach(txn.clone(), "").await;
    assert_eq!(ask.status, 200, "a confirmation first: {}", ask.text);
    assert_eq!(
        h.store().get_payment(&id).await.unwrap().unwrap().state,
        PaymentState::NeedsReview
    );
    let done = attach(txn.clone(), "yes").await;
    assert_eq!(
        (done.status, location(&done)),
        (303, format!("/payments/{id}?done=settled").as_str()),
        "{}",
        done.text
    );
    let again = attach(txn.clone(), "yes").await;
    assert_eq!(location(&again), format!("/payments/{id}?done=repeat"));
    let settled = h.store().get_payment(&id).await.unwrap().unwrap();
    assert_eq!(settled.state, PaymentState::Captured);
    assert_eq!(
        settled.gateway_transaction_id.as_deref(),
        Some(txn.as_str())
    );
    assert_eq!(
        h.gateway_charges(&session.reference),
        1,
        "nothing charged again"
    );
    let events: Vec<String> = h
        .store()
        .object_events(&id)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.kind)
        .collect();
    assert_eq!(
        events.last().map(String::as_str),
        Some("payment.captured"),
        "{events:?}"
    );
    let outcomes: Vec<String> = h
        .store()
        .payment_audit(&id)
        .await
        .unwrap()
        .into_iter()
        .map(|l| format!("{} {}", l.entry.action, l.entry.outcome))
        .collect();
    assert_eq!(
        outcomes,
        [
            "attach invalid_field",
            "attach mismatch",
            "attach unknown_transaction",
            "attach ok"
        ]
    );
    let page = operator.get(location(&done)).await;
    assert!(
        page.text
            .contains("attach by operator@shop.example: ok (transaction "),
        "{}",
        page.text
    );
}

async fn attaching_while_the_gateway_is_down_changes_nothing(h: &Harness) {
    let (session, id, txn) = in_review(h).await;
    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let path = format!("/payments/{id}/attach");
    let attach = || {
        let operator = operator.clone();
        let (path, txn) = (path.clone(), txn.clone());
        async move {
            let csrf = operator.csrf.clone();
            operator
                .post(
                    &path,
                    &[
                        ("csrf", csrf.as_str()),
                        ("transaction_id", txn.as_str()),
                        ("confirm", "yes"),
                    ],
                )
                .await
        }
    };
    arm(h, "transaction/status/{id}=status:503*50");
    let down = attach().await;
    h.sandbox.faults.clear();
    assert_eq!(down.status, 409, "{}", down.text);
    assert!(
        down.text
            .contains("the gateway could not be asked; try again later"),
        "{}",
        down.text
    );
    let still = h.store().get_payment(&id).await.unwrap().unwrap();
    assert_eq!(
        (still.state, still.gateway_transaction_id),
        (PaymentState::NeedsReview, None),
        "an id the gateway could not confirm is not kept"
    );
    let lines = h.store().payment_audit(&id).await.unwrap();
    assert_eq!(
        lines
            .iter()
            .map(|l| l.entry.outcome.as_str())
            .collect::<Vec<_>>(),
        ["lookup_failed"],
        "{lines:?}"
    );

    let later = attach().await;
    assert_eq!(
        location(&later),
        format!("/payments/{id}?done=settled"),
        "once the gateway answers, the same id settles it: {}",
        later.text
    );
    assert_eq!(
        h.store().get_payment(&id).await.unwrap().unwrap().state,
        PaymentState::Captured
    );
    assert_eq!(h.gateway_charges(&session.reference), 1);
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
