//! Scenario: Chromium's own autofill fills the whole card form in one action. A saved card
//! (number, name, expiry, CVC) is offered on the card number field through DevTools'
//! `Autofill.trigger`, the path the browser's dropdown takes; every card field of the form
//! fills at once, and the form formats what it got and flags nothing. The form's document is
//! opened as the page itself: DevTools cannot reach into a frame of another origin, and the
//! frame holds exactly this document (paying from there is the other scenarios' part: without
//! a page around it, no one takes the 3-D Secure redirect the frame hands over).

use serde_json::json;

use crate::support::cdp;
use crate::support::form::ids;
use crate::support::page::DEEP_FIND;
use crate::support::partner::{EmulatorAt, PartnerRig};
use crate::support::{Page, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn browser_autofill_fills_number_expiry_cvc_and_name_in_one_action() {
    run("autofill", |page: Page| async move {
        let rig = PartnerRig::start(EmulatorAt::InProcess, vec![]);
        let (session, secret, _) = rig.session(1500, "EUR", "autofill").await;
        page.goto(&rig.top_url(&session, &secret, &rig.server.base))
            .await;
        page.find_ready(ids::NUMBER).await;

        let client = &page.client;
        let found = cdp::execute(
            client,
            "Runtime.evaluate",
            json!({ "expression": format!("{DEEP_FIND}deepFind('#cc-number')") }),
        )
        .await
        .expect("the number input is found");
        let object = found["result"]["objectId"].clone();
        let node = cdp::execute(client, "DOM.describeNode", json!({ "objectId": object }))
            .await
            .expect("the number input's node");
        let field = node["node"]["backendNodeId"].clone();
        let card = json!({
            "number": "4242424242424242",
            "name": "Ada Lovelace",
            "expiryMonth": "12",
            "expiryYear": "2030",
            "cvc": "123",
        });
        cdp::execute(
            client,
            "Autofill.trigger",
            json!({ "fieldId": field, "card": card }),
        )
        .await
        .expect("Chromium fills the form");

        page.until("every card field to be filled", || async {
            let values = (
                page.prop(ids::NUMBER, "value").await?,
                page.prop(ids::NAME, "value").await?,
                page.prop(ids::EXPIRY, "value").await?,
                page.prop(ids::CVC, "value").await?,
            );
            (!values.0.is_empty()
                && !values.1.is_empty()
                && !values.2.is_empty()
                && !values.3.is_empty())
            .then_some(values)
        })
        .await;
        page.screenshot("autofilled").await;
        assert_eq!(
            page.prop(ids::NUMBER, "value").await.as_deref(),
            Some("4242 4242 4242 4242")
        );
        assert_eq!(
            page.prop(ids::NAME, "value").await.as_deref(),
            Some("Ada Lovelace")
        );
        assert_eq!(
            page.prop(ids::EXPIRY, "value").await.as_deref(),
            Some("12 / 30")
        );
        assert_eq!(page.prop(ids::CVC, "value").await.as_deref(), Some("123"));
        page.wait_attr(ids::BRAND, "data-brand", "visa").await;
        for error in [
            "#cc-number-error",
            "#cc-exp-error",
            "#cc-csc-error",
            "#cc-name-error",
        ] {
            let shown = page.try_find(error).await;
            let text = match shown {
                Some(element) => element.text().await.unwrap_or_default(),
                None => String::new(),
            };
            assert!(text.trim().is_empty(), "{error} says {text:?}");
        }
    })
    .await;
}
