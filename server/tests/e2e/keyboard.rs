//! Scenario 8: the whole purchase by keyboard alone. Tab reaches every field and the pay
//! button in a sensible order, the shopper types into whatever has focus, and Enter submits.

use std::time::Duration;

use fantoccini::key::Key;

use crate::support::Page;
use crate::support::every_engine::every_engine;
use crate::support::shop::DemoShop;

/// The form's stops, in the order Tab must reach them (billing after the card).
const ORDER: [&str; 7] = [
    "cc-name",
    "cc-number",
    "cc-exp",
    "cc-csc",
    "billing-country",
    "billing-postal-code",
    "cc-submit",
];

/// Presses Tab until `id` has focus (at most `limit` presses); returns the stops passed.
async fn tab_to(page: &Page, id: &str, limit: usize) -> Vec<String> {
    let mut passed = Vec::new();
    for _ in 0..limit {
        page.press(Key::Tab).await;
        let focused = page.focused_id().await;
        passed.push(focused.clone());
        if focused == id {
            return passed;
        }
    }
    page.fail(&format!(
        "Tab never reached #{id}; focus went through {passed:?}"
    ))
    .await
}

every_engine!(
    keyboard_alone_reaches_every_field_and_enter_pays,
    "keyboard"
);

async fn keyboard_alone_reaches_every_field_and_enter_pays(page: Page) {
    let shop = DemoShop::start();
    page.goto(&shop.home()).await;
    page.find_ready("#buy-tshirt").await;
    tab_to(&page, "buy-tshirt", 30).await;
    page.press(Key::Enter).await;
    page.until("the checkout page", || async {
        page.url().await.contains("session=").then_some(())
    })
    .await;
    page.find_ready("#cc-number").await;

    let values = [
        "Grace Hopper",
        "4000000000001000",
        "1234",
        "123",
        "Germany",
        "10115",
    ];
    let mut stops = Vec::new();
    for (id, value) in ORDER.iter().zip(values) {
        stops.extend(tab_to(&page, id, 40).await);
        page.type_focused(value).await;
        // Read from the focus: looking from the page would move the focus there in WebKit.
        if *id == "billing-country" && page.focused_value().await.as_deref() != Some("DE") {
            page.fail("typing the country's name in the focused list did not pick it")
                .await;
        }
    }
    let first_seen: Vec<&str> = ORDER
        .iter()
        .filter_map(|id| stops.iter().position(|s| s == id).map(|_| *id))
        .collect();
    assert_eq!(
        first_seen.len(),
        ORDER.len() - 1,
        "every field was reached: {stops:?}"
    );
    let positions: Vec<usize> = ORDER[..ORDER.len() - 1]
        .iter()
        .filter_map(|id| stops.iter().position(|s| s == id))
        .collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "fields in reading order: {stops:?}"
    );
    tab_to(&page, "cc-submit", 10).await;
    page.screenshot("focused-pay").await;

    // Shift+Tab back into the fields; Enter there submits the form.
    for _ in 0..10 {
        page.type_focused(&format!(
            "{}{}",
            char::from(Key::Shift),
            char::from(Key::Tab)
        ))
        .await;
        if page.focused_id().await == "billing-postal-code" {
            break;
        }
    }
    assert_eq!(
        page.focused_id().await,
        "billing-postal-code",
        "Shift+Tab walks back"
    );
    page.press(Key::Enter).await;
    shop.wait_result(&page, "Payment successful").await;
    page.screenshot("paid").await;
    let session = crate::support::shop::query_param(&page.url().await, "session")
        .expect("session in the address");
    shop.merchant
        .wait_payment_state(&session, "captured", Duration::from_secs(20))
        .await;
}
