//! The merchant's saved-card endpoints: a card saved through a paying checkout (save-card
//! opt-in, token delivered with the confirmed webhook) is listed with brand, last four, expiry
//! and creation time only; deleting it empties the list and makes a later pay with its id fail
//! naming `saved_card_id`, without reaching the gateway. Another customer's card is a 404, and
//! both routes want the merchant key.

use std::time::Duration;

use serde_json::{Value, json};

use crate::api_support::{
    Harness, Reply, TestSession, api_suite, browser_info, cards, eventually, param, pay_body,
};

api_suite!(
    list_then_delete_a_saved_card,
    cards_of_other_customers_are_not_found,
    card_routes_need_the_merchant_key,
);

fn cards_path(customer: &str) -> String {
    format!("/v1/customers/{customer}/cards")
}

async fn list_cards(h: &Harness, customer: &str) -> Reply {
    Reply::read(
        h.merchant(reqwest::Method::GET, &cards_path(customer))
            .send()
            .await
            .expect("sent"),
    )
    .await
}

async fn delete_card(h: &Harness, customer: &str, card_id: &str) -> Reply {
    Reply::read(
        h.merchant(
            reqwest::Method::DELETE,
            &format!("{}/{card_id}", cards_path(customer)),
        )
        .send()
        .await
        .expect("sent"),
    )
    .await
}

/// Pays a session of `customer` with the save-card opt-in through 3DS, then waits for the
/// webhook to store the card; returns the merchant listing's only card.
async fn save_card_by_paying(h: &Harness, customer: &str) -> Value {
    let session = h.session(1000, json!({"customer_id": customer})).await;
    let mut body = pay_body(cards::VISA_OK, "123");
    body["save_card"] = json!(true);
    let reply = h.pay(&session, &body, None).await;
    assert_eq!(reply.json["next_action"], "redirect", "{}", reply.text);
    let landed = h
        .complete_3ds(reply.json["redirect_url"].as_str().expect("url"), "approve")
        .await;
    assert_eq!(param(&landed, "checkout").as_deref(), Some("paid"));
    let listed = eventually("the saved card", Duration::from_secs(5), || async {
        let reply = list_cards(h, customer).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        let data = reply.json["data"].as_array().cloned().unwrap_or_default();
        (!data.is_empty()).then_some(data)
    })
    .await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    listed[0].clone()
}

fn pay_with_saved(card_id: &Value) -> Value {
    json!({
        "saved_card_id": card_id,
        "billing_address": {"country": "JP", "postal_code": "100-0001"},
        "browser_info": browser_info(),
    })
}

fn new_customer() -> String {
    format!("cust-{}", uuid::Uuid::new_v4().simple())
}

async fn list_then_delete_a_saved_card(h: &Harness) {
    let customer = new_customer();
    let empty = list_cards(h, &customer).await;
    assert_eq!(empty.status, 200, "{}", empty.text);
    assert_eq!(empty.json, json!({"data": []}));

    let card = save_card_by_paying(h, &customer).await;
    let stored = h.store().list_cards(&customer).await.expect("cards");
    assert_eq!(stored.len(), 1);
    let created_at = card["created_at"].as_str().expect("created_at");
    assert!(
        time::OffsetDateTime::parse(created_at, &time::format_description::well_known::Rfc3339)
            .is_ok(),
        "{created_at}"
    );
    // Exactly these fields: no token, no BIN, no customer id.
    assert_eq!(
        card,
        json!({
            "id": stored[0].id,
            "brand": "visa",
            "last4": "4242",
            "expiry_month": 12,
            "expiry_year": 2030,
            "created_at": created_at,
        })
    );
    let shown = card.to_string();
    assert!(!shown.contains("424242"), "{shown}");

    let deleted = delete_card(h, &customer, &stored[0].id).await;
    assert_eq!(deleted.status, 204, "{}", deleted.text);
    assert!(deleted.text.is_empty(), "{}", deleted.text);
    let after = list_cards(h, &customer).await;
    assert_eq!(after.json, json!({"data": []}), "{}", after.text);
    delete_card(h, &customer, &stored[0].id)
        .await
        .assert_error(404, "not_found", None);

    // The deleted card can no longer pay, and the gateway is never asked.
    let later = h.session(2500, json!({"customer_id": customer})).await;
    h.pay(&later, &pay_with_saved(&card["id"]), None)
        .await
        .assert_error(400, "unknown_saved_card", Some("saved_card_id"));
    assert_eq!(h.gateway_charges(&later.reference), 0);
    assert_no_saved_cards_in_view(h, &later).await;
}

async fn assert_no_saved_cards_in_view(h: &Harness, session: &TestSession) {
    let reply = Reply::read(
        h.checkout(reqwest::Method::GET, session, "")
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.json["saved_cards"], json!([]));
}

async fn cards_of_other_customers_are_not_found(h: &Harness) {
    let owner = new_customer();
    let card = save_card_by_paying(h, &owner).await;
    let card_id = card["id"].as_str().expect("id");
    let stranger = new_customer();

    assert_eq!(list_cards(h, &stranger).await.json, json!({"data": []}));
    delete_card(h, &stranger, card_id)
        .await
        .assert_error(404, "not_found", None);
    delete_card(h, &owner, "not-a-card-id")
        .await
        .assert_error(404, "not_found", None);
    delete_card(h, &owner, &uuid::Uuid::new_v4().to_string())
        .await
        .assert_error(404, "not_found", None);
    list_cards(h, "bad%00id")
        .await
        .assert_error(400, "invalid_field", Some("customer_id"));
    list_cards(h, &"x".repeat(65))
        .await
        .assert_error(400, "invalid_field", Some("customer_id"));

    // The owner's card survived the stranger's attempt and still pays.
    assert_eq!(list_cards(h, &owner).await.json["data"], json!([card]));
    let session = h.session(700, json!({"customer_id": owner})).await;
    let reply = h.pay(&session, &pay_with_saved(&card["id"]), None).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.json["result"]["state"], "captured", "{}", reply.text);
}

async fn card_routes_need_the_merchant_key(h: &Harness) {
    let customer = new_customer();
    let card_path = format!("{}/{}", cards_path(&customer), uuid::Uuid::new_v4());
    for (method, path) in [
        (reqwest::Method::GET, cards_path(&customer)),
        (reqwest::Method::DELETE, card_path.clone()),
    ] {
        let url = format!("{}{path}", h.base);
        let bare = Reply::read(
            h.api
                .request(method.clone(), &url)
                .send()
                .await
                .expect("sent"),
        )
        .await;
        bare.assert_error(401, "unauthorized", None);
        let wrong = Reply::read(
            h.api
                .request(method, &url)
                .bearer_auth("sk_test_wrong")
                .send()
                .await
                .expect("sent"),
        )
        .await;
        wrong.assert_error(401, "unauthorized", None);
    }
}
