//! A gateway timeout on a token payment: the gateway charged the card but its answer came too
//! late, so the outcome (and the transaction id) is unknown. The payment stays pending, goes
//! to `needs_review` at its deadline, and the emulator holds exactly one charge: nothing is
//! ever sent again, by the reconciler or by a repeated pay call.

use checkout::contract::PaymentState;
use checkout_sandbox::DEFAULT_X_API_KEY;
use checkout_sandbox::in_process::PREFIX as SANDBOX_PREFIX;
use checkout_server::store::prelude::*;
use secrecy::SecretString;
use serde_json::json;

use crate::api::support::{Harness, browser_info};
use crate::ops::support::{arm, in_seconds, ops_suite, reconciler, send, unique};
use crate::sandbox::support::{basic_default, payment_body};

/// The emulator's hanging card: charged at once, answered after `hang` (1.5 s in tests).
const HANG: &str = "4000000000000259";

/// The server gives up on a gateway call after one second.
const CONFIG: &[(&str, &str)] = &[
    ("GATEWAY_TIMEOUT_MS", "1000"),
    ("PAYMENT_REVIEW_AFTER_SECONDS", "600"),
];

ops_suite!(
    token_payment_timeout_needs_review_with_one_charge,
    token_payment_lost_answer_needs_review_with_one_charge,
);

/// Stores `number` at the emulator (straight, with a patient client) and saves its token for
/// a new customer; returns the customer and the saved card id.
async fn saved_card(h: &Harness, number: &str) -> (String, String) {
    let mut body = payment_body(number);
    body["merchant_txn_ref"] = json!(unique("setup"));
    body["payment_method"] = json!({"type": "scheme", "store_payment_method": true});
    let url = format!(
        "{}{SANDBOX_PREFIX}/api/v1/server-to-server-interface/payment",
        h.base
    );
    let stored = send(
        h.api
            .post(url)
            .header("Authorization", basic_default())
            .header("x-api-key", DEFAULT_X_API_KEY)
            .json(&body),
    )
    .await;
    assert_eq!(stored.status, 201, "{}", stored.text);
    let token = stored.json["transaction_details"]["stored_payment_method_id"]
        .as_str()
        .expect("a token")
        .to_owned();
    let customer = unique("cust");
    let last4 = &number[number.len() - 4..];
    let card = h
        .store()
        .save_card(NewSavedCard {
            customer_id: customer.clone(),
            gateway_token: SecretString::from(token),
            brand: checkout::card::Brand::Visa,
            last4: Last4::new(last4).expect("last4"),
            expiry_month: 12,
            expiry_year: 2039,
            card_fingerprint: None,
            saved_from: None,
        })
        .await
        .expect("card saved");
    (customer, card.id)
}

/// Pays with a saved `number`, `fault` armed after the card was stored.
async fn pay_with_saved_card_unknown_outcome(h: &Harness, number: &str, fault: Option<&str>) {
    let (customer, card_id) = saved_card(h, number).await;
    if let Some(fault) = fault {
        arm(h, fault);
    }
    let session = h.session(3000, json!({"customer_id": customer})).await;
    let body = json!({
        "saved_card_id": card_id,
        "billing_address": {"country": "JP", "postal_code": "100-0001"},
        "browser_info": browser_info(),
    });
    let reply = h.pay(&session, &body, None).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.json["next_action"], "none", "{}", reply.text);
    assert_eq!(
        reply.json["result"]["state"], "pending",
        "the outcome is unknown: {}",
        reply.text
    );
    let payment = h.stored_payment(&session).await;
    assert_eq!(payment.state, PaymentState::Pending);
    assert!(payment.gateway_transaction_id.is_none());
    assert_eq!(
        h.gateway_charges(&session.reference),
        1,
        "the gateway did charge"
    );

    // A second pay call (double click, retry) is refused: nothing is sent again.
    h.pay(&session, &body, None)
        .await
        .assert_error(409, "payment_in_progress", None);

    let report = reconciler(h).run_once_at(in_seconds(601)).await;
    assert_eq!(report.payments_to_review, 1, "{report:?}");
    assert_eq!(
        h.stored_payment(&session).await.state,
        PaymentState::NeedsReview
    );
    assert_eq!(h.payment(&payment.id).await["state"], "needs_review");

    assert_eq!(
        h.gateway_charges(&session.reference),
        1,
        "exactly one charge at the emulator"
    );
    let attempts = h
        .store()
        .list_attempts(&payment.id)
        .await
        .expect("attempts");
    assert_eq!(
        attempts.len(),
        1,
        "one gateway call, never repeated: {attempts:?}"
    );
    assert_eq!(attempts[0].endpoint, "payment");
    assert_eq!(attempts[0].outcome, AttemptOutcome::OutcomeUnknown);
}

async fn token_payment_timeout_needs_review_with_one_charge(h: &Harness) {
    pay_with_saved_card_unknown_outcome(h, HANG, None).await;
}

async fn token_payment_lost_answer_needs_review_with_one_charge(h: &Harness) {
    // Processed, then the answer is a 504: the gateway's own timeout after it acted.
    pay_with_saved_card_unknown_outcome(h, "4242424242424242", Some("payment=status:504:after*1"))
        .await;
}
