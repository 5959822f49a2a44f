//! Customer self-service: the shop backend gets a customer token from the merchant API, the
//! component lists and manages that customer's subscriptions with it, and nobody else's.

use checkout::contract::{CustomerSubscriptions, SubscriptionStatus, SubscriptionView};
use reqwest::Method;
use serde_json::json;

use crate::api::support::{Harness, cards};
use crate::ops::support::{
    customer, customer_token, gateway_subscription_status, merchant_subscription, ops_suite, send,
    subscribe, unique,
};

const CONFIG: &[(&str, &str)] = &[];

ops_suite!(
    customers_see_and_manage_only_their_own,
    tokens_are_checked_and_can_be_revoked,
);

async fn customers_see_and_manage_only_their_own(h: &Harness) {
    let alice = unique("alice");
    let bob = unique("bob");
    let (_, alices) = subscribe(h, &alice, "demo-monthly", cards::VISA_OK).await;
    let (_, bobs) = subscribe(h, &bob, "demo-weekly", cards::VISA_OK).await;
    let token = customer_token(h, &alice).await;

    let list = send(customer(
        h,
        Method::GET,
        "/v1/customer/subscriptions",
        &token,
    ))
    .await;
    assert_eq!(list.status, 200, "{}", list.text);
    let list: CustomerSubscriptions = serde_json::from_value(list.json).expect("contract shape");
    assert_eq!(list.subscriptions.len(), 1);
    let view = &list.subscriptions[0];
    assert_eq!(view.id, alices);
    assert_eq!(view.status, SubscriptionStatus::Active);
    assert_eq!(view.plan.id, "demo-monthly");
    assert_eq!(view.completed_cycles, 1);
    assert_eq!(view.history.len(), 1);
    assert!(view.history[0].succeeded);

    let one = send(customer(
        h,
        Method::GET,
        &format!("/v1/customer/subscriptions/{alices}"),
        &token,
    ))
    .await;
    assert_eq!(one.status, 200, "{}", one.text);

    // Bob's subscription does not exist as far as Alice's token is concerned.
    send(customer(
        h,
        Method::GET,
        &format!("/v1/customer/subscriptions/{bobs}"),
        &token,
    ))
    .await
    .assert_error(404, "not_found", None);
    for action in ["pause", "cancel"] {
        send(customer(
            h,
            Method::POST,
            &format!("/v1/customer/subscriptions/{bobs}/{action}"),
            &token,
        ))
        .await
        .assert_error(404, "not_found", None);
    }
    let bob_gateway = merchant_subscription(h, &bobs).await["gateway_subscription_id"]
        .as_str()
        .expect("gateway id")
        .to_owned();
    assert_eq!(
        gateway_subscription_status(h, &bob_gateway).await,
        "ACTIVE",
        "the gateway was never asked"
    );

    // Alice manages her own.
    let paused = send(
        customer(
            h,
            Method::POST,
            &format!("/v1/customer/subscriptions/{alices}/pause"),
            &token,
        )
        .json(&json!({})),
    )
    .await;
    assert_eq!(paused.status, 200, "{}", paused.text);
    let paused: SubscriptionView = serde_json::from_value(paused.json).expect("contract shape");
    assert_eq!(paused.status, SubscriptionStatus::Paused);
    send(customer(
        h,
        Method::POST,
        &format!("/v1/customer/subscriptions/{alices}/pause"),
        &token,
    ))
    .await
    .assert_error(409, "subscription_transition_refused", None);
    let resumed = send(customer(
        h,
        Method::POST,
        &format!("/v1/customer/subscriptions/{alices}/resume"),
        &token,
    ))
    .await;
    assert_eq!(resumed.json["status"], "active", "{}", resumed.text);
    let cancelled = send(customer(
        h,
        Method::POST,
        &format!("/v1/customer/subscriptions/{alices}/cancel"),
        &token,
    ))
    .await;
    assert_eq!(cancelled.json["status"], "cancelled", "{}", cancelled.text);
    assert_eq!(
        merchant_subscription(h, &alices).await["status"],
        "cancelled"
    );
}

async fn tokens_are_checked_and_can_be_revoked(h: &Harness) {
    let alice = unique("alice");
    let (_, alices) = subscribe(h, &alice, "demo-monthly", cards::VISA_OK).await;
    let path = format!("/v1/customer/subscriptions/{alices}");

    send(h.api.get(format!("{}{path}", h.base)))
        .await
        .assert_error(401, "missing_customer_token", None);
    send(customer(h, Method::GET, &path, "ct_not-a-real-token"))
        .await
        .assert_error(401, "invalid_customer_token", None);
    // The merchant key is not a customer token.
    send(customer(
        h,
        Method::GET,
        &path,
        crate::api::support::MERCHANT_KEY,
    ))
    .await
    .assert_error(401, "invalid_customer_token", None);

    // Issuing needs the merchant key, a sane id and a sane lifetime.
    let anonymous = send(
        h.api
            .post(format!("{}/v1/customers/{alice}/tokens", h.base)),
    )
    .await;
    anonymous.assert_error(401, "unauthorized", None);
    send(
        h.merchant(Method::POST, &format!("/v1/customers/{alice}/tokens"))
            .json(&json!({"ttl_seconds": 5})),
    )
    .await
    .assert_error(400, "invalid_field", Some("ttl_seconds"));
    let long_id = "x".repeat(65);
    send(h.merchant(Method::POST, &format!("/v1/customers/{long_id}/tokens")))
        .await
        .assert_error(400, "invalid_field", Some("customer_id"));
    let short = send(
        h.merchant(Method::POST, &format!("/v1/customers/{alice}/tokens"))
            .json(&json!({"ttl_seconds": 120})),
    )
    .await;
    assert_eq!(short.status, 201, "{}", short.text);
    let expires = time::OffsetDateTime::parse(
        short.json["expires_at"].as_str().expect("expires_at"),
        &time::format_description::well_known::Rfc3339,
    )
    .expect("RFC 3339");
    let left = expires - time::OffsetDateTime::now_utc();
    assert!(
        left <= time::Duration::seconds(121) && left >= time::Duration::seconds(100),
        "{left}"
    );

    let token = customer_token(h, &alice).await;
    assert!(token.starts_with("ct_") && token.len() > 40);
    assert_eq!(
        send(customer(h, Method::GET, &path, &token)).await.status,
        200
    );
    let revoked = send(customer(h, Method::DELETE, "/v1/customer/token", &token)).await;
    assert_eq!(revoked.status, 204, "{}", revoked.text);
    send(customer(h, Method::GET, &path, &token))
        .await
        .assert_error(401, "invalid_customer_token", None);
}
