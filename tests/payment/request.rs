//! The pay request: browser_info from the browser, the documented request, one request for a
//! double click, the top window sent to 3-D Secure and a script URL never followed.

use checkout::browser::info;
use checkout::contract::{BillingField, ChallengeWindow, PayRequest, PayResponse};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

use super::{is_uuid, paid};
use crate::common::*;

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
