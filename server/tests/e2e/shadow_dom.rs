//! Scenario 7: the component embedded by a page on another origin, inside that page's own
//! shadow DOM. The custom element, the cross-origin API calls (CORS limited to
//! `ALLOWED_ORIGINS`), the top-window 3DS redirect out of the shadow root (the partner asks
//! for `three-d-secure="redirect"`) and the way back to the partner's landing page are all
//! real.

use std::time::Duration;

use serde_json::json;

use crate::support::form::{Card, fill_billing, ids, pay, type_card};
use crate::support::partner::{EmulatorAt, PartnerRig};
use crate::support::{Page, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn component_in_a_shadow_root_on_another_origin_pays() {
    run("shadow-dom", |page: Page| async move {
        let rig = PartnerRig::start(EmulatorAt::InProcess, vec![]);
        let (session, secret, _) = rig.session(2500, "EUR", "shadow").await;
        let url = rig.checkout_url(&session, &secret);
        page.goto(&format!("{url}&three_d_secure=redirect")).await;
        page.find("#events li[data-event=ready]").await;
        let in_light_dom = page.eval("return document.querySelector('#cc-number') !== null").await;
        assert_eq!(in_light_dom, json!(false), "the form lives in shadow roots, not in the page's DOM");
        let nested = page
            .eval(
                "const host = document.getElementById('partner-widget');
                 const element = host.shadowRoot.querySelector('card-checkout');
                 return !!(element && element.shadowRoot && element.shadowRoot.querySelector('#cc-number'));",
            )
            .await;
        assert_eq!(nested, json!(true), "card-checkout renders in its own shadow root inside the partner's");

        let card = Card::test("4000000000001000");
        type_card(&page, card).await;
        fill_billing(&page, "DE", "10115").await;
        page.wait_attr(ids::BRAND, "data-brand", "visa").await;
        let events = page.text("#events").await;
        assert!(events.contains("change"), "change events reach the partner page: {events}");
        assert!(!events.contains(card.number) && !events.contains("4000 0000"), "no card number in events: {events}");
        page.screenshot("filled").await;
        pay(&page).await;

        // 3DS (frictionless) takes the top window away from the partner page and back to it.
        let landing = page
            .until_for("the partner's landing page", Duration::from_secs(30), || async {
                let url = page.url().await;
                url.contains("/done.html").then_some(url)
            })
            .await;
        assert!(landing.contains("checkout=paid"), "landing: {landing}");
        page.wait_text(ids::RESULT, "Payment successful").await;
        page.screenshot("paid").await;
        rig.merchant.wait_payment_state(&session, "captured", Duration::from_secs(20)).await;
    })
    .await;
}
