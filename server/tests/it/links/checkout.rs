//! `POST /pay/{public_id}/session`: the server prices the session (amount × quantity) and
//! refuses, naming the field, whatever breaks the link's terms (a payer-chosen amount outside
//! its bounds above all, whatever the page allowed); an unknown link is a 404, a deactivated or
//! expired one a 410, and a session started before the link was deactivated is never charged.

use reqwest::Method;
use serde_json::json;

use super::{create_link, link_session, public_id, start};
use crate::api::support::{Harness, api_suite, cards, pay_body};
use crate::events::call;

api_suite!(
    the_server_prices_the_session_and_records_the_link,
    input_outside_the_links_terms_is_refused_naming_the_field,
    a_deactivated_or_expired_link_takes_no_payment,
);

async fn the_server_prices_the_session_and_records_the_link(h: &Harness) {
    let link = create_link(
        h,
        json!({"amount": 1200, "quantity_max": 5, "reusable": true,
               "ask_payer_reference": "required", "ask_email": "optional"}),
    )
    .await;
    let reply = start(
        h,
        &public_id(&link),
        json!({"quantity": 3, "payer_reference": "INV-2026-7", "email": "payer@example.test"}),
    )
    .await;
    assert_eq!(reply.status, 201, "{}", reply.text);
    assert_eq!(reply.json["amount"], 3600);
    assert_eq!(reply.json["currency"], "JPY");
    assert_eq!(reply.json["after_payment"], "receipt");
    let receipt_url = reply.json["receipt_url"].as_str().expect("receipt url");
    assert!(
        receipt_url.starts_with(&format!("{}/receipts/", h.base)),
        "{receipt_url}"
    );
    let session_id = reply.json["session_id"].as_str().expect("session id");
    let session = call(h, Method::GET, &format!("/v1/sessions/{session_id}"), None).await;
    assert_eq!(session.status, 200, "{}", session.text);
    assert_eq!(session.json["amount"], 3600);
    assert_eq!(session.json["payment_link_id"], link["id"]);
    assert_eq!(session.json["payer_reference"], "INV-2026-7");
    assert_eq!(session.json["email"], "payer@example.test");

    // The session is an ordinary one: the card form pays it with its client secret.
    let session = link_session(h, &link, json!({"payer_reference": "INV-8"})).await;
    let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
    h.complete_3ds(&redirect, "approve").await;
    let result = h.result(&session).await;
    assert_eq!(result["state"], "captured", "{result}");
    assert_eq!(result["amount"], 1200);
    let payment = h.payment(result["payment_id"].as_str().expect("id")).await;
    assert_eq!(payment["payment_link_id"], link["id"]);
    let listed = call(
        h,
        Method::GET,
        &format!(
            "/v1/payments?payment_link_id={}",
            link["id"].as_str().expect("id")
        ),
        None,
    )
    .await;
    assert_eq!(listed.status, 200, "{}", listed.text);
    let ids: Vec<_> = listed.json["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|p| p["id"].clone())
        .collect();
    assert_eq!(ids, vec![payment["id"].clone()]);

    // The receipt, under the id only the payer was given.
    let receipt_id = receipt_url.rsplit('/').next().expect("id");
    assert!(
        h.state
            .links
            .receipt(receipt_id)
            .await
            .expect("read")
            .is_none(),
        "not paid yet"
    );
    let paid_receipt = h
        .state
        .links
        .receipt(&reply_receipt_id(h, &link).await)
        .await
        .expect("read");
    assert!(
        paid_receipt.is_none(),
        "a session never paid has no receipt"
    );
    assert!(h.state.links.receipt("x").await.expect("read").is_none());
}

/// Starts a session of `link` and returns its receipt id.
async fn reply_receipt_id(h: &Harness, link: &serde_json::Value) -> String {
    let reply = start(h, &public_id(link), json!({"payer_reference": "R"})).await;
    assert_eq!(reply.status, 201, "{}", reply.text);
    let url = reply.json["receipt_url"].as_str().expect("receipt url");
    url.rsplit('/').next().expect("id").to_owned()
}

async fn input_outside_the_links_terms_is_refused_naming_the_field(h: &Harness) {
    let chosen = create_link(
        h,
        json!({"amount": null, "min_amount": 500, "max_amount": 5000, "reusable": true,
               "ask_email": "required", "billing_fields": ["country", "city"]}),
    )
    .await;
    let chosen = public_id(&chosen);
    let fine = json!({"amount": 700, "email": "p@example.test",
                      "billing_address": {"country": "JP", "city": "Tokyo"}});
    let cases = [
        (json!({"amount": 499}), "amount"),
        (json!({"amount": 5001}), "amount"),
        (json!({"amount": null}), "amount"),
        (json!({"amount": -5}), "amount"),
        (json!({"quantity": 2}), "quantity"),
        (json!({"email": null}), "email"),
        (json!({"email": "not-an-address"}), "email"),
        (json!({"payer_reference": "INV-1"}), "payer_reference"),
        (
            json!({"billing_address": {"country": "JP"}}),
            "billing_address.city",
        ),
        (
            json!({"billing_address": {"country": "Japan", "city": "Tokyo"}}),
            "billing_address.country",
        ),
        (json!({"tip": 5}), "tip"),
    ];
    for (change, field) in cases {
        let mut body = fine.clone();
        if let (Some(body), Some(change)) = (body.as_object_mut(), change.as_object()) {
            body.extend(change.clone());
        }
        let reply = start(h, &chosen, body.clone()).await;
        assert_eq!(reply.status, 400, "{body}: {}", reply.text);
        assert_eq!(
            reply.json["error"]["field"], field,
            "{body}: {}",
            reply.text
        );
    }
    let reply = start(h, &chosen, fine.clone()).await;
    assert_eq!(reply.status, 201, "{}", reply.text);
    assert_eq!(reply.json["amount"], 700);

    let fixed = create_link(
        h,
        json!({"quantity_max": 2, "ask_payer_reference": "required"}),
    )
    .await;
    let fixed = public_id(&fixed);
    for (body, field) in [
        (json!({"amount": 1, "payer_reference": "A"}), "amount"),
        (json!({"quantity": 3, "payer_reference": "A"}), "quantity"),
        (json!({"quantity": 0, "payer_reference": "A"}), "quantity"),
        (json!({"payer_reference": "  "}), "payer_reference"),
        (
            json!({"payer_reference": "x".repeat(101)}),
            "payer_reference",
        ),
    ] {
        let reply = start(h, &fixed, body.clone()).await;
        assert_eq!(reply.status, 400, "{body}: {}", reply.text);
        assert_eq!(
            reply.json["error"]["field"], field,
            "{body}: {}",
            reply.text
        );
    }
    let unknown = start(h, "no-such-link-0000000000000000000000000000000", json!({})).await;
    unknown.assert_error(404, "not_found", None);
}

async fn a_deactivated_or_expired_link_takes_no_payment(h: &Harness) {
    let link = create_link(h, json!({"reusable": true})).await;
    let id = link["id"].as_str().expect("id");
    let early = link_session(h, &link, json!({})).await;
    let off = call(
        h,
        Method::POST,
        &format!("/v1/payment_links/{id}/deactivate"),
        None,
    )
    .await;
    assert_eq!(off.status, 200, "{}", off.text);
    start(h, &public_id(&link), json!({}))
        .await
        .assert_error(410, "payment_link_inactive", None);
    // A session started before: the pay call records nothing and the gateway is never called.
    let paid = h.pay(&early, &pay_body(cards::VISA_OK, "123"), None).await;
    paid.assert_error(409, "payment_link_unavailable", None);
    assert_eq!(h.gateway_charges(id), 0);
    assert!(h.stored_payments(&early).await.is_empty());

    let link = create_link(
        h,
        json!({"reusable": true, "expires_at": "2099-01-01T00:00:00Z"}),
    )
    .await;
    let id = link["id"].as_str().expect("id");
    let early = link_session(h, &link, json!({})).await;
    h.execute(&format!(
        "UPDATE payment_links SET expires_at = 1000 WHERE id = '{id}'"
    ))
    .await;
    start(h, &public_id(&link), json!({}))
        .await
        .assert_error(410, "payment_link_expired", None);
    let paid = h.pay(&early, &pay_body(cards::VISA_OK, "123"), None).await;
    paid.assert_error(409, "payment_link_unavailable", None);
    assert_eq!(h.gateway_charges(id), 0);
}
