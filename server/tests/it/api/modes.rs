//! How the server meets the gateway and the shopper: a real (external) gateway configured by
//! `GATEWAY_BASE_URL`, the subscription pay call, an unknown 3DS start outcome left pending,
//! and `customer_ip` taken from the socket unless the peer is a trusted proxy.

use checkout_sandbox::faults::{ArmedFault, Fault};
use checkout_sandbox::{DEFAULT_API_KEY, DEFAULT_X_API_KEY, Sandbox};
use checkout_server::store::prelude::*;
use serde_json::json;

use crate::api::support::{Backend, Harness, Reply, api_suite, cards, of_session, param, pay_body};
use crate::sandbox::support::fast_config;

api_suite!(
    subscription_pay_starts_the_plan,
    unknown_start_outcome_stays_pending
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_external_gateway_is_used_when_configured() {
    let gateway = Sandbox::start(fast_config())
        .await
        .expect("emulator starts");
    let mut h = Harness::start_with(
        Backend::Sqlite,
        &[
            ("GATEWAY_BASE_URL", gateway.base_url()),
            (
                "CARD_FINGERPRINT_KEY",
                "abababababababababababababababababababababababababababababababab",
            ),
            ("GATEWAY_API_KEY", DEFAULT_API_KEY),
            ("GATEWAY_X_API_KEY", DEFAULT_X_API_KEY),
            ("GATEWAY_MERCHANT_ID", "merchant-42"),
        ],
    )
    .await;
    h.sandbox = gateway.state().clone();
    let session = h.session(1100, json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::FRICTIONLESS).await;
    assert!(redirect.starts_with(gateway.base_url()), "{redirect}");
    let landed = h.complete_3ds(&redirect, "approve").await;
    assert_eq!(param(&landed, "checkout").as_deref(), Some("paid"));
    assert_eq!(h.gateway_charges(&session.reference), 1);
    let record = gateway
        .state()
        .ledger
        .all()
        .into_iter()
        .find(|r| of_session(&r.merchant.merchant_txn_ref, &session.reference))
        .expect("charged");
    assert_eq!(record.merchant.merchant_id, "merchant-42");
    let mounted = h
        .api
        .get(format!("{}/_sandbox/sandbox/clock", h.base))
        .send()
        .await
        .expect("sent");
    assert_eq!(
        mounted.status(),
        404,
        "no emulator is mounted with a real gateway"
    );
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn customer_ip_trusts_forwarding_only_from_configured_proxies() {
    for (trusted, expected) in [(None, "127.0.0.1"), (Some("127.0.0.1"), "203.0.113.9")] {
        let extra: Vec<(&str, &str)> = trusted
            .map(|t| ("TRUSTED_PROXIES", t))
            .into_iter()
            .collect();
        let h = Harness::start_with(Backend::Sqlite, &extra).await;
        let session = h.session(500, json!({})).await;
        let reply = Reply::read(
            h.checkout(reqwest::Method::POST, &session, "/pay")
                .header("X-Forwarded-For", "198.51.100.1, 203.0.113.9")
                .json(&pay_body(cards::VISA_OK, "123"))
                .send()
                .await
                .expect("sent"),
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        let record = h
            .sandbox
            .ledger
            .all()
            .into_iter()
            .find(|r| of_session(&r.merchant.merchant_txn_ref, &session.reference))
            .expect("charged");
        assert_eq!(
            record.merchant.customer_ip, expected,
            "trusted: {trusted:?}"
        );
        h.finish().await;
    }
}

async fn subscription_pay_starts_the_plan(h: &Harness) {
    let customer = format!("cust-{}", uuid::Uuid::new_v4().simple());
    let reference = format!("sub-{}", &uuid::Uuid::new_v4().simple().to_string()[..10]);
    let created = Reply::read(
        h.merchant(reqwest::Method::POST, "/v1/sessions")
            .json(
                &json!({"reference": reference, "plan_id": "demo-weekly", "customer_id": customer}),
            )
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.text);
    assert_eq!(
        created.json["amount"], 450,
        "first cycle with the plan's 10% discount"
    );
    assert_eq!(created.json["currency"], "USD");
    let session = crate::api::support::TestSession {
        id: created.json["id"].as_str().expect("id").to_owned(),
        secret: created.json["client_secret"]
            .as_str()
            .expect("secret")
            .to_owned(),
        reference: reference.clone(),
    };
    let view = Reply::read(
        h.checkout(reqwest::Method::GET, &session, "")
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(view.json["kind"]["type"], "subscription", "{}", view.text);
    assert_eq!(view.json["kind"]["plan"]["id"], "demo-weekly");
    assert_eq!(view.json["can_save_card"], false);

    let reply = h
        .pay(&session, &pay_body(cards::VISA_OK, "123"), None)
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.json["next_action"], "none");
    let result = &reply.json["result"];
    assert_eq!(result["state"], "captured", "{}", reply.text);
    let subscription_id = result["subscription_id"].as_str().expect("subscription id");
    let subscription = h
        .store()
        .get_subscription(subscription_id)
        .await
        .expect("read")
        .expect("stored");
    assert_eq!(subscription.plan_id, "demo-weekly");
    assert_eq!(subscription.customer_id.as_deref(), Some(customer.as_str()));
    assert_eq!(subscription.completed_cycles, 1);
    let cycles = h
        .store()
        .list_cycles(subscription_id)
        .await
        .expect("cycles");
    assert_eq!(cycles.len(), 1);
    assert_eq!(cycles[0].amount, 450);
    assert_eq!(
        h.payment(result["payment_id"].as_str().expect("id")).await["kind"],
        "subscription"
    );
}

async fn unknown_start_outcome_stays_pending(h: &Harness) {
    h.sandbox.faults.arm(
        ArmedFault::new(
            Some("paymentv2"),
            "status:503:after".parse::<Fault>().expect("fault"),
            Some(1),
        )
        .expect("armed"),
    );
    let session = h.session(1800, json!({})).await;
    let reply = h
        .pay(&session, &pay_body(cards::CHALLENGE, "123"), None)
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.json["next_action"], "none");
    assert_eq!(reply.json["result"]["state"], "pending");
    assert_eq!(
        h.gateway_charges(&session.reference),
        1,
        "the gateway did act"
    );
    // Never sent again: a second pay is refused while the first is unresolved.
    h.pay(&session, &pay_body(cards::VISA_OK, "123"), None)
        .await
        .assert_error(409, "payment_in_progress", None);
    assert_eq!(h.gateway_charges(&session.reference), 1);
    let payment = h.stored_payment(&session).await;
    assert_eq!(payment.gateway_transaction_id, None);
    let attempts = h
        .store()
        .list_attempts(&payment.id)
        .await
        .expect("attempts");
    assert_eq!(attempts.len(), 1);
    assert_eq!(attempts[0].outcome, AttemptOutcome::OutcomeUnknown);
}
