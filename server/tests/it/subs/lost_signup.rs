//! A sign-up whose answer is lost (issue 46): the gateway created and charged the subscription,
//! but its answer never came (a 5xx after processing, or an answer slower than the server's
//! time limit). The sign-up stays open, a second one is refused meanwhile, and the reconciler
//! finds the subscription in the gateway's list within one pass: recorded, its payment
//! settled, the shop told, the customer able to see and cancel it. One the gateway never made
//! fails; one that cannot be told apart from another goes to review.

use reqwest::Method;
use serde_json::Value;

use crate::api::support::{Harness, cards, pay_body};
use crate::ops::support::{
    after_the_startup_pass, arm, create_subscription_session, customer, customer_token,
    event_kinds, gateway_subscription_status, gateway_subscriptions, in_seconds,
    merchant_subscription, ops_suite, reconciler, send, subscription_session, unique,
};

/// A short time limit, so an answer held back 4 s is lost.
const CONFIG: &[(&str, &str)] = &[("GATEWAY_TIMEOUT_MS", "1500")];

ops_suite!(
    a_lost_answer_is_found_in_the_list_and_the_customer_can_cancel_it,
    a_slow_answer_is_found_the_same_way,
    a_sign_up_the_gateway_never_made_fails,
    a_lost_trial_is_taken_when_nothing_else_could_be_it,
    sign_ups_that_cannot_be_told_apart_go_to_review,
);

/// Pays `session` with an approved card; the answer must say the outcome is not known yet.
/// (After the reconciler's pass at start: the test's own pass decides the sign-up.)
async fn pay_unknown(h: &Harness, session: &crate::api::support::TestSession) -> String {
    after_the_startup_pass(h).await;
    let paid = h.pay(session, &pay_body(cards::VISA_OK, "123"), None).await;
    assert_eq!(paid.status, 200, "{}", paid.text);
    assert_eq!(paid.json["result"]["state"], "pending", "{}", paid.text);
    assert_eq!(paid.json["result"]["subscription_id"], Value::Null);
    paid.json["result"]["payment_id"]
        .as_str()
        .expect("payment id")
        .to_owned()
}

async fn payment(h: &Harness, id: &str) -> Value {
    let reply = send(h.merchant(Method::GET, &format!("/v1/payments/{id}"))).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json
}

async fn a_lost_answer_is_found_in_the_list_and_the_customer_can_cancel_it(h: &Harness) {
    let shopper = unique("cust");
    // A second session of the same customer, opened before the first sign-up.
    let earlier = subscription_session(h, &shopper, "demo-monthly").await;
    let session = subscription_session(h, &shopper, "demo-monthly").await;
    arm(h, "subscription/payment=status:502:after*1");
    let payment_id = pay_unknown(h, &session).await;
    assert_eq!(
        gateway_subscriptions(h).await.len(),
        1,
        "the gateway made it"
    );

    // While the sign-up is unconfirmed, a second one is refused, at creation and at the pay
    // call, and nothing reaches the gateway.
    create_subscription_session(h, &shopper, "demo-monthly")
        .await
        .assert_error(409, "subscription_pending", None);
    h.pay(&earlier, &pay_body(cards::VISA_OK, "123"), None)
        .await
        .assert_error(409, "subscription_pending", None);
    let listed = gateway_subscriptions(h).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["status"], "ACTIVE");

    let report = reconciler(h).run_once_at(in_seconds(5)).await;
    assert_eq!(report.signups_recorded, 1, "{report:?}");
    let paid = payment(h, &payment_id).await;
    assert_eq!(paid["state"], "captured", "{paid}");
    let id = paid["subscription_id"]
        .as_str()
        .expect("its subscription")
        .to_owned();
    assert_eq!(
        paid["gateway_transaction_id"], listed[0]["subscription_transaction_details"][0]["id"],
        "settled with the sign-up's own charge"
    );
    let recorded = merchant_subscription(h, &id).await;
    assert_eq!(recorded["gateway_subscription_id"], listed[0]["id"]);
    assert_eq!(recorded["customer_id"], shopper.as_str());
    assert_eq!(recorded["first_payment_id"], payment_id.as_str());
    assert_eq!(recorded["status"], "active");
    assert_eq!(recorded["history"][0]["payment_id"], payment_id.as_str());
    assert_eq!(event_kinds(h, &id).await, ["subscription.created"]);
    assert!(
        event_kinds(h, &payment_id)
            .await
            .contains(&"payment.captured".to_owned())
    );

    // Held now: another sign-up to the plan is refused as such.
    create_subscription_session(h, &shopper, "demo-monthly")
        .await
        .assert_error(409, "already_subscribed", None);

    // The customer sees it on the self-service page and cancels it.
    let token = customer_token(h, &shopper).await;
    let mine = send(customer(
        h,
        Method::GET,
        "/v1/customer/subscriptions",
        &token,
    ))
    .await;
    assert_eq!(mine.status, 200, "{}", mine.text);
    assert_eq!(mine.json["subscriptions"].as_array().map(Vec::len), Some(1));
    assert_eq!(mine.json["subscriptions"][0]["id"], id.as_str());
    let cancelled = send(customer(
        h,
        Method::POST,
        &format!("/v1/customer/subscriptions/{id}/cancel"),
        &token,
    ))
    .await;
    assert_eq!(cancelled.json["status"], "cancelled", "{}", cancelled.text);
    let gateway_id = listed[0]["id"].as_str().expect("gateway id");
    assert_eq!(
        gateway_subscription_status(h, gateway_id).await,
        "CANCELLED"
    );
    let after = gateway_subscriptions(h).await;
    assert_eq!(after.len(), 1, "never a second subscription at the gateway");
    assert_eq!(
        create_subscription_session(h, &shopper, "demo-monthly")
            .await
            .status,
        201,
        "signing up again is allowed once it is cancelled"
    );
}

async fn a_slow_answer_is_found_the_same_way(h: &Harness) {
    let shopper = unique("cust");
    let session = subscription_session(h, &shopper, "demo-weekly").await;
    arm(h, "subscription/payment=latency:4000:after*1");
    let payment_id = pay_unknown(h, &session).await;
    let report = reconciler(h).run_once_at(in_seconds(5)).await;
    assert_eq!(report.signups_recorded, 1, "{report:?}");
    let paid = payment(h, &payment_id).await;
    assert_eq!(paid["state"], "captured", "{paid}");
    assert_eq!(paid["amount"], 450, "the discounted first week");
    let id = paid["subscription_id"].as_str().expect("recorded");
    assert_eq!(
        merchant_subscription(h, id).await["customer_id"],
        shopper.as_str()
    );
}

async fn a_sign_up_the_gateway_never_made_fails(h: &Harness) {
    let shopper = unique("cust");
    let session = subscription_session(h, &shopper, "demo-monthly").await;
    arm(h, "subscription/payment=status:502:before*1");
    let payment_id = pay_unknown(h, &session).await;
    assert!(gateway_subscriptions(h).await.is_empty());
    create_subscription_session(h, &shopper, "demo-monthly")
        .await
        .assert_error(409, "subscription_pending", None);

    let report = reconciler(h).run_once_at(in_seconds(5)).await;
    assert_eq!(report.signups_failed, 1, "{report:?}");
    assert_eq!(payment(h, &payment_id).await["state"], "failed");
    assert_eq!(
        create_subscription_session(h, &shopper, "demo-monthly")
            .await
            .status,
        201,
        "the customer may sign up again"
    );
}

async fn a_lost_trial_is_taken_when_nothing_else_could_be_it(h: &Harness) {
    // A trial charges nothing at sign-up: no charge in the list names its reference. The only
    // subscription on its plan in its window, with no other open sign-up to the plan, is its.
    let shopper = unique("cust");
    let session = subscription_session(h, &shopper, "demo-trial").await;
    arm(h, "subscription/payment=status:502:after*1");
    let payment_id = pay_unknown(h, &session).await;
    let report = reconciler(h).run_once_at(in_seconds(5)).await;
    assert_eq!(report.signups_recorded, 1, "{report:?}");
    let paid = payment(h, &payment_id).await;
    assert_eq!(paid["state"], "captured", "{paid}");
    assert_eq!(paid["amount"], 0, "the trial's card check");
    assert_eq!(
        paid["gateway_transaction_id"],
        Value::Null,
        "not in the list"
    );
    let id = paid["subscription_id"].as_str().expect("recorded");
    let recorded = merchant_subscription(h, id).await;
    assert_eq!(recorded["customer_id"], shopper.as_str());
    assert_eq!(recorded["completed_cycles"], 0, "the trial runs");
    assert_eq!(event_kinds(h, id).await, ["subscription.created"]);
}

async fn sign_ups_that_cannot_be_told_apart_go_to_review(h: &Harness) {
    // Two customers start the trial plan at once and both answers are lost: the list shows two
    // subscriptions on the plan, neither charged yet, so nothing says whose is whose.
    let mut payments = Vec::new();
    for _ in 0..2 {
        let session = subscription_session(h, &unique("cust"), "demo-trial").await;
        arm(h, "subscription/payment=status:502:after*1");
        payments.push(pay_unknown(h, &session).await);
    }
    let report = reconciler(h).run_once_at(in_seconds(5)).await;
    assert_eq!(report.signups_to_review, 2, "{report:?}");
    assert_eq!(report.subscriptions_found, 2, "{report:?}");
    for id in &payments {
        assert_eq!(payment(h, id).await["state"], "needs_review");
    }
    let found = send(h.merchant(Method::GET, "/v1/subscriptions?limit=100")).await;
    let found: Vec<&Value> = found.json["data"]
        .as_array()
        .expect("data")
        .iter()
        .filter(|s| s["origin"] == "gateway_list")
        .collect();
    assert_eq!(found.len(), 2, "both shown to the shop");
    for subscription in found {
        assert!(
            subscription["review_note"]
                .as_str()
                .is_some_and(|note| note.contains(&payments[0]) || note.contains(&payments[1])),
            "{subscription}"
        );
        let id = subscription["id"].as_str().expect("id");
        assert_eq!(event_kinds(h, id).await, ["subscription.needs_review"]);
    }
}
