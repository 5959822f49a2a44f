//! Scenario: the card form is typeable before the component has loaded, and nothing typed is
//! lost when it takes over. The frame document arrives with the form as HTML, in the frame a
//! partner's page posts it into (an earlier loader's POST) or in today's loader's frame (the
//! cacheable shell, then the session's part of the form); the component's wasm is held back
//! by a proxy in front of checkout-server. The shopper types a name and a card number and moves the caret; the pay
//! button says the form is loading. When the wasm is let through, the component takes over:
//! the text is there, formatted, the brand shows, the focus and caret are where the shopper
//! left them, nothing in the frame moved, and typing goes on from there. A subscription's form
//! (a demo shop order, opened in the same way: support/shop.rs, `open_held`), which the
//! document does not carry as HTML, shows the loading outline until the component replaces it.

use crate::support::form::ids;
use crate::support::holding_proxy::HoldingProxy;
use crate::support::partner::{EmulatorAt, PartnerRig};
use crate::support::shop::DemoShop;
use crate::support::{Page, run};

/// Where the card number input and the pay button are: (x, y, width, height) of each.
async fn layout(page: &Page) -> Vec<(f64, f64, f64, f64)> {
    let mut boxes = Vec::new();
    for id in [ids::NUMBER, ids::SUBMIT] {
        let element = page.find(id).await;
        boxes.push(element.rectangle().await.expect("the element's box"));
    }
    boxes
}

/// How the page gets the frame's document.
#[derive(Clone, Copy)]
enum Path {
    /// An earlier loader's POST /frame/ (the page posts the fields itself).
    Posted,
    /// Today's loader: the cacheable shell, then the session's part of the form.
    Shell,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn typing_before_the_wasm_arrives_survives_the_takeover() {
    run("typed-before-ready", |page: Page| {
        typed_before_ready(page, Path::Posted)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn typing_into_the_shell_before_the_wasm_arrives_survives_the_takeover() {
    run("typed-before-ready-shell", |page: Page| {
        typed_before_ready(page, Path::Shell)
    })
    .await;
}

async fn typed_before_ready(page: Page, path: Path) {
    let rig = PartnerRig::start(EmulatorAt::InProcess, vec![]);
    let proxy = HoldingProxy::start(&rig.server.base);
    let (session, secret, _) = rig.session(1850, "EUR", "typed-early").await;
    let url = match path {
        Path::Posted => rig.direct_url(&session, &secret, &proxy.base),
        // /checkout.js, the shell and the session's part through the proxy.
        Path::Shell => format!(
            "{}/framed.html?session={session}&secret={secret}&server={}",
            rig.partner.base, proxy.base
        ),
    };
    page.goto(&url).await;

    page.find("#cc-skeleton").await;
    // The shell's form until the session's part replaces it.
    page.wait_text("#cc-amount", "€18.50").await;
    assert_eq!(page.text(ids::SUBMIT).await, "Loading…");
    assert_eq!(
        page.prop(ids::SUBMIT, "disabled").await.as_deref(),
        Some("true")
    );
    page.type_into(ids::NAME, "Ada Lovelace").await;
    page.type_into(ids::NUMBER, "42424242").await;
    page.press(fantoccini::key::Key::Left).await;
    page.press(fantoccini::key::Key::Left).await;
    page.screenshot("typed-into-html").await;
    let before = layout(&page).await;
    assert_eq!(
        page.count("#cc-skeleton").await,
        1,
        "the component cannot have started: its wasm is held"
    );

    proxy.release();
    page.until("the component to take over", || async {
        (page.count("#cc-skeleton").await == 0).then_some(())
    })
    .await;
    page.wait_attr(ids::BRAND, "data-brand", "visa").await;
    assert_eq!(
        layout(&page).await,
        before,
        "nothing moved when the component took over"
    );
    assert_eq!(
        page.prop(ids::NUMBER, "value").await.as_deref(),
        Some("4242 4242")
    );
    assert_eq!(
        page.prop(ids::NAME, "value").await.as_deref(),
        Some("Ada Lovelace")
    );
    assert_eq!(page.focused_id().await, "cc-number");
    // "424242|42" before: after the group space the caret is still before the last two.
    assert_eq!(page.focused_caret().await, Some(7));
    page.type_focused("1").await;
    assert_eq!(
        page.prop(ids::NUMBER, "value").await.as_deref(),
        Some("4242 4214 2")
    );
    let text = page.text(ids::SUBMIT).await;
    assert!(
        text.contains("18.50"),
        "the pay button is the component's now: {text}"
    );
    page.screenshot("taken-over").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn a_plan_shows_the_loading_outline_until_the_component_replaces_it() {
    run("outline-before-ready", |page: Page| async move {
        let shop = DemoShop::start();
        let catalogue = shop.catalogue().await;
        let plan = catalogue["plans"][0]["id"]
            .as_str()
            .expect("a plan")
            .to_owned();
        let proxy = shop.open_held(&page, &plan).await;

        page.find("#cc-loading").await;
        assert_eq!(
            page.attr("#cc-loading", "aria-busy").await.as_deref(),
            Some("true")
        );
        assert_eq!(page.text("#cc-loading [role=status]").await, "Loading…");
        assert_eq!(page.count(ids::NUMBER).await, 0, "the wasm is held");
        page.screenshot("outline").await;

        proxy.release();
        page.find_ready(ids::NUMBER).await;
        page.until("the outline to go", || async {
            (page.count("#cc-loading").await == 0).then_some(())
        })
        .await;
        assert!(page.count(".cc-terms").await > 0, "the plan's terms show");
    })
    .await;
}
