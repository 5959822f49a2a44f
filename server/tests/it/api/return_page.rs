//! The 3-D Secure return page (`/checkout/return/{payment}/{outcome}`) needs no credential:
//! what an outsider who knows a payment id (it is in the shop's landing URL) can do with it.
//! A transaction id planted while the gateway's status lookups fail is kept only as a hint,
//! so the real webhook still settles the payment; and however often the page is called, it
//! makes only a few gateway lookups.

use std::time::Duration;

use checkout_sandbox::faults::ArmedFault;
use checkout_server::store::model::WebhookVerdict;
use reqwest::header::LOCATION;
use serde_json::json;

use crate::api::support::{Harness, api_suite, cards, eventually, of_session};
use crate::sandbox::support::AcsForm;

api_suite!(
    a_planted_id_does_not_keep_the_real_webhook_from_settling,
    return_visits_spend_a_bounded_number_of_lookups,
);

/// A client that, like a script, does not follow redirects.
fn outsider() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

/// Gateway status lookups recorded for `payment_id`.
async fn lookups(h: &Harness, payment_id: &str) -> usize {
    h.store()
        .list_attempts(payment_id)
        .await
        .expect("attempts")
        .iter()
        .filter(|attempt| attempt.endpoint == "transaction/status")
        .count()
}

async fn a_planted_id_does_not_keep_the_real_webhook_from_settling(h: &Harness) {
    let session = h.session(2100, json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::CHALLENGE).await;
    let payment = h.stored_payment(&session).await;
    let real_id = h
        .sandbox
        .ledger
        .all()
        .into_iter()
        .find(|r| of_session(&r.merchant.merchant_txn_ref, &session.reference))
        .expect("the pending transaction at the gateway")
        .id
        .to_string();

    // The gateway's status endpoint fails while an outsider names a made-up transaction.
    let failing: ArmedFault = "transaction/status/{id}=status:503:before"
        .parse()
        .expect("fault");
    h.sandbox.faults.arm(failing);
    let planted = uuid::Uuid::new_v4().to_string();
    let visit = outsider()
        .get(format!(
            "{}/checkout/return/{}/success?transaction_id={planted}",
            h.base, payment.id
        ))
        .send()
        .await
        .expect("return page");
    assert_eq!(visit.status(), 303);
    let location = visit.headers()[LOCATION]
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(location.contains("checkout=processing"), "{location}");
    let after = h.store().get_payment(&payment.id).await.unwrap().unwrap();
    assert_eq!(
        after.gateway_transaction_id, None,
        "an unconfirmed id is never the payment's"
    );
    assert_eq!(after.transaction_hint.as_deref(), Some(planted.as_str()));
    h.sandbox.faults.clear();

    // The shopper approves at the issuer's page and closes the tab: only the webhook comes.
    let page = h.browser.get(&redirect).send().await.expect("ACS page");
    let html = page.text().await.expect("ACS html");
    let decided = AcsForm::parse(&html).submit(&outsider(), "approve").await;
    assert!(decided.status().is_redirection(), "{}", decided.status());
    eventually(
        "the webhook settles the payment",
        Duration::from_secs(10),
        || async { (h.result(&session).await["state"] == "captured").then_some(()) },
    )
    .await;
    let settled = h.store().get_payment(&payment.id).await.unwrap().unwrap();
    assert_eq!(
        settled.gateway_transaction_id.as_deref(),
        Some(real_id.as_str())
    );
    assert_eq!(settled.transaction_hint, None);
    // The verdict is stored after the settlement it led to, so it may follow a moment later.
    eventually(
        "the webhook's one verdict is `confirmed`",
        Duration::from_secs(10),
        || async {
            let events = h
                .store()
                .list_webhooks(&payment.id)
                .await
                .expect("webhooks");
            let verdicts: Vec<_> = events.iter().map(|event| event.verdict).collect();
            (verdicts == [WebhookVerdict::Confirmed]).then_some(())
        },
    )
    .await;
}

async fn return_visits_spend_a_bounded_number_of_lookups(h: &Harness) {
    let session = h.session(2200, json!({})).await;
    h.pay_to_redirect(&session, cards::CHALLENGE).await;
    let payment = h.stored_payment(&session).await;
    let before = lookups(h, &payment.id).await;
    let client = outsider();
    for _ in 0..50 {
        let visit = client
            .get(format!(
                "{}/checkout/return/{}/success?transaction_id={}",
                h.base,
                payment.id,
                uuid::Uuid::new_v4()
            ))
            .send()
            .await
            .expect("return page");
        assert_eq!(visit.status(), 303);
    }
    let made = lookups(h, &payment.id).await - before;
    assert!(
        (1..=2).contains(&made),
        "50 anonymous visits made {made} gateway lookups"
    );
    assert_eq!(h.result(&session).await["state"], "pending");
}
