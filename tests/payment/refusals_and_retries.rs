//! When paying does not simply succeed: declines read as sentences with a key per attempt, a
//! lost answer retried with the same key, server errors never shown as raw codes, and a proof
//! of work asked during a card-testing alert solved and sent.

use checkout::contract::{ApiError, DeclineCode, PayRequest, ProofChallenge, ProofOfWork};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

use super::{declined, paid};
use crate::common::*;

#[wasm_bindgen_test]
async fn declines_read_as_sentences_and_each_attempt_has_its_key() {
    let (host, _handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.clone().unchecked_into();
    route(
        "POST",
        &pay_path(),
        200,
        &declined(DeclineCode::InsufficientFunds),
    );
    route(
        "POST",
        &pay_path(),
        200,
        &declined(DeclineCode::LostOrStolen),
    );
    fill_card(&root);
    click(&root, "#cc-submit");
    until("decline", || !text(&root, "#cc-alert").is_empty()).await;
    assert_eq!(
        text(&root, "#cc-alert"),
        "Your card has insufficient funds."
    );
    assert_eq!(attr(&root, "#cc-alert", "role").as_deref(), Some("alert"));
    until("button back", || text(&root, "#cc-submit") == "Pay €25.00").await;
    let error = events(&host)
        .into_iter()
        .find(|e| e.kind == "error")
        .expect("error event");
    assert_eq!(error.detail["code"], "card_declined");
    assert_eq!(error.detail["decline"], "insufficient_funds");
    click(&root, "#cc-submit");
    until("second decline", || {
        text(&root, "#cc-alert") == "Your card was declined. Please use another card."
    })
    .await;
    let sent = requests_to("POST", &pay_path());
    assert_eq!(sent.len(), 2);
    assert_ne!(
        sent[0].headers["idempotency-key"],
        sent[1].headers["idempotency-key"]
    );
}

#[wasm_bindgen_test]
async fn a_lost_answer_is_retried_with_the_same_key() {
    let (host, _handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.unchecked_into();
    route_offline("POST", &pay_path());
    route("POST", &pay_path(), 200, &paid());
    fill_card(&root);
    click(&root, "#cc-submit");
    until("offline", || {
        text(&root, "#cc-alert")
            == "The payment server could not be reached. Check your connection and try again."
    })
    .await;
    until("retry possible", || {
        !get(&root, "#cc-submit").has_attribute("disabled")
    })
    .await;
    click(&root, "#cc-submit");
    until("paid", || find(&root, "#cc-result").is_some()).await;
    let sent = requests_to("POST", &pay_path());
    assert_eq!(sent.len(), 2);
    assert_eq!(
        sent[0].headers["idempotency-key"],
        sent[1].headers["idempotency-key"]
    );
}

#[wasm_bindgen_test]
async fn server_errors_never_show_raw_codes() {
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
        500,
        &ApiError::new("internal", "boom at line 3"),
    );
    fill_card(&root);
    click(&root, "#cc-submit");
    until("429", || {
        text(&root, "#cc-alert")
            == "This card can't be used for this payment right now. Try another card or contact the shop."
    })
    .await;
    until("idle", || {
        !get(&root, "#cc-submit").has_attribute("disabled")
    })
    .await;
    click(&root, "#cc-submit");
    until("500", || {
        text(&root, "#cc-alert") == "Something went wrong. Please try again."
    })
    .await;
}

#[wasm_bindgen_test]
async fn a_proof_of_work_asked_during_a_card_testing_alert_is_solved_and_sent() {
    let (host, _handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.unchecked_into();
    fill_card(&root);
    // SHA-256 of the salt followed by "42".
    let mut asked = ApiError::new("proof_of_work_required", "solve it");
    asked.error.challenge = Some(Box::new(ProofChallenge {
        algorithm: "SHA-256".into(),
        challenge: "27d9f4d04cdd9fdc763299126174240569b354d4d76df666876ad8cf7bf7f841".into(),
        salt: "1900000000.0123456789abcdef".into(),
        maxnumber: 50_000,
        signature: "sealed".into(),
    }));
    route("POST", &pay_path(), 428, &asked);
    route("POST", &pay_path(), 200, &paid());
    click(&root, "#cc-submit");
    until("paid", || find(&root, "#cc-result").is_some()).await;
    let sent = requests_to("POST", &pay_path());
    assert_eq!(sent.len(), 2);
    let first: PayRequest =
        serde_json::from_str(sent[0].body.as_deref().expect("body")).expect("body");
    let second: PayRequest =
        serde_json::from_str(sent[1].body.as_deref().expect("body")).expect("body");
    assert_eq!(first.proof_of_work, None);
    assert_eq!(
        second.proof_of_work,
        Some(ProofOfWork {
            salt: "1900000000.0123456789abcdef".into(),
            number: 42,
            signature: "sealed".into(),
        })
    );
    assert_eq!(second.card, first.card, "the same card, sent again");
    assert_ne!(
        sent[0].headers.get("idempotency-key"),
        sent[1].headers.get("idempotency-key"),
        "the refused call charged nothing: the answer goes under a new key"
    );
}
