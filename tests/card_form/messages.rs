//! The card form's messages and labels: every validation message on blur, none while a valid
//! prefix is typed, fields marked and the first focused on submit, labels for autofill.

use checkout::contract::BillingField;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

use super::form;
use crate::common::*;

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
