//! Browser tests of the result view: polling with back-off until the payment settles, every
//! state's wording, the "check again" button, and the hand-over after a pending pay answer.
#![cfg(target_arch = "wasm32")]

mod common;

use checkout::contract::{ApiError, DeclineCode, PayResponse, PaymentState};
use common::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

async fn result_page() -> (Element, checkout::embed::mount::Checkout) {
    let host = container();
    capture(&host);
    let handle = checkout::embed::mount::mount(
        host.clone(),
        options(&[
            ("session", SESSION),
            ("clientSecret", SECRET),
            ("server", SERVER),
            ("locale", "en"),
            ("mode", "result"),
        ]),
    )
    .expect("mounts");
    (host.unchecked_into(), handle)
}

fn state_of(root: &Element) -> String {
    find(root, ".cc-outcome")
        .and_then(|e| e.get_attribute("data-state"))
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn result_view_polls_until_settled() {
    fake_server();
    route("GET", &result_path(), 200, &result(PaymentState::Pending));
    route("GET", &result_path(), 200, &result(PaymentState::Pending));
    route("GET", &result_path(), 200, &result(PaymentState::Captured));
    let (root, _handle) = result_page().await;
    until("pending", || state_of(&root) == "pending").await;
    assert_eq!(text(&root, "#cc-result-title"), "Confirming your payment…");
    assert_eq!(
        attr(&root, "#cc-result", "aria-live").as_deref(),
        Some("polite")
    );
    until("paid", || state_of(&root) == "paid").await;
    assert_eq!(requests_to("GET", &result_path()).len(), 3);
    assert_eq!(
        text(&root, "#cc-result-detail"),
        "Your payment of €25.00 was successful."
    );
    assert!(find(&root, "#cc-check-again").is_none());
    // No further polls once settled.
    sleep(700).await;
    assert_eq!(requests_to("GET", &result_path()).len(), 3);
}

#[wasm_bindgen_test]
async fn result_view_states() {
    let mut refused = result(PaymentState::Declined);
    refused.decline = Some(DeclineCode::AuthenticationFailed);
    let cases = [
        (
            refused,
            "declined",
            "Payment declined",
            "Your card could not be verified. Please try again or use another card.",
        ),
        (
            result(PaymentState::NeedsReview),
            "review",
            "Payment under review",
            "We could not confirm your payment yet. The shop will contact you.",
        ),
        (
            result(PaymentState::Failed),
            "failed",
            "Payment failed",
            "The payment could not be completed.",
        ),
        (
            result(PaymentState::Authorized),
            "paid",
            "Payment successful",
            "Your payment of €25.00 was successful.",
        ),
    ];
    for (answer, state, title, detail) in cases {
        fake_server();
        route("GET", &result_path(), 200, &answer);
        let (root, _handle) = result_page().await;
        until(state, || state_of(&root) == state).await;
        assert_eq!(text(&root, "#cc-result-title"), title);
        assert_eq!(text(&root, "#cc-result-detail"), detail);
    }
    // An unknown session: no verdict, and a way to ask again.
    fake_server();
    route(
        "GET",
        &result_path(),
        404,
        &ApiError::new("not_found", "no session"),
    );
    route("GET", &result_path(), 200, &result(PaymentState::Captured));
    let (root, _handle) = result_page().await;
    until("unknown", || state_of(&root) == "unknown").await;
    click(&root, "#cc-check-again");
    until("paid after retry", || state_of(&root) == "paid").await;
}

#[wasm_bindgen_test]
async fn pending_after_pay_shows_the_result_view() {
    let (host, _handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.unchecked_into();
    route(
        "POST",
        &pay_path(),
        200,
        &PayResponse::None {
            result: result(PaymentState::Pending),
        },
    );
    route("GET", &result_path(), 200, &result(PaymentState::Captured));
    fill_card(&root);
    click(&root, "#cc-submit");
    until("paid", || state_of(&root) == "paid").await;
}

#[wasm_bindgen_test]
async fn a_result_view_unmounted_at_once_stops_quietly() {
    fake_server();
    route("GET", &result_path(), 200, &result(PaymentState::Pending));
    route("GET", &result_path(), 200, &result(PaymentState::Captured));
    // What a custom element does when it re-renders before its first poll: mount, unmount at
    // once, mount again. The first one's tasks must neither poll nor panic.
    let (gone_root, gone) = result_page().await;
    checkout::embed::mount::unmount(gone);
    let (root, _handle) = result_page().await;
    until("paid", || state_of(&root) == "paid").await;
    until("ready", || events(&root).iter().any(|e| e.kind == "ready")).await;
    sleep(50).await;
    assert!(events(&gone_root).is_empty(), "{:?}", events(&gone_root));
    assert_eq!(
        events(&root).iter().filter(|e| e.kind == "ready").count(),
        1
    );
    assert_eq!(requests_to("GET", &result_path()).len(), 2);
}
