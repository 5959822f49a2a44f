//! An operator refunds part of a payment: the amount typed in euros, a confirmation step, a
//! double submit that refunds once, a refund above what is left refused (nothing sent to the
//! gateway), bad amounts refused naming the field, and every action in the audit log, the
//! timeline and the admin's audit page.

use checkout_sandbox::ledger::RecordKind;
use checkout_server::store::prelude::*;

use super::support::{Browser, dashboard_suite, hidden, location, paid};
use crate::api::support::Harness;

dashboard_suite!(
    a_partial_refund_is_confirmed_done_once_and_audited,
    refunds_above_the_captured_total_are_refused
);

async fn a_partial_refund_is_confirmed_done_once_and_audited(h: &Harness) {
    let (session, id) = paid(h, 1000).await;
    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let page = operator.get(&format!("/payments/{id}")).await;
    assert!(page.text.contains("Refund amount (EUR)"), "{}", page.text);
    let key = hidden(&page.text, "idempotency_key").expect("the form's key");
    let path = format!("/payments/{id}/refund");
    let ask = [
        ("csrf", operator.csrf.as_str()),
        ("idempotency_key", key.as_str()),
        ("amount", "3.50"),
    ];
    let confirm = operator.post(&path, &ask).await;
    assert_eq!(confirm.status, 200, "{}", confirm.text);
    assert!(confirm.text.contains("Refund 3.50 EUR"), "{}", confirm.text);
    assert_eq!(
        h.gateway_records(&session.reference, RecordKind::Refund),
        0,
        "not yet"
    );
    let confirmed = [
        ("csrf", operator.csrf.as_str()),
        ("idempotency_key", key.as_str()),
        ("amount", "3.50"),
        ("confirm", "yes"),
    ];
    let done = operator.post(&path, &confirmed).await;
    assert_eq!(done.status, 303, "{}", done.text);
    assert_eq!(location(&done), format!("/payments/{id}?done=refund"));
    let again = operator.post(&path, &confirmed).await;
    assert_eq!(location(&again), format!("/payments/{id}?done=repeat"));
    assert_eq!(h.gateway_records(&session.reference, RecordKind::Refund), 1);
    let payment = h.store().get_payment(&id).await.unwrap().expect("payment");
    assert_eq!(payment.refunded_amount, 350);

    let lines = h.store().payment_audit(&id).await.unwrap();
    assert_eq!(lines.len(), 1, "{lines:?}");
    let entry = &lines[0].entry;
    assert_eq!(
        (entry.action.as_str(), entry.outcome.as_str(), entry.amount),
        ("refund", "ok", Some(350))
    );
    assert_eq!(entry.staff_email, "operator@shop.example");
    assert_eq!(entry.currency.as_deref(), Some("EUR"));
    assert_eq!(entry.address.as_deref(), Some("127.0.0.1"));

    let detail = operator.get(location(&done)).await;
    assert!(detail.text.contains("Refund done."), "{}", detail.text);
    assert!(
        detail
            .text
            .contains("refund 3.50 EUR by operator@shop.example: ok"),
        "the timeline shows it: {}",
        detail.text
    );
    let admin = Browser::as_role(h, "admin@shop.example", StaffRole::Admin).await;
    let audit = admin.get("/audit").await;
    assert_eq!(audit.status, 200);
    assert!(
        audit.text.contains(&id) && audit.text.contains("3.50 EUR"),
        "{}",
        audit.text
    );
}

async fn refunds_above_the_captured_total_are_refused(h: &Harness) {
    let (session, id) = paid(h, 1000).await;
    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let path = format!("/payments/{id}/refund");
    let refund = |key: &'static str, amount: &'static str| {
        let csrf = operator.csrf.clone();
        let operator = operator.clone();
        let path = path.clone();
        async move {
            operator
                .post(
                    &path,
                    &[
                        ("csrf", csrf.as_str()),
                        ("idempotency_key", key),
                        ("amount", amount),
                        ("confirm", "yes"),
                    ],
                )
                .await
        }
    };
    let first = refund("first", "6.00").await;
    assert_eq!(first.status, 303, "{}", first.text);
    let over = refund("second", "4.01").await;
    assert_eq!(over.status, 409, "{}", over.text);
    assert!(over.text.contains("at most 4.00 EUR"), "{}", over.text);
    for (amount, why) in [
        ("1.234", "2 decimal places"),
        ("-1", "number"),
        ("ten", "number"),
    ] {
        let bad = refund("third", amount).await;
        assert_eq!(bad.status, 400, "{amount}: {}", bad.text);
        assert!(
            bad.text.contains("amount:") && bad.text.contains(why),
            "{}",
            bad.text
        );
    }
    assert_eq!(h.gateway_records(&session.reference, RecordKind::Refund), 1);
    let payment = h.store().get_payment(&id).await.unwrap().expect("payment");
    assert_eq!(
        (payment.captured_amount, payment.refunded_amount),
        (1000, 600)
    );
    let rest = refund("fourth", "").await;
    assert_eq!(rest.status, 303, "{}", rest.text);
    let payment = h.store().get_payment(&id).await.unwrap().expect("payment");
    assert_eq!(payment.refunded_amount, 1000);
    let outcomes: Vec<String> = h
        .store()
        .payment_audit(&id)
        .await
        .unwrap()
        .into_iter()
        .map(|l| {
            format!(
                "{} {:?} {}",
                l.entry.action, l.entry.amount, l.entry.outcome
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            "refund Some(600) ok",
            "refund Some(401) amount_exceeds_refundable",
            "refund Some(400) ok"
        ]
    );
    let page = operator.get(&format!("/payments/{id}")).await;
    assert!(!page.text.contains("/refund\""), "nothing left to refund");
}
