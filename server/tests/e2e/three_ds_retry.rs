//! Paying again after leaving the bank's page: the shopper closes the 3-D Secure dialog (or, in
//! the whole window, presses Back on the bank's page) and pays at once with another card. The
//! order is paid once: one approved charge at the gateway, the session `paid`, nobody on the
//! staff's review queue.

use std::time::Duration;

use serde_json::Value;

use crate::support::Page;
use crate::support::every_engine::every_engine;
use crate::support::form::{Card, fill_billing, ids, pay, retype_card, type_card};
use crate::support::shop::DemoShop;

const CHALLENGE_CARD: &str = "4000002500003155";

/// The order is paid once: one captured payment, one approved charge at the gateway, and no
/// payment of the session waiting for staff.
async fn assert_paid_once(shop: &DemoShop, session: &str) {
    let paid = shop
        .merchant
        .wait_payment_state(session, "captured", Duration::from_secs(30))
        .await;
    assert_eq!(paid["card"]["last4"], "4242", "{paid}");
    let view = shop.merchant.get(&format!("/v1/sessions/{session}")).await;
    assert_eq!(view["status"], "paid", "{view}");
    let payments = shop.merchant.session_payments(session).await;
    let captured = payments.iter().filter(|p| p["state"] == "captured").count();
    assert_eq!(captured, 1, "{payments:?}");
    assert!(
        payments.iter().all(|p| p["state"] != "needs_review"),
        "{payments:?}"
    );
    // The session's reference: each attempt's is it with its number appended.
    let reference = view["reference"].as_str().expect("reference");
    let approved: Vec<Value> = shop
        .emulator
        .transactions_for(reference)
        .await
        .into_iter()
        .filter(|t| t["outcome"] == "approved")
        .collect();
    assert_eq!(approved.len(), 1, "one charge at the gateway: {approved:?}");
}

every_engine!(
    a_closed_dialog_then_another_card_pays_once,
    "3ds-dialog-retry"
);

async fn a_closed_dialog_then_another_card_pays_once(page: Page) {
    let shop = DemoShop::start();
    let session = shop.buy(&page, "tshirt").await;
    type_card(&page, Card::test(CHALLENGE_CARD)).await;
    fill_billing(&page, "DE", "10115").await;
    pay(&page).await;
    let close = page.find_ready("dialog.cc-3ds[open] button").await;
    // A person reads the dialog before closing it (see the Back scenario below).
    tokio::time::sleep(Duration::from_millis(1000)).await;
    crate::support::pointer::click(&page.client, page.engine(), &close)
        .await
        .expect("close the dialog");
    page.wait_text("#cc-alert", "cancelled").await;
    retype_card(&page, "DE", "10115").await;
    pay(&page).await;
    page.wait_text(ids::RESULT, "Payment successful").await;
    assert_paid_once(&shop, &session).await;
}

every_engine!(
    back_from_the_banks_page_then_another_card_pays_once,
    "3ds-redirect-back"
);

async fn back_from_the_banks_page_then_another_card_pays_once(page: Page) {
    let shop = DemoShop::start();
    let session = shop
        .buy_with(&page, "tshirt", "three_d_secure=redirect")
        .await;
    let checkout = page.url().await;
    type_card(&page, Card::test(CHALLENGE_CARD)).await;
    fill_billing(&page, "DE", "10115").await;
    pay(&page).await;
    page.find_ready("#acs-approve").await;
    // A person looks at the bank's page before going back: a pay within a second of the
    // redirect is taken for the same click again (payments::supersede::DOUBLE_CLICK_GUARD),
    // and WebKit's driver is back and has typed the next card sooner than that.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // The browser's Back, as the page's history takes it (WebKitWebDriver's own Back command
    // waits on the bank's page for good). It runs after the script has answered, so the
    // navigation never races the script's answer.
    page.eval("setTimeout(() => history.back(), 0); return true;")
        .await;
    page.until("the checkout again", || async {
        (page.url().await == checkout).then_some(())
    })
    .await;
    retype_card(&page, "DE", "10115").await;
    pay(&page).await;
    let shown = shop.wait_result(&page, "Payment successful").await;
    assert!(!shown.contains("wrong"), "{shown}");
    assert_paid_once(&shop, &session).await;
}
