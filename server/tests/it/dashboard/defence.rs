//! Staff see before they block (issue 47, item 6): a payment's page shows its client address
//! as the rules key it, its BIN, its card fingerprint's short form and the rules that counted
//! it; the payments list (and the merchant API's) filters by address or range, BIN and card;
//! the block form shows how many payments of the last 24 hours the entry would have caught
//! before it is confirmed, and only the confirmation adds and audits it; the payment page's
//! "Block this card" and "Block this address" say the same of theirs.
//!
//! The harness pays from loopback, so a payment is moved to another client by writing its
//! stored address key, as a try from 192.0.2.7 would have recorded it.

use checkout_server::store::prelude::*;
use serde_json::json;

use super::support::{Browser, backdate, dashboard_suite, hidden, paid};
use crate::api::risk::declined;
use crate::api::support::{Harness, Reply, cards};

dashboard_suite!(
    the_payment_page_shows_the_defence_facts_and_the_lists_filter_by_them,
    the_block_form_previews_the_payments_it_would_catch,
);

/// 192.0.2.7 as `payments.client_key` stores it.
const OTHER_CLIENT: &str = "00000000000000000000ffffc0000207";

/// Moves the payments `ids` to [`OTHER_CLIENT`].
async fn from_other_client(h: &Harness, ids: &[&str]) {
    let list = ids
        .iter()
        .map(|id| format!("'{id}'"))
        .collect::<Vec<_>>()
        .join(", ");
    h.execute(&format!(
        "UPDATE payments SET client_key = '{OTHER_CLIENT}' WHERE id IN ({list})"
    ))
    .await;
}

/// Whether a payments list page links to payment `id`.
fn lists(page: &Reply, id: &str) -> bool {
    page.text.contains(&format!("href=\"/payments/{id}\""))
}

/// The ids of a merchant API list.
async fn api_ids(h: &Harness, query: &str) -> Vec<String> {
    let reply = Reply::read(
        h.merchant(reqwest::Method::GET, &format!("/v1/payments?{query}"))
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    reply.json["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|p| p["id"].as_str().expect("id").to_owned())
        .collect()
}

/// How many audit lines are about block-list entries.
async fn audited(h: &Harness) -> usize {
    h.store()
        .list_audit(None, 100)
        .await
        .expect("audit")
        .into_iter()
        .filter(|line| line.entry.object_type.as_deref() == Some("risk_block"))
        .count()
}

async fn the_payment_page_shows_the_defence_facts_and_the_lists_filter_by_them(h: &Harness) {
    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let (_, paid_id) = paid(h, 1000).await;
    let refused = h.session(1000, json!({"currency": "EUR"})).await;
    declined(h, &refused, cards::DO_NOT_HONOUR).await;
    let declined_id = h.stored_payment(&refused).await.id;
    from_other_client(h, &[&declined_id]).await;
    let stored = h.store().get_payment(&paid_id).await.expect("read");
    let fingerprint = stored.and_then(|p| p.card_fingerprint).expect("recorded");
    let short = &fingerprint[..8];

    let page = viewer.get(&format!("/payments/{paid_id}")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    for shown in [
        "Card-testing defence",
        "127.0.0.1",
        "424242",
        short,
        "cards_per_session",
    ] {
        assert!(page.text.contains(shown), "{shown}: {}", page.text);
    }
    // A card that paid is no new card for its address (issue 47): not in that count.
    assert!(!page.text.contains("cards_per_address"), "{}", page.text);
    assert!(!page.text.contains(&fingerprint), "only the short form");
    let page = viewer.get(&format!("/payments/{declined_id}")).await;
    for shown in [
        "192.0.2.7",
        "400000",
        "cards_per_address",
        "declines_per_session",
        "declines_per_card",
    ] {
        assert!(page.text.contains(shown), "{shown}: {}", page.text);
    }

    let range = viewer.get("/payments?address=192.0.2.0%2F24").await;
    assert_eq!(range.status, 200, "{}", range.text);
    assert!(lists(&range, &declined_id) && !lists(&range, &paid_id));
    let loopback = viewer.get("/payments?address=127.0.0.1").await;
    assert!(lists(&loopback, &paid_id) && !lists(&loopback, &declined_id));
    let bin = viewer.get("/payments?bin=400000").await;
    assert!(lists(&bin, &declined_id) && !lists(&bin, &paid_id));
    let card = viewer.get(&format!("/payments?card={short}")).await;
    assert!(lists(&card, &paid_id) && !lists(&card, &declined_id));
    let next = viewer.get("/payments?bin=424242&address=192.0.2.7").await;
    assert!(!lists(&next, &paid_id) && !lists(&next, &declined_id));
    for (query, field) in [
        ("address=192.0.2", "address"),
        ("bin=4242", "bin"),
        ("card=%25%25%25%25%25%25%25%25", "card"),
    ] {
        let bad = viewer.get(&format!("/payments?{query}")).await;
        assert_eq!(bad.status, 400, "{query}: {}", bad.text);
        assert!(bad.text.contains(field), "{query}: {}", bad.text);
    }

    assert_eq!(
        api_ids(h, "client_address=192.0.2.0%2F24").await,
        [declined_id.as_str()]
    );
    assert_eq!(
        api_ids(h, "client_address=127.0.0.1").await,
        [paid_id.as_str()]
    );
    assert_eq!(api_ids(h, "card_bin=424242").await, [paid_id.as_str()]);
    let bad = Reply::read(
        h.merchant(reqwest::Method::GET, "/v1/payments?client_address=nope")
            .send()
            .await
            .expect("sent"),
    )
    .await;
    bad.assert_error(400, "invalid_field", Some("client_address"));
}

async fn the_block_form_previews_the_payments_it_would_catch(h: &Harness) {
    let admin = Browser::as_role(h, "admin@shop.example", StaffRole::Admin).await;
    let (_, recent) = paid(h, 1000).await;
    let (_, old) = paid(h, 2000).await;
    paid(h, 3000).await;
    from_other_client(h, &[&recent, &old]).await;
    backdate(h, &old, 25 * 60).await;
    let csrf = admin.csrf.clone();
    let preview = |kind: &'static str, value: &'static str| {
        let admin = &admin;
        let csrf = csrf.clone();
        async move {
            admin
                .post(
                    "/risk/blocks/preview",
                    &[
                        ("csrf", csrf.as_str()),
                        ("kind", kind),
                        ("value", value),
                        ("note", "bots"),
                    ],
                )
                .await
        }
    };

    // The payment page's block buttons say what each would have caught: the address this
    // payment alone (the older one is past 24 hours), the card both payments of today.
    let page = admin.get(&format!("/payments/{recent}")).await;
    let buttons = page
        .text
        .split("<h2>Block lists</h2>")
        .nth(1)
        .expect("the block buttons");
    let card = buttons.find("this card").expect("card button");
    let address = buttons.find("this client").expect("address button");
    assert!(card < address, "{buttons}");
    assert!(
        buttons[card..address].contains("would have caught <strong>2</strong> payments."),
        "{buttons}"
    );
    assert!(
        buttons[address..].contains("would have caught <strong>1</strong> payment."),
        "{buttons}"
    );

    let form = admin.get("/risk/blocks").await;
    assert!(
        form.text.contains("action=\"/risk/blocks/preview\""),
        "{}",
        form.text
    );
    let shown = preview("address", "192.0.2.0/24").await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    assert!(
        shown
            .text
            .contains("would have caught <strong>1</strong> payment of the last 24 hours"),
        "the older payment is not counted: {}",
        shown.text
    );
    assert_eq!(
        hidden(&shown.text, "value").as_deref(),
        Some("192.0.2.0/24")
    );
    assert_eq!(hidden(&shown.text, "kind").as_deref(), Some("address"));
    assert_eq!(hidden(&shown.text, "note").as_deref(), Some("bots"));
    let risk = h.state.payments.risk();
    assert!(
        risk.list_blocks(10, None)
            .await
            .expect("list")
            .items
            .is_empty(),
        "a preview adds nothing"
    );
    assert_eq!(audited(h).await, 0, "nor audits anything");

    let confirmed = admin
        .post(
            "/risk/blocks",
            &[
                ("csrf", csrf.as_str()),
                ("kind", "address"),
                ("value", "192.0.2.0/24"),
                ("note", "bots"),
            ],
        )
        .await;
    assert_eq!(confirmed.status, 303, "{}", confirmed.text);
    assert_eq!(
        risk.list_blocks(10, None).await.expect("list").items.len(),
        1
    );
    assert_eq!(audited(h).await, 1, "the confirmation is audited");

    let bin = preview("bin", "424242").await;
    assert!(
        bin.text
            .contains("would have caught <strong>2</strong> payments"),
        "{}",
        bin.text
    );
    let shopper = h
        .session(
            1000,
            json!({"currency": "EUR", "email": "Shopper@Example.ORG"}),
        )
        .await;
    let redirect = h.pay_to_redirect(&shopper, cards::VISA_OK).await;
    h.complete_3ds(&redirect, "approve").await;
    for (kind, value, caught) in [
        ("email", "shopper@example.org", 1),
        ("email_domain", "EXAMPLE.org", 1),
        ("email_domain", "ample.org", 0),
        ("customer", "nobody", 0),
    ] {
        let shown = preview(kind, value).await;
        assert!(
            shown
                .text
                .contains(&format!("would have caught <strong>{caught}</strong>")),
            "{kind} {value}: {}",
            shown.text
        );
    }
    let bad = preview("address", "999.1.1.1").await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    assert!(bad.text.contains("value"), "{}", bad.text);
    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let forbidden = viewer
        .post(
            "/risk/blocks/preview",
            &[
                ("csrf", viewer.csrf.as_str()),
                ("kind", "bin"),
                ("value", "424242"),
            ],
        )
        .await;
    assert_eq!(forbidden.status, 403, "{}", forbidden.text);
}
