//! The payments list filtered by card brand and by customer: each a labelled control, the
//! right rows on every page of the keyset pagination (the next link keeps both filters), and
//! bad values refused with a 400 naming the field.

use checkout::card::{CardNumber, Expiry, YearMonth};
use checkout_server::store::prelude::*;
use serde_json::json;
use time::{Duration, OffsetDateTime};

use super::support::{Browser, dashboard_suite};
use crate::api::support::Harness;

dashboard_suite!(brand_and_customer_filters_keep_to_their_rows_across_pages);

const MASTERCARD: &str = "5555555555554444";
const VISA: &str = "4242424242424242";

/// A payment (left `created`) by `customer` with `card`; its reference.
async fn payment(h: &Harness, customer: &str, card: &str) -> String {
    let session = h
        .session(1000, json!({"currency": "EUR", "customer_id": customer}))
        .await;
    let number = CardNumber::parse(card).expect("test card");
    let today = YearMonth::new(2025, 1).expect("month");
    let expiry = Expiry::parse("12", "2030", today).expect("expiry");
    let later = OffsetDateTime::now_utc() + Duration::days(1);
    h.store()
        .create_payment(NewPayment {
            session_id: session.id,
            customer_id: Some(customer.to_owned()),
            kind: PaymentKind::PaymentV2,
            amount: 1000,
            currency: "EUR".into(),
            merchant_txn_ref: session.reference.clone(),
            card: Some(CardSummary::from_card(&number, expiry)),
            saved_card_id: None,
            save_card: false,
            save_card_billing: None,
            next_check_at: later,
            review_deadline: later,
            risk: RiskFacts::default(),
        })
        .await
        .expect("payment stored");
    session.reference
}

/// The `rel="next"` link of a page, unescaped.
fn next_link(html: &str) -> Option<String> {
    let end = html.find("\" rel=\"next\"")?;
    let start = html[..end].rfind("href=\"")? + "href=\"".len();
    Some(html[start..end].replace("&amp;", "&"))
}

async fn brand_and_customer_filters_keep_to_their_rows_across_pages(h: &Harness) {
    let mut wanted = Vec::new();
    for _ in 0..26 {
        wanted.push(payment(h, "cust-a", MASTERCARD).await);
    }
    let other_brand = payment(h, "cust-a", VISA).await;
    let other_customer = payment(h, "cust-b", MASTERCARD).await;
    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;

    let first = viewer
        .get("/payments?brand=mastercard&customer=cust-a")
        .await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert!(
        first
            .text
            .contains("<label for=\"brand\">Card brand</label>")
    );
    assert!(
        first
            .text
            .contains("<label for=\"customer\">Customer id</label>")
    );
    assert!(
        first
            .text
            .contains("<option value=\"mastercard\" selected>"),
        "the choice is kept"
    );
    let next = next_link(&first.text).expect("a second page");
    assert!(
        next.contains("brand=mastercard") && next.contains("customer=cust%2Da"),
        "{next}"
    );
    let second = viewer.get(&next).await;
    assert_eq!(second.status, 200, "{}", second.text);
    assert!(next_link(&second.text).is_none(), "two pages");
    let both = format!("{}{}", first.text, second.text);
    for reference in &wanted {
        assert_eq!(
            both.matches(reference.as_str()).count(),
            1,
            "{reference} once"
        );
    }
    for reference in [&other_brand, &other_customer] {
        assert!(
            !both.contains(reference.as_str()),
            "{reference} filtered out"
        );
    }
    let visa = viewer.get("/payments?brand=VISA&customer=cust-a").await;
    assert!(visa.text.contains(&other_brand), "{}", visa.text);
    assert!(!visa.text.contains(&wanted[0]));

    let long = "c".repeat(65);
    for (query, field) in [
        ("brand=visa-electron".to_owned(), "brand"),
        ("customer=a%01b".to_owned(), "customer"),
        (format!("customer={long}"), "customer"),
    ] {
        let bad = viewer.get(&format!("/payments?{query}")).await;
        assert_eq!(bad.status, 400, "{query}: {}", bad.text);
        assert!(
            bad.text.contains(&format!("{field}:")),
            "{query}: {}",
            bad.text
        );
    }
}
