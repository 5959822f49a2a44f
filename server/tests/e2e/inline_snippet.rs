//! Scenario: the shortest path, the loader pasted whole into the shop's page. A shop's page
//! holds the text of checkout-server's `/checkout.js` (`js/loader.js` with the card form's
//! build written in) as it is, inside `<script data-server="…">` in its head after a
//! preconnect, and `<card-checkout>` with the session in its markup (as the shop's backend
//! renders it). The shopper types a card into the frame and pays: 3-D Secure (frictionless)
//! runs on the page, which hears `success`. The frame's
//! address holds no secret. Then the shopper comes back to the shop for a second order: the
//! frame's document comes from the browser's cache (no bytes over the network), the second
//! session's amount shows, and the form works again.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::form::{Card, fill_billing, ids, pay, type_card};
use crate::support::merchant::Merchant;
use crate::support::server::{Process, ServeOptions};
use crate::support::site::{StaticSite, dist};
use crate::support::{Page, run};

/// The shop's checkout page for one session, `loader` inline.
fn shop_page(server: &str, loader: &str, session: &str, secret: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Shop: the loader inline</title>
<link rel="preconnect" href="{server}">
<script data-server="{server}">{loader}</script>
</head>
<body>
<h1>Checkout</h1>
<card-checkout id="pay" session="{session}" client-secret="{secret}" locale="en"></card-checkout>
<ol id="events"></ol>
<script>
const element = document.getElementById('pay');
for (const name of ['ready', 'change', 'submit', 'success', 'error', 'redirect']) {{
  element.addEventListener(name, (event) => {{
    if (name === 'redirect') event.preventDefault();
    const item = document.createElement('li');
    item.dataset.event = name;
    item.textContent = name + ' ' + JSON.stringify(event.detail ?? null);
    document.getElementById('events').append(item);
  }});
}}
</script>
</body>
</html>
"#
    )
}

/// The frame's address, and its document's navigation entry, seen from inside the frame.
async fn frame_facts(page: &Page) -> (String, Value) {
    page.find(ids::NUMBER).await;
    let navigation = page
        .client
        .execute(
            "const n = performance.getEntriesByType('navigation')[0];
             return { transferSize: n.transferSize, url: location.href };",
            vec![],
        )
        .await
        .expect("the frame's navigation entry");
    let url = navigation["url"].as_str().unwrap_or_default().to_owned();
    (url, navigation)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn the_loader_pasted_inline_shows_the_form_and_a_return_visit_has_it_cached() {
    run("inline-snippet", |page: Page| async move {
        let listener = StaticSite::bind();
        let shop = format!("http://{}", listener.local_addr().expect("address"));
        let server = Process::serve(ServeOptions {
            gateway: None,
            env: vec![("ALLOWED_ORIGINS".into(), shop)],
        });
        let merchant = Merchant::new(&server.base);
        let loader = server.loader_text().await;
        let mut pages = Vec::new();
        let mut secrets = Vec::new();
        for (path, amount) in [("/first.html", 1200), ("/again.html", 3050)] {
            let (session, secret) = merchant
                .create_session(json!({
                    "amount": amount, "currency": "EUR",
                    "reference": format!("inline-{}", uuid::Uuid::new_v4().simple()),
                }))
                .await;
            pages.push((path, shop_page(&server.base, &loader, &session, &secret)));
            secrets.push(secret);
        }
        let site = StaticSite::start_on(listener, &dist(), pages);

        page.goto(&format!("{}/first.html", site.base)).await;
        page.find("#events li[data-event=ready]").await;
        let (url, _) = frame_facts(&page).await;
        assert!(
            url.starts_with(&format!("{}/frame/shell?", server.base)),
            "{url}"
        );
        for secret in &secrets {
            assert!(
                !url.contains(secret.as_str()),
                "a secret in the frame's address: {url}"
            );
        }
        page.wait_text("#cc-amount", "€12.00").await;
        type_card(&page, Card::test("4242424242424242")).await;
        fill_billing(&page, "DE", "10115").await;
        page.wait_attr(ids::BRAND, "data-brand", "visa").await;
        page.screenshot("typed").await;
        pay(&page).await;
        let paid = page
            .until_for(
                "the payment's success on the page (3-D Secure on it, frictionless)",
                Duration::from_secs(30),
                || async {
                    let item = page.try_find("#events li[data-event=success]").await?;
                    item.text().await.ok()
                },
            )
            .await;
        assert!(paid.contains("captured"), "{paid}");

        page.goto(&format!("{}/again.html", site.base)).await;
        page.find("#events li[data-event=ready]").await;
        let (_, navigation) = frame_facts(&page).await;
        assert_eq!(
            navigation["transferSize"].as_f64(),
            Some(0.0),
            "the frame's document came from the cache: {navigation}"
        );
        page.wait_text("#cc-amount", "€30.50").await;
        page.type_into(ids::NUMBER, "4242424242424242").await;
        page.wait_attr(ids::BRAND, "data-brand", "visa").await;
        page.screenshot("return-visit").await;
    })
    .await;
}
