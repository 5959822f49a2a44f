//! A lost webhook settled by the reconciler: the emulator drops the webhook and the gateway's
//! status endpoint is down while the shopper lands on the return page, which can only say
//! "processing". The transaction id it carried is kept as a hint, apart from the payment's
//! id; the reconciler confirms it through the status endpoint and settles the payment, once.

use checkout::contract::PaymentState;
use checkout_sandbox::webhook::DeliveryState;

use crate::api::support::{Harness, cards, param};
use crate::ops::support::{arm, ops_suite, reconciler};

const CONFIG: &[(&str, &str)] = &[];

ops_suite!(lost_webhook_is_settled_by_the_reconciler);

async fn lost_webhook_is_settled_by_the_reconciler(h: &Harness) {
    arm(h, "webhook=drop-webhook*1");
    // Three failing attempts: the client retries a status read three times in all.
    arm(h, "transaction/status/{id}=status:503*3");
    let session = h.session(4200, serde_json::json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    let landed = h.complete_3ds(&redirect, "approve").await;
    assert_eq!(
        param(&landed, "checkout").as_deref(),
        Some("processing"),
        "{landed}"
    );

    let waiting = h.stored_payment(&session).await;
    assert_eq!(waiting.state, PaymentState::Pending);
    assert!(
        waiting.transaction_hint.is_some(),
        "the return visit's hint is kept"
    );
    assert_eq!(
        waiting.gateway_transaction_id, None,
        "an id no lookup confirmed is never the payment's"
    );
    let deliveries = h.sandbox.webhooks.deliveries();
    assert_eq!(deliveries.len(), 1);
    assert_eq!(deliveries[0].state, DeliveryState::Dropped);
    assert_eq!(h.result(&session).await["state"], "pending");

    let report = reconciler(h).run_once().await;
    assert_eq!(report.payments_settled, 1, "{report:?}");
    let settled = h.stored_payment(&session).await;
    assert_eq!(settled.state, PaymentState::Captured);
    assert_eq!(settled.captured_amount, 4200);
    assert_eq!(h.result(&session).await["state"], "captured");
    assert_eq!(h.gateway_charges(&session.reference), 1);

    let again = reconciler(h).run_once().await;
    assert_eq!(
        again.payments_checked, 0,
        "a settled payment is not looked at again: {again:?}"
    );
    let lookups = h
        .store()
        .list_attempts(&settled.id)
        .await
        .expect("attempts")
        .into_iter()
        .filter(|a| a.endpoint == "transaction/status")
        .count();
    assert_eq!(
        lookups, 2,
        "one failed lookup on the return page, one by the reconciler"
    );
}
