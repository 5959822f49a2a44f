//! Scenario: Chromium's own autofill fills the whole card form in one action. A saved card
//! (number, name, expiry, CVC) is offered on the card number field through DevTools'
//! `Autofill.trigger`, the path the browser's dropdown takes; every card field of the form
//! fills at once, and the form formats what it got and flags nothing. The form's document is
//! in the frame a partner's page posts it into (support/framing_pages.rs, `/direct.html`), as
//! `/checkout.js` does (paying from there is the other scenarios' part: without the loader on
//! the page, no one takes the 3-D Secure redirect the frame hands over).
//!
//! DevTools commands through chromedriver go to the page's target. The partner's page and
//! checkout-server are both on `127.0.0.1` (other ports): one site, which Chromium keeps in one
//! renderer process, so the form's frame is part of the page's target, not a target of its
//! own. The commands reach into it by its frame id: an isolated world in the frame to find the
//! number input in, and `Autofill.trigger` told the frame.

use serde_json::{Value, json};

use crate::support::cdp;
use crate::support::form::ids;
use crate::support::page::DEEP_FIND;
use crate::support::partner::{EmulatorAt, PartnerRig};
use crate::support::{Page, run};

/// The form's frame as the partner's page names it.
const FRAME_NAME: &str = "card-checkout-direct";

/// The DevTools id of the frame named `name` in the page's frame tree.
fn frame_id(tree: &Value, name: &str) -> Option<String> {
    let frame = &tree["frame"];
    if frame["name"] == name {
        return frame["id"].as_str().map(str::to_owned);
    }
    tree["childFrames"]
        .as_array()?
        .iter()
        .find_map(|child| frame_id(child, name))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn browser_autofill_fills_number_expiry_cvc_and_name_in_one_action() {
    run("autofill", |page: Page| async move {
        let rig = PartnerRig::start(EmulatorAt::InProcess, vec![]);
        let (session, secret, _) = rig.session(1500, "EUR", "autofill").await;
        assert!(
            rig.partner.base.starts_with("http://127.0.0.1:")
                && rig.server.base.starts_with("http://127.0.0.1:"),
            "the page and the form's frame share a site (and a process): {} {}",
            rig.partner.base,
            rig.server.base
        );
        page.goto(&rig.direct_url(&session, &secret, &rig.server.base))
            .await;
        page.find_ready(ids::NUMBER).await;

        let client = &page.client;
        let tree = cdp::execute(client, "Page.getFrameTree", json!({}))
            .await
            .expect("the page's frames");
        let frame = frame_id(&tree["frameTree"], FRAME_NAME)
            .unwrap_or_else(|| panic!("no frame {FRAME_NAME} in {tree}"));
        let world = cdp::execute(
            client,
            "Page.createIsolatedWorld",
            json!({ "frameId": frame, "worldName": "e2e-autofill" }),
        )
        .await
        .expect("a script context in the form's frame");
        let found = cdp::execute(
            client,
            "Runtime.evaluate",
            json!({
                "expression": format!("{DEEP_FIND}deepFind('#cc-number')"),
                "contextId": world["executionContextId"],
            }),
        )
        .await
        .expect("the number input is found");
        let object = found["result"]["objectId"].clone();
        assert!(object.is_string(), "no number input in the frame: {found}");
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
            json!({ "fieldId": field, "frameId": frame, "card": card }),
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
