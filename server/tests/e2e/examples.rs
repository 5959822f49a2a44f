//! The shop examples of `examples/` (plain HTML, React 19, Vue 3), each installed with the
//! packed npm package and built by scripts/examples.sh, on its own origin: the shopper opens
//! the example, pays the teapot with a frictionless 3-D Secure card (on the example's page:
//! it never navigates), and the example shows the order's result and its thank-you from the
//! form's `success`. The checkout-server allows the example's origin (`ALLOWED_ORIGINS`).

use std::path::PathBuf;
use std::time::Duration;

use crate::support::example_site::ExampleSite;
use crate::support::form::{Card, fill_billing, pay, type_card};
use crate::support::server::{Process, ServeOptions};
use crate::support::site::StaticSite;
use crate::support::tools::workspace_root;
use crate::support::{Page, run};

/// What the example serves: its Vite build, or the plain HTML example's folder as it is, once
/// scripts/examples.sh has built it or installed the package into it.
fn served(example: &str) -> PathBuf {
    let dir = workspace_root().join("examples").join(example);
    let (served, needed) = if dir.join("vite.config.ts").is_file() {
        (dir.join("dist"), dir.join("dist").join("index.html"))
    } else {
        let loader = dir
            .join("node_modules")
            .join("card-checkout")
            .join("checkout.js");
        (dir, loader)
    };
    assert!(
        needed.is_file(),
        "{} is missing: run scripts/npm-package.sh and scripts/examples.sh",
        needed.display()
    );
    served
}

/// The text of `#id` in the example's own page (not the card frame).
async fn own_text(page: &Page, id: &str) -> String {
    let script = format!("return (document.getElementById('{id}') || {{}}).textContent || '';");
    page.eval(&script)
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

async fn pays_through(page: Page, example: &'static str) {
    let listener = StaticSite::bind();
    let origin = format!("http://{}", listener.local_addr().expect("address"));
    let server = Process::serve(ServeOptions {
        gateway: None,
        env: vec![
            ("ALLOWED_ORIGINS".into(), origin.clone()),
            ("SUCCESS_URL".into(), format!("{origin}/")),
            ("DECLINE_URL".into(), format!("{origin}/")),
        ],
    });
    let demo = server.demo.clone().expect("the sandbox runs the demo shop");
    let site = ExampleSite::start_on(listener, &served(example), &demo);

    page.goto(&format!("{}/", site.base)).await;
    page.find("#cc-submit").await;
    type_card(&page, Card::test("4000000000001000")).await;
    fill_billing(&page, "JP", "100-0001").await;
    page.screenshot("filled").await;
    let address = page.url().await;
    pay(&page).await;
    page.wait_text_any(
        "#cc-result",
        &["Payment successful"],
        Duration::from_secs(30),
    )
    .await;
    assert_eq!(
        page.url().await,
        address,
        "the example's page never navigated"
    );
    let outcome = page
        .until("the example's thank-you", || async {
            let text = own_text(&page, "outcome").await;
            text.contains("Thank you").then_some(text)
        })
        .await;
    assert!(outcome.contains("teapot"), "{outcome}");
    let events = own_text(&page, "events").await;
    assert!(
        events.contains("ready") && events.contains("success"),
        "the example saw the form's events: {events}"
    );
    page.screenshot("result").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/, the built examples and Chromium; run by scripts/test.sh"]
async fn the_plain_html_example_pays() {
    run("example-html", |page: Page| pays_through(page, "html")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/, the built examples and Chromium; run by scripts/test.sh"]
async fn the_react_example_pays() {
    run("example-react", |page: Page| pays_through(page, "react")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/, the built examples and Chromium; run by scripts/test.sh"]
async fn the_vue_example_pays() {
    run("example-vue", |page: Page| pays_through(page, "vue")).await;
}
