//! Scenario: the card form in checkout-server's frame keeps a skimmer on the shop's page blind.
//! A partner page on another origin embeds the form through `/checkout.js` inside its own
//! shadow DOM and also runs a hostile script (support/embed_pages.rs, `isolated_page`). A
//! shopper types a 3-D Secure challenge card, pays, approves on the issuer's page (in the
//! dialog the loader opens on the partner's page, which never navigates) and sees the result.
//! The skimmer's record, kept while the dialog was open too, then holds no key event, no card
//! number and no CVC, and every attempt to read the frames was refused.

use std::time::Duration;

use crate::support::Page;
use crate::support::every_engine::every_engine;
use crate::support::form::{Card, fill_billing, ids, pay, type_card};
use crate::support::partner::{EmulatorAt, PartnerRig};

const CHALLENGE_CARD: &str = "4000002500003155";
/// `documentElement.outerHTML` of a frame that has not loaded anything yet.
const EMPTY_FRAME: &str = "<html><head></head><body></body></html>";

every_engine!(
    a_skimmer_on_the_shop_page_gets_no_card_data_and_the_payment_succeeds,
    "isolation"
);

async fn a_skimmer_on_the_shop_page_gets_no_card_data_and_the_payment_succeeds(page: Page) {
    let rig = PartnerRig::start(EmulatorAt::InProcess, vec![]);
    let (session, secret, _) = rig.session(2500, "EUR", "isolated").await;
    page.goto(&rig.isolated_url(&session, &secret)).await;
    page.find("#events li[data-event=ready]").await;

    let card = Card {
        cvc: "739",
        ..Card::test(CHALLENGE_CARD)
    };
    type_card(&page, card).await;
    fill_billing(&page, "DE", "10115").await;
    page.wait_attr(ids::BRAND, "data-brand", "visa").await;
    page.screenshot("filled").await;
    let url = page.url().await;
    pay(&page).await;
    page.find_ready("#acs-approve").await;
    page.screenshot("dialog").await;
    page.click_in_dialog("#acs-approve").await;
    page.wait_text(ids::RESULT, "Payment successful").await;
    assert_eq!(page.url().await, url, "the partner's page never navigated");
    rig.merchant
        .wait_payment_state(&session, "captured", Duration::from_secs(20))
        .await;

    let record = page
        .eval("return JSON.parse(sessionStorage.getItem('stolen') || '[]');")
        .await;
    let record: Vec<String> = record
        .as_array()
        .expect("the skimmer's record")
        .iter()
        .filter_map(|entry| entry.as_str().map(str::to_owned))
        .collect();
    assert!(
        record.iter().any(|e| e.starts_with("message:")),
        "the skimmer did run and hear the frame's messages: {record:?}"
    );
    let spaced = "4000 0025 0000 3155";
    for entry in &record {
        assert!(
            !entry.contains(CHALLENGE_CARD)
                && !entry.contains(spaced)
                && !entry.contains("40000025"),
            "the card number reached the page: {entry}"
        );
        for kind in [
            "keydown:",
            "keyup:",
            "keypress:",
            "input:",
            "beforeinput:",
            "paste:",
        ] {
            assert!(!entry.starts_with(kind), "the page saw {kind} {entry}");
        }
        // Before the loader's POST arrives the frame holds the empty initial document,
        // which is the page's own; the form's document never is.
        if let Some(read) = entry
            .strip_prefix("frame-document:")
            .or_else(|| entry.strip_prefix("frame-window:"))
        {
            assert!(
                read.is_empty() || read == EMPTY_FRAME,
                "the page read the frame: {entry}"
            );
        }
        if entry.starts_with("message:") || entry.starts_with("value:") {
            // Addresses carry ports and random tokens whose digits may spell the CVC.
            let text = without_addresses(entry);
            assert!(
                !holds_number(&text, card.cvc) && !text.to_ascii_lowercase().contains("cvc"),
                "the CVC reached the page: {entry}"
            );
        }
    }
    assert!(
        record.iter().any(|e| e.starts_with("frame-blocked:")),
        "reading the frame was tried and refused: {record:?}"
    );
}

/// `text` without its web addresses (from `http` to the next quote or space).
fn without_addresses(text: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("http") {
        kept.push_str(&rest[..at]);
        let end = rest[at..]
            .find(['"', ' '])
            .map_or(rest.len(), |length| at + length);
        rest = &rest[end..];
    }
    kept.push_str(rest);
    kept
}

/// Whether `digits` stands in `text` as a token of its own: no letter or digit right before or
/// after, so a payment id's hex (`…4092cf4e739b`) does not spell the CVC, while a value such
/// as `"cvc":"739"` or `739` between spaces does.
fn holds_number(text: &str, digits: &str) -> bool {
    let joined = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    text.match_indices(digits).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + digits.len()..].chars().next();
        !joined(before) && !joined(after)
    })
}
