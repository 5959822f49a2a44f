//! Scenario 4: invalid input is caught in the browser. A wrong check digit, a past expiry and
//! a short security code each get an inline message (on leaving the field, not while a valid
//! prefix is being typed), linked to the field for assistive technology; Pay moves the focus
//! to the first wrong field, a polite summary is announced, and nothing reaches the server.
//! The card frame grows with the messages, so it never scrolls inside.

use crate::support::form::{fill_billing, ids, pay};
use crate::support::shop::DemoShop;
use crate::support::{Page, run};
use fantoccini::key::Key;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn invalid_card_fields_are_flagged_and_nothing_is_sent() {
    run("validation", |page: Page| async move {
        let shop = DemoShop::start();
        let session = shop.buy(&page, "tshirt").await;
        page.type_into(ids::NAME, "Ada Lovelace").await;
        let before = page
            .until("the frame to fit the form", || async {
                let (outer, inner) = page.frame_heights().await;
                ((outer - inner).abs() <= 1.0).then_some(outer)
            })
            .await;

        page.type_into(ids::NUMBER, "4242").await;
        assert_eq!(
            page.text("#cc-number-error").await,
            "",
            "no error while a valid prefix is typed"
        );
        page.type_into(ids::NUMBER, "424242424241").await;
        page.press(Key::Tab).await;
        page.wait_text("#cc-number-error", "Your card number is invalid")
            .await;
        page.wait_attr(ids::NUMBER, "aria-invalid", "true").await;
        let described = page
            .attr(ids::NUMBER, "aria-describedby")
            .await
            .unwrap_or_default();
        assert!(
            described.contains("cc-number-error"),
            "error linked to the field: {described}"
        );

        page.type_into(ids::EXPIRY, "0120").await;
        page.press(Key::Tab).await;
        page.wait_text("#cc-exp-error", "Your card has expired")
            .await;

        page.type_into(ids::CVC, "12").await;
        page.press(Key::Tab).await;
        page.wait_text("#cc-csc-error", "The security code must have 3 digits")
            .await;
        fill_billing(&page, "GB", "SW1A 1AA").await;
        page.screenshot("errors").await;
        let (grown, content) = page
            .until("the frame to fit the form with its errors", || async {
                let (outer, inner) = page.frame_heights().await;
                (outer > before && (outer - inner).abs() <= 1.0).then_some((outer, inner))
            })
            .await;
        assert!(
            grown > before,
            "the frame grew from {before} to {grown} ({content})"
        );

        pay(&page).await;
        page.until("focus on the first wrong field", || async {
            (page.focused_id().await == "cc-number").then_some(())
        })
        .await;
        let summary = page.wait_text("#cc-status", "Please check").await;
        assert!(
            summary.contains("Card number"),
            "the summary names the fields: {summary}"
        );
        assert!(
            shop.merchant.session_payments(&session).await.is_empty(),
            "nothing was paid"
        );
        let state = shop.emulator.state().await;
        assert_eq!(
            state["transactions"].as_array().map(Vec::len),
            Some(0),
            "nothing reached the gateway"
        );
    })
    .await;
}
