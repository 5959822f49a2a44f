//! Scenario: the shop's staff in the dashboard, in Chromium. A shopper pays in the demo shop;
//! the admin login the server's banner printed opens the dashboard, where the payment is found
//! by its card's last four, part of it is refunded through the confirmation step with the
//! keyboard alone, and the timeline shows it. A viewer (added with `checkout-server users
//! add`) sees the payment without any action. Every field of the pages visited has a label.

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::Duration;

use fantoccini::key::Key;

use crate::support::form::{Card, fill_billing, pay, type_card};
use crate::support::server::Process;
use crate::support::shop::DemoShop;
use crate::support::{Page, run};

/// The frictionless 3-D Secure card: paid without a challenge.
const FRICTIONLESS_CARD: &str = "4000000000001000";
const VIEWER: &str = "viewer@shop.example";
const VIEWER_PASSWORD: &str = "viewer password for the e2e suite";

/// What the banner line `label` says (the rest of the line, trimmed).
fn banner(server: &Process, label: &str) -> String {
    let log = server.log_text();
    log.lines()
        .find_map(|line| line.trim_start().strip_prefix(label))
        .unwrap_or_else(|| panic!("no `{label}` line in the banner:\n{log}"))
        .trim()
        .to_owned()
}

/// The dashboard's address and the admin login (e-mail, password) the server's banner printed.
pub(crate) fn banner_login(server: &Process) -> (String, String, String) {
    let dashboard = banner(server, "dashboard:");
    let dashboard = dashboard
        .split_whitespace()
        .next()
        .expect("the dashboard's address")
        .trim_end_matches('/')
        .to_owned();
    let login = banner(server, "staff login:");
    let (email, rest) = login.split_once(" / ").expect("e-mail / password");
    let password = rest.split_whitespace().next().expect("password");
    (dashboard, email.to_owned(), password.to_owned())
}

/// Adds a viewer to the server's database, as the README says.
fn add_viewer(server: &Process) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_checkout-server"))
        .args(["users", "add", VIEWER, "--role", "viewer"])
        .env_clear()
        .env("DATABASE_URL", server.database())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("checkout-server users add");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(format!("{VIEWER_PASSWORD}\n").as_bytes())
        .expect("password written");
    let output = child.wait_with_output().expect("users add ends");
    assert!(
        output.status.success(),
        "users add: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Logs in at `dashboard` with the keyboard: type, Tab, type, Enter.
pub(crate) async fn log_in(page: &Page, dashboard: &str, email: &str, password: &str) {
    page.goto(&format!("{dashboard}/login")).await;
    page.click("#email").await;
    page.type_focused(email).await;
    page.press(Key::Tab).await;
    page.type_focused(password).await;
    page.press(Key::Enter).await;
    page.wait_text("main", "Payments").await;
}

/// Fails unless every visible field of the page has a label.
async fn every_field_is_labelled(page: &Page, what: &str) {
    let unlabelled = page
        .eval(
            "return [...document.querySelectorAll('input:not([type=hidden]), select, textarea')] \
             .filter((f) => !(f.labels && f.labels.length) && !f.getAttribute('aria-label')) \
             .map((f) => f.name || f.id);",
        )
        .await;
    assert_eq!(
        unlabelled,
        serde_json::json!([]),
        "{what}: unlabelled fields"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn an_operator_finds_a_payment_by_last_four_and_refunds_part_of_it() {
    run("dashboard", |page: Page| async move {
        let shop = DemoShop::start();
        let session = shop.buy(&page, "tshirt").await;
        type_card(&page, Card::test(FRICTIONLESS_CARD)).await;
        fill_billing(&page, "DE", "10115").await;
        pay(&page).await;
        let payment = shop
            .merchant
            .wait_payment_state(&session, "captured", Duration::from_secs(30))
            .await;
        let payment_id = payment["id"].as_str().expect("payment id").to_owned();

        // The banner names the dashboard and the admin login generated for this run.
        let (dashboard, email, password) = banner_login(&shop.server);
        let email = email.as_str();
        log_in(&page, &dashboard, email, &password).await;

        // Find the payment by the card's last four, with the filter form.
        every_field_is_labelled(&page, "payments").await;
        page.click("#last4").await;
        page.type_focused("1000").await;
        page.press(Key::Enter).await;
        page.wait_text("main", "Card last four").await;
        assert!(
            page.url().await.contains("last4=1000"),
            "{}",
            page.url().await
        );
        page.click(&format!("a[href='/payments/{payment_id}']"))
            .await;
        page.wait_text("main", "Refund amount").await;
        every_field_is_labelled(&page, "payment").await;

        // Refund part of it, keyboard only: replace the amount offered (all that is left),
        // Enter, then confirm with Enter.
        page.clear_by_keys("#refund-amount").await;
        page.type_focused("5.00").await;
        page.press(Key::Enter).await;
        page.wait_text("main", "Yes, refund").await;
        page.eval("document.querySelector('main form button.danger').focus(); return null;")
            .await;
        page.press(Key::Enter).await;
        page.wait_text("main", "Refund done.").await;
        // README's screenshot (docs/img/dashboard.png) is taken from here.
        page.screenshot("refunded").await;
        let timeline = page.text("main").await;
        assert!(
            timeline.contains("refund 5.00") && timeline.contains(email),
            "the timeline shows the refund and who made it:\n{timeline}"
        );
        let after = shop
            .merchant
            .get(&format!("/v1/payments/{payment_id}"))
            .await;
        assert_eq!(after["state"], "partially_refunded", "{after}");
        assert_eq!(after["refunded_amount"], 500, "{after}");

        // A viewer sees the payment, and no action.
        add_viewer(&shop.server);
        page.click("header form button").await;
        page.wait_text("main", "Log in").await;
        log_in(&page, &dashboard, VIEWER, VIEWER_PASSWORD).await;
        page.goto(&format!("{dashboard}/payments/{payment_id}"))
            .await;
        page.wait_text("main", "partially refunded").await;
        assert_eq!(
            page.count("main form[method=post]").await,
            0,
            "a viewer's actions"
        );
    })
    .await;
}
