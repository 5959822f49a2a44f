//! The block lists in the dashboard: an admin adds and removes entries (audited, a bad value
//! named, a duplicate told), blocks a card and an address from a payment's page, and the next
//! tries are refused with the rule shown on their page and timeline; a viewer (and an
//! operator) sees the list without a button and gets a 403 on every change.

use checkout_server::store::prelude::*;
use serde_json::json;

use super::support::{Browser, dashboard_suite, location, paid};
use crate::api::risk::visa;
use crate::api::support::{Harness, cards, pay_body};

dashboard_suite!(
    an_admin_adds_and_removes_entries_and_each_change_is_audited,
    below_admin_the_list_shows_no_button_and_changes_are_forbidden,
    the_payment_page_blocks_its_card_and_its_address,
);

/// The audit lines about block-list entries: (who, action, payment, detail).
async fn block_lines(h: &Harness) -> Vec<(String, String, Option<String>, Option<String>)> {
    h.store()
        .list_audit(None, 100)
        .await
        .expect("audit")
        .into_iter()
        .filter(|line| line.entry.object_type.as_deref() == Some("risk_block"))
        .map(|line| {
            let e = line.entry;
            (e.staff_email, e.action, e.payment_id, e.detail)
        })
        .collect()
}

async fn an_admin_adds_and_removes_entries_and_each_change_is_audited(h: &Harness) {
    let admin = Browser::as_role(h, "admin@shop.example", StaffRole::Admin).await;
    let page = admin.get("/risk/blocks").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("The block lists are empty."));
    assert!(
        page.text.contains("href=\"/risk/blocks\""),
        "in the navigation"
    );
    let csrf = admin.csrf.as_str();

    let added = admin
        .post(
            "/risk/blocks",
            &[
                ("csrf", csrf),
                ("kind", "email_domain"),
                ("value", "Fraud.Example"),
                ("note", "bots"),
            ],
        )
        .await;
    assert_eq!(added.status, 303, "{}", added.text);
    assert_eq!(location(&added), "/risk/blocks?done=added");
    let again = admin
        .post(
            "/risk/blocks",
            &[
                ("csrf", csrf),
                ("kind", "email_domain"),
                ("value", "fraud.example"),
            ],
        )
        .await;
    assert_eq!(location(&again), "/risk/blocks?done=duplicate");
    let bad = admin
        .post(
            "/risk/blocks",
            &[("csrf", csrf), ("kind", "address"), ("value", "999.1.1.1")],
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    assert!(bad.text.contains("value"), "{}", bad.text);
    let card = admin
        .post(
            "/risk/blocks",
            &[("csrf", csrf), ("kind", "card"), ("value", cards::VISA_OK)],
        )
        .await;
    assert_eq!(card.status, 400, "{}", card.text);
    assert!(card.text.contains("kind"), "{}", card.text);
    assert!(!card.text.contains(cards::VISA_OK));

    let page = admin.get("/risk/blocks").await;
    assert!(page.text.contains("fraud.example"), "{}", page.text);
    assert!(page.text.contains("bots"));
    let s = h.session(1000, json!({"email": "a@FRAUD.example"})).await;
    let reply = h.pay(&s, &pay_body(&visa(1), "123"), None).await;
    assert_eq!(reply.json["result"]["state"], "blocked", "{}", reply.text);

    let entry = h
        .state
        .payments
        .risk()
        .list_blocks(10, None)
        .await
        .expect("list")
        .items
        .remove(0);
    let removed = admin
        .post(
            &format!("/risk/blocks/{}/remove", entry.id),
            &[("csrf", csrf)],
        )
        .await;
    assert_eq!(
        location(&removed),
        "/risk/blocks?done=removed",
        "{}",
        removed.text
    );
    let page = admin.get("/risk/blocks").await;
    assert!(page.text.contains("The block lists are empty."));
    let gone = admin
        .post(
            &format!("/risk/blocks/{}/remove", entry.id),
            &[("csrf", csrf)],
        )
        .await;
    assert_eq!(gone.status, 404);
    let no_csrf = admin
        .post("/risk/blocks", &[("kind", "bin"), ("value", "424242")])
        .await;
    assert_eq!(no_csrf.status, 403);

    let lines = block_lines(h).await;
    let who_what: Vec<_> = lines
        .iter()
        .map(|(who, what, _, _)| (who.as_str(), what.as_str()))
        .collect();
    assert_eq!(
        who_what,
        [
            ("admin@shop.example", "block_removed"),
            ("admin@shop.example", "block_added")
        ]
    );
    assert_eq!(lines[1].3.as_deref(), Some("email_domain fraud.example"));
    let audit_page = admin.get("/audit").await;
    assert!(
        audit_page.text.contains("email_domain fraud.example"),
        "{}",
        audit_page.text
    );
}

async fn below_admin_the_list_shows_no_button_and_changes_are_forbidden(h: &Harness) {
    let (_, payment_id) = paid(h, 1000).await;
    let new = checkout_server::risk::blocks::BlockValue::parse(
        checkout_server::store::model::BlockKind::Bin,
        "555555",
    )
    .and_then(|value| value.entry(None, "api"))
    .expect("valid");
    let entry = h
        .store()
        .add_block(new, time::OffsetDateTime::now_utc())
        .await
        .expect("added");
    for (email, role) in [
        ("viewer@shop.example", StaffRole::Viewer),
        ("operator@shop.example", StaffRole::Operator),
    ] {
        let browser = Browser::as_role(h, email, role).await;
        let page = browser.get("/risk/blocks").await;
        assert_eq!(page.status, 200, "{}", page.text);
        assert!(page.text.contains("555555"));
        assert!(!page.text.contains("Add an entry"), "{}", page.text);
        assert!(!page.text.contains("/remove"), "{}", page.text);
        let payment = browser.get(&format!("/payments/{payment_id}")).await;
        assert!(
            !payment.text.contains("Block this card"),
            "{}",
            payment.text
        );
        assert!(!payment.text.contains("Block this address"));
        let csrf = browser.csrf.as_str();
        for (path, form) in [
            (
                "/risk/blocks".to_owned(),
                vec![("csrf", csrf), ("kind", "bin"), ("value", "411111")],
            ),
            (
                format!("/risk/blocks/{}/remove", entry.id),
                vec![("csrf", csrf)],
            ),
            (
                format!("/payments/{payment_id}/block_card"),
                vec![("csrf", csrf)],
            ),
            (
                format!("/payments/{payment_id}/block_address"),
                vec![("csrf", csrf)],
            ),
        ] {
            let reply = browser.post(&path, &form).await;
            assert_eq!(reply.status, 403, "{email} {path}: {}", reply.text);
        }
    }
    let left = h
        .state
        .payments
        .risk()
        .list_blocks(10, None)
        .await
        .expect("list");
    assert_eq!(left.items.len(), 1, "nothing changed");
    assert!(block_lines(h).await.is_empty());
}

async fn the_payment_page_blocks_its_card_and_its_address(h: &Harness) {
    let (_, payment_id) = paid(h, 1000).await;
    let admin = Browser::as_role(h, "admin@shop.example", StaffRole::Admin).await;
    let page = admin.get(&format!("/payments/{payment_id}")).await;
    assert!(page.text.contains("Block this card"), "{}", page.text);
    assert!(page.text.contains("Block this address"));
    let csrf = admin.csrf.as_str();

    let blocked = admin
        .post(
            &format!("/payments/{payment_id}/block_card"),
            &[("csrf", csrf)],
        )
        .await;
    assert_eq!(
        location(&blocked),
        format!("/payments/{payment_id}?done=added"),
        "{}",
        blocked.text
    );
    let twice = admin
        .post(
            &format!("/payments/{payment_id}/block_card"),
            &[("csrf", csrf)],
        )
        .await;
    assert_eq!(
        location(&twice),
        format!("/payments/{payment_id}?done=duplicate")
    );

    // The same card again: refused before the gateway, the rule on its page and timeline.
    let s = h.session(1000, json!({"currency": "EUR"})).await;
    let reply = h.pay(&s, &pay_body(cards::VISA_OK, "123"), None).await;
    let try_id = reply.json["result"]["payment_id"].as_str().expect("id");
    // The browser's answer is the one generic refusal: no decline code, no rule.
    assert_eq!(
        reply.json,
        json!({"next_action": "none", "result": {
            "payment_id": try_id,
            "state": "blocked",
            "amount": 1000,
            "currency": "EUR",
        }}),
        "{}",
        reply.text
    );
    assert!(!reply.text.contains("blocklist"), "{}", reply.text);
    assert_eq!(h.gateway_charges(&s.reference), 0);
    let merchant = h.payment(try_id).await;
    assert_eq!(merchant["risk_rule"], "blocklist_card", "{merchant}");
    let try_page = admin.get(&format!("/payments/{try_id}")).await;
    assert!(
        try_page.text.contains("Refused before the gateway by"),
        "{}",
        try_page.text
    );
    assert!(
        try_page.text.contains("blocklist_card"),
        "{}",
        try_page.text
    );
    assert!(
        try_page
            .text
            .contains("blocked before the gateway by blocklist_card"),
        "{}",
        try_page.text
    );

    let address = admin
        .post(
            &format!("/payments/{payment_id}/block_address"),
            &[("csrf", csrf)],
        )
        .await;
    assert_eq!(
        location(&address),
        format!("/payments/{payment_id}?done=added")
    );
    let s = h.session(1000, json!({})).await;
    h.pay(&s, &pay_body(&visa(7), "123"), None).await;
    assert_eq!(
        h.stored_payment(&s).await.risk_rule.as_deref(),
        Some("blocklist_address")
    );
    let list = admin.get("/risk/blocks").await;
    assert!(list.text.contains("127.0.0.1/32"), "{}", list.text);
    assert!(
        list.text.contains(&format!(
            "card of payment <a href=\"/payments/{payment_id}\""
        )),
        "{}",
        list.text
    );

    let lines = block_lines(h).await;
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines
            .iter()
            .all(|(who, what, payment, _)| who == "admin@shop.example"
                && what == "block_added"
                && payment.as_deref() == Some(payment_id.as_str()))
    );
    let page = admin.get(&format!("/payments/{payment_id}")).await;
    assert!(
        page.text.contains("block_added by admin@shop.example"),
        "{}",
        page.text
    );
}
