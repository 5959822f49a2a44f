//! The merchant's saved-card endpoints: a card saved through a paying checkout (save-card
//! opt-in, token delivered with the confirmed webhook) is listed with brand, last four, expiry
//! and creation time only; deleting it empties the list and makes a later pay with its id fail
//! naming `saved_card_id`, without reaching the gateway. Another customer's card is a 404, and
//! both routes want the merchant key. A card deleted through another server instance, while
//! this one still holds its copy in memory, never pays either; one saved again there with a
//! new expiry pays with the new details (once the stale copy is noticed, the shopper is asked
//! to send the payment again, and nothing is charged in between).

use std::time::Duration;

use checkout_server::store::prelude::*;
use serde_json::{Value, json};

use crate::api::support::{
    Harness, Reply, TestSession, api_suite, browser_info, cards, eventually, param, pay_body,
};
use crate::ops::support::second_instance;

api_suite!(
    list_then_delete_a_saved_card,
    a_card_deleted_through_another_instance_never_pays,
    a_card_saved_again_through_another_instance_pays_with_its_new_details,
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
pub(crate) async fn save_card_by_paying(h: &Harness, customer: &str) -> Value {
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

pub(crate) fn pay_with_saved(card_id: &Value) -> Value {
    json!({
        "saved_card_id": card_id,
        "billing_address": {"country": "JP", "postal_code": "100-0001"},
        "browser_info": browser_info(),
    })
}

pub(crate) fn new_customer() -> String {
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
    assert_eq!(h.view(session).await["saved_cards"], json!([]));
}

async fn a_card_deleted_through_another_instance_never_pays(h: &Harness) {
    let customer = new_customer();
    let card = save_card_by_paying(h, &customer).await;
    let card_id = card["id"].as_str().expect("card id");
    // This instance saved the card and created the session: both are in its memory.
    let session = h.session(1800, json!({"customer_id": customer})).await;
    let other = second_instance(h).await;
    assert!(
        other
            .store
            .delete_card(&customer, card_id)
            .await
            .expect("deleted")
    );

    h.pay(&session, &pay_with_saved(&card["id"]), None)
        .await
        .assert_error(400, "unknown_saved_card", Some("saved_card_id"));
    assert_eq!(h.gateway_charges(&session.reference), 0);
    let payments = h.stored_payments(&session).await;
    assert!(payments.is_empty(), "{payments:?}");
    // Nothing is left claimed: a new card still pays the session.
    let paid = h
        .pay(&session, &pay_body(cards::VISA_OK, "123"), None)
        .await;
    assert_eq!(paid.json["next_action"], "redirect", "{}", paid.text);
}

/// Saves `customer`'s card `card_id` again through `store` with the expiry `month`/`year`.
async fn save_again(store: &dyn Store, customer: &str, card_id: &str, month: u8, year: u16) {
    let kept = store
        .get_card(customer, card_id)
        .await
        .expect("read")
        .expect("saved");
    let saved = store
        .save_card(NewSavedCard {
            customer_id: customer.to_owned(),
            gateway_token: kept.gateway_token,
            brand: kept.brand,
            last4: kept.last4,
            expiry_month: month,
            expiry_year: year,
            card_fingerprint: None,
            saved_from: None,
        })
        .await
        .expect("saved again");
    assert_eq!(saved.id, card_id, "the same card");
}

async fn a_card_saved_again_through_another_instance_pays_with_its_new_details(h: &Harness) {
    let customer = new_customer();
    let card = save_card_by_paying(h, &customer).await;
    let card_id = card["id"].as_str().expect("card id");
    let other = second_instance(h).await;

    // Elsewhere the card is renewed; this instance's copy still has the old expiry.
    save_again(&*other.store, &customer, card_id, 6, 2033).await;
    let session = h.session(1900, json!({"customer_id": customer})).await;
    h.pay(&session, &pay_with_saved(&card["id"]), None)
        .await
        .assert_error(409, "saved_card_changed", Some("saved_card_id"));
    assert_eq!(h.gateway_charges(&session.reference), 0);
    let paid = h.pay(&session, &pay_with_saved(&card["id"]), None).await;
    assert_eq!(paid.status, 200, "{}", paid.text);
    assert_eq!(paid.json["result"]["state"], "captured", "{}", paid.text);
    let payment = h.stored_payment(&session).await;
    let summary = payment.card.expect("card summary");
    assert_eq!((summary.expiry_month, summary.expiry_year), (6, 2033));

    // Here the copy says expired; elsewhere the card was renewed: it pays at once.
    save_again(&**h.store(), &customer, card_id, 1, 2020).await;
    save_again(&*other.store, &customer, card_id, 9, 2034).await;
    let later = h.session(2100, json!({"customer_id": customer})).await;
    let paid = h.pay(&later, &pay_with_saved(&card["id"]), None).await;
    assert_eq!(paid.status, 200, "{}", paid.text);
    assert_eq!(paid.json["result"]["state"], "captured", "{}", paid.text);
    assert_eq!(h.gateway_charges(&later.reference), 1);
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
