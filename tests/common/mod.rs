//! Shared browser-test helpers: a fake `fetch` that records requests and answers canned JSON,
//! event capture, DOM driving (typing with a caret, blur, click) and waiting.
//!
//! Every test's JavaScript lives in the one `inline_js` block below: a test module may load at
//! most 4 snippet modules, and the library has 3 (see `scripts/wasm-test-runner.sh`).
#![allow(dead_code)]

use checkout::contract::{
    BillingField, CheckoutKind, CheckoutView, CycleUnit, Discount, PaymentResult, PaymentState,
    PlanTerms, SavedCard,
};
use serde::Serialize;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlElement};

#[wasm_bindgen(inline_js = r#"
let routes = new Map();
let requests = [];
export function fake_install() {
  routes = new Map();
  requests = [];
  globalThis.fetch = async (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const url = new URL(req.url);
    const body = req.method === "GET" ? null : await req.text();
    const headers = {};
    req.headers.forEach((v, k) => { headers[k] = v; });
    requests.push({ method: req.method, path: url.pathname, url: req.url, headers, body });
    const key = req.method + " " + url.pathname;
    const queue = routes.get(key);
    if (!queue || queue.length === 0) {
      return new Response(JSON.stringify({ error: { code: "not_found", message: key } }),
        { status: 404, headers: { "content-type": "application/json" } });
    }
    const next = queue.length > 1 ? queue.shift() : queue[0];
    if (next.delay) await new Promise((r) => setTimeout(r, next.delay));
    if (next.status === 0) throw new TypeError("Failed to fetch");
    return new Response(next.body, { status: next.status, headers: { "content-type": "application/json" } });
  };
}
export function fake_route(method, path, status, body, delay) {
  const key = method + " " + path;
  if (!routes.has(key)) routes.set(key, []);
  routes.get(key).push({ status, body, delay });
}
export function fake_requests() { return JSON.stringify(requests); }
export function capture(target) {
  const seen = [];
  for (const name of ["ready", "change", "submit", "success", "error", "redirect"]) {
    target.addEventListener(name, (e) => {
      if (name === "redirect") e.preventDefault();
      seen.push({ type: name, detail: e.detail });
    });
  }
  target.__seen = seen;
}
export function captured(target) { return JSON.stringify(target.__seen || []); }
export function type_text(el, value, caret) {
  el.focus();
  el.value = value;
  try { el.setSelectionRange(caret, caret); } catch (_) { /* email and tel have no caret API */ }
  el.dispatchEvent(new Event("input", { bubbles: true }));
}
export function caret_of(el) { return el.selectionStart; }
export function blur(el) { el.dispatchEvent(new FocusEvent("blur")); }
export function choose(el, value) {
  el.value = value;
  el.dispatchEvent(new Event("change", { bubbles: true }));
}
export function active_id(root) {
  const active = (root.getRootNode && root.getRootNode().activeElement) || document.activeElement;
  return active ? active.id : "";
}
export function trap_console_error() {
  const seen = [];
  const original = console.error;
  console.error = (...args) => { seen.push(args.map(String).join(" ")); original.apply(console, args); };
  globalThis.__consoleErrors = seen;
}
export function console_errors() { return JSON.stringify(globalThis.__consoleErrors || []); }
export function inert_element(tag) {
  return document.implementation.createHTMLDocument("").createElement(tag);
}
"#)]
extern "C" {
    fn fake_install();
    fn fake_route(method: &str, path: &str, status: u16, body: &str, delay: u32);
    fn fake_requests() -> String;
    /// Records the component events dispatched on `target` (and cancels `redirect`).
    pub fn capture(target: &web_sys::EventTarget);
    fn captured(target: &web_sys::EventTarget) -> String;
    fn type_text(el: &Element, value: &str, caret: u32);
    /// The caret position of an input.
    pub fn caret_of(el: &Element) -> u32;
    /// Dispatches `blur` on an element.
    pub fn blur(el: &Element);
    /// Sets a select's value and dispatches `change`.
    pub fn choose(el: &Element, value: &str);
    /// The id of the focused element (inside `root`'s shadow root when there is one).
    pub fn active_id(root: &Element) -> String;
    /// Starts recording `console.error` calls.
    pub fn trap_console_error();
    fn console_errors() -> String;
    /// An element of a document without a browsing context: not upgraded until it is put in
    /// the page, as a shop's element is when its script runs before the wasm module defines it.
    pub fn inert_element(tag: &str) -> Element;
}

/// The session every test uses.
pub const SESSION: &str = "cs_test_1";
/// Its client secret.
pub const SECRET: &str = "secret_1";
/// The fake server origin.
pub const SERVER: &str = "https://pay.test";

/// Replaces `fetch` with the recording fake and clears routes and records.
pub fn fake_server() {
    fake_install();
}

/// Queues an answer for `method path` (the last one repeats).
pub fn route<T: Serialize>(method: &str, path: &str, status: u16, body: &T) {
    route_delayed(method, path, status, body, 0);
}

/// Queues an answer given after `delay` milliseconds.
pub fn route_delayed<T: Serialize>(method: &str, path: &str, status: u16, body: &T, delay: u32) {
    let json = serde_json::to_string(body).expect("test JSON");
    fake_route(method, path, status, &json, delay);
}

/// Queues a network failure (fetch rejects).
pub fn route_offline(method: &str, path: &str) {
    fake_route(method, path, 0, "", 0);
}

/// A request the fake server received.
#[derive(Debug, serde::Deserialize)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub headers: std::collections::HashMap<String, String>,
    pub body: Option<String>,
}

/// Every request so far.
pub fn requests() -> Vec<Recorded> {
    serde_json::from_str(&fake_requests()).expect("recorded requests")
}

/// Requests to `method path`.
pub fn requests_to(method: &str, path: &str) -> Vec<Recorded> {
    requests()
        .into_iter()
        .filter(|r| r.method == method && r.path == path)
        .collect()
}

/// An event the component dispatched.
#[derive(Debug, serde::Deserialize)]
pub struct Seen {
    #[serde(rename = "type")]
    pub kind: String,
    pub detail: serde_json::Value,
}

/// Events captured on `target`.
pub fn events(target: &web_sys::EventTarget) -> Vec<Seen> {
    serde_json::from_str(&captured(target)).expect("captured events")
}

/// `console.error` lines since [`trap_console_error`].
pub fn errors_logged() -> Vec<String> {
    serde_json::from_str(&console_errors()).expect("console errors")
}

/// Resolves after `ms` milliseconds.
pub async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let window = web_sys::window().expect("window");
        let callback: &js_sys::Function = resolve.unchecked_ref();
        window
            .set_timeout_with_callback_and_timeout_and_arguments_0(callback, ms)
            .expect("timer");
    });
    JsFuture::from(promise).await.expect("sleep");
}

/// Waits (up to 3 s) until `ready()` holds; panics with `what` otherwise.
pub async fn until(what: &str, ready: impl Fn() -> bool) {
    for _ in 0..300 {
        if ready() {
            return;
        }
        sleep(10).await;
    }
    panic!("timed out waiting for {what}");
}

/// Waits (up to 3 s) until `selector`'s text is `expected`; panics showing the actual text.
pub async fn until_text(root: &Element, selector: &str, expected: &str) {
    for _ in 0..300 {
        if text(root, selector) == expected {
            return;
        }
        sleep(10).await;
    }
    panic!(
        "{selector}: expected {expected:?}, found {:?}",
        text(root, selector)
    );
}

/// A fresh `<div>` in the page body.
pub fn container() -> HtmlElement {
    let document = web_sys::window()
        .expect("window")
        .document()
        .expect("document");
    let div = document.create_element("div").expect("div");
    document
        .body()
        .expect("body")
        .append_child(&div)
        .expect("append");
    div.unchecked_into()
}

/// Options for `mount` as a JS object.
pub fn options(pairs: &[(&str, &str)]) -> JsValue {
    let object = js_sys::Object::new();
    for (key, value) in pairs {
        js_sys::Reflect::set(&object, &JsValue::from_str(key), &JsValue::from_str(value))
            .expect("set option");
    }
    object.into()
}

/// The element matching `selector` under `root`, if any.
pub fn find(root: &Element, selector: &str) -> Option<Element> {
    root.query_selector(selector).expect("selector")
}

/// The element matching `selector` under `root`.
pub fn get(root: &Element, selector: &str) -> Element {
    find(root, selector).unwrap_or_else(|| panic!("no element {selector}"))
}

/// Text content of `selector` under `root` ("" when absent).
pub fn text(root: &Element, selector: &str) -> String {
    find(root, selector)
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

/// Attribute `name` of `selector` under `root`.
pub fn attr(root: &Element, selector: &str, name: &str) -> Option<String> {
    get(root, selector).get_attribute(name)
}

/// The value of the input `selector`.
pub fn value(root: &Element, selector: &str) -> String {
    get(root, selector)
        .unchecked_into::<web_sys::HtmlInputElement>()
        .value()
}

/// Types `text` into input `selector` with the caret at its end.
pub fn type_in(root: &Element, selector: &str, text: &str) {
    type_text(&get(root, selector), text, text.chars().count() as u32);
}

/// Sets input `selector` to `text` with the caret at `caret`, as an edit would leave it.
pub fn edit(root: &Element, selector: &str, text: &str, caret: u32) {
    type_text(&get(root, selector), text, caret);
}

/// Clicks `selector` under `root`.
pub fn click(root: &Element, selector: &str) {
    get(root, selector).unchecked_into::<HtmlElement>().click();
}

/// A one-off EUR payment session with the given billing fields and saved cards.
pub fn session_view(billing: Vec<BillingField>, saved: Vec<SavedCard>) -> CheckoutView {
    CheckoutView {
        id: SESSION.into(),
        amount: 2500,
        currency: "EUR".into(),
        currency_exponent: 2,
        description: Some("T-shirt".into()),
        merchant_name: "Demo shop".into(),
        kind: CheckoutKind::Payment,
        billing_fields: billing,
        can_save_card: !saved.is_empty(),
        saved_cards: saved,
    }
}

/// A monthly plan with trial, discount and twelve cycles.
pub fn plan() -> PlanTerms {
    PlanTerms {
        id: "coffee".into(),
        name: "Coffee club".into(),
        description: "Fresh beans every month".into(),
        amount: 1299,
        currency: "EUR".into(),
        cycle_unit: CycleUnit::Months,
        cycle_interval: 1,
        trial_days: Some(14),
        discount: Some(Discount {
            percentage: 10,
            cycles: 3,
        }),
        max_cycles: 12,
    }
}

/// A payment result in `state`.
pub fn result(state: PaymentState) -> PaymentResult {
    PaymentResult {
        payment_id: "pay_1".into(),
        state,
        amount: 2500,
        currency: "EUR".into(),
        decline: None,
        subscription_id: None,
    }
}

/// Path of the session view.
pub fn checkout_path() -> String {
    ["/v1/checkout/", SESSION].concat()
}

/// Path of the pay call.
pub fn pay_path() -> String {
    ["/v1/checkout/", SESSION, "/pay"].concat()
}

/// Path of the result call.
pub fn result_path() -> String {
    ["/v1/checkout/", SESSION, "/result"].concat()
}

/// Mounts mode `checkout` for `view` in English and waits for the form.
pub async fn mount_form(view: &CheckoutView) -> (HtmlElement, checkout::embed::mount::Checkout) {
    mount_form_in(view, "en").await
}

/// Mounts mode `checkout` for `view` in `locale` and waits for the form.
pub async fn mount_form_in(
    view: &CheckoutView,
    locale: &str,
) -> (HtmlElement, checkout::embed::mount::Checkout) {
    fake_server();
    route("GET", &checkout_path(), 200, view);
    let host = container();
    capture(&host);
    let handle = mount_checkout(&host, locale);
    let root: Element = host.clone().into();
    until("the form", || find(&root, "#cc-submit").is_some()).await;
    // The country list follows the form's first render (src/ui/countries.rs).
    until("the countries", || {
        find(&root, "#billing-country").is_none()
            || find(&root, "#billing-country option[value=DE]").is_some()
    })
    .await;
    (host, handle)
}

/// Mounts the test session's checkout in `locale` into `host` (its route set beforehand).
pub fn mount_checkout(host: &HtmlElement, locale: &str) -> checkout::embed::mount::Checkout {
    checkout::embed::mount::mount(
        host.clone(),
        options(&[
            ("session", SESSION),
            ("clientSecret", SECRET),
            ("server", SERVER),
            ("locale", locale),
        ]),
    )
    .expect("mounts")
}

/// Fills a valid Visa card.
pub fn fill_card(root: &Element) {
    type_in(root, "#cc-name", "Jane Doe");
    type_in(root, "#cc-number", "4242424242424242");
    type_in(root, "#cc-exp", "1230");
    type_in(root, "#cc-csc", "123");
}
