//! Browser tests of the result panel the card form shows after paying (mode `result`, the page
//! 3-D Secure returns to, is checkout-server's own page and has no wasm): polling with
//! back-off until the payment settles, every state's wording, the "check again" button, and
//! the events.
#![cfg(target_arch = "wasm32")]

mod common;

use checkout::contract::{ApiError, DeclineCode, PayResponse, PaymentResult, PaymentState};
use common::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

/// The form, paid with an answer still pending: the panel takes over and polls.
async fn paid_pending() -> (Element, checkout::embed::mount::Checkout) {
    let (host, handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.unchecked_into();
    route(
        "POST",
        &pay_path(),
        200,
        &PayResponse::None {
            result: result(PaymentState::Pending),
        },
    );
    fill_card(&root);
    click(&root, "#cc-submit");
    (root, handle)
}

fn state_of(root: &Element) -> String {
    find(root, ".cc-outcome")
        .and_then(|e| e.get_attribute("data-state"))
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn result_view_polls_until_settled() {
    let (root, _handle) = paid_pending().await;
    route("GET", &result_path(), 200, &result(PaymentState::Pending));
    route("GET", &result_path(), 200, &result(PaymentState::Pending));
    route("GET", &result_path(), 200, &result(PaymentState::Captured));
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
    // No further polls once settled, and the shop heard it once.
    sleep(700).await;
    assert_eq!(requests_to("GET", &result_path()).len(), 3);
    let told: Vec<String> = events(&root).into_iter().map(|e| e.kind).collect();
    assert_eq!(
        told.iter().filter(|kind| *kind == "success").count(),
        1,
        "{told:?}"
    );
}

#[wasm_bindgen_test]
async fn result_view_states() {
    let mut refused = result(PaymentState::Declined);
    refused.decline = Some(DeclineCode::AuthenticationFailed);
    let cases: [(PaymentResult, &str, &str, &str); 4] = [
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
        let (root, _handle) = paid_pending().await;
        route("GET", &result_path(), 200, &answer);
        until(state, || state_of(&root) == state).await;
        assert_eq!(text(&root, "#cc-result-title"), title);
        assert_eq!(text(&root, "#cc-result-detail"), detail);
    }
    // The server refuses: no verdict beyond pending, and a way to ask again.
    let (root, _handle) = paid_pending().await;
    route(
        "GET",
        &result_path(),
        404,
        &ApiError::new("not_found", "no session"),
    );
    route("GET", &result_path(), 200, &result(PaymentState::Captured));
    until("check again", || find(&root, "#cc-check-again").is_some()).await;
    assert_eq!(state_of(&root), "pending");
    click(&root, "#cc-check-again");
    until("paid after retry", || state_of(&root) == "paid").await;
}

#[wasm_bindgen_test]
async fn a_result_view_unmounted_while_polling_stops_quietly() {
    let (root, handle) = paid_pending().await;
    route_delayed(
        "GET",
        &result_path(),
        200,
        &result(PaymentState::Pending),
        200,
    );
    route("GET", &result_path(), 200, &result(PaymentState::Captured));
    until("pending", || state_of(&root) == "pending").await;
    let before = events(&root).len();
    checkout::embed::mount::unmount(handle);
    sleep(1500).await;
    assert!(
        requests_to("GET", &result_path()).len() <= 1,
        "no poll after unmount"
    );
    assert_eq!(events(&root).len(), before, "{:?}", events(&root));
}
