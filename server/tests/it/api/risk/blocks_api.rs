//! The block lists' merchant API: create (from a value, or from a payment for a card or an
//! address), list by pages, delete; a 400 naming the field for bad input, a 409 for an entry
//! already listed, the merchant key required, and every change in the audit log as `api`.

use reqwest::Method;
use serde_json::{Value, json};

use super::{Db, risk_suite, sent, session, start, try_card, visa};
use crate::api::support::{Harness, Reply};

risk_suite!(
    entries_are_created_listed_and_deleted_and_audited,
    bad_entries_name_their_field_and_duplicates_conflict,
    the_block_list_needs_the_merchant_key,
);

async fn create(h: &Harness, body: Value) -> Reply {
    Reply::read(
        h.merchant(Method::POST, "/v1/risk/blocks")
            .json(&body)
            .send()
            .await
            .expect("sent"),
    )
    .await
}

async fn list(h: &Harness, query: &str) -> Reply {
    Reply::read(
        h.merchant(Method::GET, &format!("/v1/risk/blocks{query}"))
            .send()
            .await
            .expect("sent"),
    )
    .await
}

async fn entries_are_created_listed_and_deleted_and_audited(db: Db) {
    let Some(h) = start(db, &[]).await else {
        return;
    };
    let paid = session(&h, json!({})).await;
    sent(&h, &paid, &visa(1)).await;
    let payment_id = h.stored_payment(&paid).await.id;

    let card = create(
        &h,
        json!({"kind": "card", "payment_id": payment_id, "note": "chargeback"}),
    )
    .await;
    assert_eq!(card.status, 201, "{}", card.text);
    assert_eq!(card.json["kind"], "card");
    assert_eq!(card.json["payment_id"], payment_id.as_str());
    assert_eq!(card.json["added_by"], "api");
    assert!(
        card.json.get("value").is_none(),
        "no fingerprint shown: {}",
        card.text
    );

    let address = create(&h, json!({"kind": "address", "payment_id": payment_id})).await;
    assert_eq!(address.status, 201, "{}", address.text);
    assert_eq!(address.json["value"], "127.0.0.1/32");
    let range = create(&h, json!({"kind": "address", "value": "2001:DB8::7/64"})).await;
    assert_eq!(range.json["value"], "2001:db8::/64", "{}", range.text);
    let domain = create(
        &h,
        json!({"kind": "email_domain", "value": "@Fraud.EXAMPLE"}),
    )
    .await;
    assert_eq!(domain.json["value"], "fraud.example", "{}", domain.text);

    // Blocked now: the card, and the address it came from.
    let s = session(&h, json!({})).await;
    let reply = try_card(&h, &s, &visa(2)).await;
    assert_eq!(reply.json["result"]["state"], "blocked", "{}", reply.text);
    assert_eq!(
        h.stored_payment(&s).await.risk_rule.as_deref(),
        Some("blocklist_address")
    );

    let first = list(&h, "?limit=3").await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(first.json["data"].as_array().map(Vec::len), Some(3));
    assert_eq!(first.json["has_more"], true);
    assert_eq!(
        first.json["data"][0]["id"], domain.json["id"],
        "newest first"
    );
    let cursor = first.json["next_cursor"].as_str().expect("cursor");
    let second = list(&h, &format!("?limit=3&after={cursor}")).await;
    assert_eq!(
        second.json["data"].as_array().map(Vec::len),
        Some(1),
        "{}",
        second.text
    );
    assert_eq!(second.json["data"][0]["id"], card.json["id"]);
    assert_eq!(second.json["has_more"], false);

    let id = address.json["id"].as_str().expect("id");
    let path = format!("/v1/risk/blocks/{id}");
    let gone = h
        .merchant(Method::DELETE, &path)
        .send()
        .await
        .expect("sent");
    assert_eq!(gone.status(), 204);
    let again = Reply::read(
        h.merchant(Method::DELETE, &path)
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(again.status, 404, "{}", again.text);
    let s = session(&h, json!({})).await;
    sent(&h, &s, &visa(3)).await;

    let audit = h.store().list_audit(None, 50).await.expect("audit");
    let lines: Vec<_> = audit
        .iter()
        .filter(|line| line.entry.object_type.as_deref() == Some("risk_block"))
        .map(|line| (line.entry.staff_email.as_str(), line.entry.action.as_str()))
        .collect();
    assert_eq!(
        lines.iter().filter(|(who, _)| *who == "api").count(),
        5,
        "{lines:?}"
    );
    assert_eq!(
        lines
            .iter()
            .filter(|(_, what)| *what == "block_removed")
            .count(),
        1
    );
    let card_line = audit
        .iter()
        .find(|line| {
            line.entry.object_id.as_ref() == card.json["id"].as_str().map(str::to_owned).as_ref()
        })
        .expect("the card's line");
    assert_eq!(
        card_line.entry.detail.as_deref(),
        Some(format!("card of payment {payment_id}").as_str())
    );
    h.finish().await;
}

async fn bad_entries_name_their_field_and_duplicates_conflict(db: Db) {
    let Some(h) = start(db, &[]).await else {
        return;
    };
    for (body, code, field) in [
        (
            json!({"kind": "ip", "value": "1.2.3.4"}),
            "invalid_field",
            "kind",
        ),
        (
            json!({"kind": "card", "value": "4242424242424242"}),
            "invalid_field",
            "value",
        ),
        (json!({"kind": "card"}), "missing_field", "payment_id"),
        (
            json!({"kind": "bin", "value": "42"}),
            "invalid_field",
            "value",
        ),
        (
            json!({"kind": "address", "value": "300.1.1.1"}),
            "invalid_field",
            "value",
        ),
        (
            json!({"kind": "email", "value": "nobody"}),
            "invalid_field",
            "value",
        ),
        (json!({"kind": "email_domain"}), "missing_field", "value"),
        // Not a domain: refused, not trimmed into `x.y` (issue 49).
        (
            json!({"kind": "email_domain", "value": "@@@@@x.y"}),
            "invalid_field",
            "value",
        ),
        (
            json!({"kind": "email_domain", "value": "x..y"}),
            "invalid_field",
            "value",
        ),
        (
            json!({"kind": "bin", "value": "424242", "note": "a".repeat(501)}),
            "invalid_field",
            "note",
        ),
    ] {
        let reply = create(&h, body.clone()).await;
        reply.assert_error(400, code, Some(field));
        assert!(!reply.text.contains("4242424242424242"), "{}", reply.text);
    }
    // A payment id naming no payment: not found, as everywhere else in the API.
    let missing = create(&h, json!({"kind": "card", "payment_id": "no-such"})).await;
    missing.assert_error(404, "not_found", None);
    let unknown = create(&h, json!({"kind": "bin", "value": "424242", "cvc": "123"})).await;
    assert_eq!(unknown.status, 400, "{}", unknown.text);
    let first = create(&h, json!({"kind": "email", "value": "Bot@Example.com"})).await;
    assert_eq!(first.status, 201, "{}", first.text);
    let twice = create(&h, json!({"kind": "email", "value": "bot@example.COM"})).await;
    twice.assert_error(409, "already_blocked", Some("value"));
    let bad_query = list(&h, "?limit=0").await;
    bad_query.assert_error(400, "invalid_field", Some("limit"));
    h.finish().await;
}

async fn the_block_list_needs_the_merchant_key(db: Db) {
    let Some(h) = start(db, &[]).await else {
        return;
    };
    let url = format!("{}/v1/risk/blocks", h.base);
    let client = reqwest::Client::new();
    for request in [
        client.get(&url),
        client
            .post(&url)
            .json(&json!({"kind": "bin", "value": "424242"})),
        client.delete(format!("{url}/x")),
        client.get(&url).bearer_auth("sk_wrong"),
    ] {
        let reply = Reply::read(request.send().await.expect("sent")).await;
        assert_eq!(reply.status, 401, "{}", reply.text);
    }
    let listed = list(&h, "").await;
    assert_eq!(listed.json["data"], json!([]), "nothing was added");
    h.finish().await;
}
