//! The card form's view of the session: an outline while loading that says so to screen
//! readers, amounts by currency exponent, a view the document carries shown without a
//! request, the country list following the first render.

use checkout::contract::BillingField;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

use crate::common::*;

#[wasm_bindgen_test]
async fn while_loading_an_outline_of_the_form_says_so_to_screen_readers() {
    fake_server();
    route_delayed(
        "GET",
        &checkout_path(),
        200,
        &session_view(vec![], vec![]),
        300,
    );
    let host = container();
    let _handle = mount_checkout(&host, "en");
    let root: Element = host.into();
    until("the outline", || find(&root, "#cc-loading").is_some()).await;
    assert_eq!(
        attr(&root, "#cc-loading", "aria-busy").as_deref(),
        Some("true")
    );
    assert_eq!(text(&root, "#cc-loading [role=status]"), "Loading…");
    assert_eq!(
        attr(&root, "#cc-loading .cc-bones", "aria-hidden").as_deref(),
        Some("true")
    );
    let inputs = root
        .query_selector_all("#cc-loading .cc-bone-input")
        .expect("query")
        .length();
    assert_eq!(inputs, 4, "name, number, expiry, security code");
    until("the form", || find(&root, "#cc-submit").is_some()).await;
    assert!(find(&root, "#cc-loading").is_none());
}

#[wasm_bindgen_test]
async fn amounts_follow_the_currency_exponent() {
    let mut view = session_view(vec![], vec![]);
    view.amount = 1500;
    view.currency = "JPY".into();
    view.currency_exponent = 0;
    let (host, _handle) = mount_form_in(&view, "ja").await;
    let root: Element = host.unchecked_into();
    assert_eq!(text(&root, "#cc-amount"), "￥1,500");
    let mut view = session_view(vec![], vec![]);
    view.amount = 1234;
    view.currency = "KWD".into();
    view.currency_exponent = 3;
    let (host, _second) = mount_form(&view).await;
    let root: Element = host.unchecked_into();
    assert!(
        text(&root, "#cc-amount").contains("1.234"),
        "{}",
        text(&root, "#cc-amount")
    );
}

/// Puts `view` in the document as the frame document carries it.
fn carry(view: &checkout::contract::CheckoutView) {
    let document = web_sys::window()
        .expect("window")
        .document()
        .expect("document");
    let block = document.create_element("script").expect("script");
    block
        .set_attribute("type", "application/json")
        .expect("type");
    block.set_id(checkout::contract::routes::CARRIED_VIEW_ID);
    block.set_text_content(Some(&serde_json::to_string(view).expect("JSON")));
    document
        .head()
        .expect("head")
        .append_child(&block)
        .expect("appended");
}

#[wasm_bindgen_test]
async fn a_view_carried_by_the_document_shows_without_a_request() {
    let mut carried = session_view(vec![], vec![]);
    carried.description = Some("Carried teapot".into());
    carry(&carried);
    let (host, _handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.unchecked_into();
    assert!(text(&root, "#cc-description") == "Carried teapot");
    assert!(
        requests_to("GET", &checkout_path()).is_empty(),
        "{:?}",
        requests()
    );
    let document = web_sys::window()
        .expect("window")
        .document()
        .expect("document");
    assert!(
        document
            .get_element_by_id(checkout::contract::routes::CARRIED_VIEW_ID)
            .is_none(),
        "taken once"
    );

    let mut other = carried;
    other.id = "cs_someone_else".into();
    carry(&other);
    let (host, _handle) = mount_form(&session_view(vec![], vec![])).await;
    let root: Element = host.unchecked_into();
    assert!(
        text(&root, "#cc-description") == "T-shirt",
        "another session's view is not used"
    );
    assert_eq!(requests_to("GET", &checkout_path()).len(), 1);
}

#[wasm_bindgen_test]
async fn the_country_list_follows_the_first_render_and_keeps_the_choice() {
    fake_server();
    let view = session_view(vec![BillingField::Country], vec![]);
    route("GET", &checkout_path(), 200, &view);
    let host = container();
    capture(&host);
    let root: Element = host.clone().unchecked_into();
    let options = {
        let root = root.clone();
        move || {
            root.query_selector_all("#billing-country option")
                .map(|list| list.length())
                .unwrap_or(0)
        }
    };
    // How many options there are when the component says it is ready.
    let at_ready = std::rc::Rc::new(std::cell::Cell::new(u32::MAX));
    let seen = at_ready.clone();
    let count = options.clone();
    let listener = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || seen.set(count()));
    host.add_event_listener_with_callback("ready", listener.as_ref().unchecked_ref())
        .expect("listener");
    let handle = mount_checkout(&host, "en");
    until("ready", || at_ready.get() != u32::MAX).await;
    assert_eq!(
        at_ready.get(),
        1,
        "only \"choose a country\" in the first render"
    );
    until("the countries", || options() == 250).await;
    choose(&get(&root, "#billing-country"), "JP");
    // A language switch renders the form again: the choice is there at once, the list after.
    handle.set_locale("de");
    until("German", || {
        text(&root, "label[for=billing-country]") == "Land"
    })
    .await;
    assert_eq!(value(&root, "#billing-country"), "JP");
    until("the countries in German", || {
        find(&root, "#billing-country option[value=DE]")
            .and_then(|o| o.text_content())
            .as_deref()
            == Some("Deutschland")
    })
    .await;
    assert_eq!(value(&root, "#billing-country"), "JP");
    assert_eq!(options(), 250);
    drop(listener);
}
