//! After paying through a link: a redirect link's payer goes to the shop's page, which the
//! session's answer names with what the shop needs to find the payment (`payment_link_id`,
//! `session_id`; the page adds `payment_id`), and the receipt writes the amount as the payer's
//! language does, in the currency's exponent.

use reqwest::Method;
use serde_json::json;

use super::{create_link, public_id, start};
use crate::api::support::{Harness, TestSession, api_suite, cards, pay_body};
use crate::events::call;

api_suite!(
    a_redirect_link_names_the_link_and_the_session_to_the_shop,
    the_receipt_writes_the_amount_in_the_payers_language,
);

async fn a_redirect_link_names_the_link_and_the_session_to_the_shop(h: &Harness) {
    let link = create_link(
        h,
        json!({"redirect_url": "https://shop.example/thanks?order=7", "reusable": true}),
    )
    .await;
    let reply = start(h, &public_id(&link), json!({})).await;
    assert_eq!(reply.status, 201, "{}", reply.text);
    assert_eq!(reply.json["after_payment"], "redirect");
    let session_id = reply.json["session_id"].as_str().expect("session id");
    let link_id = link["id"].as_str().expect("link id");
    assert_eq!(
        reply.json["redirect_url"],
        format!(
            "https://shop.example/thanks?order=7&payment_link_id={link_id}&session_id={session_id}"
        ),
        "{}",
        reply.text
    );
    // What the shop does with them: its session, the payments of the link.
    let session = call(h, Method::GET, &format!("/v1/sessions/{session_id}"), None).await;
    assert_eq!(session.status, 200, "{}", session.text);
    assert_eq!(session.json["payment_link_id"], link_id);
    // The link keeps its own address as the shop gave it.
    let kept = call(
        h,
        Method::GET,
        &format!("/v1/payment_links/{link_id}"),
        None,
    )
    .await;
    assert_eq!(
        kept.json["redirect_url"],
        "https://shop.example/thanks?order=7"
    );
}

async fn the_receipt_writes_the_amount_in_the_payers_language(h: &Harness) {
    for (currency, amount, quantity, written) in [
        (
            "EUR",
            123_450,
            2,
            [
                ("en", "€2,469.00"),
                ("de", "2.469,00\u{a0}€"),
                ("fr", "2\u{202f}469,00\u{a0}€"),
            ],
        ),
        (
            "JPY",
            1500,
            1,
            [
                ("en", "¥1,500"),
                ("es", "1500\u{a0}JPY"),
                ("ar", "\u{200f}1,500\u{a0}JP¥"),
            ],
        ),
    ] {
        let link = create_link(
            h,
            json!({"amount": amount, "currency": currency, "quantity_max": 3}),
        )
        .await;
        let reply = start(h, &public_id(&link), json!({"quantity": quantity})).await;
        assert_eq!(reply.status, 201, "{}", reply.text);
        let session = TestSession {
            id: reply.json["session_id"].as_str().expect("id").to_owned(),
            secret: reply.json["client_secret"]
                .as_str()
                .expect("secret")
                .to_owned(),
            reference: link["id"].as_str().expect("id").to_owned(),
        };
        let paid = h
            .pay(&session, &pay_body(cards::VISA_OK, "123"), None)
            .await;
        assert_eq!(paid.status, 200, "{}", paid.text);
        let receipt_url = reply.json["receipt_url"].as_str().expect("receipt");
        for (lang, amount) in written {
            let page = h
                .api
                .get(format!("{receipt_url}?lang={lang}"))
                .send()
                .await
                .expect("receipt");
            assert_eq!(page.status(), 200);
            let html = page.text().await.expect("html");
            assert!(
                html.contains(&format!("<dd>{amount}</dd>")),
                "{currency} in {lang}: {amount} in {html}"
            );
        }
    }
}
