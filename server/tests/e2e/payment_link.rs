//! A payment link paid on its hosted page (`/pay/{link}`, checkout-server's own origin, the
//! card form inline, no frame): staff make the link in the dashboard, a payer opens it, types
//! their e-mail, reference and a challenge card into the page's HTML form, presses Pay (the
//! session is made only then), approves the payment in the bank's dialog on that page and
//! lands on the receipt, which shows again from its own address; the shop's events endpoint
//! gets the payment's events carrying `payment_link_id`, and staff see the payment on the
//! link's page. A deactivated or expired link shows why and no form. Then the page and the
//! receipt under axe-core, light and dark, in Arabic, on a 360-px wide phone.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::routing::post;
use serde_json::{Value, json};

use crate::support::dashboard::Dashboard;
use crate::support::every_engine::every_engine;
use crate::support::form::{Card, fill_billing, pay, type_card};
use crate::support::shop::DemoShop;
use crate::support::site::Background;
use crate::support::{Page, axe, cdp, run};

const CHALLENGE_CARD: &str = "4000002500003155";

/// The shop's events endpoint: every event body it was sent.
struct Inbox {
    url: String,
    events: Arc<Mutex<Vec<Value>>>,
    _server: Background,
}

impl Inbox {
    fn start() -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind the inbox");
        listener.set_nonblocking(true).expect("non-blocking");
        let url = format!("http://{}/events", listener.local_addr().expect("address"));
        let events = Arc::new(Mutex::new(Vec::new()));
        let router = Router::new()
            .route(
                "/events",
                post(
                    |State(events): State<Arc<Mutex<Vec<Value>>>>, body: Bytes| async move {
                        if let Ok(event) = serde_json::from_slice(&body) {
                            events.lock().expect("inbox").push(event);
                        }
                        "ok"
                    },
                ),
            )
            .with_state(events.clone());
        Self {
            url,
            events,
            _server: Background::serve(listener, router),
        }
    }

    /// Waits for an event of `kind`; returns it.
    async fn wait(&self, page: &Page, kind: &str) -> Value {
        page.until_for(
            &format!("a `{kind}` event at the shop's endpoint"),
            Duration::from_secs(30),
            || async {
                let events = self.events.lock().expect("inbox").clone();
                events.into_iter().find(|event| event["type"] == kind)
            },
        )
        .await
    }
}

/// A link for the tea, through the merchant API; its hosted page's address and its id.
pub(crate) async fn tea_link(shop: &DemoShop, extra: Value) -> (String, String) {
    let mut body = json!({
        "description": "Oolong tea, 100 g",
        "amount": 1250,
        "currency": "EUR",
        "reusable": true,
        "ask_email": "required",
        "ask_payer_reference": "optional",
        "billing_fields": ["country", "postal_code"],
    });
    // `null` in `extra` leaves the field out.
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        for (name, value) in extra {
            if value.is_null() {
                body.remove(name);
            } else {
                body.insert(name.clone(), value.clone());
            }
        }
    }
    let link = shop.merchant.post("/v1/payment_links", body).await;
    let field = |name: &str| {
        link[name]
            .as_str()
            .unwrap_or_else(|| panic!("the link without `{name}`: {link}"))
            .to_owned()
    };
    (field("url"), field("id"))
}

/// Staff make the tea's link in the dashboard's form (`/links`); its hosted page's address
/// (from the link's page) and its id.
async fn tea_link_in_the_dashboard(page: &Page, dashboard: &Dashboard) -> (String, String) {
    dashboard.log_in_as_admin(page).await;
    page.goto(&format!("{}/links", dashboard.address)).await;
    page.type_into("#link-description", "Oolong tea, 100 g")
        .await;
    page.type_into("#link-amount", "12.50").await;
    page.click("#link-reusable").await;
    for (select, value) in [("#link-email", "required"), ("#link-reference", "optional")] {
        page.find(select)
            .await
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("{select}: {e}"));
    }
    page.click("#link-billing-country").await;
    page.click("#link-billing-postal_code").await;
    page.screenshot("dashboard-form").await;
    page.click("form[action='/links'] button[type='submit']")
        .await;
    let url = page
        .until("the link's page", || async {
            let at = page.url().await;
            let value = page.prop("#link-url", "value").await?;
            at.contains("/links/plink_").then_some(value)
        })
        .await;
    let at = page.url().await;
    let id = at
        .rsplit('/')
        .next()
        .and_then(|tail| tail.split('?').next())
        .expect("the link's id")
        .to_owned();
    (url, id)
}

every_engine!(
    a_payer_pays_a_link_in_the_dialog_and_keeps_the_receipt,
    "payment-link"
);

async fn a_payer_pays_a_link_in_the_dialog_and_keeps_the_receipt(page: Page) {
    let shop = DemoShop::start();
    let inbox = Inbox::start();
    shop.merchant
        .post(
            "/v1/webhook_endpoints",
            json!({ "url": inbox.url, "description": "the shop" }),
        )
        .await;
    let dashboard = Dashboard::of(&shop.server);
    let (url, link_id) = tea_link_in_the_dashboard(&page, &dashboard).await;
    assert!(url.contains("/pay/"), "{url}");
    page.goto(&url).await;
    assert_eq!(page.text("#hp-item").await, "Oolong tea, 100 g");
    assert!(page.text("#hp-price").await.contains("12.50"));
    assert_eq!(
        page.count("iframe[name^='card-checkout-']").await,
        0,
        "no card frame"
    );
    page.type_into("#hp-email", "payer@example.com").await;
    page.type_into("#hp-payer-reference", "INV-2026-0042").await;
    type_card(&page, Card::test(CHALLENGE_CARD)).await;
    fill_billing(&page, "DE", "10115").await;
    page.screenshot("typed").await;
    pay(&page).await;

    page.find_ready("#acs-approve").await;
    let card = page.text("#acs-card").await;
    assert!(
        card.contains("3155"),
        "the bank's page names the card: {card}"
    );
    page.to_page().await;
    page.screenshot("dialog").await;
    page.click_in_dialog("#acs-approve").await;

    let status = page.wait_text("#hp-status", "Payment successful").await;
    assert!(!status.is_empty());
    let receipt_url = page.url().await;
    assert!(receipt_url.contains("/receipts/"), "{receipt_url}");
    let receipt = page.text("#hp-receipt").await;
    for shown in ["€12.50", "Visa", "3155", "INV-2026-0042", link_id.as_str()] {
        assert!(receipt.contains(shown), "{shown} on the receipt: {receipt}");
    }
    let payment_id = page.text("#hp-payment-id").await;
    assert!(!receipt.contains(CHALLENGE_CARD), "{receipt}");
    page.screenshot("receipt").await;
    // The receipt again from its own address, as the payer keeps it.
    page.goto("about:blank").await;
    page.goto(&receipt_url).await;
    assert_eq!(page.text("#hp-receipt").await, receipt);

    let captured = inbox.wait(&page, "payment.captured").await;
    assert_eq!(
        captured["data"]["object"]["id"],
        payment_id.as_str(),
        "the receipt's payment: {captured}"
    );
    assert_eq!(
        captured["data"]["object"]["payment_link_id"],
        link_id.as_str(),
        "the event carries the link: {captured}"
    );
    let payment = shop
        .merchant
        .get(&format!("/v1/payments/{payment_id}"))
        .await;
    assert_eq!(payment["state"], "captured", "{payment}");
    assert_eq!(payment["payment_link_id"], link_id.as_str(), "{payment}");
    // Staff see it under the link.
    page.goto(&format!("{}/links/{link_id}", dashboard.address))
        .await;
    page.wait_text("main", "3155").await;
    assert_eq!(
        page.count(&format!("main a[href='/payments/{payment_id}']"))
            .await,
        1,
        "the payment on the link's page"
    );
    shop.server.assert_no_card_data(&[CHALLENGE_CARD]);
}

every_engine!(
    a_link_that_takes_no_payment_shows_no_form,
    "payment-link-gone"
);

async fn a_link_that_takes_no_payment_shows_no_form(page: Page) {
    let shop = DemoShop::start();
    let (off, off_id) = tea_link(&shop, json!({})).await;
    shop.merchant
        .post(&format!("/v1/payment_links/{off_id}/deactivate"), json!({}))
        .await;
    page.goto(&off).await;
    page.wait_text("h1", "This payment link cannot be paid")
        .await;
    assert_eq!(
        page.attr("#hp-unavailable", "data-reason").await.as_deref(),
        Some("payment_link_inactive")
    );
    assert_eq!(page.count("input, form, card-checkout").await, 0, "no form");

    let soon = time::OffsetDateTime::now_utc() + time::Duration::seconds(2);
    let expires_at = soon
        .format(&time::format_description::well_known::Rfc3339)
        .expect("a date");
    let (expiring, _) = tea_link(&shop, json!({ "expires_at": expires_at })).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    page.goto(&expiring).await;
    page.wait_text("#hp-unavailable", "expired").await;
    assert_eq!(page.count("input, form, card-checkout").await, 0, "no form");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn the_hosted_page_and_receipt_pass_axe_light_dark_and_arabic_on_a_phone() {
    run("payment-link-a11y", |page: Page| async move {
        let shop = DemoShop::start();
        let (url, _) = tea_link(
            &shop,
            json!({ "amount": null, "min_amount": 500, "max_amount": 50000, "quantity_max": 5 }),
        )
        .await;
        page.client
            .set_window_size(360, 780)
            .await
            .expect("a phone's window");
        let mut found = Vec::new();
        let mut receipt = None;
        for theme in ["light", "dark"] {
            cdp::prefer_color_scheme(&page.client, theme).await;
            for lang in ["en", "ar"] {
                page.goto(&format!("{url}?lang={lang}")).await;
                page.find_ready("#cc-number").await;
                for violation in axe::violations(&page, &["body"]).await {
                    found.push(format!("{theme} {lang} page: {violation}"));
                }
                let wide = page
                    .eval("return document.documentElement.scrollWidth;")
                    .await;
                assert!(
                    wide.as_f64().is_some_and(|w| w <= 360.0),
                    "{theme} {lang}: nothing wider than the phone: {wide}"
                );
                page.screenshot(&format!("page-{theme}-{lang}")).await;
                if receipt.is_none() {
                    receipt = Some(pay_at(&page, &shop).await);
                }
                let receipt = receipt.as_deref().expect("a receipt");
                page.goto(&format!("{receipt}?lang={lang}")).await;
                page.find("#hp-receipt").await;
                for violation in axe::violations(&page, &["body"]).await {
                    found.push(format!("{theme} {lang} receipt: {violation}"));
                }
                page.screenshot(&format!("receipt-{theme}-{lang}")).await;
            }
        }
        assert!(found.is_empty(), "axe-core: {found:#?}");
    })
    .await;
}

/// Pays the page open in `page` with a frictionless card; the receipt's address.
async fn pay_at(page: &Page, shop: &DemoShop) -> String {
    page.type_into("#hp-amount", "25").await;
    page.type_into("#hp-email", "payer@example.com").await;
    type_card(page, Card::test("4000000000001000")).await;
    fill_billing(page, "DE", "10115").await;
    pay(page).await;
    page.find("#hp-receipt").await;
    let _ = shop;
    page.url().await
}
