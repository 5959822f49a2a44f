//! Browser tests of paying: browser_info, the pay request, the double-submit guard, declines,
//! retries, the 3DS redirect, the result view's states and polling, and saved cards.
#![cfg(target_arch = "wasm32")]

mod common;

use checkout::browser::info;
use checkout::card::Brand;
use checkout::contract::{
    ApiError, BillingField, ChallengeWindow, DeclineCode, PayRequest, PayResponse, PaymentState,
    ProofChallenge, ProofOfWork, SavedCard,
};
use common::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

fn paid() -> PayResponse {
    PayResponse::None {
        result: result(PaymentState::Captured),
    }
}

fn declined(code: DeclineCode) -> PayResponse {
    let mut declined = result(PaymentState::Declined);
    declined.decline = Some(code);
    PayResponse::None { result: declined }
}

fn is_uuid(key: &str) -> bool {
    key.len() == 36
        && key.chars().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            14 => c == '4',
            _ => c.is_ascii_hexdigit(),
        })
}

#[wasm_bindgen_test]
fn browser_info_comes_from_the_browser() {
    let window = web_sys::window().expect("window");
    let screen = window.screen().expect("screen");
    let navigator = window.navigator();
    let collected = info::collect();
    assert_eq!(
        collected.screen_width as i32,
        screen.width().expect("width")
    );
    assert_eq!(
        collected.screen_height as i32,
        screen.height().expect("height")
    );
    assert!([1, 4, 8, 15, 16, 24, 32, 48].contains(&collected.color_depth));
    assert_eq!(
        u32::from(collected.color_depth),
        screen.color_depth().expect("depth") as u32
    );
    assert!(!collected.java_enabled);
    assert_eq!(Some(collected.language.clone()), navigator.language());
    assert_eq!(collected.user_agent, navigator.user_agent().expect("ua"));
    assert!(!collected.time_zone.is_empty() && collected.time_zone.len() <= 128);
    let offset = js_sys::Date::new_0().get_timezone_offset() as i32;
    assert_eq!(collected.time_zone_offset_minutes, offset);
    let width = window.inner_width().expect("w").as_f64().expect("n") as u32;
    let height = window.inner_height().expect("h").as_f64().expect("n") as u32;
    assert_eq!(
        collected.challenge_window,
        ChallengeWindow::for_viewport(width, height)
    );
}

#[wasm_bindgen_test]
async fn pays_with_the_documented_request() {
    let mut view = session_view(vec![BillingField::Email, BillingField::Country], vec![]);
    view.can_save_card = true;
    let (host, _handle) = mount_form(&view).await;
    let root: Element = host.clone().unchecked_into();
    route("POST", &pay_path(), 200, &paid());
    fill_card(&root);
    type_in(&root, "#billing-email", "jane@example.com");
    choose(&get(&root, "#billing-country"), "DE");
    click(&root, "#cc-save");
    click(&root, "#cc-submit");
    until("paid", || {
        text(&root, "#cc-result-title") == "Payment successful"
    })
    .await;
    assert_eq!(
        text(&root, "#cc-result-detail"),
        "Your payment of €25.00 was successful."
    );
    let sent = requests_to("POST", &pay_path());
    assert_eq!(sent.len(), 1);
    let request = &sent[0];
    assert_eq!(
        request.headers.get("x-client-secret").map(String::as_str),
        Some(SECRET)
    );
    assert_eq!(
        request.headers.get("content-type").map(String::as_str),
        Some("application/json")
    );
    assert!(
        is_uuid(&request.headers["idempotency-key"]),
        "{:?}",
        request.headers
    );
    let body: PayRequest =
        serde_json::from_str(request.body.as_deref().expect("body")).expect("a PayRequest");
    let card = body.card.expect("new card");
    assert_eq!(card.number.expose(), "4242424242424242");
    assert_eq!(card.cvc.expose(), "123");
    assert_eq!(
        (card.expiry_month.as_str(), card.expiry_year.as_str()),
        ("12", "2030")
    );
    assert_eq!(card.name, "Jane Doe");
    assert_eq!(body.saved_card_id, None);
    assert!(body.save_card);
    assert_eq!(body.billing_address.email, "jane@example.com");
    assert_eq!(body.billing_address.country, "DE");
    assert_eq!(body.browser_info, info::collect());
    let seen = events(&host);
    let kinds: Vec<&str> = seen.iter().map(|e| e.kind.as_str()).collect();
    let submit = kinds
        .iter()
        .position(|k| *k == "submit")
        .expect("submit event");
    let success = kinds
        .iter()
        .position(|k| *k == "success")
        .expect("success event");
    assert!(submit < success, "{kinds:?}");
    assert_eq!(seen[success].detail["payment_id"], "pay_1");
    assert_eq!(seen[success].detail["state"], "captured");
    // No event carries card data.
    let all =
        serde_json::to_string(&seen.iter().map(|e| &e.detail).collect::<Vec<_>>()).expect("json");
    assert!(
        !all.contains("4242424242424242") && !all.contains("\"123\""),
        "{all}"
    );
}

#[wasm_bindgen_test]
async fn a_double_click_sends_one_request() {
    let (host, _handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.unchecked_into();
    route_delayed("POST", &pay_path(), 200, &paid(), 300);
    fill_card(&root);
    click(&root, "#cc-submit");
    click(&root, "#cc-submit");
    until("busy", || text(&root, "#cc-submit") == "Processing…").await;
    assert!(get(&root, "#cc-submit").has_attribute("disabled"));
    assert_eq!(
        attr(&root, "#cc-submit", "aria-busy").as_deref(),
        Some("true")
    );
    click(&root, "#cc-submit");
    until("paid", || find(&root, "#cc-result").is_some()).await;
    assert_eq!(requests_to("POST", &pay_path()).len(), 1);
}

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
async fn three_d_secure_redirects_the_top_window() {
    let (host, _handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.clone().unchecked_into();
    let acs = "https://acs.test/challenge?tx=1";
    route(
        "POST",
        &pay_path(),
        200,
        &PayResponse::Redirect {
            redirect_url: acs.into(),
        },
    );
    fill_card(&root);
    click(&root, "#cc-submit");
    until("redirect event", || {
        events(&host).iter().any(|e| e.kind == "redirect")
    })
    .await;
    let redirect = events(&host)
        .into_iter()
        .find(|e| e.kind == "redirect")
        .expect("redirect");
    assert_eq!(redirect.detail["url"], acs);
    // The page is leaving: the form stays busy.
    assert!(get(&root, "#cc-submit").has_attribute("disabled"));
    assert!(checkout::browser::navigate::is_web_url(acs));
}

#[wasm_bindgen_test]
async fn a_script_url_is_never_followed() {
    let (host, _handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.clone().unchecked_into();
    route(
        "POST",
        &pay_path(),
        200,
        &PayResponse::Redirect {
            redirect_url: "javascript:alert(1)".into(),
        },
    );
    fill_card(&root);
    click(&root, "#cc-submit");
    until("refused", || {
        text(&root, "#cc-alert") == "Something went wrong. Please try again."
    })
    .await;
    assert!(!events(&host).iter().any(|e| e.kind == "redirect"));
    assert!(
        events(&host)
            .iter()
            .any(|e| e.kind == "error" && e.detail["code"] == "invalid_redirect")
    );
}

fn saved(id: &str, brand: Brand, last4: &str, month: u8, year: u16) -> SavedCard {
    SavedCard {
        id: id.into(),
        brand,
        last4: last4.into(),
        expiry_month: month,
        expiry_year: year,
        billing_on_file: false,
    }
}

#[wasm_bindgen_test]
async fn pays_with_a_saved_card_in_one_click() {
    let cards = vec![
        saved("card_old", Brand::Visa, "1111", 1, 2020),
        saved("card_mc", Brand::Mastercard, "1005", 3, 2031),
    ];
    let (host, _handle) = mount_form(&session_view(vec![], cards)).await;
    let root: Element = host.clone().unchecked_into();
    assert_eq!(
        text(&root, "label[for=cc-saved-card_mc]"),
        "Mastercard •••• 1005 · expires 03/31"
    );
    assert!(get(&root, "#cc-saved-card_old").has_attribute("disabled"));
    let chosen: web_sys::HtmlInputElement = get(&root, "#cc-saved-card_mc").unchecked_into();
    assert!(chosen.checked());
    assert!(
        find(&root, "#cc-number").is_none(),
        "card fields hidden for a saved card"
    );
    route("POST", &pay_path(), 200, &paid());
    click(&root, "#cc-submit");
    until("paid", || find(&root, "#cc-result").is_some()).await;
    let sent = requests_to("POST", &pay_path());
    let body: PayRequest =
        serde_json::from_str(sent[0].body.as_deref().expect("body")).expect("body");
    assert_eq!(body.saved_card_id.as_deref(), Some("card_mc"));
    assert!(body.card.is_none() && !body.save_card);
    assert!(
        events(&host)
            .iter()
            .any(|e| e.kind == "submit" && e.detail["saved_card"] == true)
    );
}

#[wasm_bindgen_test]
async fn a_saved_card_that_keeps_its_address_asks_for_none() {
    let billing = vec![BillingField::Country, BillingField::PostalCode];
    let cards = vec![
        SavedCard {
            billing_on_file: true,
            ..saved("card_kept", Brand::Visa, "4242", 3, 2031)
        },
        saved("card_bare", Brand::Mastercard, "1005", 3, 2031),
    ];
    let (host, _handle) = mount_form(&session_view(billing, cards)).await;
    let root: Element = host.unchecked_into();
    // checkout.css hides the billing fields while a radio marked so is checked.
    let marked = |id: &str| get(&root, id).has_attribute("data-billing-on-file");
    assert!(marked("#cc-saved-card_kept"));
    assert!(!marked("#cc-saved-card_bare") && !marked("#cc-saved-new"));
    // Chosen and then left: a new card asks for the address (not sent: the form is empty).
    click(&root, "#cc-saved-new");
    until("card fields", || find(&root, "#cc-number").is_some()).await;
    click(&root, "#cc-submit");
    until("the address asked", || {
        get(&root, "#billing-country")
            .get_attribute("aria-invalid")
            .as_deref()
            == Some("true")
    })
    .await;
    click(&root, "#cc-saved-card_kept");
    route("POST", &pay_path(), 200, &paid());
    click(&root, "#cc-submit");
    until("paid", || find(&root, "#cc-result").is_some()).await;
    let sent = requests_to("POST", &pay_path());
    let body: PayRequest =
        serde_json::from_str(sent[0].body.as_deref().expect("body")).expect("body");
    assert_eq!(body.saved_card_id.as_deref(), Some("card_kept"));
    assert_eq!(
        body.billing_address,
        Default::default(),
        "the server's copy is used"
    );
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

#[wasm_bindgen_test]
async fn a_new_card_can_be_saved() {
    let cards = vec![saved("card_mc", Brand::Mastercard, "1005", 3, 2031)];
    let (host, _handle) = mount_form(&session_view(vec![], cards)).await;
    let root: Element = host.unchecked_into();
    click(&root, "#cc-saved-new");
    until("card fields", || find(&root, "#cc-number").is_some()).await;
    assert_eq!(
        text(&root, "label[for=cc-save]"),
        "Save this card for future payments"
    );
    fill_card(&root);
    click(&root, "#cc-save");
    route("POST", &pay_path(), 200, &paid());
    click(&root, "#cc-submit");
    until("paid", || find(&root, "#cc-result").is_some()).await;
    let sent = requests_to("POST", &pay_path());
    let body: PayRequest =
        serde_json::from_str(sent[0].body.as_deref().expect("body")).expect("body");
    assert!(body.save_card && body.card.is_some() && body.saved_card_id.is_none());
}
