//! 3D Secure end to end: challenge approved and rejected through the ACS page, frictionless,
//! and issuer declines with their reasons; each confirmed by the status endpoint before the
//! customer is sent to the shop's configured page.

use std::time::Duration;

use checkout_server::store::model::WebhookVerdict;
use serde_json::json;

use crate::api::support::{Harness, api_suite, cards, eventually, param, pay_body};

api_suite!(
    challenge_approved_lands_on_success,
    challenge_rejected_lands_on_decline,
    frictionless_needs_no_page,
    declines_carry_their_reasons,
    a_declined_session_can_be_paid_with_another_card,
    authorization_is_chosen_by_endpoint,
);

async fn challenge_approved_lands_on_success(h: &Harness) {
    let session = h.session(1500, json!({"description": "Two books"})).await;
    let redirect = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    assert!(
        redirect.starts_with(&format!("{}/_sandbox/sandbox/acs", h.base)),
        "{redirect}"
    );
    let pending = h.result(&session).await;
    assert_eq!(pending["state"], "pending");

    let landed = h.complete_3ds(&redirect, "approve").await;
    assert_eq!(landed.path(), "/success");
    assert_eq!(param(&landed, "checkout").as_deref(), Some("paid"));
    assert_eq!(
        param(&landed, "session_id").as_deref(),
        Some(session.id.as_str())
    );
    assert!(
        param(&landed, "transaction_id").is_none(),
        "gateway parameters must not leak to the shop"
    );
    let visits = h.shop.visits.lock().expect("visits").clone();
    assert_eq!(visits.len(), 1, "{visits:?}");
    assert!(
        visits[0].starts_with("checkout=paid&session_id="),
        "{visits:?}"
    );

    let result = h.result(&session).await;
    assert_eq!(result["state"], "captured");
    assert_eq!(result["amount"], 1500);
    assert_eq!(result["currency"], "JPY");
    let payment = h.payment(result["payment_id"].as_str().expect("id")).await;
    assert_eq!(payment["captured_amount"], 1500);
    assert_eq!(payment["card"]["last4"], "3155");
    assert_eq!(payment["card"]["bin"], "400000");
    assert_eq!(payment["kind"], "payment_v2");
    // The gateway saw the session's reference with the attempt's number (issue 45).
    assert_eq!(payment["reference"], format!("{}-1", session.reference));
    assert_eq!(payment["attempt_number"], 1);
    assert!(
        payment["gateway_transaction_id"]
            .as_str()
            .is_some_and(|id| id.len() == 36)
    );
    assert_eq!(h.gateway_charges(&session.reference), 1);

    // The webhook arrives too, and is confirmed without changing anything.
    let payment_id = payment["id"].as_str().expect("id").to_owned();
    let events = eventually("the webhook verdict", Duration::from_secs(5), || async {
        let events = h
            .store()
            .list_webhooks(&payment_id)
            .await
            .expect("webhooks");
        events
            .iter()
            .any(|e| e.verdict == WebhookVerdict::Confirmed)
            .then_some(events)
    })
    .await;
    assert_eq!(events.len(), 1);
    assert_eq!(h.payment(&payment_id).await["state"], "captured");
}

async fn challenge_rejected_lands_on_decline(h: &Harness) {
    let session = h.session(800, json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    let landed = h.complete_3ds(&redirect, "reject").await;
    assert_eq!(landed.path(), "/declined");
    assert_eq!(param(&landed, "checkout").as_deref(), Some("declined"));
    let result = h.result(&session).await;
    assert_eq!(result["state"], "declined");
    assert_eq!(result["decline"], "authentication_failed");
}

async fn frictionless_needs_no_page(h: &Harness) {
    let session = h.session(990, json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::FRICTIONLESS).await;
    let landed = h.complete_3ds(&redirect, "approve").await;
    assert_eq!(param(&landed, "checkout").as_deref(), Some("paid"));
    assert_eq!(h.result(&session).await["state"], "captured");
    assert_eq!(h.gateway_charges(&session.reference), 1);
}

async fn declines_carry_their_reasons(h: &Harness) {
    for (card, reason) in [
        (cards::DO_NOT_HONOUR, "do_not_honour"),
        (cards::INSUFFICIENT_FUNDS, "insufficient_funds"),
        (cards::EXPIRED, "expired_card"),
        (cards::LOST_OR_STOLEN, "lost_or_stolen"),
        (cards::ISSUER_UNAVAILABLE, "issuer_unavailable"),
    ] {
        let session = h.session(700, json!({})).await;
        let redirect = h.pay_to_redirect(&session, card).await;
        let landed = h.complete_3ds(&redirect, "approve").await;
        assert_eq!(
            param(&landed, "checkout").as_deref(),
            Some("declined"),
            "{card}"
        );
        let result = h.result(&session).await;
        assert_eq!(result["state"], "declined", "{card}");
        assert_eq!(result["decline"], reason, "{card}");
        let payment = h.payment(result["payment_id"].as_str().expect("id")).await;
        assert_eq!(payment["decline_code"], reason);
        assert!(
            payment["response_code"].as_i64().is_some_and(|c| c > 0),
            "{payment}"
        );
    }
}

async fn a_declined_session_can_be_paid_with_another_card(h: &Harness) {
    let session = h.session(1200, json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::INSUFFICIENT_FUNDS).await;
    h.complete_3ds(&redirect, "approve").await;
    assert_eq!(h.result(&session).await["state"], "declined");

    let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
    let landed = h.complete_3ds(&redirect, "approve").await;
    assert_eq!(param(&landed, "checkout").as_deref(), Some("paid"));
    assert_eq!(h.result(&session).await["state"], "captured");

    // Paid sessions take no further payment.
    let again = h
        .pay(&session, &pay_body(cards::VISA_OK, "123"), None)
        .await;
    again.assert_error(409, "session_paid", None);
    assert_eq!(h.gateway_charges(&session.reference), 2);

    let view = h
        .merchant(
            reqwest::Method::GET,
            &format!("/v1/sessions/{}", session.id),
        )
        .send()
        .await
        .expect("sent");
    let view: serde_json::Value = view.json().await.expect("json");
    assert_eq!(view["status"], "paid");
    assert_eq!(view["payments"].as_array().map(Vec::len), Some(2));
    assert_eq!(view["payments"][0]["state"], "captured");
    assert_eq!(view["payments"][1]["state"], "declined");
    assert!(view.get("client_secret").is_none());
}

async fn authorization_is_chosen_by_endpoint(h: &Harness) {
    let session = h.session(2000, json!({"capture": false})).await;
    let redirect = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    h.complete_3ds(&redirect, "approve").await;
    let result = h.result(&session).await;
    assert_eq!(result["state"], "authorized");
    let payment = h.payment(result["payment_id"].as_str().expect("id")).await;
    assert_eq!(payment["kind"], "authorization_v2");
    assert_eq!(payment["captured_amount"], 0);
    assert_eq!(
        h.gateway_records(
            &session.reference,
            checkout_sandbox::ledger::RecordKind::Authorization
        ),
        1
    );
}
