//! The card rules the server enforces, run inside headless Chromium: proves the browser build
//! of `checkout::card` gives the same answers as the native one the server uses.
#![cfg(target_arch = "wasm32")]

use checkout::card::{Brand, CardNumber, Cvc, Expiry, YearMonth, format_number};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn runs_in_a_real_browser() {
    let window = web_sys::window().expect("a browser window");
    let agent = window.navigator().user_agent().expect("a user agent");
    assert!(agent.contains("Chrome"), "expected Chromium, got {agent}");
}

#[wasm_bindgen_test]
fn numbers_validate_and_mask_as_on_the_server() {
    let card = CardNumber::parse("5200 0000 0000 1005").expect("valid Mastercard");
    assert_eq!(card.brand(), Brand::Mastercard);
    assert_eq!(card.to_string(), "520000******1005");
    assert!(!format!("{card:?}").contains("5200000000001005"));
    assert!(
        CardNumber::parse("5200 0000 0000 1006").is_err(),
        "Luhn must fail"
    );
}

#[wasm_bindgen_test]
fn expiry_and_cvc_rules_hold() {
    let today = YearMonth::new(2026, 11).expect("valid month");
    assert!(Expiry::parse("11", "26", today).is_ok());
    assert!(Expiry::parse("10", "26", today).is_err());
    assert!(Expiry::parse("13", "30", today).is_err());
    assert!(Cvc::parse("123", Some(Brand::Amex)).is_err());
    assert_eq!(
        Cvc::parse("0123", Some(Brand::Amex))
            .expect("4 digits")
            .secret()
            .expose(),
        "0123"
    );
}

#[wasm_bindgen_test]
fn formatting_groups_digits_by_brand() {
    assert_eq!(format_number("378282246310005", 15).0, "3782 822463 10005");
    assert_eq!(
        format_number("4242424242424242", 16).0,
        "4242 4242 4242 4242"
    );
}
