//! Collects the 3D Secure browser data (EMVCo "browser information") in the shopper's browser.

use crate::contract::{BrowserInfo, ChallengeWindow, clamp_color_depth};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(module = "/js/intl.js")]
extern "C" {
    #[wasm_bindgen(js_name = timeZone)]
    fn js_time_zone() -> String;
}

/// Reads screen size and colour depth, `navigator.javaEnabled()` (false when the API is gone,
/// as in every current browser), language, user agent, IANA time zone and UTC offset, and picks
/// the challenge window: for a dialog on the shop's page when the card frame knows that page's
/// viewport (`window.ccPageViewport`, from the loader), else from this window's viewport.
/// Values a browser withholds come back as 0 or "".
pub fn collect() -> BrowserInfo {
    let window = web_sys::window();
    let screen = window.as_ref().and_then(|w| w.screen().ok());
    let dimension = |value: Result<i32, JsValue>| u32::try_from(value.unwrap_or(0)).unwrap_or(0);
    let (screen_width, screen_height, depth) = match &screen {
        Some(s) => (
            dimension(s.width()),
            dimension(s.height()),
            dimension(s.color_depth()),
        ),
        None => (0, 0, 24),
    };
    let navigator = window.as_ref().map(|w| w.navigator());
    let viewport = |value: Option<Result<JsValue, JsValue>>| {
        value
            .and_then(Result::ok)
            .and_then(|v| v.as_f64())
            .map_or(0, |v| v.max(0.0) as u32)
    };
    let viewport_width = viewport(window.as_ref().map(|w| w.inner_width()));
    let viewport_height = viewport(window.as_ref().map(|w| w.inner_height()));
    BrowserInfo {
        screen_width,
        screen_height,
        color_depth: clamp_color_depth(depth),
        java_enabled: navigator.as_ref().is_some_and(java_enabled),
        language: navigator
            .as_ref()
            .and_then(|n| n.language())
            .unwrap_or_default(),
        user_agent: navigator
            .as_ref()
            .and_then(|n| n.user_agent().ok())
            .unwrap_or_default(),
        time_zone: js_time_zone(),
        time_zone_offset_minutes: js_sys::Date::new_0().get_timezone_offset() as i32,
        challenge_window: match window.as_ref().and_then(page_viewport) {
            Some((width, height)) => ChallengeWindow::for_dialog(width, height),
            None => ChallengeWindow::for_viewport(viewport_width, viewport_height),
        },
    }
}

/// The shop page's viewport as the card frame was told it (`{width, height}` in
/// `window.ccPageViewport`, set by www/frame.js), when the 3-D Secure challenge will show in a
/// dialog there.
fn page_viewport(window: &web_sys::Window) -> Option<(u32, u32)> {
    let viewport = js_sys::Reflect::get(window, &JsValue::from_str("ccPageViewport")).ok()?;
    let side = |name: &str| {
        js_sys::Reflect::get(&viewport, &JsValue::from_str(name))
            .ok()?
            .as_f64()
            .filter(|v| v.is_finite() && *v > 0.0)
            .map(|v| v.min(f64::from(u16::MAX)) as u32)
    };
    Some((side("width")?, side("height")?))
}

/// `navigator.javaEnabled()` if the browser still has it, else false.
fn java_enabled(navigator: &web_sys::Navigator) -> bool {
    let Ok(function) = js_sys::Reflect::get(navigator, &JsValue::from_str("javaEnabled")) else {
        return false;
    };
    let Some(function) = wasm_bindgen::JsCast::dyn_ref::<js_sys::Function>(&function) else {
        return false;
    };
    function
        .call0(navigator)
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}
