//! Several server instances on one database: their reconcilers run at the same moment and
//! every due payment is looked up and settled exactly once (leases, then compare-and-set).

use checkout::contract::PaymentState;
use checkout_server::reconcile::Reconciler;

use crate::api::support::{Harness, cards, of_session};
use crate::ops::support::{arm, ops_suite, second_instance};
use crate::sandbox::support::AcsForm;

const CONFIG: &[(&str, &str)] = &[];

const PAYMENTS: usize = 6;

ops_suite!(two_instances_never_double_process);

async fn two_instances_never_double_process(h: &Harness) {
    arm(h, &format!("webhook=drop-webhook*{PAYMENTS}"));
    let mut payments = Vec::new();
    for _ in 0..PAYMENTS {
        let session = h.session(700, serde_json::json!({})).await;
        let redirect = h.pay_to_redirect(&session, cards::CHALLENGE).await;
        // Approved at the ACS page, but the browser never comes back (redirect not followed).
        let page = h
            .api
            .get(&redirect)
            .send()
            .await
            .expect("ACS page")
            .text()
            .await
            .expect("html");
        let decided = AcsForm::parse(&page).submit(&h.api, "approve").await;
        assert_eq!(decided.status(), 303);
        let payment = h.stored_payment(&session).await;
        let gateway_id = h
            .sandbox
            .ledger
            .all()
            .into_iter()
            .find(|r| of_session(&r.merchant.merchant_txn_ref, &session.reference))
            .expect("a gateway transaction")
            .id
            .to_string();
        // The id is known, as after a return visit during a status outage.
        assert!(
            h.store()
                .note_gateway_transaction(&payment.id, &gateway_id)
                .await
                .expect("noted")
        );
        payments.push(payment.id);
    }

    let other = second_instance(h).await;
    let first = Reconciler::new(h.state.reconciler_services());
    let second = Reconciler::new(other.reconciler_services());
    assert_ne!(first.owner(), second.owner());
    let (a, b) = tokio::join!(first.run_once(), second.run_once());
    assert_eq!(
        a.payments_settled + b.payments_settled,
        PAYMENTS,
        "{a:?} {b:?}"
    );
    assert_eq!(
        a.payments_checked + b.payments_checked,
        PAYMENTS,
        "{a:?} {b:?}"
    );

    for id in &payments {
        let payment = h
            .store()
            .get_payment(id)
            .await
            .expect("read")
            .expect("exists");
        assert_eq!(payment.state, PaymentState::Captured);
        assert_eq!(payment.lease_owner, None, "leases are given back");
        let lookups = h
            .store()
            .list_attempts(id)
            .await
            .expect("attempts")
            .into_iter()
            .filter(|attempt| attempt.endpoint == "transaction/status")
            .count();
        assert_eq!(lookups, 1, "payment {id} was looked up {lookups} times");
    }
    let (a, b) = tokio::join!(first.run_once(), second.run_once());
    assert_eq!(a.payments_checked + b.payments_checked, 0);
    other.store.close().await;
}
