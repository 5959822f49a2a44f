//! The card form's language: switched with the input kept, right-to-left languages aligned
//! right with card numbers kept left to right.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

use crate::common::*;

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
