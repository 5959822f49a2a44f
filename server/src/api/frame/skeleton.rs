//! The card form as plain HTML inside the frame document, so a shopper can type before the wasm
//! has arrived. It has the component's structure, classes, ids, labels (in the shopper's
//! language), `autocomplete` and `inputmode` (src/ui/card_form.rs, field.rs and
//! saved_cards.rs), so it looks the same and browser autofill fills it the same; its pay
//! button is disabled and says the form is loading. When the component is ready, www/frame.js
//! moves what was typed or chosen into it (value, caret, focus, the saved-card choice) and
//! removes this copy. The amount is left for www/frame.js to format with the browser's `Intl`,
//! as the component does, so the two never differ.
//!
//! For one-off payments, with or without saved cards (the first one not expired is chosen, and
//! the card fields are hidden while it is, the billing fields too when it keeps its address,
//! as in the component); a subscription's form shows
//! the loading outline ([`super::outline`]) until the component shows it.

use checkout::card::YearMonth;
use checkout::contract::{CheckoutKind, CheckoutView, SavedCard};
use checkout::form_fields::FieldKind;
use checkout::i18n::{Locale, Msg};

/// The form for `view` in `locale` in the month `today` (which saved cards have expired),
/// theme custom properties on its root; `None` for a subscription.
pub fn skeleton(
    view: &CheckoutView,
    locale: Locale,
    theme: &str,
    today: YearMonth,
) -> Option<String> {
    if !matches!(view.kind, CheckoutKind::Payment) {
        return None;
    }
    let t = |msg: Msg| escape(locale.text(msg));
    let mut html = root("checkout", locale, theme);
    // A shell's view (no session yet) has no currency, and so no amount to show.
    let amount = if view.currency.is_empty() {
        String::new()
    } else {
        format!(
            " data-amount=\"{}\" data-exponent=\"{}\" data-currency=\"{}\"",
            view.amount,
            view.currency_exponent,
            escape(&view.currency)
        )
    };
    html += &format!(
        "<div class=\"cc-checkout\"><form class=\"cc-form\" novalidate>\
         <header class=\"cc-header\"><p id=\"cc-merchant\" class=\"cc-muted\">{merchant}</p>\
         <p id=\"cc-description\">{description}</p><p id=\"cc-amount\" class=\"cc-amount\"\
         {amount}>&#8203;</p></header>",
        merchant = escape(&view.merchant_name),
        description = escape(view.description.as_deref().unwrap_or_default()),
    );
    let chosen = view.saved_cards.iter().find(|card| card.usable(today));
    if !view.saved_cards.is_empty() {
        saved_cards(&mut html, &view.saved_cards, chosen, today, &t);
    }
    let hidden = if chosen.is_some() { " hidden" } else { "" };
    html.push_str(&format!("<div class=\"cc-card\"><div{hidden}>"));
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
    // Hidden by checkout.css while the chosen card keeps its billing address.
    html.push_str("<div class=\"cc-billing\">");
    for billing in &view.billing_fields {
        field(&mut html, FieldKind::billing(*billing), &t);
    }
    html.push_str("</div>");
    html.push_str(&format!(
        "<p id=\"cc-alert\" class=\"cc-alert\" role=\"alert\"></p><button id=\"cc-submit\" \
         class=\"cc-button\" type=\"button\" disabled aria-busy=\"true\">{}</button>\
         </form></div></div>",
        t(Msg::Loading)
    ));
    Some(html)
}

/// The saved-card fieldset: a radio per card (expired ones disabled) and one for a new card,
/// `chosen` checked (the new card when there is none).
fn saved_cards(
    html: &mut String,
    cards: &[SavedCard],
    chosen: Option<&SavedCard>,
    today: YearMonth,
    t: &impl Fn(Msg) -> String,
) {
    html.push_str(&format!(
        "<fieldset id=\"cc-saved\" class=\"cc-saved\"><legend>{}</legend>",
        t(Msg::SavedCards)
    ));
    let expires = t(Msg::SavedCardExpires);
    for card in cards {
        let id = format!("cc-saved-{}", escape(&card.id));
        let state = if chosen.is_some_and(|c| c.id == card.id) {
            " checked"
        } else if !card.usable(today) {
            " disabled"
        } else {
            ""
        };
        // While this card is chosen, checkout.css hides the billing fields.
        let billed = if card.billing_on_file {
            " data-billing-on-file"
        } else {
            ""
        };
        let mark = format!(
            "<span class=\"cc-mark\" data-brand=\"{}\" aria-hidden=\"true\"></span>",
            card.brand.id()
        );
        choice(
            html,
            &id,
            &format!("{state}{billed}"),
            &mark,
            &escape(&card.choice_label(&expires)),
        );
    }
    let state = if chosen.is_none() { " checked" } else { "" };
    choice(html, "cc-saved-new", state, "", &t(Msg::NewCard));
    html.push_str("</fieldset>");
}

/// One radio choice of the saved-card fieldset, `mark` (a brand mark, or nothing) before its
/// label.
fn choice(html: &mut String, id: &str, state: &str, mark: &str, label: &str) {
    html.push_str(&format!(
        "<label class=\"cc-choice\" for=\"{id}\"><input type=\"radio\" \
         name=\"cc-saved-card\" id=\"{id}\"{state}>{mark}<span>{label}</span></label>"
    ));
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
            .map(|mode| format!(" inputmode=\"{mode}\" dir=\"ltr\""))
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

/// The opening tag of `#cc-skeleton`, the component's root (`.cc-root`) in `mode`, with the
/// shopper's language and writing direction and the theme's declarations.
pub(super) fn root(mode: &str, locale: Locale, theme: &str) -> String {
    format!(
        "<div id=\"cc-skeleton\" class=\"cc-root\" data-mode=\"{mode}\" lang=\"{lang}\" \
         dir=\"{dir}\" style=\"{theme}\">",
        lang = locale.tag(),
        dir = locale.dir(),
        theme = escape(theme),
    )
}

/// `text` safe inside an element or a double-quoted attribute.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkout::contract::BillingField;

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
        let html =
            skeleton(&view(), Locale::De, "--cc-accent:#0a7", NOV_2026()).expect("plain payment");
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

    const NOV_2026: fn() -> YearMonth = || YearMonth::new(2026, 11).expect("month");

    fn card(id: &str, last4: &str, month: u8, year: u16) -> SavedCard {
        SavedCard {
            id: id.into(),
            brand: checkout::card::Brand::Visa,
            last4: last4.into(),
            expiry_month: month,
            expiry_year: year,
            billing_on_file: false,
        }
    }

    #[test]
    fn saved_cards_are_choices_with_the_first_usable_one_chosen_and_the_card_fields_hidden() {
        let mut saved = view();
        saved.saved_cards = vec![
            card("card_old", "1111", 10, 2026),
            card("card_1", "4242", 12, 2030),
        ];
        let html = skeleton(&saved, Locale::En, "", NOV_2026()).expect("payment");
        assert!(html.contains("<legend>Saved cards</legend>"), "{html}");
        assert!(
            html.contains("id=\"cc-saved-card_old\" disabled>"),
            "{html}"
        );
        assert!(html.contains("id=\"cc-saved-card_1\" checked>"), "{html}");
        assert!(html.contains("Visa •••• 4242 · "), "{html}");
        assert!(
            html.contains("<span class=\"cc-mark\" data-brand=\"visa\" aria-hidden=\"true\">"),
            "{html}"
        );
        assert!(html.contains("12/30"), "{html}");
        assert!(html.contains("id=\"cc-saved-new\">"), "{html}");
        assert!(
            html.contains("<div class=\"cc-card\"><div hidden>"),
            "{html}"
        );
        // Only expired cards: a new card is chosen and its fields show.
        saved.saved_cards.truncate(1);
        let html = skeleton(&saved, Locale::En, "", NOV_2026()).expect("payment");
        assert!(html.contains("id=\"cc-saved-new\" checked>"), "{html}");
        assert!(html.contains("<div class=\"cc-card\"><div>"), "{html}");
    }

    #[test]
    fn a_card_that_keeps_its_billing_address_says_so() {
        let mut saved = view();
        saved.saved_cards = vec![
            SavedCard {
                billing_on_file: true,
                ..card("card_1", "4242", 12, 2030)
            },
            card("card_2", "1881", 12, 2030),
        ];
        let html = skeleton(&saved, Locale::En, "", NOV_2026()).expect("payment");
        assert!(
            html.contains("id=\"cc-saved-card_1\" checked data-billing-on-file>"),
            "{html}"
        );
        assert!(html.contains("id=\"cc-saved-card_2\">"), "{html}");
        assert!(
            html.contains("<div class=\"cc-billing\"><div class=\"cc-field\""),
            "{html}"
        );
        assert!(html.contains("id=\"billing-country\""), "{html}");
    }

    #[test]
    fn hebrew_is_right_to_left_with_card_digits_left_to_right() {
        let html = skeleton(&view(), Locale::He, "", NOV_2026()).expect("payment");
        assert!(html.contains("lang=\"he\" dir=\"rtl\""), "{html}");
        assert!(
            html.contains("<label for=\"cc-number\">מספר כרטיס</label>"),
            "{html}"
        );
        assert!(
            html.contains("inputmode=\"numeric\" dir=\"ltr\" id=\"cc-number\""),
            "{html}"
        );
    }

    #[test]
    fn plans_wait_for_the_component() {
        let mut plan = view();
        plan.kind = CheckoutKind::Subscription {
            plan: checkout::contract::PlanTerms {
                id: "plan_1".into(),
                name: "Tea club".into(),
                description: String::new(),
                amount: 1850,
                currency: "EUR".into(),
                cycle_unit: checkout::contract::CycleUnit::Months,
                cycle_interval: 1,
                trial_days: None,
                discount: None,
                max_cycles: 0,
            },
        };
        assert!(skeleton(&plan, Locale::En, "", NOV_2026()).is_none());
    }
}
