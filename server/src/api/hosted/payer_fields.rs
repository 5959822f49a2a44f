//! What the hosted page asks the payer besides the card, as the link says: the amount when the
//! payer chooses it (within the link's bounds), the quantity when it is adjustable, the e-mail
//! and a reference of the payer's own (optional or required). Plain HTML fields styled as the
//! card form's; the browser checks the bounds before Pay, the server again when the session is
//! made (`POST /pay/{link}/session`, whose field names these are).

use checkout::currency::major_text;
use checkout::form_fields::FieldKind;
use checkout::i18n::{Locale, Msg, fill};

use super::super::frame::skeleton::escape;
use super::money::money;
use super::texts::Text;
use crate::payments::links::LinkPage;
use crate::store::model::{Ask, LinkAmount};

/// `<form id="hp-payer">` with the fields the link asks for; empty when it asks for none.
pub fn payer_fields(terms: &LinkPage, locale: Locale) -> String {
    let mut html = String::new();
    if let LinkAmount::PayerChosen { min, max } = terms.amount {
        let exponent = terms.currency_exponent;
        let step = major_text(1, exponent);
        let (low, high) = (major_text(min, exponent), major_text(max, exponent));
        let hint = fill(
            Text::AmountBetween.of(locale),
            &[
                &money(locale, min, &terms.currency),
                &money(locale, max, &terms.currency),
            ],
        );
        html += &field(
            "amount",
            &format!(
                "{} ({})",
                locale.text(Msg::ColAmount),
                escape(&terms.currency)
            ),
            &format!(
                "type=\"number\" inputmode=\"decimal\" dir=\"ltr\" min=\"{low}\" max=\"{high}\" \
                 step=\"{step}\" data-exponent=\"{exponent}\" required autocomplete=\"off\""
            ),
            Some(&escape(&hint)),
        );
    }
    if let Some(most) = terms.quantity_max {
        html += &field(
            "quantity",
            Text::Quantity.of(locale),
            &format!(
                "type=\"number\" inputmode=\"numeric\" dir=\"ltr\" min=\"1\" max=\"{most}\" \
                 step=\"1\" value=\"1\" required autocomplete=\"off\""
            ),
            None,
        );
    }
    html += &asked(
        terms.ask_email,
        "email",
        locale.text(FieldKind::Email.label()),
        "type=\"email\" dir=\"ltr\" autocomplete=\"email\" maxlength=\"254\"",
        locale,
    );
    html += &asked(
        terms.ask_payer_reference,
        "payer_reference",
        Text::PayerReference.of(locale),
        "type=\"text\" autocomplete=\"off\" maxlength=\"100\"",
        locale,
    );
    if html.is_empty() {
        return html;
    }
    format!(
        "<form id=\"hp-payer\" class=\"cc-root cc-form\" lang=\"{}\">{html}</form>",
        locale.tag()
    )
}

/// A field the link may ask for, optional or required; nothing when it is not asked.
fn asked(ask: Ask, name: &str, label: &str, attributes: &str, locale: Locale) -> String {
    match ask {
        Ask::Off => String::new(),
        Ask::Optional => field(
            name,
            &format!("{} {}", escape(label), Text::Optional.of(locale)),
            attributes,
            None,
        ),
        Ask::Required => field(
            name,
            &escape(label),
            &format!("{attributes} required"),
            None,
        ),
    }
}

/// One `.cc-field`: label, input named `name` (id `hp-{name}`), an optional hint under it.
fn field(name: &str, label: &str, attributes: &str, hint: Option<&str>) -> String {
    let id = format!("hp-{}", name.replace('_', "-"));
    let (described, hint) = match hint {
        Some(hint) => (
            format!(" aria-describedby=\"{id}-hint\""),
            format!("<p id=\"{id}-hint\" class=\"hp-hint\">{hint}</p>"),
        ),
        None => (String::new(), String::new()),
    };
    format!(
        "<div class=\"cc-field\"><label for=\"{id}\">{label}</label>\
         <input id=\"{id}\" name=\"{name}\" {attributes}{described}>{hint}</div>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(amount: LinkAmount) -> LinkPage {
        LinkPage::example(amount, None)
    }

    #[test]
    fn a_fixed_amount_asking_nothing_has_no_fields() {
        assert_eq!(
            payer_fields(&terms(LinkAmount::Fixed { amount: 500 }), Locale::En),
            ""
        );
    }

    #[test]
    fn a_chosen_amount_has_its_bounds_in_the_field_and_in_words() {
        let mut terms = terms(LinkAmount::PayerChosen {
            min: 100,
            max: 50_000,
        });
        terms.quantity_max = Some(5);
        terms.ask_email = Ask::Required;
        terms.ask_payer_reference = Ask::Optional;
        let html = payer_fields(&terms, Locale::De);
        assert!(html.contains("name=\"amount\""), "{html}");
        assert!(
            html.contains("min=\"1.00\" max=\"500.00\" step=\"0.01\""),
            "{html}"
        );
        assert!(
            html.contains("Zwischen 1,00\u{a0}€ und 500,00\u{a0}€"),
            "{html}"
        );
        assert!(
            html.contains("name=\"quantity\"") && html.contains("max=\"5\""),
            "{html}"
        );
        assert!(html.contains("name=\"email\" type=\"email\""), "{html}");
        assert!(html.contains("maxlength=\"254\" required"), "{html}");
        assert!(html.contains("Ihre Referenz (optional)"), "{html}");
        assert!(!html.contains("maxlength=\"100\" required"), "{html}");
    }
}
