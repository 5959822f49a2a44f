//! The review queue's attach action: the gateway's transaction id, confirmed by status lookup,
//! settles a payment only when it matches; a mismatching or unknown id, or a gateway that is
//! down, changes nothing.

use checkout::contract::PaymentState;
use checkout_server::store::prelude::*;

use super::review::in_review;
use super::support::{Browser, dashboard_suite, location, paid};
use crate::api::support::Harness;
use crate::ops::support::arm;

dashboard_suite!(
    an_attached_transaction_id_settles_only_when_it_matches,
    attaching_while_the_gateway_is_down_changes_nothing,
);

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
