//! The places of a link: a one-payment link refuses a second payment, a limited reusable link
//! stops at its limit, and a failed payment frees its place. The place is taken when the
//! payment is recorded, before the gateway is called: a payment refused for want of one never
//! reaches the gateway.

use reqwest::Method;
use serde_json::json;

use super::{create_link, link_session, public_id, start};
use crate::api::support::{Harness, api_suite, cards, pay_body};
use crate::events::call;

api_suite!(
    a_one_payment_link_refuses_a_second_payment,
    a_limited_link_stops_at_its_limit_and_a_failed_payment_frees_its_place,
);

async fn a_one_payment_link_refuses_a_second_payment(h: &Harness) {
    let link = create_link(h, json!({})).await;
    let id = link["id"].as_str().expect("id");
    let first = link_session(h, &link, json!({})).await;
    let second = link_session(h, &link, json!({})).await;
    let redirect = h.pay_to_redirect(&first, cards::VISA_OK).await;
    h.complete_3ds(&redirect, "approve").await;
    assert_eq!(h.result(&first).await["state"], "captured");

    start(h, &public_id(&link), json!({}))
        .await
        .assert_error(410, "payment_link_used_up", None);
    let refused = h.pay(&second, &pay_body(cards::VISA_OK, "123"), None).await;
    refused.assert_error(409, "payment_link_unavailable", None);
    assert_eq!(h.gateway_charges(id), 1);
    assert!(h.stored_payments(&second).await.is_empty());
    // The paying session itself may still be asked about (and is not "used up" for itself).
    let figures = h.state.links.figures(id).await.expect("figures");
    assert_eq!(
        (figures.payments, figures.amount, figures.places_taken),
        (1, 1500, 1)
    );
    let shown = call(h, Method::GET, &format!("/v1/payment_links/{id}"), None).await;
    assert_eq!(shown.json["active"], true, "used up is not deactivated");
}

async fn a_limited_link_stops_at_its_limit_and_a_failed_payment_frees_its_place(h: &Harness) {
    let link = create_link(h, json!({"reusable": true, "payment_limit": 2})).await;
    let id = link["id"].as_str().expect("id");
    // A declined payment holds no place once it has failed.
    let declined = link_session(h, &link, json!({})).await;
    let redirect = h.pay_to_redirect(&declined, cards::DO_NOT_HONOUR).await;
    h.complete_3ds(&redirect, "approve").await;
    let state = h.result(&declined).await["state"].clone();
    assert_eq!(state, "declined");
    for _ in 0..2 {
        let session = link_session(h, &link, json!({})).await;
        let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
        h.complete_3ds(&redirect, "approve").await;
        assert_eq!(h.result(&session).await["state"], "captured");
    }
    start(h, &public_id(&link), json!({}))
        .await
        .assert_error(410, "payment_link_used_up", None);
    // The declined session may not take a third place either.
    let again = h
        .pay(&declined, &pay_body(cards::VISA_OK, "123"), None)
        .await;
    again.assert_error(409, "payment_link_unavailable", None);
    let figures = h.state.links.figures(id).await.expect("figures");
    assert_eq!((figures.payments, figures.places_taken), (2, 2));
}
