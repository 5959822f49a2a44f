//! Scenario: right to left. A partner's page embeds the form through `/checkout.js` in Hebrew;
//! the frame's form lays out right to left (labels in Hebrew, set against the right edge of
//! their field) while the card number reads left to right: typed digits stay in their order,
//! grouped 4-4-4-4, set against the right edge like the label above them. Then it pays, and
//! the result says so in Hebrew on the partner's page.

use std::time::Duration;

use serde_json::Value;

use crate::support::Page;
use crate::support::every_engine::every_engine;
use crate::support::form::{Card, fill_billing, ids, pay, type_card};
use crate::support::page::DEEP_FIND;
use crate::support::partner::{EmulatorAt, PartnerRig};

const NUMBER_LABEL: &str = "label[for=cc-number]";

/// For the label of the number field: its direction, and the space left and right of its
/// text inside the field around it (a block as wide as the form). Runs in the frame, after
/// `DEEP_FIND`.
const LABEL_LAYOUT: &str = "
const label = deepFind('label[for=cc-number]');
const range = document.createRange();
range.selectNodeContents(label);
const text = range.getBoundingClientRect();
const field = label.parentElement.getBoundingClientRect();
return { direction: getComputedStyle(label).direction,
         left: text.left - field.left, right: field.right - text.right };
";

every_engine!(
    hebrew_lays_out_right_to_left_and_keeps_the_card_number_left_to_right,
    "rtl"
);

async fn hebrew_lays_out_right_to_left_and_keeps_the_card_number_left_to_right(page: Page) {
    let rig = PartnerRig::start(EmulatorAt::InProcess, vec![]);
    let (session, secret, _) = rig.session(2500, "EUR", "rtl").await;
    page.goto(&format!("{}&locale=he", rig.framed_url(&session, &secret)))
        .await;
    page.find("#events li[data-event=ready]").await;
    page.wait_text(NUMBER_LABEL, "מספר כרטיס").await;
    assert_eq!(page.attr(".cc-root", "dir").await.as_deref(), Some("rtl"));
    assert_eq!(page.attr(ids::NUMBER, "dir").await.as_deref(), Some("ltr"));
    assert_eq!(
        page.css(ids::NUMBER, "direction").await.as_deref(),
        Some("ltr")
    );

    // The label's text sits at the right end of its field (page.attr left us in the frame).
    let layout = page
        .client
        .execute(&[DEEP_FIND, LABEL_LAYOUT].concat(), vec![])
        .await
        .expect("the label's layout");
    let margin = |side: &str| layout[side].as_f64().unwrap_or(f64::NAN);
    assert_eq!(layout["direction"], Value::from("rtl"), "{layout}");
    assert!(
        margin("right") < 1.0 && margin("left") > 100.0,
        "the label is set against the right edge: {layout}"
    );

    let card = Card::test("4242424242424242");
    type_card(&page, card).await;
    assert_eq!(
        page.prop(ids::NUMBER, "value").await.as_deref(),
        Some("4242 4242 4242 4242"),
        "the digits stay in the order typed"
    );
    assert_eq!(
        page.css(ids::NUMBER, "text-align").await.as_deref(),
        Some("right"),
        "the number is set against the right edge, like its label"
    );
    fill_billing(&page, "IL", "6100000").await;
    assert_eq!(
        page.prop(ids::POSTAL_CODE, "value").await.as_deref(),
        Some("6100000"),
        "every key typed reached the field"
    );
    page.screenshot("filled").await;
    pay(&page).await;
    // Paid on the partner's page (3-D Secure, frictionless, shows no dialog).
    page.wait_text_any(
        ids::RESULT,
        &["התשלום בוצע בהצלחה"],
        Duration::from_secs(30),
    )
    .await;
    rig.merchant
        .wait_payment_state(&session, "captured", Duration::from_secs(20))
        .await;
}
