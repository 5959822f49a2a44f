//! The webhook receiver: duplicates change nothing, a lost webhook is made up for by the
//! return visit's status lookup, and forged notifications (a "paid" the gateway does not
//! confirm, a transaction the gateway does not know, a wrong path token) change nothing.

use std::time::Duration;

use checkout_sandbox::faults::{ArmedFault, Fault};
use checkout_sandbox::webhook::DeliveryState;
use checkout_server::store::model::{Payment, WebhookVerdict};
use serde_json::{Value, json};

use crate::api::support::{Harness, Reply, api_suite, cards, eventually, of_session, param};

api_suite!(
    duplicate_webhooks_change_nothing,
    lost_webhook_is_made_up_by_the_return_visit,
    forged_webhooks_change_nothing,
    a_webhook_saves_no_card_the_shopper_did_not_ask_to_save
);

/// A notification in the gateway's envelope claiming `success` for `transaction_id`.
pub fn notification(
    transaction_id: &str,
    success: bool,
    amount: u64,
    currency: &str,
    reference: &str,
) -> Value {
    json!({
        "success": success, "status_code": if success { 200 } else { 412 }, "is_live": false,
        "transaction_type": "CAPTURE",
        "gateway_response": {"version": "1", "type": if success { "INFO" } else { "ERROR" },
            "code": if success { "INFO0000" } else { "ERR2001" }, "message": "forged"},
        "merchant_details": {"legal_name": "Sandbox Merchant Ltd", "mid": "SANDBOX-MID-0001", "merchant_txn_ref": reference},
        "payment_details": {"amount": amount, "response_code": if success { 0 } else { 51 }, "auth_code": "000001",
            "currency": currency, "payment_method": "card", "scheme": "VISA"},
        "transaction_details": {"id": transaction_id, "ref": 1, "timestamp": "2030-01-01T00:00:00Z", "merchant_txn_ref": reference},
        "risk-details": {}
    })
}

/// The webhook URL the server gave the gateway for `payment` (a 3-D Secure one, started):
/// the store keeps only the hash of its path secret, so it is read from the emulator.
pub fn webhook_url(h: &Harness, payment: &Payment) -> String {
    let path = format!("/hooks/gateway/{}/", payment.id);
    h.sandbox
        .ledger
        .all()
        .into_iter()
        .filter_map(|record| h.sandbox.acs.return_url_of(record.id))
        .map(|urls| urls.webhook_url)
        .find(|url| url.contains(&path))
        .expect("the 3DS start named the payment's webhook URL")
}

async fn verdicts(h: &Harness, payment_id: &str) -> Vec<WebhookVerdict> {
    h.store()
        .list_webhooks(payment_id)
        .await
        .expect("webhooks")
        .iter()
        .map(|e| e.verdict)
        .collect()
}

async fn duplicate_webhooks_change_nothing(h: &Harness) {
    h.sandbox
        .faults
        .arm(ArmedFault::new(Some("webhook"), Fault::DuplicateWebhook, Some(1)).expect("fault"));
    let session = h.session(1300, json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::FRICTIONLESS).await;
    h.complete_3ds(&redirect, "approve").await;
    let payment = h.stored_payment(&session).await;
    let seen = eventually("both deliveries judged", Duration::from_secs(5), || async {
        let seen = verdicts(h, &payment.id).await;
        (seen.len() == 2 && !seen.contains(&WebhookVerdict::Received)).then_some(seen)
    })
    .await;
    assert!(seen.contains(&WebhookVerdict::Duplicate), "{seen:?}");
    assert!(seen.contains(&WebhookVerdict::Confirmed), "{seen:?}");
    let after = h.payment(&payment.id).await;
    assert_eq!(after["state"], "captured");
    assert_eq!(after["captured_amount"], 1300);
    assert_eq!(h.gateway_charges(&session.reference), 1);
    // The merchant API lists both deliveries, the repeat pointing at the first.
    let hooks = after["webhooks"].as_array().expect("webhooks listed");
    let by_verdict = |verdict: &str| {
        hooks
            .iter()
            .find(|hook| hook["verdict"] == verdict)
            .unwrap_or_else(|| panic!("a {verdict} delivery in {after}"))
    };
    let (first, repeat) = (by_verdict("confirmed"), by_verdict("duplicate"));
    assert_eq!(hooks.len(), 2, "{after}");
    assert_eq!(repeat["duplicate_of"], first["id"]);
    assert_eq!(first["claimed_amount"], 1300);
    assert!(
        first["received_at"]
            .as_str()
            .is_some_and(|at| at.contains('T'))
    );
}

async fn lost_webhook_is_made_up_by_the_return_visit(h: &Harness) {
    h.sandbox
        .faults
        .arm(ArmedFault::new(Some("webhook"), Fault::DropWebhook, Some(1)).expect("fault"));
    let session = h.session(1400, json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    let landed = h.complete_3ds(&redirect, "approve").await;
    assert_eq!(param(&landed, "checkout").as_deref(), Some("paid"));
    let payment = h.stored_payment(&session).await;
    assert_eq!(h.result(&session).await["state"], "captured");
    let dropped = h
        .sandbox
        .webhooks
        .deliveries()
        .into_iter()
        .filter(|d| Some(d.transaction_id.as_str()) == payment.gateway_transaction_id.as_deref())
        .map(|d| d.state)
        .collect::<Vec<_>>();
    assert_eq!(dropped, vec![DeliveryState::Dropped]);
    assert!(verdicts(h, &payment.id).await.is_empty());
}

async fn forged_webhooks_change_nothing(h: &Harness) {
    let session = h.session(1600, json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    let payment = h.stored_payment(&session).await;
    let url = webhook_url(h, &payment);
    let real_id = h
        .sandbox
        .ledger
        .all()
        .into_iter()
        .find(|r| of_session(&r.merchant.merchant_txn_ref, &session.reference))
        .expect("pending transaction at the gateway")
        .id
        .to_string();

    // "Paid" for the real, still pending transaction: the status lookup says otherwise.
    let forged = notification(&real_id, true, 1600, "JPY", &session.reference);
    let reply = Reply::read(h.api.post(&url).json(&forged).send().await.expect("sent")).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    // "Paid" for a transaction the gateway never saw.
    let unknown = notification(
        &uuid::Uuid::new_v4().to_string(),
        true,
        1600,
        "JPY",
        &session.reference,
    );
    Reply::read(h.api.post(&url).json(&unknown).send().await.expect("sent")).await;
    let seen = eventually("two forged verdicts", Duration::from_secs(5), || async {
        let seen = verdicts(h, &payment.id).await;
        (seen
            .iter()
            .filter(|v| **v == WebhookVerdict::Forged)
            .count()
            == 2)
            .then_some(seen)
    })
    .await;
    assert_eq!(seen.len(), 2);
    assert_eq!(h.result(&session).await["state"], "pending");

    // Wrong token, unknown payment: indistinguishable 404s; nothing recorded.
    let wrong = format!("{}/hooks/gateway/{}/not-the-token", h.base, payment.id);
    Reply::read(h.api.post(&wrong).json(&forged).send().await.expect("sent"))
        .await
        .assert_error(404, "not_found", None);
    let nobody = format!("{}/hooks/gateway/{}/x", h.base, uuid::Uuid::new_v4());
    Reply::read(
        h.api
            .post(&nobody)
            .json(&forged)
            .send()
            .await
            .expect("sent"),
    )
    .await
    .assert_error(404, "not_found", None);
    assert_eq!(verdicts(h, &payment.id).await.len(), 2);

    // The real outcome still goes through, and a forged decline afterwards changes nothing.
    h.complete_3ds(&redirect, "approve").await;
    assert_eq!(h.result(&session).await["state"], "captured");
    let declined = notification(&real_id, false, 1600, "JPY", &session.reference);
    Reply::read(h.api.post(&url).json(&declined).send().await.expect("sent")).await;
    eventually(
        "the late forgery judged",
        Duration::from_secs(5),
        || async {
            let seen = verdicts(h, &payment.id).await;
            (seen
                .iter()
                .filter(|v| **v == WebhookVerdict::Forged)
                .count()
                == 3)
                .then_some(())
        },
    )
    .await;
    assert_eq!(h.result(&session).await["state"], "captured");
    assert_eq!(h.gateway_charges(&session.reference), 1);
}

/// A notification of a confirmed payment may carry a card token, but a card is saved for the
/// customer only when the shopper asked for it: a token in a webhook for a payment made
/// without "save this card" changes nothing.
async fn a_webhook_saves_no_card_the_shopper_did_not_ask_to_save(h: &Harness) {
    let session = h.session(1800, json!({"customer_id": "cust-token"})).await;
    let redirect = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    let payment = h.stored_payment(&session).await;
    let url = webhook_url(h, &payment);
    h.complete_3ds(&redirect, "approve").await;
    assert_eq!(h.result(&session).await["state"], "captured");
    let real_id = h
        .store()
        .get_payment(&payment.id)
        .await
        .expect("read")
        .and_then(|p| p.gateway_transaction_id)
        .expect("the confirmed id");
    let mut forged = notification(&real_id, true, 1800, "JPY", &session.reference);
    forged["transaction_details"]["stored_payment_method_id"] = json!("tok_planted_by_webhook");
    Reply::read(h.api.post(&url).json(&forged).send().await.expect("sent")).await;
    let seen = eventually(
        "the notifications judged",
        Duration::from_secs(5),
        || async {
            let seen = verdicts(h, &payment.id).await;
            (seen.len() == 2 && !seen.contains(&WebhookVerdict::Received)).then_some(seen)
        },
    )
    .await;
    assert_eq!(
        seen,
        vec![WebhookVerdict::Confirmed, WebhookVerdict::Confirmed]
    );
    // A card would be saved just after the verdict is written: watch for a while.
    for _ in 0..20 {
        let cards = h.store().list_cards("cust-token").await.expect("cards");
        assert!(cards.is_empty(), "{} card(s) saved", cards.len());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
