//! Browser tests of the card form's side of 3-D Secure in a dialog on the shop's page: the
//! redirect taken over (as the card frame's script does), the wait for the bank, the result
//! asked from the server when the dialog ends (returned, or closed by the shopper), the honest
//! refusal of a second payment, and the challenge window chosen for a dialog.
#![cfg(target_arch = "wasm32")]

mod common;

use checkout::browser::info;
use checkout::contract::{ApiError, ChallengeWindow, PayResponse, PaymentState};
use common::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

/// The window event www/frame.js dispatches when the loader says the dialog ended.
fn dialog_ended(how: &str) {
    let init = web_sys::CustomEventInit::new();
    init.set_detail(&JsValue::from_str(how));
    let event = web_sys::CustomEvent::new_with_event_init_dict("card-checkout:three-ds", &init)
        .expect("event");
    web_sys::window()
        .expect("window")
        .dispatch_event(&event)
        .expect("dispatched");
}

/// Mounts the form, pays into a 3-D Secure redirect and waits until the form waits for the bank
/// (the test harness takes the redirect over, as the card frame does).
async fn waiting_for_the_bank() -> (web_sys::HtmlElement, checkout::embed::mount::Checkout) {
    let (host, handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.clone().unchecked_into();
    route(
        "POST",
        &pay_path(),
        200,
        &PayResponse::Redirect {
            redirect_url: "https://acs.test/challenge?tx=1".into(),
        },
    );
    fill_card(&root);
    click(&root, "#cc-submit");
    until_text(&root, "#cc-submit", "Waiting for your bank…").await;
    assert!(get(&root, "#cc-submit").has_attribute("disabled"));
    (host, handle)
}

#[wasm_bindgen_test]
async fn back_from_the_bank_the_server_says_how_it_went() {
    let (host, _handle) = waiting_for_the_bank().await;
    let root: Element = host.clone().unchecked_into();
    let redirect = events(&host)
        .into_iter()
        .find(|e| e.kind == "redirect")
        .expect("redirect");
    assert!(
        ["01", "02", "03", "04", "05"]
            .contains(&redirect.detail["challenge_window"].as_str().unwrap_or("")),
        "{:?}",
        redirect.detail
    );
    route("GET", &result_path(), 200, &result(PaymentState::Captured));
    dialog_ended("returned");
    until("success", || {
        events(&host).iter().any(|e| e.kind == "success")
    })
    .await;
    until_text(&root, "#cc-result-title", "Payment successful").await;
    assert_eq!(requests_to("GET", &result_path()).len(), 1);
}

#[wasm_bindgen_test]
async fn a_closed_dialog_gives_the_form_back() {
    let (host, _handle) = waiting_for_the_bank().await;
    let root: Element = host.clone().unchecked_into();
    route("GET", &result_path(), 200, &result(PaymentState::Pending));
    dialog_ended("closed");
    until("cancelled", || {
        events(&host)
            .iter()
            .any(|e| e.kind == "error" && e.detail["code"] == "three_ds_cancelled")
    })
    .await;
    until_text(
        &root,
        "#cc-alert",
        "The check with your bank was cancelled. You can pay again.",
    )
    .await;
    until("enabled", || {
        !get(&root, "#cc-submit").has_attribute("disabled")
    })
    .await;
    assert!(text(&root, "#cc-submit").starts_with("Pay"));
}

#[wasm_bindgen_test]
async fn a_dialog_closed_after_the_bank_approved_still_pays() {
    let (host, _handle) = waiting_for_the_bank().await;
    route("GET", &result_path(), 200, &result(PaymentState::Captured));
    dialog_ended("closed");
    until("success", || {
        events(&host).iter().any(|e| e.kind == "success")
    })
    .await;
    assert!(
        !events(&host)
            .iter()
            .any(|e| e.kind == "error" && e.detail["code"] == "three_ds_cancelled")
    );
}

#[wasm_bindgen_test]
async fn a_dialog_end_while_not_waiting_changes_nothing() {
    let (host, _handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.clone().unchecked_into();
    route("GET", &result_path(), 200, &result(PaymentState::Captured));
    dialog_ended("returned");
    sleep(300).await;
    assert!(requests_to("GET", &result_path()).is_empty());
    assert!(!events(&host).iter().any(|e| e.kind == "success"));
    assert!(text(&root, "#cc-submit").starts_with("Pay"));
}

#[wasm_bindgen_test]
async fn another_payment_under_way_is_said_as_it_is() {
    let (host, _handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.clone().unchecked_into();
    route(
        "POST",
        &pay_path(),
        409,
        &ApiError::new(
            "payment_in_progress",
            "a payment for this checkout session is already in progress",
        ),
    );
    fill_card(&root);
    click(&root, "#cc-submit");
    until("refused", || {
        events(&host)
            .iter()
            .any(|e| e.kind == "error" && e.detail["code"] == "payment_in_progress")
    })
    .await;
    assert_eq!(
        text(&root, "#cc-alert"),
        "A payment for this order is already under way. Please wait a moment and try again."
    );
    assert!(!events(&host).iter().any(|e| e.detail["code"] == "server"));
}

#[wasm_bindgen_test]
fn the_challenge_window_fits_a_dialog_on_the_shops_page() {
    let window = web_sys::window().expect("window");
    let set = |width: f64, height: f64| {
        let viewport = js_sys::Object::new();
        js_sys::Reflect::set(&viewport, &"width".into(), &width.into()).expect("width");
        js_sys::Reflect::set(&viewport, &"height".into(), &height.into()).expect("height");
        js_sys::Reflect::set(&window, &"ccPageViewport".into(), &viewport).expect("set");
    };
    set(1280.0, 800.0);
    assert_eq!(info::collect().challenge_window, ChallengeWindow::W500x600);
    set(375.0, 812.0);
    assert_eq!(
        info::collect().challenge_window,
        ChallengeWindow::FullScreen
    );
    js_sys::Reflect::delete_property(&window, &"ccPageViewport".into()).expect("delete");
}
