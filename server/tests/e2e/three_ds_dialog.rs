//! 3-D Secure on the shop's page (the default): the bank's page opens in a dialog the loader
//! puts on the shop's page, the shop's page never navigates (its address and what its scripts
//! hold in memory survive), and the page hears `success` or `error` as for a saved card. A
//! frictionless card shows no dialog at all; a bank whose page refuses to be framed is paid
//! through the dialog's "open your bank's page instead" link; a word claiming the bank's return
//! from another window than the bank's frame (or the loader's) changes nothing.

use std::time::Duration;

use fantoccini::key::Key;

use crate::support::Page;
use crate::support::axe;
use crate::support::every_engine::every_engine;
use crate::support::form::{Card, fill_billing, ids, pay, type_card};
use crate::support::partner::{EmulatorAt, PartnerRig};
use crate::support::shop::DemoShop;

const CHALLENGE_CARD: &str = "4000002500003155";
const FRICTIONLESS_CARD: &str = "4000000000001000";

/// Remembers the page's address, puts a value in its memory and counts the dialogs shown.
const WATCH_PAGE: &str = "window.ccKept = location.href; window.ccShown = 0;
const show = HTMLDialogElement.prototype.showModal;
HTMLDialogElement.prototype.showModal = function () { window.ccShown += 1; return show.call(this); };
return location.href;";

/// The page's remembered address (`null` after a navigation), the dialogs shown and the event
/// names the demo shop logged.
const READ_PAGE: &str = "return { kept: window.ccKept || null, shown: window.ccShown,
  url: location.href,
  events: Array.from(document.querySelectorAll('#shop-events li')).map((li) => li.textContent) };";

/// Waits for the shop's log to list `name` (newest first); returns the page's state.
async fn shop_event(page: &Page, name: &str) -> serde_json::Value {
    page.until_for(
        &format!("`{name}` in the shop's event log"),
        Duration::from_secs(30),
        || async {
            let read = page.eval(READ_PAGE).await;
            let events = read["events"].as_array()?;
            events
                .iter()
                .any(|e| {
                    e.as_str()
                        .is_some_and(|e| e.starts_with(&format!("{name} ")))
                })
                .then_some(read)
        },
    )
    .await
}

/// The shop's page as it was: the same address, the value in memory still there.
fn assert_never_left(read: &serde_json::Value, url: &str) {
    assert_eq!(
        read["kept"].as_str(),
        Some(url),
        "the page kept its memory: {read}"
    );
    assert_eq!(
        read["url"].as_str(),
        Some(url),
        "the page never navigated: {read}"
    );
}

/// The dialog's size and labels, read on the shop's page.
async fn dialog(page: &Page) -> serde_json::Value {
    page.find_ready("#acs-approve").await;
    page.eval(
        "const host = document.querySelector('card-checkout');
         const dialog = host.shadowRoot.querySelector('dialog.cc-3ds');
         const frame = dialog.querySelector('iframe');
         const label = dialog.getAttribute('aria-labelledby');
         return { open: dialog.open, modal: dialog.matches(':modal'),
           title: host.shadowRoot.getElementById(label).textContent,
           width: frame.getBoundingClientRect().width, height: frame.getBoundingClientRect().height,
           frameTitle: frame.title,
           link: dialog.querySelector('a').textContent };",
    )
    .await
}

every_engine!(
    a_challenge_approved_in_the_dialog_pays_on_the_shops_page,
    "3ds-dialog-approved"
);

async fn a_challenge_approved_in_the_dialog_pays_on_the_shops_page(page: Page) {
    let shop = DemoShop::start();
    let session = shop.buy(&page, "tshirt").await;
    let url = page.eval(WATCH_PAGE).await;
    let url = url.as_str().expect("the page's address").to_owned();
    type_card(&page, Card::test(CHALLENGE_CARD)).await;
    fill_billing(&page, "DE", "10115").await;
    pay(&page).await;

    let shown = dialog(&page).await;
    assert_eq!(shown["open"], true, "{shown}");
    assert_eq!(shown["modal"], true, "{shown}");
    assert_eq!(
        shown["title"], "Confirm the payment with your bank",
        "{shown}"
    );
    assert_eq!(shown["link"], "Open your bank's page instead", "{shown}");
    // The browser data asked for 500 × 600 on this window (the driver's is 1280 × 1024 or so).
    assert_eq!(
        (shown["width"].as_f64(), shown["height"].as_f64()),
        (Some(500.0), Some(600.0)),
        "{shown}"
    );
    assert!(
        page.text(ids::SUBMIT)
            .await
            .contains("Waiting for your bank"),
        "the card frame says what it waits for"
    );
    let card = page.text("#acs-card").await;
    assert!(
        card.contains("3155"),
        "the bank's page names the card: {card}"
    );
    let found = axe::violations(&page, &["card-checkout", "dialog.cc-3ds"]).await;
    assert!(found.is_empty(), "axe-core in the dialog: {found:#?}");
    page.screenshot("dialog").await;
    page.click_in_dialog("#acs-approve").await;

    let read = shop_event(&page, "success").await;
    assert_never_left(&read, &url);
    assert_eq!(read["shown"], 1, "{read}");
    page.wait_text(ids::RESULT, "Payment successful").await;
    assert_eq!(page.count("dialog.cc-3ds").await, 0, "the dialog is gone");
    shop.merchant
        .wait_payment_state(&session, "captured", Duration::from_secs(20))
        .await;
    page.screenshot("paid").await;
    shop.server.assert_no_card_data(&[CHALLENGE_CARD]);
}

every_engine!(
    a_challenge_rejected_in_the_dialog_is_a_decline_on_the_shops_page,
    "3ds-dialog-rejected"
);

async fn a_challenge_rejected_in_the_dialog_is_a_decline_on_the_shops_page(page: Page) {
    let shop = DemoShop::start();
    let session = shop.buy(&page, "teapot").await;
    let url = page.eval(WATCH_PAGE).await;
    let url = url.as_str().expect("the page's address").to_owned();
    type_card(&page, Card::test(CHALLENGE_CARD)).await;
    fill_billing(&page, "JP", "100-0001").await;
    pay(&page).await;
    page.click_in_dialog("#acs-reject").await;

    let read = shop_event(&page, "error").await;
    assert_never_left(&read, &url);
    let logged = read["events"].to_string();
    assert!(
        logged.contains("card_declined") && logged.contains("authentication_failed"),
        "{logged}"
    );
    let alert = page.wait_text("#cc-alert", "could not be verified").await;
    assert!(!alert.contains("ERR"), "{alert}");
    assert!(
        page.find_ready(ids::SUBMIT)
            .await
            .is_enabled()
            .await
            .unwrap_or(false),
        "the form can be paid again"
    );
    shop.merchant
        .wait_payment_state(&session, "declined", Duration::from_secs(20))
        .await;
}

every_engine!(
    a_frictionless_card_shows_no_dialog,
    "3ds-dialog-frictionless"
);

async fn a_frictionless_card_shows_no_dialog(page: Page) {
    let shop = DemoShop::start();
    let session = shop.buy(&page, "tshirt").await;
    let url = page.eval(WATCH_PAGE).await;
    let url = url.as_str().expect("the page's address").to_owned();
    type_card(&page, Card::test(FRICTIONLESS_CARD)).await;
    fill_billing(&page, "DE", "10115").await;
    pay(&page).await;

    let read = shop_event(&page, "success").await;
    assert_never_left(&read, &url);
    assert_eq!(read["shown"], 0, "no dialog was ever shown: {read}");
    assert!(
        !read["events"].to_string().contains("redirect"),
        "no redirect: {read}"
    );
    page.wait_text(ids::RESULT, "Payment successful").await;
    shop.merchant
        .wait_payment_state(&session, "captured", Duration::from_secs(20))
        .await;
}

every_engine!(
    a_bank_that_refuses_the_frame_is_paid_through_the_link,
    "3ds-dialog-refused"
);

async fn a_bank_that_refuses_the_frame_is_paid_through_the_link(page: Page) {
    // The sandbox's switch, as a shop developer sets it: the bank's page refuses frames.
    let shop = DemoShop::start_with(vec![(
        "SANDBOX_FAULTS".into(),
        "acs=refuse-framing*1".into(),
    )]);
    let session = shop.buy(&page, "tshirt").await;
    type_card(&page, Card::test(CHALLENGE_CARD)).await;
    fill_billing(&page, "DE", "10115").await;
    pay(&page).await;

    // The dialog shows (the bank's frame stays empty: the browser refused it) with its link.
    let link = page.find_ready("dialog.cc-3ds a").await;
    page.screenshot("refused").await;
    crate::support::pointer::click(&page.client, page.engine(), &link)
        .await
        .expect("click the link");
    page.find_ready("#acs-approve").await;
    assert!(
        page.url().await.contains("/sandbox/acs"),
        "the bank's page in the whole window"
    );
    page.click_in_dialog("#acs-approve").await;
    page.until_for(
        "back on the shop, paid",
        Duration::from_secs(30),
        || async { page.url().await.contains("checkout=paid").then_some(()) },
    )
    .await;
    shop.merchant
        .wait_payment_state(&session, "captured", Duration::from_secs(20))
        .await;
}

every_engine!(
    a_return_claimed_by_another_window_changes_nothing,
    "3ds-dialog-forged"
);

async fn a_return_claimed_by_another_window_changes_nothing(page: Page) {
    let shop = DemoShop::start();
    let session = shop.buy(&page, "tshirt").await;
    type_card(&page, Card::test(CHALLENGE_CARD)).await;
    fill_billing(&page, "DE", "10115").await;
    pay(&page).await;
    page.find_ready("#acs-approve").await;

    // Another window (an empty frame the page makes, where the driver runs the script) claims
    // the return to the page, with the word the return page uses, and the dialog's end to the
    // card frame, with the loader's.
    page.eval(
        "const other = document.createElement('iframe');
         other.id = 'other-window';
         document.body.append(other);
         return true;",
    )
    .await;
    let other = page.find("#other-window").await;
    other.enter_frame().await.expect("into the other window");
    page.client
        .execute(
            "parent.postMessage({ cc: 'card-checkout', type: 'three_ds_returned' }, '*');
             parent.document.querySelector('card-checkout').shadowRoot
               .querySelector('iframe[name^=card-checkout-]').contentWindow
               .postMessage({ cc: 'card-checkout', type: 'challenge_done' }, '*');
             return true;",
            vec![],
        )
        .await
        .expect("the other window posts");
    page.to_page().await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let still = dialog(&page).await;
    assert_eq!(still["open"], true, "the dialog stays: {still}");
    assert!(
        page.text(ids::SUBMIT)
            .await
            .contains("Waiting for your bank"),
        "the form still waits for the bank"
    );
    let payments = shop.merchant.session_payments(&session).await;
    assert_eq!(payments[0]["state"], "pending", "{payments:?}");
    page.click_in_dialog("#acs-approve").await;
    page.wait_text(ids::RESULT, "Payment successful").await;
}

every_engine!(
    the_dialog_works_with_the_keyboard_alone,
    "3ds-dialog-keyboard"
);

async fn the_dialog_works_with_the_keyboard_alone(page: Page) {
    let shop = DemoShop::start();
    let session = shop.buy(&page, "tshirt").await;
    type_card(&page, Card::test(CHALLENGE_CARD)).await;
    fill_billing(&page, "DE", "10115").await;
    page.find_ready(ids::SUBMIT).await;
    page.press(Key::Enter).await;
    // The dialog opens (looked at from the page: WebKitWebDriver would move the keyboard focus
    // into a frame the scenario entered), the focus moves into it (its close button), and
    // Escape closes it.
    page.until("the dialog open", || async {
        let open = page
            .eval(
                "const dialog = document.querySelector('card-checkout').shadowRoot
                   .querySelector('dialog.cc-3ds');
                 return !!(dialog && dialog.open);",
            )
            .await;
        (open == serde_json::Value::Bool(true)).then_some(())
    })
    .await;
    page.until("the focus in the dialog", || async {
        let focused = page
            .eval(
                "const host = document.querySelector('card-checkout');
                 const active = host.shadowRoot.activeElement;
                 return active ? active.localName + ':' + (active.getAttribute('aria-label') || '') : '';",
            )
            .await;
        (focused.as_str() == Some("button:Close")).then_some(())
    })
    .await;
    page.press(Key::Escape).await;
    let read = shop_event(&page, "error").await;
    assert!(
        read["events"].to_string().contains("three_ds_cancelled"),
        "{read}"
    );
    page.wait_text("#cc-alert", "cancelled").await;
    assert_eq!(page.count("dialog.cc-3ds").await, 0, "the dialog is gone");
    page.until("the focus back on the pay button", || async {
        (page.focused_id().await == "cc-submit").then_some(())
    })
    .await;
    let payments = shop.merchant.session_payments(&session).await;
    assert_eq!(payments.len(), 1, "{payments:?}");
}

every_engine!(
    the_dialog_speaks_the_shoppers_language_right_to_left_and_dark,
    "3ds-dialog-rtl-dark"
);

async fn the_dialog_speaks_the_shoppers_language_right_to_left_and_dark(page: Page) {
    let rig = PartnerRig::start(EmulatorAt::InProcess, vec![]);
    let (session, secret, _) = rig.session(2500, "EUR", "dialog-ar").await;
    let url = format!(
        "{}&locale=ar&scheme=dark",
        rig.isolated_url(&session, &secret)
    );
    page.goto(&url).await;
    page.find("#events li[data-event=ready]").await;
    type_card(&page, Card::test(CHALLENGE_CARD)).await;
    fill_billing(&page, "DE", "10115").await;
    pay(&page).await;
    page.find_ready("#acs-approve").await;
    let shown = page
        .eval(
            "const dialog = document.getElementById('partner-widget').shadowRoot
               .querySelector('card-checkout').shadowRoot.querySelector('dialog.cc-3ds');
             const style = getComputedStyle(dialog);
             return { dir: dialog.dir, lang: dialog.lang, background: style.backgroundColor,
               title: dialog.querySelector('h2').textContent };",
        )
        .await;
    assert_eq!(shown["dir"], "rtl", "{shown}");
    assert_eq!(shown["lang"], "ar", "{shown}");
    assert_eq!(
        shown["title"], "أكِّد الدفع لدى البنك الذي تتعامل معه",
        "{shown}"
    );
    assert_ne!(
        shown["background"], "rgb(255, 255, 255)",
        "the dark scheme reaches the dialog: {shown}"
    );
    let path = ["#partner-widget", "card-checkout", "dialog.cc-3ds"];
    let found = axe::violations(&page, &path).await;
    assert!(
        found.is_empty(),
        "axe-core in the dialog, Arabic and dark: {found:#?}"
    );
    page.screenshot("ar-dark").await;
    page.click_in_dialog("#acs-approve").await;
    page.find("#events li[data-event=success]").await;
    rig.merchant
        .wait_payment_state(&session, "captured", Duration::from_secs(20))
        .await;
}
