//! Lost sign-ups whose decision does not go through at once (issue 46): one cut short (the
//! process recorded the subscription the list showed and died before settling the payment and
//! closing the sign-up) is finished by the next pass, once; one the gateway's list cannot be
//! read for goes to review at its payment's deadline, and no longer holds its customer back.

use checkout_server::store::prelude::*;
use reqwest::Method;

use crate::api::support::{Harness, cards, pay_body};
use crate::ops::support::{
    after_the_startup_pass, arm, create_subscription_session, event_kinds, gateway_subscriptions,
    in_seconds, ops_suite, reconciler, send, subscription_session, unique,
};

const CONFIG: &[(&str, &str)] = &[];

ops_suite!(
    a_decision_cut_short_is_finished_by_the_next_pass,
    a_sign_up_undecided_by_its_deadline_goes_to_review,
);

async fn a_decision_cut_short_is_finished_by_the_next_pass(h: &Harness) {
    after_the_startup_pass(h).await;
    let session = subscription_session(h, &unique("cust"), "demo-monthly").await;
    arm(h, "subscription/payment=status:502:after*1");
    let paid = h
        .pay(&session, &pay_body(cards::VISA_OK, "123"), None)
        .await;
    assert_eq!(paid.json["result"]["state"], "pending", "{}", paid.text);
    let payment_id = paid.json["result"]["payment_id"]
        .as_str()
        .expect("id")
        .to_owned();

    // What a pass that died after its first step left: the subscription recorded for the
    // sign-up's payment, the payment pending, the sign-up open.
    let listed = gateway_subscriptions(h).await;
    let gateway_id = listed[0]["id"].as_str().expect("gateway id");
    let details = h
        .state
        .gateway
        .subscription_get(gateway_id)
        .await
        .expect("details");
    let store = h.store();
    let payment = store
        .get_payment(&payment_id)
        .await
        .unwrap()
        .expect("payment");
    let stored_session = store
        .get_session(&session.id)
        .await
        .unwrap()
        .expect("session");
    let plan = h
        .state
        .config
        .plans
        .get("demo-monthly")
        .expect("plan")
        .clone();
    let recorded = h
        .state
        .payments
        .record_subscription(
            &stored_session,
            &plan,
            &payment,
            &details.subscription_details,
            None,
        )
        .await
        .expect("recorded");
    assert_eq!(
        store
            .get_signup(&payment_id)
            .await
            .unwrap()
            .map(|s| s.state),
        Some(SignupState::Open)
    );

    let report = reconciler(h).run_once_at(in_seconds(5)).await;
    assert_eq!(report.signups_recorded, 1, "{report:?}");
    let settled = send(h.merchant(Method::GET, &format!("/v1/payments/{payment_id}"))).await;
    assert_eq!(settled.json["state"], "captured", "{}", settled.text);
    assert_eq!(settled.json["subscription_id"], recorded.id.as_str());
    assert_eq!(
        settled.json["gateway_transaction_id"],
        listed[0]["subscription_transaction_details"][0]["id"]
    );
    let signup = store.get_signup(&payment_id).await.unwrap().expect("kept");
    assert_eq!(signup.state, SignupState::Recorded);
    assert_eq!(
        signup.subscription_id.as_deref(),
        Some(recorded.id.as_str())
    );
    assert_eq!(
        event_kinds(h, &recorded.id).await,
        ["subscription.created"],
        "recorded once"
    );
    assert_eq!(
        store
            .list_subscriptions(SubscriptionQuery::default())
            .await
            .unwrap()
            .items
            .len(),
        1
    );
}

async fn a_sign_up_undecided_by_its_deadline_goes_to_review(h: &Harness) {
    after_the_startup_pass(h).await;
    let shopper = unique("cust");
    let session = subscription_session(h, &shopper, "demo-monthly").await;
    arm(h, "subscription/payment=status:502:after*1");
    let paid = h
        .pay(&session, &pay_body(cards::VISA_OK, "123"), None)
        .await;
    let payment_id = paid.json["result"]["payment_id"]
        .as_str()
        .expect("id")
        .to_owned();
    arm(h, "subscription/list=status:503");

    let early = reconciler(h).run_once_at(in_seconds(5)).await;
    assert_eq!(
        (early.signups_recorded, early.signups_to_review),
        (0, 0),
        "{early:?}"
    );
    assert!(early.failures >= 1, "{early:?}");
    create_subscription_session(h, &shopper, "demo-monthly")
        .await
        .assert_error(409, "subscription_pending", None);

    // PAYMENT_REVIEW_AFTER_SECONDS (1800) later, still unreadable: a person decides.
    let late = reconciler(h).run_once_at(in_seconds(1801)).await;
    assert_eq!(late.signups_to_review, 1, "{late:?}");
    let settled = send(h.merchant(Method::GET, &format!("/v1/payments/{payment_id}"))).await;
    assert_eq!(settled.json["state"], "needs_review", "{}", settled.text);
    let signup = h
        .store()
        .get_signup(&payment_id)
        .await
        .unwrap()
        .expect("kept");
    assert_eq!(signup.state, SignupState::Review);
    assert!(
        signup
            .note
            .is_some_and(|note| note.contains("could not be read"))
    );
    assert_eq!(
        create_subscription_session(h, &shopper, "demo-monthly")
            .await
            .status,
        201,
        "the customer is no longer held back"
    );
}
