//! Browser tests of paying, one binary: the pay request (browser_info, the documented request,
//! the double-submit guard, the 3DS redirect), refusals and retries (declines, a lost answer,
//! server errors, a proof of work), and saved cards; here, the answers they share.
#![cfg(target_arch = "wasm32")]

#[path = "../common/mod.rs"]
mod common;
mod refusals_and_retries;
mod request;
mod saved_cards;

use checkout::contract::{DeclineCode, PayResponse, PaymentState};
use common::*;
use wasm_bindgen_test::*;

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
