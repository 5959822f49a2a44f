//! What the hosted page says a link costs, in the payer's language: the amount, and the pay
//! button's label. A link with an adjustable quantity shows its unit price as such (`€12.50
//! each`) and a total line (`#hp-total`) that the page's script shows and keeps to quantity ×
//! unit (or the chosen amount × quantity) as the payer changes them, with the pay button's
//! label; without the script the total stays hidden and the button names no amount, so the
//! page never shows a total the server would not charge (the server prices the session
//! itself: `payments::links::start`).

use checkout::i18n::{Locale, Msg, fill};

use super::super::frame::skeleton::escape;
use super::money::money;
use super::texts::in_language;
use crate::payments::links::LinkPage;
use crate::store::model::LinkAmount;

/// A unit price: `{0}` the amount.
const EACH: [&str; 13] = [
    "{0} each",
    "{0} pro Stück",
    "{0} l’unité",
    "{0} por unidad",
    "{0} cadauno",
    "{0} per stuk",
    "{0} por unidade",
    "{0} za sztukę",
    "{0} per styck",
    "単価 {0}",
    "单价 {0}",
    "{0} للوحدة",
    "{0} ליחידה",
];

/// Before the total.
const TOTAL: [&str; 13] = [
    "Total",
    "Gesamt",
    "Total",
    "Total",
    "Totale",
    "Totaal",
    "Total",
    "Razem",
    "Totalt",
    "合計",
    "合计",
    "الإجمالي",
    "סה״כ",
];

/// The page's price and its pay button.
#[derive(Debug, PartialEq, Eq)]
pub struct Price {
    /// The price line (`#hp-price`) and, with an adjustable quantity, the hidden total line.
    pub html: String,
    /// The pay button's label as the server knows it: with the amount only when nothing the
    /// payer chooses changes it.
    pub pay: String,
    /// The label with the total in its `{0}`, for the script to fill; `None` when there is no
    /// total to follow.
    pub pay_total: Option<&'static str>,
}

/// The price of `page` in `locale`.
pub fn price(page: &LinkPage, locale: Locale) -> Price {
    let label = locale.text(Msg::Pay);
    let plain = fill(label, &[""]).trim().to_owned();
    let (line, unit) = match (page.amount, page.quantity_max) {
        (LinkAmount::Fixed { amount }, None) => {
            let shown = money(locale, amount, &page.currency);
            return Price {
                html: price_line(&escape(&shown)),
                pay: fill(label, &[&shown]),
                pay_total: None,
            };
        }
        (LinkAmount::Fixed { amount }, Some(_)) => {
            let each = fill(
                in_language(EACH, locale),
                &[&money(locale, amount, &page.currency)],
            );
            (
                price_line(&escape(&each)),
                format!(" data-unit=\"{amount}\""),
            )
        }
        (LinkAmount::PayerChosen { .. }, None) => {
            return Price {
                html: price_line(""),
                pay: plain,
                pay_total: None,
            };
        }
        (LinkAmount::PayerChosen { .. }, Some(_)) => (price_line(""), String::new()),
    };
    let total = format!(
        "<p id=\"hp-total\" class=\"hp-amount\" hidden{unit} data-currency=\"{currency}\" \
         data-exponent=\"{exponent}\">{label} <output id=\"hp-total-amount\" \
         for=\"hp-quantity\"></output></p>",
        currency = escape(&page.currency),
        exponent = page.currency_exponent,
        label = escape(in_language(TOTAL, locale)),
    );
    Price {
        html: line + &total,
        pay: plain,
        pay_total: Some(label),
    }
}

/// `#hp-price` saying `text` (HTML).
fn price_line(text: &str) -> String {
    format!("<p id=\"hp-price\" class=\"hp-amount\">{text}</p>")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(amount: LinkAmount, quantity_max: Option<u32>) -> LinkPage {
        LinkPage::example(amount, quantity_max)
    }

    #[test]
    fn a_fixed_amount_of_one_names_its_amount_on_the_button() {
        let price = price(&link(LinkAmount::Fixed { amount: 1250 }, None), Locale::De);
        assert_eq!(
            price.html,
            "<p id=\"hp-price\" class=\"hp-amount\">12,50\u{a0}€</p>"
        );
        assert_eq!(
            price.pay,
            fill(Locale::De.text(Msg::Pay), &["12,50\u{a0}€"])
        );
        assert_eq!(price.pay_total, None);
        assert!(!price.html.contains("hp-total"));
    }

    #[test]
    fn an_adjustable_quantity_shows_a_unit_price_and_a_total_only_a_script_fills() {
        let price = price(
            &link(LinkAmount::Fixed { amount: 1250 }, Some(5)),
            Locale::En,
        );
        assert!(
            price.html.contains(">€12.50 each</p>"),
            "the unit price as such: {}",
            price.html
        );
        assert!(
            price.html.contains(
                "<p id=\"hp-total\" class=\"hp-amount\" hidden data-unit=\"1250\" \
                 data-currency=\"EUR\" data-exponent=\"2\">Total <output"
            ),
            "{}",
            price.html
        );
        assert!(
            price.html.contains("></output></p>"),
            "no total written: {}",
            price.html
        );
        assert_eq!(price.pay, "Pay", "no amount on the button");
        assert_eq!(price.pay_total, Some("Pay {0}"));
    }

    #[test]
    fn a_chosen_amount_names_none_and_follows_the_quantity_when_it_has_one() {
        let chosen = LinkAmount::PayerChosen { min: 100, max: 500 };
        let alone = price(&link(chosen, None), Locale::En);
        assert_eq!(alone.pay, "Pay");
        assert!(!alone.html.contains("hp-total"), "{}", alone.html);
        let times = price(&link(chosen, Some(3)), Locale::Ar);
        assert!(times.html.contains("hp-total") && !times.html.contains("data-unit"));
        assert!(times.html.contains("الإجمالي"), "{}", times.html);
        assert!(times.pay_total.is_some());
    }
}
