//! Browser tests of the card form: formatting with the caret, paste, brands, lengths, every
//! validation message, aria wiring and focus on submit, the language switch, and right-to-left
//! layout.
#![cfg(target_arch = "wasm32")]

mod common;

use checkout::contract::BillingField;
use common::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

async fn form() -> (Element, checkout::embed::mount::Checkout) {
    let (host, handle) = mount_form(&session_view(vec![], vec![])).await;
    (host.unchecked_into(), handle)
}

#[wasm_bindgen_test]
async fn number_groups_and_keeps_the_caret() {
    let (root, _handle) = form().await;
    type_in(&root, "#cc-number", "42424242");
    assert_eq!(value(&root, "#cc-number"), "4242 4242");
    assert_eq!(caret_of(&get(&root, "#cc-number")), 9);
    // Typing "1" after the second digit of "4242 4242 42": the caret stays after the "1".
    edit(&root, "#cc-number", "42142 4242 42", 3);
    assert_eq!(value(&root, "#cc-number"), "4214 2424 242");
    assert_eq!(caret_of(&get(&root, "#cc-number")), 3);
    // Typing the fifth digit at a group end: the caret jumps past the new space.
    type_in(&root, "#cc-number", "42424");
    assert_eq!(value(&root, "#cc-number"), "4242 4");
    assert_eq!(caret_of(&get(&root, "#cc-number")), 6);
    // Backspace over a space changes no digit and leaves the caret before it.
    edit(&root, "#cc-number", "42424", 4);
    assert_eq!(value(&root, "#cc-number"), "4242 4");
    assert_eq!(caret_of(&get(&root, "#cc-number")), 4);
}

#[wasm_bindgen_test]
async fn paste_with_spaces_and_dashes() {
    let (root, _handle) = form().await;
    type_in(&root, "#cc-number", " 4242-4242 4242-4242 ");
    assert_eq!(value(&root, "#cc-number"), "4242 4242 4242 4242");
    type_in(&root, "#cc-number", "3782-822463-10005");
    assert_eq!(value(&root, "#cc-number"), "3782 822463 10005");
    type_in(&root, "#cc-exp", "12/30");
    assert_eq!(value(&root, "#cc-exp"), "12 / 30");
}

#[wasm_bindgen_test]
async fn detects_every_brand_as_typed() {
    let (root, _handle) = form().await;
    let table = [
        ("4", "visa", "Visa"),
        ("5105", "mastercard", "Mastercard"),
        ("2221", "mastercard", "Mastercard"),
        ("3782", "amex", "American Express"),
        ("6011", "discover", "Discover"),
        ("3056", "diners_club", "Diners Club"),
        ("3566", "jcb", "JCB"),
        ("6200", "unionpay", "UnionPay"),
        ("6759", "maestro", "Maestro"),
        ("2200", "mir", "Mir"),
        ("636297", "elo", "Elo"),
        ("608001", "rupay", "RuPay"),
        ("450644", "interac", "Interac"),
        ("497010", "cartes_bancaires", "Cartes Bancaires"),
        ("9", "unknown", ""),
    ];
    for (digits, id, name) in table {
        type_in(&root, "#cc-number", digits);
        until(id, || {
            attr(&root, "#cc-brand", "data-brand").as_deref() == Some(id)
        })
        .await;
        assert_eq!(text(&root, "#cc-brand"), name, "{digits}");
    }
}

#[wasm_bindgen_test]
async fn lengths_follow_the_brand() {
    let (root, _handle) = form().await;
    type_in(&root, "#cc-number", "37828224631000599");
    assert_eq!(value(&root, "#cc-number"), "3782 822463 10005");
    type_in(&root, "#cc-csc", "12345");
    assert_eq!(value(&root, "#cc-csc"), "1234");
    type_in(&root, "#cc-number", "4242424242424242");
    type_in(&root, "#cc-csc", "12a345");
    assert_eq!(value(&root, "#cc-csc"), "123");
    type_in(&root, "#cc-number", "62000000000000000050000");
    assert_eq!(value(&root, "#cc-number"), "6200 0000 0000 0000 005");
}

#[wasm_bindgen_test]
async fn expiry_inserts_the_slash_and_refuses_bad_months() {
    let (root, _handle) = form().await;
    for (typed, shown) in [
        ("1", "1"),
        ("12", "12 / "),
        ("4", "04 / "),
        ("13", "1"),
        ("1/", "01 / "),
    ] {
        type_in(&root, "#cc-exp", typed);
        assert_eq!(value(&root, "#cc-exp"), shown, "{typed}");
    }
    // Backspace into the separator leaves the month.
    type_in(&root, "#cc-exp", "12 /");
    assert_eq!(value(&root, "#cc-exp"), "12");
}

/// Types `typed` into `field`, blurs it and waits for `expected` under it.
async fn message_after_blur(root: &Element, field: &str, typed: &str, expected: &str) {
    type_in(root, field, typed);
    blur(&get(root, field));
    until_text(root, &[field, "-error"].concat(), expected).await;
}

#[wasm_bindgen_test]
async fn every_message_on_blur() {
    let view = session_view(vec![BillingField::Email, BillingField::Phone], vec![]);
    let (host, _handle) = mount_form(&view).await;
    let root: Element = host.unchecked_into();
    let cases = [
        (
            "#cc-number",
            "4242424242424241",
            "Your card number is invalid.",
        ),
        ("#cc-number", "42424242", "Your card number is incomplete."),
        ("#cc-exp", "1", "Enter the expiry date as MM / YY."),
        ("#cc-exp", "0120", "Your card has expired."),
        (
            "#cc-exp",
            "1260",
            "The expiry date is too far in the future.",
        ),
        (
            "#cc-name",
            "Jane 4242 4242 4242",
            "The name must not contain a card number.",
        ),
        (
            "#cc-name",
            "Jane\tDoe",
            "The name contains characters that are not allowed.",
        ),
        ("#billing-email", "jane@", "Enter a valid email address."),
        ("#billing-phone", "12ab", "Enter a valid phone number."),
    ];
    for (field, typed, expected) in cases {
        message_after_blur(&root, field, typed, expected).await;
    }
    let long = "a".repeat(101);
    message_after_blur(
        &root,
        "#cc-name",
        &long,
        "The name may have at most 100 characters.",
    )
    .await;
    type_in(&root, "#cc-number", "4242424242424242");
    message_after_blur(
        &root,
        "#cc-csc",
        "12",
        "The security code must have 3 digits.",
    )
    .await;
    type_in(&root, "#cc-number", "3782822463");
    message_after_blur(
        &root,
        "#cc-csc",
        "12",
        "The security code must have 4 digits.",
    )
    .await;
    type_in(&root, "#cc-number", "9");
    message_after_blur(
        &root,
        "#cc-csc",
        "12",
        "The security code must have 3 or 4 digits.",
    )
    .await;
}

#[wasm_bindgen_test]
async fn no_message_while_typing_a_valid_prefix() {
    let (root, _handle) = form().await;
    type_in(&root, "#cc-number", "4242");
    sleep(30).await;
    assert_eq!(text(&root, "#cc-number-error"), "");
    assert_eq!(attr(&root, "#cc-number", "aria-invalid"), None);
    blur(&get(&root, "#cc-number"));
    until("incomplete", || !text(&root, "#cc-number-error").is_empty()).await;
    // Finishing the number clears the message while typing, without another blur.
    type_in(&root, "#cc-number", "4242424242424242");
    until("cleared", || text(&root, "#cc-number-error").is_empty()).await;
    assert_eq!(attr(&root, "#cc-number", "aria-invalid"), None);
}

#[wasm_bindgen_test]
async fn submit_marks_fields_and_focuses_the_first() {
    let view = session_view(vec![BillingField::Country, BillingField::City], vec![]);
    let (host, _handle) = mount_form(&view).await;
    let root: Element = host.clone().unchecked_into();
    type_in(&root, "#cc-number", "4242424242424242");
    click(&root, "#cc-submit");
    until("errors", || !text(&root, "#cc-name-error").is_empty()).await;
    let expected = [
        ("cc-name", "Enter the name on the card."),
        ("cc-exp", "Enter the expiry date."),
        ("cc-csc", "Enter the security code."),
        ("billing-country", "This field is required."),
        ("billing-city", "This field is required."),
    ];
    for (id, message) in expected {
        let field = ["#", id].concat();
        let error = [id, "-error"].concat();
        assert_eq!(text(&root, &["#", &error].concat()), message, "{id}");
        assert_eq!(attr(&root, &field, "aria-invalid").as_deref(), Some("true"));
        assert_eq!(attr(&root, &field, "aria-describedby"), Some(error));
    }
    assert_eq!(attr(&root, "#cc-number", "aria-invalid"), None);
    assert_eq!(active_id(&root), "cc-name");
    assert_eq!(
        attr(&root, "#cc-status", "aria-live").as_deref(),
        Some("polite")
    );
    assert_eq!(
        text(&root, "#cc-status"),
        "Please check: Name on card, Expiry date (MM / YY), Security code, Country, City."
    );
    assert!(requests_to("POST", &pay_path()).is_empty());
    // Focus moving on (here to the name) keeps the messages submit showed; an emptied number
    // is reported as such on the next submit.
    type_in(&root, "#cc-number", "");
    click(&root, "#cc-submit");
    until_text(&root, "#cc-number-error", "Enter your card number.").await;
}

#[wasm_bindgen_test]
async fn fields_are_labelled_for_autofill() {
    let view = session_view(
        vec![
            BillingField::Country,
            BillingField::Email,
            BillingField::Phone,
            BillingField::Address,
            BillingField::City,
            BillingField::State,
            BillingField::PostalCode,
        ],
        vec![],
    );
    let (host, _handle) = mount_form(&view).await;
    let root: Element = host.unchecked_into();
    let table = [
        ("cc-name", "cc-name", None, "Name on card"),
        ("cc-number", "cc-number", Some("numeric"), "Card number"),
        ("cc-exp", "cc-exp", Some("numeric"), "Expiry date (MM / YY)"),
        ("cc-csc", "cc-csc", Some("numeric"), "Security code"),
        ("billing-country", "country", None, "Country"),
        ("billing-email", "email", Some("email"), "Email"),
        ("billing-phone", "tel", Some("tel"), "Phone"),
        ("billing-address", "address-line1", None, "Address"),
        ("billing-city", "address-level2", None, "City"),
        ("billing-state", "address-level1", None, "State / region"),
        ("billing-postal-code", "postal-code", None, "Postal code"),
    ];
    for (id, autocomplete, inputmode, label) in table {
        let field = ["#", id].concat();
        assert_eq!(
            attr(&root, &field, "autocomplete").as_deref(),
            Some(autocomplete),
            "{id}"
        );
        assert_eq!(
            attr(&root, &field, "inputmode").as_deref(),
            inputmode,
            "{id}"
        );
        assert_eq!(
            text(&root, &["label[for=", id, "]"].concat()),
            label,
            "{id}"
        );
    }
    // Countries are named in the page's language and carry ISO codes.
    let option = get(&root, "#billing-country option[value=DE]");
    assert_eq!(option.text_content().as_deref(), Some("Germany"));
    choose(&get(&root, "#billing-country"), "DE");
    blur(&get(&root, "#billing-country"));
    sleep(20).await;
    assert_eq!(text(&root, "#billing-country-error"), "");
    // Without billing fields in the session, none are shown.
    let (plain, _second) = form().await;
    assert!(find(&plain, "#billing-email").is_none());
}

#[wasm_bindgen_test]
async fn switches_language_and_keeps_the_input() {
    let (host, handle) = mount_form_in(&session_view(vec![], vec![]), "de").await;
    let root: Element = host.unchecked_into();
    assert_eq!(text(&root, "label[for=cc-number]"), "Kartennummer");
    assert_eq!(text(&root, "#cc-submit"), "25,00\u{a0}€ bezahlen");
    assert_eq!(attr(&root, ".cc-root", "lang").as_deref(), Some("de"));
    type_in(&root, "#cc-number", "4242424242424241");
    blur(&get(&root, "#cc-number"));
    until("german", || {
        text(&root, "#cc-number-error") == "Ihre Kartennummer ist ungültig."
    })
    .await;
    handle.set_locale("ja-JP");
    until("japanese", || {
        text(&root, "label[for=cc-number]") == "カード番号"
    })
    .await;
    assert_eq!(value(&root, "#cc-number"), "4242 4242 4242 4241");
    assert_eq!(text(&root, "#cc-number-error"), "カード番号が無効です。");
    for (tag, label) in [
        ("fr", "Numéro de carte"),
        ("es", "Número de tarjeta"),
        ("en", "Card number"),
    ] {
        handle.set_locale(tag);
        until(tag, || text(&root, "label[for=cc-number]") == label).await;
    }
}

/// Where the text of `element` sits in its field's box: (space left of it, space right of it).
fn text_margins(element: &Element) -> (f64, f64) {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .expect("document");
    let range = document.create_range().expect("range");
    range.select_node_contents(element).expect("contents");
    let field = element.parent_element().expect("the field around it");
    let (text, outer) = (
        range.get_bounding_client_rect(),
        field.get_bounding_client_rect(),
    );
    (text.left() - outer.left(), outer.right() - text.right())
}

fn direction(element: &Element) -> String {
    web_sys::window()
        .and_then(|w| w.get_computed_style(element).ok().flatten())
        .and_then(|style| style.get_property_value("direction").ok())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn right_to_left_languages_align_right_and_keep_card_numbers_left_to_right() {
    for (tag, label, error) in [
        ("he", "מספר כרטיס", "מספר הכרטיס אינו תקין."),
        ("ar-EG", "رقم البطاقة", "رقم بطاقتك غير صالح."),
    ] {
        let (host, _handle) = mount_form_in(&session_view(vec![], vec![]), tag).await;
        let root: Element = host.unchecked_into();
        until(tag, || text(&root, "label[for=cc-number]") == label).await;
        assert_eq!(attr(&root, ".cc-root", "dir").as_deref(), Some("rtl"));
        type_in(&root, "#cc-number", "4242424242424241");
        blur(&get(&root, "#cc-number"));
        until_text(&root, "#cc-number-error", error).await;
        let number = get(&root, "#cc-number");
        assert_eq!(number.get_attribute("dir").as_deref(), Some("ltr"));
        assert_eq!(
            direction(&number),
            "ltr",
            "{tag}: the digits read left to right"
        );
        assert_eq!(value(&root, "#cc-number"), "4242 4242 4242 4241");
        for css in ["label[for=cc-number]", "#cc-number-error"] {
            let element = get(&root, css);
            assert_eq!(direction(&element), "rtl", "{tag} {css}");
            let (left, right) = text_margins(&element);
            assert!(
                right < 1.0 && left > 20.0,
                "{tag} {css}: aligned right (space left {left}, right {right})"
            );
        }
    }
}

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
