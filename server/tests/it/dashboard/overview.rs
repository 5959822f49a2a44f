//! The overview (the dashboard's home) and the payments export, over HTTP after real
//! payments through the emulator with known outcomes: an approved EUR and JPY payment, an
//! issuer decline (insufficient funds) and a failed 3-D Secure challenge. The page shows the
//! volume per currency in its unit, the approval rate (2 of 4), both decline reasons with
//! their gateway codes, the three charts with their text alternatives; with the decline
//! moved 10 days back, the rate's change against the previous 7 days (2 of 3 against 0 of 1);
//! a bad time zone or range is refused naming the field. The CSV export streams the filtered set to a viewer,
//! neutralises a formula in a reference, and is audited.

use serde_json::json;

use super::support::{Browser, backdate, dashboard_suite, paid};
use crate::api::support::{Harness, cards};
use checkout_server::store::prelude::*;

dashboard_suite!(
    the_overview_counts_known_outcomes,
    the_export_streams_the_filtered_set
);

/// Pays `session` with `card` through 3-D Secure (`decision` on a challenge) and waits for
/// the outcome; returns the payment's state.
async fn pay(
    h: &Harness,
    amount: u64,
    extra: serde_json::Value,
    card: &str,
    decision: &str,
) -> String {
    pay_for_id(h, amount, extra, card, decision).await.0
}

/// [`pay`], also returning the payment's id.
async fn pay_for_id(
    h: &Harness,
    amount: u64,
    extra: serde_json::Value,
    card: &str,
    decision: &str,
) -> (String, String) {
    let session = h.session(amount, extra).await;
    let redirect = h.pay_to_redirect(&session, card).await;
    h.complete_3ds(&redirect, decision).await;
    let result = h.result(&session).await;
    let field = |name: &str| result[name].as_str().unwrap_or_default().to_owned();
    (field("state"), field("payment_id"))
}

async fn the_overview_counts_known_outcomes(h: &Harness) {
    paid(h, 1234).await;
    assert_eq!(
        pay(h, 500, json!({}), cards::VISA_OK, "approve").await,
        "captured"
    );
    let eur = json!({"currency": "EUR"});
    let (state, insufficient) =
        pay_for_id(h, 999, eur.clone(), cards::INSUFFICIENT_FUNDS, "approve").await;
    assert_eq!(state, "declined");
    assert_eq!(
        pay(h, 777, eur, cards::CHALLENGE, "reject").await,
        "declined"
    );
    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let home = viewer.get("/").await;
    assert_eq!(home.status, 200, "{}", home.text);
    let page = home.text;
    assert!(
        page.contains("<a href=\"/\">Overview</a>"),
        "linked in the nav"
    );
    // Volume per currency, in each currency's unit.
    assert!(page.contains("12.34 EUR"), "{page}");
    assert!(page.contains("500 JPY"), "{page}");
    // 2 approved of 4 attempted, the declines by reason with the gateway's codes.
    assert!(
        page.contains("<strong>50.0 %</strong> (2 approved of 4 attempted)"),
        "{page}"
    );
    for expected in ["insufficient funds", "51", "3-D Secure failed", "ERR2002"] {
        assert!(page.contains(expected), "{expected}: {page}");
    }
    assert!(
        page.contains(
            "<p id=\"approval-trend\">No attempted payment in the previous 7 days to compare with.</p>"
        ),
        "{page}"
    );
    assert!(page.contains("Nothing waits for review"), "{page}");
    // Three charts, each an SVG with a title and a description holding its numbers.
    for id in ["chart-volume", "chart-approval", "chart-declines"] {
        assert!(
            page.contains(&format!(
                "<svg role=\"img\" aria-labelledby=\"{id}-title {id}-desc\""
            )),
            "{id}: {page}"
        );
        assert!(page.contains(&format!("<desc id=\"{id}-desc\">")), "{id}");
    }
    assert!(page.contains("EUR: "), "the volume chart's numbers");
    assert!(
        page.contains("Declines by reason: 3-D Secure failed 1, insufficient funds 1."),
        "{page}"
    );
    // The decline moved 10 days back: 2 approved of 3 in the last 7 days, 0 of 1 before.
    backdate(h, &insufficient, 10 * 24 * 60).await;
    let week = viewer.get("/?range=7d").await.text;
    assert!(
        week.contains("<strong>66.7 %</strong> (2 approved of 3 attempted)"),
        "{week}"
    );
    assert!(
        week.contains(
            "<p id=\"approval-trend\">+66.7 points vs the previous 7 days (0.0 %, 0 approved of 1 attempted).</p>"
        ),
        "{week}"
    );
    let month = viewer.get("/?range=30d").await.text;
    assert!(
        month.contains("No attempted payment in the previous 30 days to compare with."),
        "{month}"
    );
    // The same payments, counted in a far-off zone: today there is still today here.
    let kiritimati = viewer.get("/?range=today&tz=Pacific/Kiritimati").await;
    assert_eq!(kiritimati.status, 200, "{}", kiritimati.text);
    for (query, field) in [
        ("tz=Mars/Olympus_Mons", "tz"),
        ("range=fortnight", "range"),
        ("range=custom&from=2025-02-01", "to"),
        ("range=custom&from=2025-02-01&to=2025-01-01", "to"),
    ] {
        let bad = viewer.get(&format!("/?{query}")).await;
        assert_eq!(bad.status, 400, "{query}: {}", bad.text);
        assert!(
            bad.text.contains(&format!("{field}:")),
            "{query}: {}",
            bad.text
        );
    }
}

async fn the_export_streams_the_filtered_set(h: &Harness) {
    let formula = json!({"currency": "EUR", "reference": "=HYPERLINK(\"x\")"});
    assert_eq!(
        pay(h, 4200, formula, cards::VISA_OK, "approve").await,
        "captured"
    );
    let (plain, _) = paid(h, 1234).await;
    assert_eq!(
        pay(h, 500, json!({}), cards::VISA_OK, "approve").await,
        "captured"
    );
    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let list = viewer.get("/payments?currency=EUR").await;
    assert!(
        list.text
            .contains("href=\"/payments/export.csv?currency=EUR\""),
        "{}",
        list.text
    );
    let export = viewer.get("/payments/export.csv?currency=EUR").await;
    assert_eq!(export.status, 200, "{}", export.text);
    assert_eq!(
        export
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("text/csv; charset=utf-8")
    );
    let lines: Vec<&str> = export.text.lines().collect();
    assert_eq!(
        lines[0],
        "id,created_at,reference,state,currency,amount_minor,amount,captured_minor,refunded_minor,card_brand,card_first6,card_last4,customer_id,decline_reason"
    );
    assert_eq!(
        lines.len(),
        3,
        "the header and the two EUR payments: {lines:?}"
    );
    let row = lines
        .iter()
        .find(|l| l.contains(&plain.reference))
        .expect("the plain payment");
    assert!(
        row.contains(",captured,EUR,1234,12.34,1234,0,Visa,424242,4242,"),
        "{row}"
    );
    assert!(
        export.text.contains("\"'=HYPERLINK(\"\"x\"\")-1\""),
        "the formula is neutralised: {}",
        export.text
    );
    assert!(!export.text.contains("4242424242424242"));
    let bad = viewer.get("/payments/export.csv?currency=EURO").await;
    assert_eq!(bad.status, 400);
    assert!(bad.text.contains("currency:"), "{}", bad.text);
    let audit = h.store().list_audit(None, 20).await.expect("audit");
    assert!(
        audit.iter().any(|line| line.entry.action == "export"
            && line.entry.staff_email == "viewer@shop.example"
            && line.entry.detail.as_deref() == Some("payments.csv?currency=EUR")),
        "{audit:?}"
    );
}
