//! Scenario: the shopper approves 3-D Secure at the issuer's page and closes the tab before
//! the browser comes back to the shop. Nothing of the landing page runs, yet the demo shop's
//! own order is marked paid: checkout-server settled the payment from the gateway's webhook
//! and sent the shop a signed `session.completed` event, which its backend verified.

use std::time::Duration;

use crate::support::form::{Card, fill_billing, pay, type_card};
use crate::support::shop::DemoShop;
use crate::support::{Page, run};

const CHALLENGE_CARD: &str = "4000002500003155";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn a_shopper_who_closes_the_tab_after_approving_still_has_a_paid_order() {
    run("closed-tab", |page: Page| async move {
        let shop = DemoShop::start();
        let session = shop.buy(&page, "tshirt").await;
        type_card(&page, Card::test(CHALLENGE_CARD)).await;
        fill_billing(&page, "DE", "10115").await;
        pay(&page).await;
        page.find_ready("#acs-approve").await;

        // The shopper's approval goes to the issuer; the tab closes before the browser
        // follows the issuer's redirect back to the shop.
        let action = page
            .prop("form[action*='/sandbox/acs']", "action")
            .await
            .expect("the ACS form's address");
        let token = page
            .prop("input[name='_token']", "value")
            .await
            .expect("the ACS form's token");
        let (action, token) = (action.as_str(), token.as_str());
        let no_redirects = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        let approved = no_redirects
            .post(action)
            .form(&[("_token", token), ("decision", "approve")])
            .send()
            .await
            .expect("the issuer took the approval");
        assert!(approved.status().is_redirection(), "{}", approved.status());
        page.goto("about:blank").await;

        // The shop's backend learns it from the event alone.
        page.goto(&shop.home()).await;
        let status_script =
            format!("return fetch('/demo/orders/{session}').then((r) => r.json());");
        let order = page
            .until_for(
                "the shop's order to be paid from the event",
                Duration::from_secs(30),
                || async {
                    let order = page.eval(&status_script).await;
                    (order["status"] == "paid").then_some(order)
                },
            )
            .await;
        assert_eq!(order["id"], session.as_str());
        let payment = shop
            .merchant
            .wait_payment_state(&session, "captured", Duration::from_secs(5))
            .await;
        let events = shop
            .merchant
            .get(&format!("/v1/events?object_id={session}"))
            .await;
        let kinds: Vec<&str> = events["data"]
            .as_array()
            .expect("events listed")
            .iter()
            .filter_map(|event| event["type"].as_str())
            .collect();
        assert_eq!(kinds, ["session.completed"], "{events}");
        assert_eq!(payment["state"], "captured");
    })
    .await;
}
