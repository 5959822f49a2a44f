//! A link with a plan signs the payer up, as the demo shop's subscription page does: the link
//! takes the plan's amount and currency, its page shows the plan's terms, and paying it makes
//! a subscription (for a customer of its own) whose first payment carries the link's id.

use reqwest::Method;
use serde_json::json;

use super::{create_link, link_session, public_id};
use crate::api::support::{Harness, api_suite, cards, pay_body};
use crate::events::call;

api_suite!(a_plan_link_signs_the_payer_up);

async fn a_plan_link_signs_the_payer_up(h: &Harness) {
    let link = create_link(
        h,
        json!({"description": "Monthly box", "amount": null, "currency": null,
               "plan_id": "demo-monthly", "reusable": true}),
    )
    .await;
    assert_eq!(
        (link["amount"].clone(), link["currency"].clone()),
        (json!(980), json!("JPY"))
    );
    let page = h
        .state
        .links
        .for_page(&public_id(&link))
        .await
        .expect("page");
    assert_eq!(page.plan.expect("the plan's terms").id, "demo-monthly");
    let mismatch = call(
        h,
        Method::POST,
        "/v1/payment_links",
        Some(json!({"description": "x", "plan_id": "demo-monthly", "amount": 5})),
    )
    .await;
    assert_eq!(mismatch.status, 400, "{}", mismatch.text);
    assert_eq!(mismatch.json["error"]["field"], "amount");

    let session = link_session(h, &link, json!({})).await;
    let paid = h
        .pay(&session, &pay_body(cards::VISA_OK, "123"), None)
        .await;
    assert_eq!(paid.status, 200, "{}", paid.text);
    assert_eq!(paid.json["result"]["state"], "captured", "{}", paid.text);
    let subscription_id = paid.json["result"]["subscription_id"]
        .as_str()
        .unwrap_or_else(|| panic!("a subscription: {}", paid.text));
    let subscription = call(
        h,
        Method::GET,
        &format!("/v1/subscriptions/{subscription_id}"),
        None,
    )
    .await;
    assert_eq!(subscription.status, 200, "{}", subscription.text);
    assert_eq!(subscription.json["plan_id"], "demo-monthly");
    let payment = h.stored_payment(&session).await;
    assert_eq!(payment.payment_link_id.as_deref(), link["id"].as_str());
    assert!(
        payment
            .customer_id
            .is_some_and(|c| c.starts_with("plink-customer-"))
    );
}
