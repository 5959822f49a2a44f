//! The card form as plain HTML inside the frame document, so a shopper can type before the wasm
//! has arrived. It has the component's structure, classes, ids, labels (in the shopper's
//! language), `autocomplete` and `inputmode` (src/ui/card_form.rs and field.rs), so it looks
//! the same and browser autofill fills it the same; its pay button is disabled and says the
//! form is loading. When the component is ready, www/frame.js moves what was typed into it
//! (value, caret and focus) and removes this copy. The amount is left for www/frame.js to
//! format with the browser's `Intl`, as the component does, so the two never differ.
//!
//! Only for a one-off payment without saved cards: plan terms and the saved-card list keep
//! the loading state until the component shows them.

use checkout::contract::{CheckoutKind, CheckoutView};
use checkout::form_fields::FieldKind;
use checkout::i18n::{Locale, Msg};

/// The form for `view` in `locale`, theme custom properties on its root; `None` when the
/// session shows more than the plain form.
pub fn skeleton(view: &CheckoutView, locale: Locale, theme: &str) -> Option<String> {
    if !matches!(view.kind, CheckoutKind::Payment) || !view.saved_cards.is_empty() {
        return None;
    }
    let t = |msg: Msg| escape(locale.text(msg));
    let mut html = format!(
        "<div id=\"cc-skeleton\" class=\"cc-root\" data-mode=\"checkout\" lang=\"{lang}\" \
         style=\"{theme}\"><div class=\"cc-checkout\"><form class=\"cc-form\" novalidate>\
         <header class=\"cc-header\"><p id=\"cc-merchant\" class=\"cc-muted\">{merchant}</p>\
         <p id=\"cc-description\">{description}</p><p id=\"cc-amount\" class=\"cc-amount\" \
         data-amount=\"{amount}\" data-exponent=\"{exponent}\" data-currency=\"{currency}\">\
         &#8203;</p></header><div class=\"cc-card\"><div>",
        lang = locale.tag(),
        theme = escape(theme),
        merchant = escape(&view.merchant_name),
        description = escape(view.description.as_deref().unwrap_or_default()),
        amount = view.amount,
        exponent = view.currency_exponent,
        currency = escape(&view.currency),
    );
    field(&mut html, FieldKind::Name, &t);
    field(&mut html, FieldKind::Number, &t);
    html.push_str("<div class=\"cc-row\">");
    field(&mut html, FieldKind::Expiry, &t);
    field(&mut html, FieldKind::Cvc, &t);
    html.push_str("</div>");
    if view.can_save_card {
        html.push_str(&format!(
            "<label class=\"cc-check\" for=\"cc-save\"><input id=\"cc-save\" \
             type=\"checkbox\"><span>{}</span></label>",
            t(Msg::SaveCard)
        ));
    }
    html.push_str("</div></div>");
    for billing in &view.billing_fields {
        field(&mut html, FieldKind::billing(*billing), &t);
    }
    html.push_str(&format!(
        "<p id=\"cc-alert\" class=\"cc-alert\" role=\"alert\"></p><button id=\"cc-submit\" \
         class=\"cc-button\" type=\"button\" disabled aria-busy=\"true\">{}</button>\
         </form></div></div>",
        t(Msg::Loading)
    ));
    Some(html)
}

/// One `.cc-field`: label, control (a select with only its prompt for the country), brand
/// slot for the number, empty error line.
fn field(html: &mut String, kind: FieldKind, t: &impl Fn(Msg) -> String) {
    let id = kind.id();
    let common = format!(
        "id=\"{id}\" name=\"{id}\" autocomplete=\"{}\" aria-required=\"true\"",
        kind.autocomplete()
    );
    let control = if kind == FieldKind::Country {
        format!(
            "<select {common}><option value=\"\">{}</option></select>",
            t(Msg::ChooseCountry)
        )
    } else {
        let mode = kind
            .inputmode()
            .map(|mode| format!(" inputmode=\"{mode}\""))
            .unwrap_or_default();
        format!("<input type=\"{}\"{mode} {common}>", kind.input_type())
    };
    let brand = if kind == FieldKind::Number {
        "<span id=\"cc-brand\" class=\"cc-brand\" data-brand=\"unknown\"></span>"
    } else {
        ""
    };
    html.push_str(&format!(
        "<div class=\"cc-field\" data-field=\"{id}\"><label for=\"{id}\">{}</label>{control}\
         {brand}<p id=\"{}\" class=\"cc-error\"></p></div>",
        t(kind.label()),
        kind.error_id()
    ));
}

/// `text` safe inside an element or a double-quoted attribute.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkout::contract::{BillingField, SavedCard};

    fn view() -> CheckoutView {
        CheckoutView {
            id: "cs_1".into(),
            amount: 1850,
            currency: "EUR".into(),
            currency_exponent: 2,
            description: Some("Tea <b>\"pot\"</b>".into()),
            merchant_name: "Shop & Co".into(),
            kind: CheckoutKind::Payment,
            billing_fields: vec![BillingField::Country, BillingField::PostalCode],
            saved_cards: Vec::new(),
            can_save_card: true,
        }
    }

    #[test]
    fn the_form_has_every_field_in_the_shoppers_language() {
        let html = skeleton(&view(), Locale::De, "--cc-accent:#0a7").expect("plain payment");
        for id in [
            "cc-name",
            "cc-number",
            "cc-exp",
            "cc-csc",
            "cc-save",
            "billing-country",
            "billing-postal-code",
        ] {
            assert!(html.contains(&format!("id=\"{id}\"")), "{id}: {html}");
        }
        assert!(html.contains("<label for=\"cc-number\">Kartennummer</label>"));
        assert!(html.contains("autocomplete=\"cc-number\""));
        assert!(html.contains("inputmode=\"numeric\""));
        assert!(html.contains("style=\"--cc-accent:#0a7\""));
        assert!(html.contains("Shop &amp; Co"));
        assert!(html.contains("Tea &lt;b&gt;&quot;pot&quot;&lt;/b&gt;"));
        assert!(html.contains("disabled aria-busy=\"true\">Wird geladen…</button>"));
        assert!(html.contains("data-amount=\"1850\" data-exponent=\"2\" data-currency=\"EUR\""));
    }

    #[test]
    fn plans_and_saved_cards_wait_for_the_component() {
        let mut saved = view();
        saved.saved_cards.push(SavedCard {
            id: "card_1".into(),
            brand: checkout::card::Brand::Visa,
            last4: "4242".into(),
            expiry_month: 12,
            expiry_year: 2030,
        });
        assert!(skeleton(&saved, Locale::En, "").is_none());
    }
}
