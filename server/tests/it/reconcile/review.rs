//! A payment whose outcome is never learned (3DS started, then neither a webhook nor a return
//! visit) waits for a hint until its deadline, then goes to `needs_review`: visible in the
//! merchant API and the metrics, never charged again. If the shopper does finish later, the
//! outcome is still recorded.

use checkout::contract::PaymentState;

use crate::api::support::{Harness, cards, param};
use crate::ops::support::{arm, in_seconds, ops_suite, reconciler, send};

const CONFIG: &[(&str, &str)] = &[("PAYMENT_REVIEW_AFTER_SECONDS", "600")];

ops_suite!(unlearned_outcome_goes_to_review_and_is_never_resent);

async fn unlearned_outcome_goes_to_review_and_is_never_resent(h: &Harness) {
    arm(h, "webhook=drop-webhook*1");
    let session = h.session(1500, serde_json::json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    let payment = h.stored_payment(&session).await;
    assert_eq!(payment.state, PaymentState::Pending);
    assert!(payment.gateway_transaction_id.is_none());

    let early = reconciler(h).run_once_at(in_seconds(120)).await;
    assert_eq!(early.payments_checked, 1, "{early:?}");
    assert_eq!(
        (early.payments_settled, early.payments_to_review),
        (0, 0),
        "{early:?}"
    );
    assert_eq!(
        h.stored_payment(&session).await.state,
        PaymentState::Pending
    );

    let late = reconciler(h).run_once_at(in_seconds(601)).await;
    assert_eq!(late.payments_to_review, 1, "{late:?}");
    let reviewed = h.stored_payment(&session).await;
    assert_eq!(reviewed.state, PaymentState::NeedsReview);
    assert_eq!(
        reviewed.next_check_at, None,
        "nothing to look up until a hint arrives"
    );
    assert_eq!(h.payment(&payment.id).await["state"], "needs_review");
    let metrics = send(h.api.get(format!("{}/metrics", h.base))).await;
    assert!(
        metrics
            .text
            .contains("checkout_payments{state=\"needs_review\"} 1"),
        "{}",
        metrics.text
    );
    assert!(
        metrics
            .text
            .contains("checkout_reconciler_events_total{event=\"payment_to_review\"}")
    );

    // Nothing was sent again: one charge at the emulator, one gateway call in the log.
    assert_eq!(h.gateway_charges(&session.reference), 1);
    let attempts = h
        .store()
        .list_attempts(&payment.id)
        .await
        .expect("attempts");
    assert_eq!(attempts.len(), 1, "{attempts:?}");
    assert_eq!(attempts[0].endpoint, "paymentv2");
    let later = reconciler(h).run_once_at(in_seconds(7200)).await;
    assert_eq!(later.payments_checked, 0, "{later:?}");
    let retry = h
        .pay(
            &session,
            &crate::api::support::pay_body(cards::VISA_OK, "123"),
            None,
        )
        .await;
    retry.assert_error(409, "payment_in_progress", None);

    // The shopper comes back and finishes after all: the outcome is still learned.
    let landed = h.complete_3ds(&redirect, "approve").await;
    assert_eq!(
        param(&landed, "checkout").as_deref(),
        Some("paid"),
        "{landed}"
    );
    assert_eq!(
        h.stored_payment(&session).await.state,
        PaymentState::Captured
    );
    assert_eq!(h.gateway_charges(&session.reference), 1);
}
