//! A webhook recorded but never judged: the gateway's notification arrived and was stored,
//! then the database went away before it could be judged ("could not judge a webhook"), and
//! the shopper never came back from the bank. Nothing else names the transaction, and the
//! gateway will not send that notification again; the reconciler's next pass looks up the id
//! the stored notification carried and settles the payment, well before the review deadline.

use checkout::contract::PaymentState;
use checkout_server::store::model::NewWebhookEvent;
use checkout_server::store::prelude::*;
use time::OffsetDateTime;

use crate::api::support::{Harness, cards, of_session};
use crate::ops::support::{arm, ops_suite, reconciler};
use crate::sandbox::support::AcsForm;

/// The reconciler's first look at a pending payment after a second (its normal cadence, in
/// short); the test runs the passes itself.
const CONFIG: &[(&str, &str)] = &[
    ("PAYMENT_FIRST_CHECK_SECONDS", "1"),
    ("RECONCILE_INTERVAL_SECONDS", "86400"),
];

ops_suite!(a_webhook_whose_judgement_failed_settles_at_the_next_pass);

async fn a_webhook_whose_judgement_failed_settles_at_the_next_pass(h: &Harness) {
    // The emulator's own notification is lost: the test stores the one that arrived.
    arm(h, "webhook=drop-webhook*1");
    let session = h.session(3100, serde_json::json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    // The shopper approves at the bank and closes the tab: the return page is never visited.
    let acs = h.api.get(&redirect).send().await.expect("ACS reachable");
    let html = acs.text().await.expect("ACS page");
    let approved = AcsForm::parse(&html).submit(&h.api, "approve").await;
    assert!(approved.status().is_redirection(), "{}", approved.status());
    let transaction = h
        .sandbox
        .ledger
        .all()
        .into_iter()
        .find(|record| of_session(&record.merchant.merchant_txn_ref, &session.reference))
        .expect("the gateway's transaction");

    let pending = h.stored_payment(&session).await;
    assert_eq!(pending.state, PaymentState::Pending);
    h.store()
        .record_webhook(NewWebhookEvent {
            payment_id: pending.id.clone(),
            received_at: OffsetDateTime::now_utc(),
            body_digest: BodyDigest::of(b"the gateway's notification"),
            gateway_transaction_id: Some(transaction.id.to_string()),
            claimed_state: Some(PaymentState::Captured),
            claimed_amount: Some(3100),
            claimed_currency: Some("JPY".into()),
        })
        .await
        .expect("recorded; its judgement then failed");

    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    let report = reconciler(h).run_once().await;
    assert_eq!(report.payments_settled, 1, "{report:?}");
    let settled = h.stored_payment(&session).await;
    assert_eq!(settled.state, PaymentState::Captured);
    assert_eq!(
        settled.gateway_transaction_id.as_deref(),
        Some(transaction.id.to_string().as_str())
    );
    assert_eq!(h.gateway_charges(&session.reference), 1);
}
