//! Browser tests of a refusal before the gateway (issue 47, item 5): a `blocked` result, a
//! rate limit and a proof of work left unanswered read as one neutral text, never as a
//! decline (which would send a real shopper to their bank for nothing), and the shop's page
//! is told `card_refused` with no reason.
#![cfg(target_arch = "wasm32")]

mod common;

use checkout::contract::{ApiError, PayResponse, PaymentState};
use common::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

/// `Msg::CardRefused` in English.
const NEUTRAL: &str =
    "This card can't be used for this payment right now. Try another card or contact the shop.";

#[wasm_bindgen_test]
async fn a_blocked_try_reads_as_the_neutral_refusal_not_a_decline() {
    let (host, _handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.clone().unchecked_into();
    let blocked = PayResponse::None {
        result: result(PaymentState::Blocked),
    };
    route("POST", &pay_path(), 200, &blocked);
    fill_card(&root);
    click(&root, "#cc-submit");
    until("refusal", || !text(&root, "#cc-alert").is_empty()).await;
    let alert = text(&root, "#cc-alert");
    assert_eq!(alert, NEUTRAL);
    assert!(!alert.to_lowercase().contains("declined"), "{alert}");
    assert!(
        find(&root, "#cc-result").is_none(),
        "the form stays for another card"
    );
    let error = events(&host)
        .into_iter()
        .find(|e| e.kind == "error")
        .expect("error event");
    assert_eq!(error.detail["code"], "card_refused");
    assert_eq!(error.detail["message"], NEUTRAL);
    assert!(error.detail.get("decline").is_none(), "{:?}", error.detail);
}

#[wasm_bindgen_test]
async fn a_rate_limit_and_an_unanswered_proof_of_work_read_the_same() {
    let (host, _handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.unchecked_into();
    route(
        "POST",
        &pay_path(),
        429,
        &ApiError::new("rate_limited", "slow down"),
    );
    route(
        "POST",
        &pay_path(),
        428,
        &ApiError::new("proof_of_work_required", "no challenge this time"),
    );
    fill_card(&root);
    click(&root, "#cc-submit");
    until("429", || text(&root, "#cc-alert") == NEUTRAL).await;
    until("idle", || {
        !get(&root, "#cc-submit").has_attribute("disabled")
    })
    .await;
    // Cleared for the second try, then the same words for the 428.
    click(&root, "#cc-submit");
    until("428", || requests_to("POST", &pay_path()).len() == 2).await;
    until("428 worded", || text(&root, "#cc-alert") == NEUTRAL).await;
}
