//! The local calendar month (the "today" of expiry checks) and an awaitable timer.

use crate::card::YearMonth;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The current month on the shopper's clock, as the expiry rules expect it.
pub fn today() -> YearMonth {
    let now = js_sys::Date::new_0();
    let year = u16::try_from(now.get_full_year()).unwrap_or(u16::MAX);
    // `getMonth()` is 0..=11; the remainder keeps the value a month even if it were not.
    let month = (now.get_month() % 12) as u8 + 1;
    YearMonth::new(year, month).expect("month is 1..=12 by construction")
}

/// Resolves after `ms` milliseconds (a `setTimeout` promise).
pub async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let callback: &js_sys::Function = resolve.unchecked_ref();
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(callback, ms);
        }
    });
    let _ = JsFuture::from(promise).await;
}
