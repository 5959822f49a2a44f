//! Typing into the card form: the number grouped with the caret kept, paste with spaces and
//! dashes, every brand detected as typed, lengths by brand, the expiry's slash and months.

use wasm_bindgen_test::*;

use super::form;
use crate::common::*;

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
